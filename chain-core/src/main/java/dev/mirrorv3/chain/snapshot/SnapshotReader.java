package dev.mirrorv3.chain.snapshot;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.SnapshotChain;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.EnvelopeDecodeException;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.ObjectAuthenticationException;
import dev.mirrorv3.chain.envelope.ParquetCodec;
import dev.mirrorv3.chain.envelope.RecordStream;
import dev.mirrorv3.chain.manifest.ChainHead;
import dev.mirrorv3.chain.manifest.ChainListing;
import dev.mirrorv3.chain.manifest.Manifest;
import dev.mirrorv3.chain.read.ObjectCheckException;
import dev.mirrorv3.chain.store.Store;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Lists a partition's snapshots and reads one back, streaming: the object is copied to a local temporary file and its
 * records are checked one by one as they are read ({@link CheckedSnapshot}), so a snapshot of any size is read within
 * bounded memory. Shared by the blob sink (the previous snapshot it merges with), the restore CLI and status.
 */
public final class SnapshotReader {
    private final Store store;
    private final KeyRing keys;
    private final ParquetCodec codec;

    public SnapshotReader(Store store, EnvelopeSettings settings, KeyRing keys) {
        this.store = store;
        this.keys = keys;
        this.codec = new ParquetCodec(settings, ObjectEncryption.readOnly(keys));
    }

    /**
     * Lists and validates the partition's snapshots and requires a key for every key id they name.
     *
     * @throws dev.mirrorv3.chain.crypto.MissingKeysException listing the key ids the key ring lacks
     */
    public SnapshotChain list(int partition) {
        SnapshotChain chain = listing(partition).snapshots();
        keys.requireKeysFor(chain.location(), chain.objects());
        return chain;
    }

    /**
     * The newest snapshots from the series' newest manifest on ({@link ChainListing#head}), requiring a key for every key id
     * the series uses.
     */
    public ChainHead head(int partition) {
        ChainHead head = listing(partition).head(EnvelopeFormat.PARQUET);
        keys.requireKeysFor(head.location(), head.keyedObjects());
        return head;
    }

    /**
     * As {@link #head}, for the writer about to continue: the temporary files an earlier writer left are removed in the
     * same listing ({@link ChainListing#writersHead}).
     */
    public ChainHead writersHead(int partition) {
        ChainHead head = listing(partition).writersHead(EnvelopeFormat.PARQUET);
        keys.requireKeysFor(head.location(), head.keyedObjects());
        return head;
    }

    /** The seam that lists the partition's snapshots and manifests. */
    public ChainListing listing(int partition) {
        return new ChainListing(store, partition, Manifest.Kind.SNAPSHOTS);
    }

    /**
     * Opens one snapshot for reading; the caller closes it, which removes the local copy.
     *
     * @param tempDir where the local copy goes (the sink's spill directory, or the JVM's temporary directory)
     * @param topic the source topic every record must be of
     */
    public CheckedSnapshot open(int partition, ObjectName name, String topic, Path tempDir) {
        String where = store.location(partition) + "/" + name;
        Path local = tempFile(tempDir, where);
        try {
            store.readTo(partition, name.fileName(), local);
            long size = Files.size(local);
            RecordStream records;
            try {
                records = codec.openReader(local, name.keyId(), where);
            } catch (EnvelopeDecodeException e) {
                throw unreadable(where, name, e);
            }
            return new CheckedSnapshot(new SnapshotRecordRules(where, name, topic, partition), size, records, local);
        } catch (IOException e) {
            deleteQuietly(local);
            throw new UncheckedIOException("cannot read the local copy " + local + " of " + where, e);
        } catch (RuntimeException e) {
            deleteQuietly(local);
            throw e;
        }
    }

    /**
     * The number of keys of one snapshot, from its footer, fetched by ranges (its records are neither fetched nor
     * checked): what {@code status} shows.
     */
    public long keys(int partition, ObjectName name) {
        String where = store.location(partition) + "/" + name;
        try {
            return codec.rowCount(new StoreInputFile(store, partition, name.fileName()), name.keyId(), where);
        } catch (EnvelopeDecodeException e) {
            throw unreadable(where, name, e);
        }
    }

    /**
     * The stamps of every record one snapshot took ({@link TakenStamps}), from its footer, fetched by ranges: what a
     * {@code --until-timestamp} restore compares; empty for a snapshot written before they were recorded.
     */
    public Optional<TakenStamps> takenStamps(int partition, ObjectName name) {
        String where = store.location(partition) + "/" + name;
        return TakenStamps.fromFooter(footer(partition, name, where), where);
    }

    private Map<String, String> footer(int partition, ObjectName name, String where) {
        try {
            return codec.footerMetadata(new StoreInputFile(store, partition, name.fileName()), name.keyId(), where);
        } catch (EnvelopeDecodeException e) {
            throw unreadable(where, name, e);
        }
    }

    /**
     * Writes a plain copy of one snapshot into {@code target} (which must not exist yet), streaming: an encrypted snapshot is
     * read record by record, each checked ({@link CheckedSnapshot}), and written again without encryption in the same order,
     * with the snapshot footer; a plain one is copied as it is. Returns the records of a decrypted one, 0 for a copy.
     */
    public long plainCopy(int partition, ObjectName name, String topic, Path target, Path tempDir, ParquetCodec plain) {
        if (!name.encrypted()) {
            store.readTo(partition, name.fileName(), target);
            return 0;
        }
        long n = 0;
        Map<String, String> footer = new TreeMap<>(footer(partition, name, store.location(partition) + "/" + name));
        footer.keySet().removeIf(k -> !k.startsWith("mirror-v3.")); // ours (the taken stamps too); the codec writes the rest
        try (CheckedSnapshot s = open(partition, name, topic, tempDir);
             org.apache.parquet.hadoop.ParquetWriter<dev.mirrorv3.chain.envelope.BackupRecord> out =
                     plain.openWriter(target, SnapshotWriter.ROW_GROUP_BYTES, footer)) {
            for (dev.mirrorv3.chain.envelope.BackupRecord r = s.next(); r != null; r = s.next()) {
                out.write(r);
                n++;
            }
        } catch (IOException e) {
            deleteQuietly(target);
            throw new UncheckedIOException("cannot write " + target, e);
        } catch (RuntimeException e) {
            deleteQuietly(target);
            throw e;
        }
        return n;
    }

    private static Path tempFile(Path tempDir, String where) {
        try {
            Files.createDirectories(tempDir);
            return Files.createTempFile(tempDir, "snapshot-", ".parquet");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary file in " + tempDir + " to read " + where, e);
        }
    }

    static ObjectCheckException unreadable(String where, ObjectName name, EnvelopeDecodeException e) {
        if (e instanceof ObjectAuthenticationException) {
            return new ObjectCheckException(where + ": authentication failed: wrong key or modified object (key id " + name.keyId()
                    + "); if the key file " + name.keyId() + " holds the key that wrote it, the object was modified: restore it"
                    + " from a copy");
        }
        return new ObjectCheckException(where + " cannot be read (" + e.getMessage()
                + "): truncated or not written by this product; move it out of the directory or restore it from a copy");
    }

    static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // a temporary file: the spill directory is cleaned when the task starts again
        }
    }
}
