package dev.mirrorv3.quickstart;

import dev.mirrorv3.chain.Chain;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.RecordHeader;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.read.CheckedObject;
import dev.mirrorv3.chain.store.Store;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The quickstart's smoke check: reads every partition's chain back through chain-core's {@link ChainReader}
 * (listing validated, every object checked against its name) and compares it with the records consumed from the
 * topic (read_committed, log start to high watermark): exactly the same records, byte-identical (key, value,
 * headers), with the same timestamps, at the same offsets. Prints what the backup holds; exit 0 when it matches,
 * 1 with the first difference per partition otherwise.
 *
 * <p>Usage: {@code VerifyBackup <connector-config.json> <connector-name> [destination]} (the destination of a connector
 * with several)
 */
public final class VerifyBackup {
    private VerifyBackup() {
    }

    public static void main(String[] args) throws Exception {
        Usage.atLeast(args, 2, "VerifyBackup <connector-config.json> <connector-name> [destination]");
        BlobSinkSettings s = BlobSinkSettings.load(Path.of(args[0]), args[1], args.length > 2 ? args[2] : null);
        Map<Integer, Long> logStart;
        Map<Integer, Long> hw;
        try (TopicOffsets offsets = new TopicOffsets(s.bootstrapServers())) {
            logStart = offsets.logStartOffsets(s.topic());
            hw = offsets.highWatermarks(s.topic());
        }
        Map<Integer, List<BackupRecord>> topic = consume(s, logStart, hw);
        try (Store store = s.store()) {
            if (!compareAll(s, s.reader(store), topic, logStart, hw)) {
                System.exit(1);
            }
        }
    }

    /** Compares every partition's chain with the topic's records; prints a line per partition and a summary. */
    private static boolean compareAll(BlobSinkSettings s, ChainReader reader, Map<Integer, List<BackupRecord>> topic,
                                      Map<Integer, Long> logStart, Map<Integer, Long> hw) {
        boolean ok = true;
        long objects = 0;
        long records = 0;
        long bytes = 0;
        for (int p : hw.keySet()) {
            String problem;
            Chain chain;
            List<BackupRecord> backup = new ArrayList<>();
            long partBytes = 0;
            try {
                chain = reader.listChain(p, OptionalLong.of(logStart.get(p)));
                for (ObjectName name : chain.objects()) {
                    CheckedObject o = reader.read(p, name, s.topic());
                    backup.addAll(o.records());
                    partBytes += o.sizeBytes();
                }
                problem = compare(topic.get(p), backup);
            } catch (RuntimeException e) {
                chain = null;
                problem = e.getMessage();
            }
            if (problem == null) {
                System.out.printf("  partition %d: %d records in %d object(s), %,d bytes, offsets %s  OK%n", p, backup.size(),
                        chain.objects().size(), partBytes,
                        backup.isEmpty() ? "(none)" : backup.get(0).offset() + ".." + backup.get(backup.size() - 1).offset());
                objects += chain.objects().size();
                records += backup.size();
                bytes += partBytes;
            } else {
                ok = false;
                System.out.printf("  partition %d: MISMATCH: %s%n", p, problem);
            }
        }
        if (ok) {
            System.out.printf("backup of %s under %s holds exactly the topic's %d records (%d objects, %,d bytes),"
                    + " byte-identical at their offsets%n", s.topic(), s.chainDir(), records, objects, bytes);
        } else {
            System.out.println("backup of " + s.topic() + " under " + s.chainDir() + " does NOT match the topic");
        }
        return ok;
    }

    /** Null when equal, otherwise the first difference. */
    static String compare(List<BackupRecord> expected, List<BackupRecord> actual) {
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            if (!expected.get(i).equals(actual.get(i))) {
                return "record #" + i + ": topic has " + expected.get(i) + ", backup has " + actual.get(i);
            }
        }
        if (expected.size() != actual.size()) {
            return "topic has " + expected.size() + " records, backup has " + actual.size()
                    + (actual.size() > expected.size() ? " (extra from " + actual.get(expected.size()) + ")"
                    : " (missing from " + expected.get(actual.size()) + ")");
        }
        return null;
    }

    private static Map<Integer, List<BackupRecord>> consume(BlobSinkSettings s, Map<Integer, Long> logStart, Map<Integer, Long> hw) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, s.bootstrapServers());
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        p.put(ConsumerConfig.CLIENT_ID_CONFIG, "mirror-v3-quickstart-verify");
        Map<Integer, List<BackupRecord>> out = new HashMap<>();
        List<TopicPartition> parts = new ArrayList<>();
        for (int part : hw.keySet()) {
            out.put(part, new ArrayList<>());
            parts.add(new TopicPartition(s.topic(), part));
        }
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            consumer.assign(parts);
            for (TopicPartition tp : parts) {
                consumer.seek(tp, logStart.get(tp.partition()));
            }
            long deadline = System.currentTimeMillis() + 60_000;
            while (parts.stream().anyMatch(tp -> consumer.position(tp) < hw.get(tp.partition()))) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("could not read " + s.topic() + " up to its high watermarks " + hw + " in 60 s");
                }
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    if (r.offset() < hw.get(r.partition())) {
                        out.get(r.partition()).add(toBackup(r));
                    }
                }
            }
        }
        return out;
    }

    static BackupRecord toBackup(ConsumerRecord<byte[], byte[]> r) {
        List<RecordHeader> headers = new ArrayList<>();
        for (Header h : r.headers()) {
            headers.add(new RecordHeader(h.key(), h.value()));
        }
        TimestampType type = switch (r.timestampType()) {
            case CREATE_TIME -> TimestampType.CREATE_TIME;
            case LOG_APPEND_TIME -> TimestampType.LOG_APPEND_TIME;
            default -> TimestampType.NOT_AVAILABLE;
        };
        Long ts = type == TimestampType.NOT_AVAILABLE ? null : r.timestamp();
        return new BackupRecord(r.topic(), r.partition(), r.offset(), ts, type, r.key(), r.value(), headers);
    }
}
