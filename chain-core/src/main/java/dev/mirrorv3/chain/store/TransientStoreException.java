package dev.mirrorv3.chain.store;

/** The store is unreachable or failed for now (disk, network, timeout, 5xx, throttling): retry with backoff. */
public class TransientStoreException extends StoreException {
    private static final long serialVersionUID = 1L;

    public TransientStoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
