package dev.mirrorv3.chain.store.s3;

import dev.mirrorv3.chain.store.StoreException;

/**
 * S3 refused an operation for a reason that retrying will not fix: credentials not accepted, access denied, no
 * such bucket. The message names the identity, the operation and the bucket, never a secret.
 */
public final class S3AccessException extends StoreException {
    private static final long serialVersionUID = 1L;

    /** What is wrong, so that a config check can attach the error to the right setting. */
    public enum Problem { CREDENTIALS, DENIED, NO_BUCKET, OTHER }

    private final Problem problem;
    private final String role;

    S3AccessException(Problem problem, String role, String message, Throwable cause) {
        super(message, cause);
        this.problem = problem;
        this.role = role;
    }

    public Problem problem() {
        return problem;
    }

    /** {@code write}, {@code read} or {@code prune}: the identity the refused request was signed with. */
    public String role() {
        return role;
    }
}
