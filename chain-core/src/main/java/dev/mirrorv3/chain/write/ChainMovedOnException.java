package dev.mirrorv3.chain.write;

/**
 * The chain moved on past this writer's tail, with objects another writer recorded in a manifest that continues the hash
 * chain (an old task instance that closed the partition after this one opened it): the same records, so the partition is
 * opened again from the chain's new end instead of waiting for an operator ({@link ManifestKeeper#movedOn}).
 */
public class ChainMovedOnException extends ChainChangedException {
    private static final long serialVersionUID = 1L;

    public ChainMovedOnException(String message) {
        super(message);
    }
}
