package dev.mirrorv3.chain.meta;

/** A metadata snapshot that cannot be read: not our JSON, a newer format version, a wrong key, a changed object. */
public class MetaFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public MetaFormatException(String message) {
        super(message);
    }

    public MetaFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
