package dev.mirrorv3.chain.store;

/** A store operation failed in a way that retrying will not fix (see {@link TransientStoreException}). */
public class StoreException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public StoreException(String message) {
        super(message);
    }

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
