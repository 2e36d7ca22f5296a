package dev.mirrorv3.chain.read;

import dev.mirrorv3.chain.ChainException;

/** An object's content does not match its name or its chain (wrong offsets, topic or partition, unreadable). */
public class ObjectCheckException extends ChainException {
    private static final long serialVersionUID = 1L;

    public ObjectCheckException(String message) {
        super(message);
    }
}
