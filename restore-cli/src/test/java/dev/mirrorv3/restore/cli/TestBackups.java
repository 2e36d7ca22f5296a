package dev.mirrorv3.restore.cli;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeCodec;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.RecordHeader;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.write.ChainWriter;
import dev.mirrorv3.chain.write.FlushPolicy;
import dev.mirrorv3.chain.write.FlushTrigger;
import dev.mirrorv3.restore.cli.decrypt.DecryptTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.LongPredicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Backups written with chain-core's codecs and store, as the blob sink writes them. */
public final class TestBackups {
    public static final long BASE_TS = 1_700_000_000_000L;
    public static final EnvelopeSettings SETTINGS = EnvelopeSettings.parquetBytes();
    public static final EnvelopeCodec CODEC = EnvelopeCodecs.forSettings(SETTINGS);

    private TestBackups() {
    }

    /** Records at the offsets in [from, to] that {@code present} accepts: keys, ~100 B values, tombstones, headers. */
    public static List<BackupRecord> records(String topic, int partition, long from, long to, LongPredicate present) {
        Random random = new Random(partition * 1_000_003L + from);
        List<BackupRecord> out = new ArrayList<>();
        for (long o = from; o <= to; o++) {
            if (!present.test(o)) {
                continue;
            }
            byte[] value = null;
            if (o % 50 != 7) { // every 50th a tombstone
                value = new byte[90 + random.nextInt(20)];
                random.nextBytes(value);
            }
            List<RecordHeader> headers = o % 3 == 0
                    ? List.of(new RecordHeader("h", ("v" + o).getBytes(StandardCharsets.UTF_8)), new RecordHeader("h", null))
                    : List.of();
            byte[] key = o % 11 == 5 ? null : ("key-" + o).getBytes(StandardCharsets.UTF_8);
            out.add(new BackupRecord(topic, partition, o, BASE_TS + o, TimestampType.CREATE_TIME, key, value, headers));
        }
        return out;
    }

    /** Writes the records as objects of at most {@code perObject} positions, names contiguous from {@code chainStart}. */
    public static List<ObjectName> write(Path root, String name, int partition, long chainStart, List<BackupRecord> records,
            int perObject) {
        FilesystemStore store = new FilesystemStore(root, name);
        List<ObjectName> names = new ArrayList<>();
        long from = chainStart;
        List<BackupRecord> batch = new ArrayList<>();
        for (BackupRecord r : records) {
            batch.add(r);
            if (r.offset() - from + 1 >= perObject) {
                names.add(flush(store, partition, from, batch));
                from = r.offset() + 1;
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            names.add(flush(store, partition, from, batch));
        }
        return names;
    }

    private static ObjectName flush(FilesystemStore store, int partition, long from, List<BackupRecord> batch) {
        ObjectName n = ObjectName.plain(from, batch.get(batch.size() - 1).offset(), SETTINGS.format());
        store.create(partition, n.fileName(), CODEC.encode(batch));
        return n;
    }

    /** The connector JSON (REST body) of a filesystem backup of one topic. */
    public static Path connectorJson(Path dir, String connector, String topic, Path root) throws IOException {
        Path file = dir.resolve(connector + ".json");
        Files.writeString(file, "{\"name\":\"" + connector + "\",\"config\":{"
                + "\"connector.class\":\"dev.mirrorv3.connect.blob.BlobSinkConnector\",\"tasks.max\":\"1\","
                + "\"topics\":\"" + topic + "\",\"filesystem.root\":\"" + root + "\",\"format\":\"parquet\","
                + "\"key.converter\":\"org.apache.kafka.connect.converters.ByteArrayConverter\","
                + "\"value.converter\":\"org.apache.kafka.connect.converters.ByteArrayConverter\"}}");
        return file;
    }

    /**
     * The records as objects of {@code perObject} records each, written as the blob sink writes a chain (continuing it), then
     * closed: its manifest written.
     */
    public static List<ObjectName> writeWithTheSinksWriter(Path root, List<BackupRecord> records, int perObject) {
        FilesystemStore store = new FilesystemStore(root, "orders-backup");
        ChainWriter writer = new ChainWriter(store, 0, CODEC, new FlushPolicy(perObject, Long.MAX_VALUE, 3_600_000),
                Clock.systemUTC(), new ChainReader(store, SETTINGS).head(0), records.get(0).offset());
        List<ObjectName> names = new ArrayList<>();
        for (BackupRecord r : records) {
            writer.append(r);
            writer.sizeTrigger().flatMap(writer::flush).ifPresent(f -> names.add(f.name()));
        }
        writer.flush(FlushTrigger.CLOSE).ifPresent(f -> names.add(f.name()));
        writer.manifests().writeWaiting(); // as the sink does when the partition closes
        return names;
    }

    /** The directory {@code dir/keys} holding key k1 ({@link DecryptTest#K1}, base64 on a line) for encryption.keys.dir. */
    public static Path keysWithK1(Path dir) throws IOException {
        Path keys = Files.createDirectory(dir.resolve("keys"));
        Files.writeString(keys.resolve("k1"), Base64.getEncoder().encodeToString(DecryptTest.K1) + "\n");
        return keys;
    }

    /** What compaction keeps of a partition's records: each key's newest value, as text; a tombstone removes its key. */
    public static Map<String, String> newestValues(Iterable<ConsumerRecord<byte[], byte[]>> records) {
        Map<String, String> newest = new TreeMap<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            String k = new String(r.key(), StandardCharsets.UTF_8);
            if (r.value() == null) {
                newest.remove(k);
            } else {
                newest.put(k, new String(r.value(), StandardCharsets.UTF_8));
            }
        }
        return newest;
    }
}
