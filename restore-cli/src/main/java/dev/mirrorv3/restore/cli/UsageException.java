package dev.mirrorv3.restore.cli;

/** The invocation or the connector config it names cannot work (missing setting, unreadable file): exit code 2. */
public final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }

    public UsageException(String message, Throwable cause) {
        super(message, cause);
    }
}
