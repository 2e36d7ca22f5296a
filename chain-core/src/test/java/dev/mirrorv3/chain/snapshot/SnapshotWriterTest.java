package dev.mirrorv3.chain.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.SnapshotChain;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.ParquetCodec;
import dev.mirrorv3.chain.envelope.RecordHeader;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.envelope.ValueTypeException;
import dev.mirrorv3.chain.manifest.ChainHead;
import dev.mirrorv3.chain.read.ObjectCheckException;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.write.ChainChangedException;
import dev.mirrorv3.chain.write.FlushPolicy;
import dev.mirrorv3.chain.write.FlushTrigger;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotWriterTest {
    private static final String TOPIC = "states";
    private static final EnvelopeSettings SETTINGS = EnvelopeSettings.parquetBytes();

    @TempDir
    Path root;

    private FilesystemStore store;
    private SnapshotReader reader;

    private SnapshotWriter writer(long memoryCap) {
        store = new FilesystemStore(root.resolve("store"), "backup");
        reader = new SnapshotReader(store, SETTINGS, KeyRing.empty());
        ChainHead chain = reader.head(0);
        long start = chain.nextOffset().orElse(0);
        return new SnapshotWriter(store, TOPIC, 0, new SnapshotWriter.Settings(SETTINGS,
                new ParquetCodec(SETTINGS, ObjectEncryption.none()), reader,
                new FlushPolicy(Long.MAX_VALUE, Long.MAX_VALUE, 3_600_000), Clock.systemUTC(), memoryCap), chain, start,
                root.resolve("spill"));
    }

    private static BackupRecord record(long offset, String key, String value) {
        return new BackupRecord(TOPIC, 0, offset, 1_000L + offset, TimestampType.CREATE_TIME,
                key == null ? null : key.getBytes(StandardCharsets.UTF_8), value == null ? null : value.getBytes(StandardCharsets.UTF_8),
                List.of(new RecordHeader("h", Long.toString(offset).getBytes(StandardCharsets.UTF_8))));
    }

    /** The newest snapshot read back: key -> record. */
    private Map<String, BackupRecord> newestSnapshot() {
        ChainHead chain = reader.head(0);
        Map<String, BackupRecord> out = new TreeMap<>();
        try (CheckedSnapshot s = reader.open(0, chain.last().orElseThrow(), TOPIC, root.resolve("read"))) {
            for (BackupRecord r = s.next(); r != null; r = s.next()) {
                out.put(new String(r.key(), StandardCharsets.UTF_8), r);
            }
        }
        return out;
    }

    @Test
    void snapshotsEqualTheTopicCompactedByHandAcrossRestartsWithATinyMemoryCapThatSpills() {
        Random random = new Random(42);
        Map<String, BackupRecord> compacted = new TreeMap<>();
        long offset = 0;
        for (int round = 0; round < 3; round++) {
            SnapshotWriter w = writer(20_000); // ~100 records before the builder spills
            assertThat(w.durableNext()).isEqualTo(offset);
            for (int i = 0; i < 3_000; i++) {
                String key = "k" + random.nextInt(2_000);
                boolean tombstone = random.nextInt(5) == 0;
                BackupRecord r = record(offset, key, tombstone ? null : "v" + offset);
                offset += 1 + random.nextInt(2); // holes, as a compacted topic has
                assertThat(w.append(r)).isTrue();
                if (tombstone) {
                    compacted.remove(key);
                } else {
                    compacted.put(key, r);
                }
                assertThat(w.bufferedBytes()).as("the builder's heap stays under its cap").isLessThanOrEqualTo(20_000);
            }
            var result = w.flush(FlushTrigger.TIME).orElseThrow();
            assertThat(w.durableNext()).isEqualTo(result.name().to() + 1);
            assertThat(newestSnapshot()).isEqualTo(compacted);
            assertThat(w.lastSnapshot().orElseThrow().keys()).isEqualTo(compacted.size());
            offset = w.durableNext();
        }
        List<ObjectName> snapshots = reader.list(0).objects();
        assertThat(snapshots).hasSize(3);
        assertThat(snapshots.get(1).from()).isEqualTo(snapshots.get(0).to() + 1);
    }

    /**
     * A task frozen while it merges its next snapshot (SIGSTOP of its worker, ./torture zombie): its partition moves and
     * the new task writes the next snapshot. Woken, the frozen task must not add its own beside it.
     */
    @Test
    void aTaskFrozenWhileItMergesAddsNothingBesideTheSnapshotTheMovedTaskWrote() {
        SnapshotWriter first = writer(1_000_000);
        first.append(record(0, "a", "1"));
        ObjectName own = first.flush(FlushTrigger.TIME).orElseThrow().name();
        FilesystemStore fs = store;
        String moved = ObjectName.plain(1, 5, EnvelopeFormat.PARQUET).fileName();
        AtomicBoolean frozen = new AtomicBoolean(true);
        // The merge reads the previous snapshot: meanwhile the moved task wrote the next one.
        Store frozenWhileMerging = (Store) Proxy.newProxyInstance(Store.class.getClassLoader(), new Class<?>[] {Store.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("readTo") && frozen.getAndSet(false)) {
                        fs.create(0, moved, new byte[] {1});
                    }
                    try {
                        return method.invoke(fs, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        ChainHead chain = reader.head(0);
        SnapshotWriter zombie = new SnapshotWriter(fs, TOPIC, 0, new SnapshotWriter.Settings(SETTINGS,
                new ParquetCodec(SETTINGS, ObjectEncryption.none()),
                new SnapshotReader(frozenWhileMerging, SETTINGS, KeyRing.empty()),
                new FlushPolicy(Long.MAX_VALUE, Long.MAX_VALUE, 3_600_000), Clock.systemUTC(), 1_000_000), chain,
                chain.nextOffset().orElse(0), root.resolve("spill-zombie"));
        zombie.append(record(1, "a", "2"));
        assertThatThrownBy(() -> zombie.flush(FlushTrigger.TIME)).isInstanceOf(ChainChangedException.class).hasMessageContaining(moved);
        assertThat(fs.list(0)).as("only the snapshots of the first task and of the moved one").containsExactly(own.fileName(), moved);
    }

    @Test
    void aNullKeyIsRefusedNamingTopicPartitionAndOffset() {
        SnapshotWriter w = writer(1_000_000);
        assertThatThrownBy(() -> w.append(record(7, null, "v")))
                .isInstanceOf(ValueTypeException.class)
                .hasMessageContaining("states/0 at offset 7").hasMessageContaining("null key");
    }

    @Test
    void aSnapshotWhoseKeysAreNotSortedOrHoldATombstoneFailsTheCheck() throws Exception {
        store = new FilesystemStore(root.resolve("store"), "backup");
        reader = new SnapshotReader(store, SETTINGS, KeyRing.empty());
        ParquetCodec codec = new ParquetCodec(SETTINGS);
        store.create(0, ObjectName.plain(0, 9, EnvelopeFormat.PARQUET).fileName(),
                codec.encode(List.of(record(1, "b", "x"), record(2, "a", "y"))));
        store.create(0, ObjectName.plain(10, 19, EnvelopeFormat.PARQUET).fileName(),
                codec.encode(List.of(record(11, "a", "x"), record(12, "b", null))));
        store.create(0, ObjectName.plain(30, 39, EnvelopeFormat.PARQUET).fileName(),
                codec.encode(List.of(record(31, "a", "x"), record(40, "b", "y"))));
        SnapshotChain chain = reader.list(0);
        assertThat(chain.objects()).as("a gap (20-29) between snapshots is allowed").hasSize(3);
        try (CheckedSnapshot s = reader.open(0, chain.objects().get(0), TOPIC, root)) {
            assertThatThrownBy(s::checkAll).isInstanceOf(ObjectCheckException.class).hasMessageContaining("not sorted");
        }
        try (CheckedSnapshot s = reader.open(0, chain.objects().get(1), TOPIC, root)) {
            assertThatThrownBy(s::checkAll).isInstanceOf(ObjectCheckException.class).hasMessageContaining("tombstone");
        }
        try (CheckedSnapshot s = reader.open(0, chain.objects().get(2), TOPIC, root)) {
            assertThatThrownBy(s::checkAll).isInstanceOf(ObjectCheckException.class).hasMessageContaining("after the snapshot's end 39");
        }
        try (var files = Files.list(root)) {
            assertThat(files.filter(p -> p.getFileName().toString().startsWith("snapshot-"))).as("local copies removed").isEmpty();
        }
    }

    @Test
    void overlapsAreRefusedAndTheNewestSnapshotCanBeBoundedByAnOffset() {
        assertThatThrownBy(() -> SnapshotChain.validate("loc", List.of(ObjectName.plain(0, 10, EnvelopeFormat.PARQUET).fileName(),
                ObjectName.plain(5, 20, EnvelopeFormat.PARQUET).fileName()))).isInstanceOf(ChainException.Overlap.class);
        SnapshotChain chain = SnapshotChain.validate("loc",
                new ArrayList<>(List.of(ObjectName.plain(100, 200, EnvelopeFormat.PARQUET).fileName(),
                ObjectName.plain(0, 10, EnvelopeFormat.PARQUET).fileName())));
        assertThat(chain.newest().orElseThrow().to()).isEqualTo(200);
        assertThat(chain.newest(OptionalLong.of(199)).orElseThrow().to()).isEqualTo(10);
        assertThat(chain.newest(OptionalLong.of(5))).isEmpty();
        assertThat(chain.nextOffset()).hasValue(201);
    }
}
