package dev.mirrorv3.kafka.restore;

/** A restore check failed (target not empty, a record too large, an offset mismatch, ...): exit code 1, no stack trace. */
public class RestoreCheckException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RestoreCheckException(String message) {
        super(message);
    }

    public RestoreCheckException(String message, Throwable cause) {
        super(message, cause);
    }
}
