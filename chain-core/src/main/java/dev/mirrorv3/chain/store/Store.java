package dev.mirrorv3.chain.store;

import dev.mirrorv3.chain.bytes.ObjectBytes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Where one backup's chains live: one directory (or prefix) per partition under
 * {@code <root>/<name>/}. Names listed are bare object names, sorted lexicographically (= by offset for our
 * names), our temporary files left out. Implementations throw {@link TransientStoreException} for failures
 * that retrying may fix and other {@link StoreException}s for the rest.
 */
public interface Store extends AutoCloseable {

    /** Every request this store made, by operation and outcome (the store request metric). */
    default StoreRequests requests() {
        return StoreRequests.NOT_COUNTED;
    }

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
     * Commits an object atomically, never replacing an existing one.
     *
     * @throws ObjectExistsException if the name is taken (by anyone else; a store whose own retries may meet this
     *     call's earlier attempt, as S3's SDK does, takes a name holding exactly {@code data} as this commit)
     */
    void create(int partition, String name, byte[] data);

    /**
     * Re-issues a commit that failed but may have landed (a lost reply, a failure after the link): as
     * {@link #create}, except that a name already holding exactly {@code data} is that commit, made durable
     * now. The default suits stores whose {@code create} already does so.
     *
     * @throws ObjectExistsException if the name holds other content (another writer's object)
     */
    default void recommit(int partition, String name, byte[] data) {
        create(partition, name, data);
    }

    /**
     * As {@link #create}, with the object's bytes in chunks ({@link ObjectBytes}) that the caller keeps unreleased until the
     * commit is known durable. The default joins them into one array; stores that can write chunk by chunk override it.
     */
    default void create(int partition, String name, ObjectBytes data) {
        create(partition, name, data.toByteArray());
    }

    /** As {@link #recommit}, with the object's bytes in chunks ({@link #create(int, String, ObjectBytes)}). */
    default void recommit(int partition, String name, ObjectBytes data) {
        recommit(partition, name, data.toByteArray());
    }

    /**
     * Where a directory beside the partition directories lives (for messages), e.g. {@code _meta/topic}: the backup's
     * metadata. Its names can never be a partition's, so chain listing never sees them.
     */
    default String besideLocation(String dir) {
        throw new UnsupportedOperationException("this store keeps no metadata beside its chains");
    }

    /** Every name in a directory beside the partition directories except our temporary files, sorted; empty if none. */
    default List<String> listBeside(String dir) {
        throw new UnsupportedOperationException("this store keeps no metadata beside its chains");
    }

    /**
     * At most {@code max} names of a directory beside the partition directories that sort at or after {@code startAt}, in
     * order (a chain's newest manifest is still the newest: O(1) in their number). The default filters {@link #listBeside}.
     */
    default List<String> listBesideFrom(String dir, String startAt, int max) {
        return listBeside(dir).stream().filter(n -> n.compareTo(startAt) >= 0).limit(max).toList();
    }

    /** @throws ObjectMissingException if there is no such object */
    default byte[] readBeside(String dir, String name) {
        throw new UnsupportedOperationException("this store keeps no metadata beside its chains");
    }

    /**
     * Commits an object beside the partition directories with the chain objects' no-overwrite commit.
     *
     * @throws ObjectExistsException if the name is taken
     */
    default void createBeside(String dir, String name, byte[] data) {
        throw new UnsupportedOperationException("this store keeps no metadata beside its chains");
    }

    /**
     * Re-issues a commit beside the partition directories that failed but may have landed: as {@link #recommit}, a name
     * holding exactly {@code data} is that commit. The default suits stores whose {@code createBeside} already does so.
     *
     * @throws ObjectExistsException if the name holds other content
     */
    default void recommitBeside(String dir, String name, byte[] data) {
        createBeside(dir, name, data);
    }

    /**
     * Removes an object of the partition's chain ({@code mirror-v3 prune}; nothing else deletes). An object already gone
     * is no error: a second run after an interrupted one deletes what is left.
     *
     * @throws ObjectLockedException if the object is under an Object Lock retention that has not ended: it stays
     */
    default void delete(int partition, String name) {
        throw new UnsupportedOperationException("this store does not delete");
    }

    /** As {@link #delete}, for an object in a directory beside the partition directories ({@link #requireBesideDir}). */
    default void deleteBeside(String dir, String name) {
        throw new UnsupportedOperationException("this store does not delete");
    }

    /**
     * The Object Lock retention of an object of the partition's chain, if one is in force (it could not be deleted now):
     * what prune asks before it records a chain's new start, so that the start is where what stays begins. Stores
     * without Object Lock have none.
     */
    default Optional<ObjectLockedException> retention(int partition, String name) {
        return Optional.empty();
    }

    /**
     * Removes the temporary files an earlier writer left in a directory beside the partition directories (a writer
     * killed before its commit); returns how many. Stores whose commit leaves nothing behind (an S3 PUT is atomic) keep
     * this default.
     */
    default int removeTemporaryFilesBeside(String dir) {
        return 0;
    }

    /**
     * Checks a directory beside the partitions: {@code _meta} or below it, lower-case segments only, or a partition's
     * manifests {@code _manifest/<partition>} or its start records {@code _start/<partition>}, so it can never be a
     * partition directory nor leave the backup's directory.
     */
    static String requireBesideDir(String dir) {
        if (dir == null || !(dir.matches("_meta(/[a-z][a-z0-9_-]*)*") || dir.matches("_(manifest|start)/\\d{1,9}"))) {
            throw new IllegalArgumentException("not a directory beside the chains: '" + dir + "' (use _meta/<kind>,"
                    + " _manifest/<partition> or _start/<partition>)");
        }
        return dir;
    }

    /**
     * Copies an object into a local file (replacing it), for objects too large to hold on the heap (snapshots). The
     * default goes through {@link #read}; stores that can stream override it.
     *
     * @throws ObjectMissingException if there is no such object
     */
    default void readTo(int partition, String name, Path target) {
        try {
            Files.write(target, read(partition, name));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target, e);
        }
    }

    /**
     * The object's size in bytes. The default reads it whole; stores that can ask for it override it.
     *
     * @throws ObjectMissingException if there is no such object
     */
    default long size(int partition, String name) {
        return read(partition, name).length;
    }

    /**
     * Up to {@code length} bytes of the object from {@code offset} (fewer at its end): a Parquet footer without the rest
     * of a large object. The default reads it whole; stores that can read a range override it.
     *
     * @throws ObjectMissingException if there is no such object
     */
    default byte[] readRange(int partition, String name, long offset, int length) {
        byte[] all = read(partition, name);
        int from = (int) Math.min(offset, all.length);
        return java.util.Arrays.copyOfRange(all, from, (int) Math.min(all.length, (long) from + length));
    }

    /**
     * As {@link #create}, or {@link #recommit} when {@code reissue}, with the object's bytes in a local file that the
     * caller keeps unchanged until the commit is known durable. The default goes through the byte-array methods.
     */
    default void createFrom(int partition, String name, Path file, boolean reissue) {
        byte[] data;
        try {
            data = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
        if (reissue) {
            recommit(partition, name, data);
        } else {
            create(partition, name, data);
        }
    }

    /** Removes temporary files left by an earlier writer of this partition; returns how many. */
    int removeTemporaryFiles(int partition);

    /**
     * A writer's open of the partition: {@link #removeTemporaryFiles}, then {@link #listFrom}. The default makes both
     * requests; a store where each reads the whole directory (a filesystem) does both in one read.
     */
    default OpeningListing removeTemporaryFilesAndListFrom(int partition, String startAt, int max) {
        int removed = removeTemporaryFiles(partition);
        return new OpeningListing(listFrom(partition, startAt, max), removed);
    }

    /** Partitions that have a chain directory, ascending. */
    List<Integer> partitions();

    @Override
    void close();
}
