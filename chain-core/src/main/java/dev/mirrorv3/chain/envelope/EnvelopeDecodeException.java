package dev.mirrorv3.chain.envelope;

/** An object's bytes cannot be decoded (truncated, not this format, wrong schema). */
public class EnvelopeDecodeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public EnvelopeDecodeException(String message, Throwable cause) {
        super(message, cause);
    }

    public EnvelopeDecodeException(String message) {
        super(message);
    }
}
