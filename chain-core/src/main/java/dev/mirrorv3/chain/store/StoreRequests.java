package dev.mirrorv3.chain.store;

import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/**
 * Every request one store made, by operation and outcome: what a backup costs (docs/operations.md, the store request
 * metric). S3 counts each HTTP request its SDK sent (a page of a listing, a retry: one each); the filesystem counts its
 * own operations under the same names. Thread-safe; a store's commits, listings and reads may run on several threads.
 */
public final class StoreRequests {
    /** What a request asked of the store. */
    public enum Operation {
        PUT, GET, HEAD, LIST, DELETE;

        /** The label value, e.g. {@code LIST}. */
        public String label() {
            return name();
        }
    }

    /**
     * How the store answered: {@code ok} (done), {@code refused} (the store said no: the name is taken, the object is
     * missing, access denied; S3's 4xx), {@code failed} (no answer, or the store failed: S3's 5xx, a timeout, an I/O
     * error).
     */
    public enum Outcome {
        OK, REFUSED, FAILED;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Counts nothing: for a store nobody asks (a test's fake, a wrapper that counts in its delegate). */
    public static final StoreRequests NOT_COUNTED = new StoreRequests(false);

    private final LongAdder[] counts = new LongAdder[Operation.values().length * Outcome.values().length];
    private final boolean counting;

    public StoreRequests() {
        this(true);
    }

    private StoreRequests(boolean counting) {
        this.counting = counting;
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new LongAdder();
        }
    }

    public void record(Operation operation, Outcome outcome) {
        if (counting) {
            counts[index(operation, outcome)].increment();
        }
    }

    public long count(Operation operation, Outcome outcome) {
        return counts[index(operation, outcome)].sum();
    }

    /** Requests of one operation, whatever their outcome. */
    public long count(Operation operation) {
        long n = 0;
        for (Outcome o : Outcome.values()) {
            n += count(operation, o);
        }
        return n;
    }

    private static int index(Operation operation, Outcome outcome) {
        return operation.ordinal() * Outcome.values().length + outcome.ordinal();
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder();
        for (Operation op : Operation.values()) {
            for (Outcome o : Outcome.values()) {
                long n = count(op, o);
                if (n > 0) {
                    s.append(s.length() == 0 ? "" : ", ").append(op.label()).append(' ').append(o.label()).append(' ').append(n);
                }
            }
        }
        return s.length() == 0 ? "none" : s.toString();
    }
}
