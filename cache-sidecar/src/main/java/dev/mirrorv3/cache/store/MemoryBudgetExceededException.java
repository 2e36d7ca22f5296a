package dev.mirrorv3.cache.store;

/** A store allocation that does not fit the sidecar's {@link MemoryBudget}; the store is left unchanged. */
public final class MemoryBudgetExceededException extends RuntimeException {

    private final long requested;

    MemoryBudgetExceededException(long requested, MemoryBudget budget) {
        super("an allocation of " + requested + " bytes does not fit memory.max-bytes " + budget.maxBytes() + " ("
                + budget.usedBytes() + " bytes in use)", null, false, false);
        this.requested = requested;
    }

    /** The bytes the store tried to allocate. */
    public long requested() {
        return requested;
    }
}
