package dev.mirrorv3.chain.store;

import java.time.Instant;
import java.util.Optional;

/**
 * A delete found the object under an S3 Object Lock retention that has not ended: the object stays, unchanged, and a
 * later delete after {@link #retainUntil()} removes it. Not a failure of the store: a caller that removes many objects
 * ({@code mirror-v3 prune}) skips this one, reports it and goes on.
 */
public class ObjectLockedException extends StoreException {
    private static final long serialVersionUID = 1L;

    private final String location;
    private final String mode;
    private final Instant retainUntil; // null: the store did not say

    /**
     * @param mode the retention's mode as the store names it (GOVERNANCE, COMPLIANCE)
     * @param retainUntil when the retention ends; empty when the store refused the delete for a lock without saying
     */
    public ObjectLockedException(String location, String mode, Optional<Instant> retainUntil) {
        super(location + " is under an Object Lock retention (" + mode + ")"
                + retainUntil.map(t -> " until " + t).orElse("") + ": it cannot be deleted before the retention ends;"
                + " it stays, and a later run deletes it");
        this.location = location;
        this.mode = mode;
        this.retainUntil = retainUntil.orElse(null);
    }

    /** The object, for reports (never holds a secret). */
    public String location() {
        return location;
    }

    public String mode() {
        return mode;
    }

    public Optional<Instant> retainUntil() {
        return Optional.ofNullable(retainUntil);
    }
}
