package dev.mirrorv3.chain.envelope;

/** An encrypted object failed AES-GCM authentication: it was encrypted with another key, or its bytes were modified. */
public class ObjectAuthenticationException extends EnvelopeDecodeException {
    private static final long serialVersionUID = 1L;

    public ObjectAuthenticationException(String message, Throwable cause) {
        super(message, cause);
    }
}
