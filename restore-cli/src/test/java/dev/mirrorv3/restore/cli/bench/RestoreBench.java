package dev.mirrorv3.restore.cli.bench;

import dev.mirrorv3.kafka.restore.Restorer;
import dev.mirrorv3.kafka.restore.TargetTopic;
import dev.mirrorv3.restore.cli.Main;
import dev.mirrorv3.testsupport.KafkaTestBroker;
import dev.mirrorv3.testsupport.TestTopics;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.tools.ProducerPerformance;

/**
 * bench/run-restore-bench: a one-shot restore ({@code mirror-v3 restore --offsets preserve}, verify pass included) from a
 * filesystem backup against Kafka's ProducerPerformance producing the same number and size of records with the
 * restore's own producer settings ({@link Restorer#producerConfig}: acks=all, idempotent, batches up to the topic's
 * {@code max.message.bytes}, the same linger, buffer and request size), on the same in-process broker, for every
 * partitions x value size asked for; each backup holds the bytes of values of {@code records} records of 100 B.
 * Each run is timed twice: from its call to its return (the restore's goal: its time over the tool's), and its produce
 * phase, read from the target topic's end offsets by {@link ProducePhase} for both alike (the produce phase's goal).
 * First the warm-up rounds, exactly as a timed round (the JVM is fresh: class loading, JIT), printed as WARMUP lines;
 * then the timed rounds. Within a round each configuration runs both, the order alternating with the round, each into
 * new empty topics; the restored topic of every round is read back and compared with the backup record by record.
 *
 * <p>Prints per round {@code RESULT producer-perf-<P>p-<S>B-r<n> <records> <seconds> <records/s>}, {@code RESULT
 * restore-<P>p-<S>B-r<n> ...}, and the produce phases as {@code producer-perf-phase-<P>p-<S>B} and
 * {@code restore-produce-<P>p-<S>B}, for the script's summary (bench/lib.sh). Not a test (never run by surefire).
 *
 * <p>Usage: {@code RestoreBench <records of 100 B> <rounds> <warm-up rounds> <sizes, e.g. 100,1024> <partitions, e.g. 1,8>}
 */
public final class RestoreBench {
    private static final Duration WAIT = Duration.ofSeconds(60);

    private RestoreBench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: RestoreBench <records of 100 B> <rounds> <warm-up rounds> <sizes, e.g. 100,1024>"
                    + " <partitions, e.g. 1,8>");
            System.exit(2);
        }
        long bytes = Long.parseLong(args[0]) * 100;
        int rounds = Integer.parseInt(args[1]);
        int warmups = Integer.parseInt(args[2]);
        Path dir = Files.createTempDirectory("mirror-v3-bench");
        List<BenchBackup> backups = new ArrayList<>();
        for (int partitions : ints(args[4])) {
            for (int size : ints(args[3])) {
                backups.add(BenchBackup.write(dir, partitions, size, (int) (bytes / size / partitions)));
            }
        }
        try (KafkaTestBroker broker = KafkaTestBroker.start()) {
            for (int w = 1; w <= warmups; w++) {
                for (BenchBackup b : backups) {
                    round(broker, b, "w" + w, w);
                }
            }
            for (int r = 1; r <= rounds; r++) {
                for (BenchBackup b : backups) {
                    round(broker, b, "r" + r, r);
                }
            }
        }
    }

    private static List<Integer> ints(String list) {
        return Arrays.stream(list.split(",")).map(String::trim).map(Integer::valueOf).toList();
    }

    /** One configuration in one round: both runs into new empty topics, the restored one read back. */
    private static void round(KafkaTestBroker broker, BenchBackup b, String round, int n) throws Exception {
        String config = b.partitions() + "p-" + b.valueBytes() + "B";
        String perf = "perf-" + config + "-" + round;
        String restored = "restored-" + config + "-" + round;
        broker.createTopic(perf, b.partitions(), Map.of("retention.ms", "-1"));
        broker.createTopic(restored, b.partitions(), Map.of("retention.ms", "-1"));
        TestTopics.awaitVisible(broker.admin(), List.of(perf, restored), WAIT);
        Timed tool;
        Timed restore;
        if (n % 2 == 1) {
            tool = producerPerformance(broker, perf, b);
            restore = restore(broker, b, restored);
        } else {
            restore = restore(broker, b, restored);
            tool = producerPerformance(broker, perf, b);
        }
        requireEndOffsets(broker, perf, b.records());
        b.checkRestored(broker.bootstrapServers(), restored);
        String prefix = round.startsWith("w") ? "WARMUP" : "RESULT";
        long records = b.records();
        System.out.printf(Locale.ROOT, "%s %s: ProducerPerformance %.2f s (produce phase %.2f s), mirror-v3 restore (verify pass included)"
                + " %.2f s (produce phase %.2f s): restore time / tool's %.2f; CPU of the whole process (broker included) during each:"
                + " tool %.2f s, restore %.2f s; %s holds the backup's %d records (offsets, values, timestamps checked)%n", config, round,
                tool.seconds, tool.phase.seconds(), restore.seconds, restore.phase.seconds(), restore.seconds / tool.seconds,
                tool.cpuSeconds, restore.cpuSeconds, restored, records);
        line(prefix, "producer-perf-" + config + "-" + round, records, tool.seconds);
        line(prefix, "restore-" + config + "-" + round, records, restore.seconds);
        line(prefix, "producer-perf-phase-" + config + "-" + round, tool.phase.records(), tool.phase.seconds());
        line(prefix, "restore-produce-" + config + "-" + round, restore.phase.records(), restore.phase.seconds());
        broker.admin().deleteTopics(List.of(perf, restored)).all().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    private static void line(String prefix, String name, long records, double seconds) {
        System.out.printf(Locale.ROOT, "%s %s %d %.3f %.0f%n", prefix, name, records, seconds, records / seconds);
    }

    /**
     * A run's time from its call to its return, its produce phase read from the target, and the CPU time the process used
     * meanwhile (broker included): on a machine that others load, a figure their load changes less than the time.
     */
    private record Timed(double seconds, ProducePhase.Phase phase, double cpuSeconds) {
    }

    private static double cpuSeconds() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime() / 1e9;
    }

    /** ProducerPerformance with the producer settings the restore uses for that topic. */
    private static Timed producerPerformance(KafkaTestBroker broker, String topic, BenchBackup b) throws Exception {
        int maxMessageBytes = TargetTopic.inspect(broker.admin(), topic, WAIT).maxMessageBytes();
        List<String> argv = new ArrayList<>(List.of("--topic", topic, "--num-records", Long.toString(b.records()), "--record-size",
                Integer.toString(b.valueBytes()), "--throughput", "-1", "--command-property"));
        Restorer.producerConfig(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()), maxMessageBytes)
                .forEach((k, v) -> {
                    // ProducerPerformance sets its own byte-array serializers and client id
                    if (!k.equals(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG) && !k.equals(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG)
                            && !k.equals(ProducerConfig.CLIENT_ID_CONFIG)) {
                        argv.add(k + "=" + v);
                    }
                });
        System.out.println("ProducerPerformance " + String.join(" ", argv));
        try (ProducePhase phase = new ProducePhase(broker.admin(), topic, b.partitions(), b.records())) {
            double cpu0 = cpuSeconds();
            long t0 = System.nanoTime();
            ProducerPerformance.main(argv.toArray(String[]::new));
            double seconds = (System.nanoTime() - t0) / 1e9;
            double cpu = cpuSeconds() - cpu0;
            return new Timed(seconds, phase.await(), cpu);
        }
    }

    private static Timed restore(KafkaTestBroker broker, BenchBackup b, String topic) throws Exception {
        try (ProducePhase phase = new ProducePhase(broker.admin(), topic, b.partitions(), b.records())) {
            double cpu0 = cpuSeconds();
            long t0 = System.nanoTime();
            int code = Main.commandLine(new PrintWriter(System.out, true), new PrintWriter(System.err, true), null).execute("restore",
                    "--connector-config", b.config().toString(), "--offsets", "preserve", "--bootstrap-servers", broker.bootstrapServers(),
                    "--topic", topic, "--progress", "none");
            double seconds = (System.nanoTime() - t0) / 1e9;
            double cpu = cpuSeconds() - cpu0;
            if (code != 0) {
                throw new IllegalStateException("restore into " + topic + " failed with exit code " + code);
            }
            return new Timed(seconds, phase.await(), cpu);
        }
    }

    private static void requireEndOffsets(KafkaTestBroker broker, String topic, long records) throws Exception {
        Map<TopicPartition, OffsetSpec> request = new java.util.HashMap<>();
        int partitions = broker.admin().describeTopics(List.of(topic)).allTopicNames().get(WAIT.toSeconds(), TimeUnit.SECONDS).get(topic)
                .partitions().size();
        for (int p = 0; p < partitions; p++) {
            request.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        long end = broker.admin().listOffsets(request).all().get(WAIT.toSeconds(), TimeUnit.SECONDS).values().stream()
                .mapToLong(i -> i.offset()).sum();
        if (end != records) {
            throw new IllegalStateException(topic + " holds " + end + " records, expected " + records);
        }
    }
}
