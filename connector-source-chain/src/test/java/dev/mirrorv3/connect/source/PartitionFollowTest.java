package dev.mirrorv3.connect.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.Compression;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.envelope.ValueType;
import dev.mirrorv3.chain.restore.Follower;
import dev.mirrorv3.chain.restore.OffsetMode;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.store.TransientStoreException;
import dev.mirrorv3.kafka.PartitionRetry;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A partition that stops being followed (isolated, or waiting out a transient failure) holds no object read ahead. */
class PartitionFollowTest {
    private static final EnvelopeSettings NDJSON = new EnvelopeSettings(EnvelopeFormat.NDJSON, Compression.UNCOMPRESSED,
            ValueType.BYTES, ValueType.BYTES);

    @TempDir
    Path root;

    private final Semaphore permits = new Semaphore(1); // the task's: one object read ahead for all its partitions

    private PartitionFollow followingThreeObjects(ChainSourceMetrics metrics) {
        FilesystemStore store = new FilesystemStore(root, "b");
        for (long from = 0; from < 30; from += 10) {
            List<BackupRecord> records = new ArrayList<>();
            for (long o = from; o < from + 10; o++) {
                records.add(new BackupRecord("t", 0, o, 1000 + o, TimestampType.CREATE_TIME, null,
                        ("v" + o).getBytes(StandardCharsets.UTF_8), List.of()));
            }
            store.create(0, ObjectName.plain(from, from + 9, NDJSON.format()).fileName(),
                    EnvelopeCodecs.forSettings(NDJSON).encode(records));
        }
        Follower follower = new Follower(store, NDJSON, "t", 0, OffsetMode.PRESERVE, 0).readingAhead(permits);
        PartitionFollow f = new PartitionFollow(0, new TopicPartition("target", 0), follower, new PartitionRetry(1000, 60_000, () -> { }),
                "b", metrics.partition("t", 0), 0);
        follower.resume(0);
        assertThat(follower.next()).as("the first object's records").hasSize(10);
        assertThat(permits.availablePermits()).as("premise: the second object is being read ahead with the task's permit").isZero();
        return f;
    }

    private static ChainSourceMetrics metrics() {
        PluginMetricsImpl plugin = new PluginMetricsImpl(new Metrics(), Map.of("connector", "standby", "task", "0"));
        return new ChainSourceMetrics((SourceTaskContext) Proxy.newProxyInstance(PartitionFollowTest.class.getClassLoader(),
                new Class<?>[] {SourceTaskContext.class}, (proxy, method, args) -> plugin), "standby", 1000);
    }

    @Test
    void anIsolatedPartitionGivesTheTaskItsReadAheadBack() {
        try (ChainSourceMetrics metrics = metrics()) {
            PartitionFollow f = followingThreeObjects(metrics);
            f.isolated(Long.MAX_VALUE); // only a restart retries it
            assertThat(permits.availablePermits()).as("the other partitions of the task may read ahead again").isEqualTo(1);
        }
    }

    @Test
    void aPartitionWaitingOutATransientFailureGivesTheTaskItsReadAheadBack() {
        try (ChainSourceMetrics metrics = metrics()) {
            PartitionFollow f = followingThreeObjects(metrics);
            assertThat(f.failed(new TransientStoreException("the store is unreachable", null), 0, "standby")).as("transient").isTrue();
            assertThat(f.positioned()).isFalse();
            assertThat(permits.availablePermits()).as("the other partitions of the task may read ahead again").isEqualTo(1);
        }
    }
}
