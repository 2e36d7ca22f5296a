package dev.mirrorv3.chain.envelope;

/** A record's key or value does not fit the declared {@code keys.type}/{@code values.type}. */
public class ValueTypeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ValueTypeException(String message) {
        super(message);
    }
}
