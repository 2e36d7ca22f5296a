package dev.mirrorv3.chain.write;

import dev.mirrorv3.chain.ChainException;

/** The chain's tail is not the one this writer left: another writer, a zombie task, or a manual change. */
public class ChainChangedException extends ChainException {
    private static final long serialVersionUID = 1L;

    public ChainChangedException(String message) {
        super(message);
    }
}
