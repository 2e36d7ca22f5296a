package dev.mirrorv3.chain.store;

import java.util.List;

/**
 * Where one backup's chains live: one directory (or prefix) per partition under
 * {@code <root>/<name>/}. Names listed are bare object names, sorted lexicographically (= by offset for our
 * names), our temporary files left out. Implementations throw {@link TransientStoreException} for failures
 * that retrying may fix and other {@link StoreException}s for the rest.
 */
public interface Store extends AutoCloseable {

    /** Human-readable location of a partition's chain, for logs and messages (never holds a secret). */
    String location(int partition);

    /** Every name in the partition's chain directory except our temporary files; empty if there is none. */
    List<String> list(int partition);

    /**
     * At most {@code max} names that sort at or after {@code startAt}, in order: the O(1)-in-chain-length tail check.
     */
    List<String> listFrom(int partition, String startAt, int max);

    boolean exists(int partition, String name);

    /** @throws ObjectMissingException if there is no such object */
    byte[] read(int partition, String name);

    /**
     * Commits an object atomically, never replacing an existing one. A name that already holds exactly
     * {@code data} is taken as an earlier attempt of this same commit whose outcome was lost: the call makes
     * it durable and succeeds, so a writer may re-issue a commit that failed after it landed.
     *
     * @throws ObjectExistsException if the name holds other content (another writer's object)
     */
    void create(int partition, String name, byte[] data);

    /** Removes temporary files left by an earlier writer of this partition; returns how many. */
    int removeTemporaryFiles(int partition);

    /** Partitions that have a chain directory, ascending. */
    List<Integer> partitions();

    @Override
    void close();
}
