package dev.mirrorv3.chain.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.ParquetCodec;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.manifest.ChainHead;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.testkit.DelegatingStore;
import dev.mirrorv3.chain.write.FlushPolicy;
import dev.mirrorv3.chain.write.FlushTrigger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What {@code status} and a point-in-time restore read of a snapshot: its keys and newest record stamp from the footer,
 * without fetching the object's records.
 */
class SnapshotReaderTest {
    private static final EnvelopeSettings SETTINGS = EnvelopeSettings.parquetBytes();

    @TempDir
    Path root;

    @ParameterizedTest
    @ValueSource(strings = {"", "k1"})
    void keysAndNewestStampComeFromTheFooterAloneOfAPlainOrEncryptedSnapshot(String keyId) throws Exception {
        Path keys = Files.createDirectory(root.resolve("keys"));
        byte[] key = new byte[32];
        new Random(1).nextBytes(key);
        Files.writeString(keys.resolve("k1"), Base64.getEncoder().encodeToString(key));
        KeyRing ring = KeyRing.load(keys);
        CountingStore store = new CountingStore(new FilesystemStore(root.resolve("store"), "backup"));
        SnapshotWriter w = new SnapshotWriter(store, "states", 0, new SnapshotWriter.Settings(SETTINGS,
                new ParquetCodec(SETTINGS, new ObjectEncryption(ring, keyId.isEmpty() ? null : keyId)),
                new SnapshotReader(store, SETTINGS, ring), new FlushPolicy(Long.MAX_VALUE, Long.MAX_VALUE, 3_600_000),
                Clock.systemUTC(), 1 << 20), ChainHead.empty(store.location(0)), 0, root.resolve("spill"));
        Random random = new Random(2);
        int keysWritten = 20_000;
        for (int i = 0; i < keysWritten; i++) {
            byte[] value = new byte[200];
            random.nextBytes(value); // incompressible: the object is as large as its records
            w.append(new BackupRecord("states", 0, i, 1_000L + i, TimestampType.CREATE_TIME, ("key-" + i).getBytes(StandardCharsets.UTF_8),
                    value, List.of()));
        }
        ObjectName name = w.flush(FlushTrigger.TIME).orElseThrow().name();
        long size = store.size(0, name.fileName());
        store.bytesRead.set(0);

        assertThat(new SnapshotReader(store, SETTINGS, ring).keys(0, name)).isEqualTo(keysWritten);
        assertThat(store.bytesRead.get()).as("bytes fetched from the store to count the keys of a %d-byte snapshot", size)
                .isLessThan(size / 20);

        store.bytesRead.set(0);
        assertThat(new SnapshotReader(store, SETTINGS, ring).takenStamps(0, name))
                .as("newest stamp taken, what --until-timestamp compares").contains(new TakenStamps(1_000L + keysWritten - 1));
        assertThat(store.bytesRead.get()).as("bytes fetched from the store for the newest stamp of a %d-byte snapshot", size)
                .isLessThan(size / 20);
    }

    /** A store that counts the object bytes it hands out, whichever way they are read. */
    private static final class CountingStore extends DelegatingStore {
        final AtomicLong bytesRead = new AtomicLong();

        CountingStore(Store delegate) {
            super(delegate);
        }

        @Override
        public byte[] read(int partition, String name) {
            byte[] data = super.read(partition, name);
            bytesRead.addAndGet(data.length);
            return data;
        }

        @Override
        public void readTo(int partition, String name, Path target) {
            super.readTo(partition, name, target);
            try {
                bytesRead.addAndGet(Files.size(target));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        @Override
        public byte[] readRange(int partition, String name, long offset, int length) {
            byte[] data = super.readRange(partition, name, offset, length);
            bytesRead.addAndGet(data.length);
            return data;
        }
    }
}
