package dev.mirrorv3.connect.source.bench;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeCodec;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.restore.BackupVerifier;
import dev.mirrorv3.chain.restore.OffsetMode;
import dev.mirrorv3.chain.restore.Progress;
import dev.mirrorv3.chain.restore.VerifiedPartition;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.kafka.SourceOffsets;
import dev.mirrorv3.kafka.restore.RecordSizes;
import dev.mirrorv3.kafka.restore.RestoreOptions;
import dev.mirrorv3.kafka.restore.Restorer;
import dev.mirrorv3.kafka.restore.TargetTopic;
import dev.mirrorv3.testsupport.ConnectTestCluster;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

/**
 * bench/run-follow-restore-bench: the ChainSourceConnector follow-restoring N records of 100 B from a filesystem backup
 * into an empty topic, against the one-shot restore (verify pass included, as {@code mirror-v3 restore} runs it) of the
 * same backup into another empty topic, on the same in-process broker and Connect worker in the same run. Prints both
 * rates and the ratio. Not a test (never run by surefire or failsafe).
 */
public final class FollowRestoreBench {
    private static final String BYTES = "org.apache.kafka.connect.converters.ByteArrayConverter";

    private FollowRestoreBench() {
    }

    public static void main(String[] args) throws Exception {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        Path root = Files.createTempDirectory("mirror-v3-follow-bench");
        writeBackup(root, records, 100);
        try (ConnectTestCluster cluster = ConnectTestCluster.start(1);
                Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
            String bootstrap = cluster.bootstrapServers();
            admin.createTopics(List.of(topic("oneshot"), topic("followed"))).all().get();

            long t0 = System.nanoTime();
            try (FilesystemStore store = new FilesystemStore(root, "bench-backup");
                    SourceOffsets target = new SourceOffsets(Map.of("bootstrap.servers", bootstrap), Duration.ofSeconds(30))) {
                BackupVerifier verifier = new BackupVerifier(store, EnvelopeSettings.parquetBytes(), "bench");
                VerifiedPartition vp = verifier.verify(0, 0, RecordSizes::batchOfOne, n -> { });
                new Restorer(verifier, target, TargetTopic.inspect(target.admin(), "oneshot", Duration.ofSeconds(30)),
                        Map.of("bootstrap.servers", bootstrap), RestoreOptions.of(OffsetMode.PRESERVE))
                        .restore(List.of(vp), new Progress("restore", Map.of(0, vp.records())));
            }
            double oneShotSeconds = (System.nanoTime() - t0) / 1e9;

            long t1 = System.nanoTime();
            cluster.deploy("bench-follow", followConfig(root, bootstrap));
            TopicPartition tp = new TopicPartition("followed", 0);
            while (admin.listOffsets(Map.of(tp, OffsetSpec.latest())).partitionResult(tp).get().offset() < records) {
                Thread.sleep(20);
            }
            double followSeconds = (System.nanoTime() - t1) / 1e9;
            if (!"RUNNING".equals(cluster.taskState("bench-follow"))) {
                throw new IllegalStateException("the follower is " + cluster.taskState("bench-follow") + ": " + cluster.failureTrace("bench-follow"));
            }
            double oneShotRate = records / oneShotSeconds;
            double followRate = records / followSeconds;
            System.out.printf("%nrecords: %d x 100 B (objects of 100,000 records, Parquet zstd, filesystem)%n"
                    + "one-shot restore (verify pass included): %.2f s, %.0f records/s%n"
                    + "ChainSourceConnector follow-restore (deploy to last record in the target): %.2f s, %.0f records/s%n"
                    + "ratio follow/one-shot: %.2f (goal >= 0.5); vs mirror-v3's gated follow (~150 records/s): %.0fx (goal >= 100x,"
                    + " i.e. >= 15000 records/s)%n", records, oneShotSeconds, oneShotRate, followSeconds, followRate,
                    followRate / oneShotRate, followRate / 150);
            cluster.delete("bench-follow");
        }
    }

    private static NewTopic topic(String name) {
        return new NewTopic(name, 1, (short) 1).configs(Map.of("retention.ms", "-1"));
    }

    private static Map<String, String> followConfig(Path root, String bootstrap) {
        Map<String, String> c = new HashMap<>();
        c.put("connector.class", "dev.mirrorv3.connect.source.ChainSourceConnector");
        c.put("tasks.max", "1");
        c.put("topics", "bench");
        c.put("key.converter", BYTES);
        c.put("value.converter", BYTES);
        c.put("header.converter", BYTES);
        c.put("filesystem.root", root.toString());
        c.put("destination.name", "bench-backup");
        c.put("target.topic", "followed");
        c.put("offsets", "preserve");
        c.put("target.admin.bootstrap.servers", bootstrap);
        c.put("producer.override.enable.idempotence", "true");
        c.put("producer.override.acks", "all");
        // The README's recommended throughput settings: as the one-shot restore's producer.
        c.put("producer.override.max.in.flight.requests.per.connection", "5");
        c.put("producer.override.linger.ms", "20");
        c.put("producer.override.batch.size", "1000000");
        c.put("producer.override.buffer.memory", "134217728");
        c.put("poll.interval.ms", "1000");
        return c;
    }

    /** Objects of 100,000 records, the sink's default flush.max.records; values as ProducerPerformance's random payload. */
    private static void writeBackup(Path root, int records, int size) {
        EnvelopeSettings settings = EnvelopeSettings.parquetBytes();
        EnvelopeCodec codec = EnvelopeCodecs.forSettings(settings);
        FilesystemStore store = new FilesystemStore(root, "bench-backup");
        SplittableRandom random = new SplittableRandom(42);
        for (int from = 0; from < records; from += 100_000) {
            int to = Math.min(records, from + 100_000) - 1;
            List<BackupRecord> batch = new ArrayList<>(to - from + 1);
            for (long o = from; o <= to; o++) {
                byte[] value = new byte[size];
                for (int i = 0; i < size; i++) {
                    value[i] = (byte) ('A' + random.nextInt(26));
                }
                batch.add(new BackupRecord("bench", 0, o, 1_700_000_000_000L + o, TimestampType.CREATE_TIME, null, value, List.of()));
            }
            store.create(0, ObjectName.plain(from, to, settings.format()).fileName(), codec.encode(batch));
        }
    }
}
