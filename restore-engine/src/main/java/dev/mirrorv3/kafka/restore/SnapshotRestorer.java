package dev.mirrorv3.kafka.restore;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.SnapshotChain;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.RecordTypeCheck;
import dev.mirrorv3.chain.manifest.ManifestTrail;
import dev.mirrorv3.chain.restore.RecordDigest;
import dev.mirrorv3.chain.restore.RecordStats;
import dev.mirrorv3.chain.restore.RestoreCut;
import dev.mirrorv3.chain.snapshot.CheckedSnapshot;
import dev.mirrorv3.chain.snapshot.SnapshotChoice;
import dev.mirrorv3.chain.snapshot.SnapshotReader;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.LogOffsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;

/**
 * Restores a compaction=log backup: per partition one snapshot (the newest, or the newest at or before a point-in-time cut),
 * checked whole first, then produced in key order at offsets 0, 1, 2, ... of an empty partition, each delivery checked to
 * be at the offset it was sent for. A snapshot cannot keep its records' offsets: it holds one record per key, so its
 * offsets have holes by construction.
 *
 * @param topic the backed-up topic, which each snapshot must name
 * @param tempDir the directory {@link SnapshotReader#open} reads a snapshot through
 */
public record SnapshotRestorer(SnapshotReader reader, EnvelopeSettings settings, String topic, Path tempDir) {
    public static final String PRESERVE_REFUSED = "this backup holds snapshots (compaction=log): one record per key, the latest,"
            + " so its offsets have holes by construction and --offsets preserve cannot restore it; use --offsets renumber (the"
            + " records at 0, 1, 2, ... in key order; --original-offset-header keeps each record's offset)";

    /**
     * One partition's chosen snapshot, checked.
     *
     * @param reason why this snapshot ({@link SnapshotChoice.Choice#reason()})
     * @param maxTimestampMs the newest record timestamp, or null when none has one
     * @param sha256 {@link RecordDigest} of its records in key order: what the restore produces
     * @param recordBytes its records' sizes as batches of one ({@link RecordSizes#batchOfOne}) summed
     */
    public record Verified(int partition, String location, ObjectName snapshot, String reason, int snapshots, long keys, long sizeBytes,
                           long maxRecordSize, long maxRecordOffset, long minTimestampMs, Long maxTimestampMs, String sha256,
                           long recordBytes) {
    }

    public SnapshotRestorer(Store store, EnvelopeSettings settings, String topic, KeyRing keys, Path tempDir) {
        this(new SnapshotReader(store, settings, keys), settings, topic, tempDir);
    }

    /**
     * Lists the partition's snapshots, chooses one ({@link SnapshotChoice}: the newest, or the newest at or before the cut)
     * and checks it record by record (sorted unique keys, no tombstone, offsets up to its end, keys and values of their
     * declared types); with {@code all}, every other snapshot too.
     */
    public Verified verify(int partition, RestoreCut cut, boolean all, LongConsumer keysRead) {
        SnapshotChain chain = reader.list(partition);
        SnapshotChoice.Choice choice = SnapshotChoice.choose(chain, cut.untilOffsets().get(partition), cut.untilTimestampMs(),
                o -> reader.takenStamps(partition, o));
        ObjectName chosen = choice.snapshot();
        if (all) {
            for (ObjectName o : chain.objects()) {
                if (!o.equals(chosen)) {
                    try (CheckedSnapshot s = reader.open(partition, o, topic, tempDir)) {
                        s.checkAll();
                    }
                }
            }
        }
        RecordTypeCheck types = new RecordTypeCheck(settings);
        RecordStats stats = RecordStats.none();
        RecordDigest digest = new RecordDigest();
        try (CheckedSnapshot s = reader.open(partition, chosen, topic, tempDir)) {
            ManifestTrail.read(reader.listing(partition)).checkObject(chosen, s.sha256(), s.sizeBytes()); // a snapshot changed in place
            for (BackupRecord r = s.next(); r != null; r = s.next()) {
                types.check(r);
                stats = stats.plus(r, RecordSizes.batchOfOne(r));
                digest.add(r);
                if (s.keys() % 10_000 == 0) {
                    keysRead.accept(10_000);
                }
            }
            keysRead.accept(s.keys() % 10_000);
            Long maxTs = stats.maxTimestampMs() == Long.MIN_VALUE ? null : stats.maxTimestampMs();
            return new Verified(partition, chain.location(), chosen, choice.reason(), chain.objects().size(), s.keys(),
                    s.sizeBytes(), stats.maxRecordSize(), stats.maxRecordOffset(), stats.minTimestampMs(), maxTs, digest.hex(),
                    stats.recordBytes());
        }
    }

    /**
     * Checks the target (partitions, empty, record sizes, retention) and produces each partition's snapshot.
     *
     * @param clientConfig producer settings of the target cluster
     */
    public RestoreResult restore(List<Verified> partitions, LogOffsets target, TargetTopic t, Map<String, Object> clientConfig,
                                 RestoreOptions options, LongConsumer progress) {
        preCheck(partitions, target, t, options);
        String header = options.originalOffsetHeader();
        long start = System.nanoTime();
        Map<Integer, Long> produced = new TreeMap<>();
        ProduceFailure failure = new ProduceFailure();
        try (Producer<byte[], byte[]> producer = new KafkaProducer<>(Restorer.producerConfig(clientConfig, t.maxMessageBytes()))) {
            for (Verified v : partitions) {
                produced.put(v.partition(), produce(producer, v, t, header, failure, progress));
            }
            producer.flush();
            if (failure.first() != null) {
                throw new RestoreCheckException(failure.first().getMessage() + ". Records sent before this may be stored: delete the"
                        + " topic and create it again before restoring again", failure.first());
            }
        }
        Map<TopicPartition, Long> after = target.highWatermarks(produced.keySet().stream()
                .map(p -> new TopicPartition(t.name(), p)).toList());
        produced.forEach((p, n) -> {
            long hwm = after.get(new TopicPartition(t.name(), p));
            if (hwm != n) {
                throw new RestoreCheckException("target " + t.name() + "/" + p + " has high watermark " + hwm + " after the restore, and "
                        + n + " records were produced into it: another writer on the partition. Delete the topic and create it again");
            }
        });
        return RestoreResult.of(produced, (System.nanoTime() - start) / 1_000_000, Map.of());
    }

    /**
     * Everything that can be checked of the target before the first record is sent (partitions, empty, record sizes,
     * retention, min.insync.replicas, LogAppendTime unless accepted); throws {@link RestoreCheckException} naming the first problem.
     */
    public void preCheck(List<Verified> partitions, LogOffsets target, TargetTopic t, RestoreOptions options) {
        long extra = RestoredRecords.headerOverhead(options.originalOffsetHeader());
        t.minInsyncProblem().ifPresent(p -> {
            throw new RestoreCheckException(p + ". Nothing was sent");
        });
        t.logAppendTimeProblem(options.acceptLogAppendTime()).ifPresent(p -> {
            throw new RestoreCheckException(p + ". Nothing was sent");
        });
        for (Verified v : partitions) {
            if (v.partition() >= t.partitions()) {
                throw new RestoreCheckException("target topic " + t.name() + " has " + t.partitions() + " partitions, and the backup has"
                        + " partition " + v.partition() + " (" + v.location()
                        + "); add partitions to the topic or restore with --partition");
            }
            if (v.maxRecordSize() + extra > t.maxMessageBytes()) {
                throw new RestoreCheckException("the record at offset " + v.maxRecordOffset() + " of " + v.snapshot() + " is "
                        + (v.maxRecordSize() + extra) + " bytes as a batch on its own, and target topic " + t.name() + " takes at most "
                        + t.maxMessageBytes() + " (max.message.bytes); raise it and restore again. Nothing was sent");
            }
            if (t.retentionMs() >= 0 && v.minTimestampMs() != Long.MAX_VALUE && !options.acceptRetention()
                    && v.minTimestampMs() < options.clock().millis() - t.retentionMs()) {
                throw new RestoreCheckException("target topic " + t.name() + " has retention.ms=" + t.retentionMs() + ", and the oldest"
                        + " record of partition " + v.partition() + " is from " + Instant.ofEpochMilli(v.minTimestampMs()) + ": retention"
                        + " would delete restored records soon after the restore. Set retention.ms=-1 on the topic first (a compacted"
                        + " topic usually has it), or pass --accept-retention");
            }
            if (!options.acceptRetention()) {
                t.retentionBytesProblem(RestoredPartition.of(v)).ifPresent(p -> {
                    throw new RestoreCheckException(p + ". Nothing was sent");
                });
            }
        }
        Map<TopicPartition, Long> hwms = target.highWatermarks(partitions.stream()
                .map(v -> new TopicPartition(t.name(), v.partition())).toList());
        hwms.forEach((tp, hwm) -> {
            if (hwm != 0) {
                throw new RestoreCheckException("target " + tp + " is not empty (high watermark " + hwm + "): restore writes only into an"
                        + " empty partition; delete the topic and create it again, then restore again");
            }
        });
    }

    private long produce(Producer<byte[], byte[]> producer, Verified v, TargetTopic t, String header,
                         ProduceFailure failure, LongConsumer progress) {
        int p = v.partition();
        long next = 0;
        try (CheckedSnapshot s = reader.open(p, v.snapshot(), topic, tempDir)) {
            for (BackupRecord r = s.next(); r != null && failure.first() == null; r = s.next()) {
                long sentFor = next++;
                producer.send(RestoredRecords.toProduce(t.name(), p, r, header), (md, e) -> {
                    if (e != null) {
                        failure.fail(new RestoreCheckException("target " + t.name() + "/" + p + ": the record sent for"
                                + " offset " + sentFor + " was not stored: " + Failures.describe(e), e));
                    } else if (md.offset() != sentFor) {
                        failure.fail(new RestoreCheckException("target: sent for offset " + sentFor + ", the broker stored"
                                + " it at " + t.name() + "/" + p + " offset " + md.offset() + ": another writer on the partition"));
                    } else {
                        progress.accept(1);
                    }
                });
            }
            if (s.keys() != v.keys() && failure.first() == null) {
                throw new RestoreCheckException(v.location() + "/" + v.snapshot() + " changed since the verify pass read it (" + v.keys()
                        + " keys then, " + s.keys() + " now)");
            }
        }
        return next;
    }
}
