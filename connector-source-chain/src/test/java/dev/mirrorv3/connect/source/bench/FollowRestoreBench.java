package dev.mirrorv3.connect.source.bench;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeCodec;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.restore.BackupVerifier;
import dev.mirrorv3.chain.restore.KeptObjects;
import dev.mirrorv3.chain.restore.OffsetMode;
import dev.mirrorv3.chain.restore.Progress;
import dev.mirrorv3.chain.restore.VerifiedPartition;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.kafka.LogOffsets;
import dev.mirrorv3.kafka.restore.RecordSizes;
import dev.mirrorv3.kafka.restore.RestoreOptions;
import dev.mirrorv3.kafka.restore.Restorer;
import dev.mirrorv3.kafka.restore.TargetTopic;
import dev.mirrorv3.testsupport.ConnectTestCluster;
import dev.mirrorv3.testsupport.ConnectorConfigs;
import dev.mirrorv3.testsupport.TestTopics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

/**
 * bench/run-follow-restore-bench: the ChainSourceConnector follow-restoring a filesystem backup into an empty topic (from
 * its deploy until the target's end offset, read by an admin client, is the backup's), against the one-shot restore
 * (verify pass included, as {@code mirror-v3 restore} runs it) of the same backup into another empty topic, on the same
 * in-process broker and Connect worker, for each value size asked for (one backup each, holding the bytes of values of
 * {@code records} records of 100 B). First the warm-up rounds, exactly as a timed round (the JVM and the worker are
 * fresh), printed as WARMUP lines; then the timed rounds. Over the rounds the order alternates (odd rounds time the
 * one-shot restore first, even rounds the follower), each round into new empty topics and with a new connector; every
 * wait has a timeout, and both topics must end exactly at the backup's last offset.
 *
 * <p>Prints {@code RESULT one-shot-1p-<S>B-r<n> <records> <seconds> <records/s>} and {@code RESULT follow-1p-<S>B-r<n>
 * ...} per round for the script's summary (bench/lib.sh). Not a test (never run by surefire or failsafe).
 *
 * <p>Usage: {@code FollowRestoreBench <records of 100 B> <rounds> <warm-up rounds> <sizes, e.g. 100,1024>}
 */
public final class FollowRestoreBench {
    private static final Duration ADMIN_WAIT = Duration.ofSeconds(60);

    private FollowRestoreBench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: FollowRestoreBench <records of 100 B> <rounds> <warm-up rounds> <sizes, e.g. 100,1024>");
            System.exit(2);
        }
        long bytes = Long.parseLong(args[0]) * 100;
        int rounds = Integer.parseInt(args[1]);
        int warmups = Integer.parseInt(args[2]);
        Map<Integer, Path> backups = new LinkedHashMap<>();
        for (String s : args[3].split(",")) {
            int size = Integer.parseInt(s.trim());
            Path root = Files.createTempDirectory("mirror-v3-follow-bench");
            writeBackup(root, (int) (bytes / size), size);
            backups.put(size, root);
        }
        try (ConnectTestCluster cluster = ConnectTestCluster.start(1);
                Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
            for (int w = 1; w <= warmups; w++) {
                for (Map.Entry<Integer, Path> b : backups.entrySet()) {
                    round(cluster, admin, b.getValue(), (int) (bytes / b.getKey()), b.getKey() + "B-w" + w, w);
                }
            }
            for (int r = 1; r <= rounds; r++) {
                for (Map.Entry<Integer, Path> b : backups.entrySet()) {
                    round(cluster, admin, b.getValue(), (int) (bytes / b.getKey()), b.getKey() + "B-r" + r, r);
                }
            }
        }
    }

    /** One backup in one round: the one-shot restore and the follower into new empty topics, the order alternating. */
    private static void round(ConnectTestCluster cluster, Admin admin, Path root, int records, String run, int n) throws Exception {
        // Generous: the slowest rate seen on a loaded machine was far above 1,000 records/s.
        Duration runTimeout = Duration.ofSeconds(120 + records / 1_000);
        String bootstrap = cluster.bootstrapServers();
        String oneShotTopic = "oneshot-" + run;
        String followedTopic = "followed-" + run;
        String connector = "bench-follow-" + run;
        admin.createTopics(List.of(topic(oneShotTopic), topic(followedTopic))).all().get(ADMIN_WAIT.toSeconds(), TimeUnit.SECONDS);
        TestTopics.awaitVisible(admin, List.of(oneShotTopic, followedTopic), ADMIN_WAIT); // the connector's validation looks for it
        double oneShotSeconds;
        double followSeconds;
        if (n % 2 == 1) {
            oneShotSeconds = oneShot(root, bootstrap, oneShotTopic);
            followSeconds = follow(cluster, admin, root, bootstrap, followedTopic, connector, records, runTimeout);
        } else {
            followSeconds = follow(cluster, admin, root, bootstrap, followedTopic, connector, records, runTimeout);
            oneShotSeconds = oneShot(root, bootstrap, oneShotTopic);
        }
        requireEndOffset(admin, oneShotTopic, records);
        requireEndOffset(admin, followedTopic, records);
        double oneShotRate = records / oneShotSeconds;
        double followRate = records / followSeconds;
        System.out.printf(Locale.ROOT, "%s (%s first): one-shot restore (verify pass included) %.2f s, %.0f records/s;"
                + " ChainSourceConnector follow-restore (deploy to last record in the target) %.2f s, %.0f records/s;"
                + " follow/one-shot %.2f%n", run, n % 2 == 1 ? "one-shot" : "follow", oneShotSeconds, oneShotRate, followSeconds,
                followRate, followRate / oneShotRate);
        String prefix = run.contains("-w") ? "WARMUP" : "RESULT";
        System.out.printf(Locale.ROOT, "%s one-shot-1p-%s %d %.3f %.0f%n", prefix, run, records, oneShotSeconds, oneShotRate);
        System.out.printf(Locale.ROOT, "%s follow-1p-%s %d %.3f %.0f%n", prefix, run, records, followSeconds, followRate);
        admin.deleteTopics(List.of(oneShotTopic, followedTopic)).all().get(ADMIN_WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    private static double oneShot(Path root, String bootstrap, String topic) throws Exception {
        long t0 = System.nanoTime();
        try (FilesystemStore store = new FilesystemStore(root, "bench-backup");
                LogOffsets target = new LogOffsets(Map.of("bootstrap.servers", bootstrap), Duration.ofSeconds(30));
                KeptObjects kept = KeptObjects.inProcessBudget()) {
            // as mirror-v3 restore runs it: the verified objects kept for the produce pass as far as the heap allows
            BackupVerifier verifier = new BackupVerifier(store, EnvelopeSettings.parquetBytes(), "bench").keeping(kept);
            VerifiedPartition vp = verifier.verify(0, 0, RecordSizes::batchOfOne, n -> { });
            new Restorer(verifier, target, TargetTopic.inspect(target.admin(), topic, Duration.ofSeconds(30)),
                    Map.of("bootstrap.servers", bootstrap), RestoreOptions.of(OffsetMode.PRESERVE))
                    .restore(List.of(vp), new Progress("restore", Map.of(0, vp.records())));
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    /** From the deploy until the target's end offset is the backup's; the connector is deleted afterwards. */
    private static double follow(ConnectTestCluster cluster, Admin admin, Path root, String bootstrap, String topic, String name,
                                 int records, Duration timeout) throws Exception {
        TopicPartition tp = new TopicPartition(topic, 0);
        long t0 = System.nanoTime();
        long deadline = t0 + timeout.toNanos();
        cluster.deploy(name, followConfig(root, bootstrap, topic));
        long lastStatusCheck = t0;
        while (endOffset(admin, tp) < records) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + ": " + topic + " holds " + endOffset(admin, tp) + " of " + records
                        + " records after "
                        + timeout.toSeconds() + " s (task " + cluster.taskState(name) + ")");
            }
            if (System.nanoTime() - lastStatusCheck > 1_000_000_000L) {
                lastStatusCheck = System.nanoTime();
                String failure = cluster.failureTrace(name);
                if (failure != null) {
                    throw new IllegalStateException(name + " failed: " + failure);
                }
            }
            Thread.sleep(20);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (!"RUNNING".equals(cluster.taskState(name))) {
            throw new IllegalStateException("the follower is " + cluster.taskState(name) + ": " + cluster.failureTrace(name));
        }
        cluster.delete(name);
        return seconds;
    }

    private static long endOffset(Admin admin, TopicPartition tp) throws Exception {
        return admin.listOffsets(Map.of(tp, OffsetSpec.latest())).partitionResult(tp)
                .get(ADMIN_WAIT.toSeconds(), TimeUnit.SECONDS).offset();
    }

    private static void requireEndOffset(Admin admin, String topic, long records) throws Exception {
        long end = endOffset(admin, new TopicPartition(topic, 0));
        if (end != records) {
            throw new IllegalStateException(topic + " ends at offset " + end + ", expected exactly " + records + " (the backup's)");
        }
    }

    private static NewTopic topic(String name) {
        return new NewTopic(name, 1, (short) 1).configs(Map.of("retention.ms", "-1"));
    }

    private static Map<String, String> followConfig(Path root, String bootstrap, String topic) {
        Map<String, String> c = ConnectorConfigs.chainSource("bench", topic, "preserve", bootstrap);
        c.put("filesystem.root", root.toString());
        c.put("destination.name", "bench-backup");
        // The recommended throughput settings (docs/chain-source.md): as the one-shot restore's producer.
        ConnectorConfigs.with(c, "producer.override.linger.ms", "20", "producer.override.batch.size", "1000000",
                "producer.override.buffer.memory", "134217728", "poll.interval.ms", "1000");
        return c;
    }

    /** Objects cut as the sink cuts them at flush.max.records=100000 and flush.max.bytes=16 MiB; values as ProducerPerformance's. */
    private static void writeBackup(Path root, int records, int size) {
        EnvelopeSettings settings = EnvelopeSettings.parquetBytes();
        EnvelopeCodec codec = EnvelopeCodecs.forSettings(settings);
        FilesystemStore store = new FilesystemStore(root, "bench-backup");
        SplittableRandom random = new SplittableRandom(42);
        int perObject = Math.min(100_000, (16 << 20) / size);
        for (int from = 0; from < records; from += perObject) {
            int to = Math.min(records, from + perObject) - 1;
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
