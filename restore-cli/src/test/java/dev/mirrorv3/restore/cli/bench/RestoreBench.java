package dev.mirrorv3.restore.cli.bench;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeCodec;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.restore.cli.Main;
import dev.mirrorv3.testsupport.KafkaTestBroker;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.kafka.tools.ProducerPerformance;

/**
 * bench/run-restore-bench: a one-shot restore of N records of 100 B from a filesystem backup (verify pass included)
 * against Kafka's ProducerPerformance producing the same number and size of records (acks=all, idempotent), same
 * in-process broker, same run. Prints both times and the ratio. Not a test (never run by surefire).
 */
public final class RestoreBench {
    private RestoreBench() {
    }

    public static void main(String[] args) throws Exception {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int size = 100;
        Path dir = Files.createTempDirectory("mirror-v3-bench");
        Path root = dir.resolve("backups");
        writeBackup(root, records, size);
        Path config = dir.resolve("bench-backup.json");
        Files.writeString(config, "{\"name\":\"bench-backup\",\"config\":{\"topics\":\"bench\",\"filesystem.root\":\"" + root + "\"}}");
        try (KafkaTestBroker broker = KafkaTestBroker.start()) {
            broker.createTopic("perf", 1, Map.of("retention.ms", "-1"));
            broker.createTopic("restored", 1, Map.of("retention.ms", "-1"));
            long t0 = System.nanoTime();
            ProducerPerformance.main(new String[] {"--topic", "perf", "--num-records", Integer.toString(records), "--record-size",
                    Integer.toString(size), "--throughput", "-1", "--producer-props", "bootstrap.servers=" + broker.bootstrapServers(),
                    "acks=all", "enable.idempotence=true"});
            double perfSeconds = (System.nanoTime() - t0) / 1e9;
            long t1 = System.nanoTime();
            int code = Main.commandLine(new PrintWriter(System.out, true), new PrintWriter(System.err, true), null).execute("restore",
                    "--connector-config", config.toString(), "--offsets", "preserve", "--bootstrap-servers", broker.bootstrapServers(),
                    "--topic", "restored", "--progress", "none");
            double restoreSeconds = (System.nanoTime() - t1) / 1e9;
            if (code != 0) {
                throw new IllegalStateException("restore failed with exit code " + code);
            }
            System.out.printf("%nrecords: %d x %d B%nProducerPerformance: %.2f s%nmirror-v3 restore (verify pass included): %.2f s%n"
                    + "ratio: %.2f (goal <= 1.5)%n", records, size, perfSeconds, restoreSeconds, restoreSeconds / perfSeconds);
        }
    }

    /** Objects of 100,000 records, the sink's default flush.max.records. */
    private static void writeBackup(Path root, int records, int size) {
        EnvelopeSettings settings = EnvelopeSettings.parquetBytes();
        EnvelopeCodec codec = EnvelopeCodecs.forSettings(settings);
        FilesystemStore store = new FilesystemStore(root, "bench-backup");
        SplittableRandom random = new SplittableRandom(42);
        int perObject = 100_000;
        for (int from = 0; from < records; from += perObject) {
            int to = Math.min(records, from + perObject) - 1;
            List<BackupRecord> batch = new ArrayList<>(to - from + 1);
            for (long o = from; o <= to; o++) {
                byte[] value = new byte[size];
                for (int i = 0; i < size; i++) {
                    value[i] = (byte) ('A' + random.nextInt(26)); // as ProducerPerformance's random payload
                }
                batch.add(new BackupRecord("bench", 0, o, 1_700_000_000_000L + o, TimestampType.CREATE_TIME, null, value, List.of()));
            }
            store.create(0, ObjectName.plain(from, to, settings.format()).fileName(), codec.encode(batch));
        }
    }
}
