package dev.mirrorv3.kafka.restore;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.read.CheckedObject;
import dev.mirrorv3.chain.restore.BackupVerifier;
import dev.mirrorv3.chain.restore.OffsetMode;
import dev.mirrorv3.chain.restore.Progress;
import dev.mirrorv3.chain.restore.ReadAhead;
import dev.mirrorv3.chain.restore.RecordStats;
import dev.mirrorv3.chain.restore.TargetOffsets;
import dev.mirrorv3.chain.restore.VerifiedObject;
import dev.mirrorv3.chain.restore.VerifiedPartition;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.LogOffsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The produce pass of a one-shot restore (docs/restore-cli.md), Connect-free so the chain source connector can reuse it: checks
 * the target (empty, large enough, retention and timestamp type) before anything is sent, then produces every
 * verified partition from one thread, an object of each partition in turn, through one idempotent producer (acks=all,
 * many in flight, batches as large as the topic's {@code max.message.bytes}), sending what the verify pass kept or
 * re-reading an object and requiring the bytes the verify pass read, and requiring every delivery at exactly the
 * offset it was sent for. After the last record, each target partition's high watermark must equal the records produced.
 *
 * @param target offsets of the target cluster (its admin client)
 * @param clientConfig producer settings of the target cluster (bootstrap servers, security)
 */
public record Restorer(BackupVerifier verifier, LogOffsets target, TargetTopic topic, Map<String, Object> clientConfig,
        RestoreOptions options) {
    private static final Logger log = LoggerFactory.getLogger(Restorer.class);
    /** Objects read again ahead of the sending thread at most (each up to an object's decoded size in memory). */
    static final int MAX_READS_AHEAD = 8;
    private static final String DELETE_AND_RECREATE =
            "Records sent before this may still be stored: delete the topic and create it again before restoring again";

    /** Names the target only: the client settings may hold credentials (sasl.jaas.config, ssl passwords). */
    @Override
    public String toString() {
        return "Restorer[" + topic.name() + "]";
    }

    /** The producer settings restore uses; batches as large as the topic allows, uncompressed so sizes are exact. */
    public static Map<String, Object> producerConfig(Map<String, Object> clientConfig, int maxMessageBytes) {
        Map<String, Object> c = new HashMap<>(clientConfig);
        c.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        c.put(ProducerConfig.ACKS_CONFIG, "all");
        c.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 5); // the most the idempotent producer keeps in order
        c.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        c.put(ProducerConfig.BATCH_SIZE_CONFIG, maxMessageBytes);
        c.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, (int) Math.min(64L << 20, Math.max(maxMessageBytes, 1 << 20) * 4L));
        c.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 128L << 20);
        c.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
        c.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 120_000);
        c.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "mirror-v3-restore");
        c.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        c.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
        return c;
    }

    /**
     * Everything that can be checked before the first record is sent; throws {@link RestoreCheckException} naming the
     * first problem.
     */
    public void preCheck(List<VerifiedPartition> partitions) {
        OffsetMode mode = options.mode();
        long extra = RestoredRecords.headerOverhead(options.originalOffsetHeader());
        topic.minInsyncProblem().ifPresent(p -> {
            throw new RestoreCheckException(p + ". Nothing was sent");
        });
        for (VerifiedPartition vp : partitions) {
            checkPartition(vp, mode, extra);
        }
        topic.logAppendTimeProblem(options.acceptLogAppendTime()).ifPresent(p -> {
            throw new RestoreCheckException(p);
        });
        Map<TopicPartition, Long> hwms = target.highWatermarks(partitions.stream()
                .map(vp -> new TopicPartition(topic.name(), vp.partition())).toList());
        for (VerifiedPartition vp : partitions) {
            long hwm = hwms.get(new TopicPartition(topic.name(), vp.partition()));
            if (hwm != 0) {
                throw new RestoreCheckException("target " + topic.name() + "/" + vp.partition() + " is not empty (high watermark " + hwm
                        + "): restore writes only into an empty partition and never deletes anything; delete the topic and create it"
                        + " again, then restore again");
            }
        }
    }

    /** The checks of one partition's records against the target topic. */
    private void checkPartition(VerifiedPartition vp, OffsetMode mode, long extra) {
        vp.problemWith(mode).ifPresent(p -> {
            throw new RestoreCheckException(p);
        });
        if (vp.partition() >= topic.partitions()) {
            throw new RestoreCheckException("target topic " + topic.name() + " has " + topic.partitions()
                    + " partitions, and the backup"
                    + " has partition " + vp.partition() + " (" + vp.location() + "): restore writes each partition into the"
                    + " same-numbered one; add partitions to the topic or restore with --partition");
        }
        RecordStats stats = vp.stats();
        long size = stats.maxRecordSize() + extra;
        if (size > topic.maxMessageBytes()) {
            throw new RestoreCheckException("the record at offset " + stats.maxRecordOffset() + " of " + vp.topic() + "/"
                    + vp.partition() + " (" + vp.location() + ") is " + size + " bytes as a batch on its own, and target topic "
                    + topic.name() + " takes at most " + topic.maxMessageBytes() + " (max.message.bytes): it cannot be restored"
                    + " into that topic; raise the topic's max.message.bytes to at least " + size + " and restore again. Nothing was sent");
        }
        if (topic.compacted() && stats.firstNullKeyOffset() >= 0) {
            throw new RestoreCheckException("target topic " + topic.name() + " is compacted (cleanup.policy contains compact), and"
                    + " the record at offset " + stats.firstNullKeyOffset() + " of " + vp.topic() + "/" + vp.partition()
                    + " has no key, which a compacted topic refuses: restore into a topic with cleanup.policy=delete. Nothing"
                    + " was sent");
        }
        if (topic.retentionMs() >= 0 && stats.minTimestampMs() != Long.MAX_VALUE && !options.acceptRetention()) {
            long cutoff = options.clock().millis() - topic.retentionMs();
            if (stats.minTimestampMs() < cutoff) {
                throw new RestoreCheckException("target topic " + topic.name() + " has retention.ms=" + topic.retentionMs()
                        + ", and the oldest record of partition " + vp.partition() + " is from "
                        + Instant.ofEpochMilli(stats.minTimestampMs()) + ": retention would delete restored records soon after the"
                        + " restore. Set retention.ms=-1 (or longer than the backup's age) on the topic first, or pass"
                        + " --accept-retention");
            }
        }
        if (!options.acceptRetention()) {
            topic.retentionBytesProblem(RestoredPartition.of(vp)).ifPresent(p -> {
                throw new RestoreCheckException(p + ". Nothing was sent");
            });
        }
    }

    /**
     * Checks the target ({@link #preCheck}), then produces every partition.
     *
     * @param progress records acknowledged per partition
     */
    public RestoreResult restore(List<VerifiedPartition> partitions, Progress progress) {
        preCheck(partitions);
        log.info("target {}: {} partitions, max.message.bytes={} (producer batches up to that), retention.ms={}, message.timestamp.type={}",
                topic.name(), topic.partitions(), topic.maxMessageBytes(), topic.retentionMs(),
                topic.logAppendTime() ? "LogAppendTime" : "CreateTime");
        long start = System.nanoTime();
        Map<String, Object> config = producerConfig(clientConfig, topic.maxMessageBytes());
        ProduceFailure failure = new ProduceFailure();
        Map<Integer, Long> produced = Map.of();
        try (Producer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
            try {
                produced = produce(producer, partitions, progress, failure);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failure.fail(new RestoreCheckException("interrupted"));
            } catch (RuntimeException e) {
                failure.fail(e);
            } catch (Exception e) { // the test hook's
                failure.fail(new RestoreCheckException(String.valueOf(e), e));
            }
            producer.flush(); // waits for every record in flight, also after a failure
            RuntimeException f = failure.first();
            if (f != null) {
                throw afterSending(f, failure.sent());
            }
            RestoreResult result = RestoreResult.of(produced, Duration.ofNanos(System.nanoTime() - start).toMillis(),
                    producer.metrics());
            checkHighWatermarks(produced);
            log.info("restored {} records into {} in {} ms: batches of at most {} bytes (average {}), {} requests, {} records per"
                            + " request on average", result.records(), topic.name(), result.elapsedMs(), result.batchSizeMaxBytes(),
                    Math.round(result.batchSizeAvgBytes()), result.requests(), Math.round(result.recordsPerRequestAvg()));
            return result;
        }
    }

    /**
     * Sends every partition's objects from this one thread, an object of each partition in turn ({@link SendTurns}), as
     * Kafka's ProducerPerformance sends through its one producer: a thread per partition, 8 threads on one producer on
     * 2 cores, reached 0.73-0.80 of the tool's rate, one thread above it (docs/decisions.md, "Restore speed"). The
     * objects the verify pass did not keep are read again ahead of their turn, on as many threads as partitions up to the
     * cores (at most {@value #MAX_READS_AHEAD}), and must be what the verify pass read.
     *
     * @return per partition number, the target offset after its last record sent
     */
    private Map<Integer, Long> produce(Producer<byte[], byte[]> producer, List<VerifiedPartition> partitions, Progress progress,
            ProduceFailure failure) throws Exception {
        List<TargetOffsets> offsets = partitions.stream().map(vp -> new TargetOffsets(options.mode(), vp.location(), 0)).toList();
        List<SendTurns.Turn<VerifiedObject>> turns = SendTurns.of(partitions.stream().map(VerifiedPartition::objects).toList());
        int reads = Math.min(partitions.size(), Math.min(Runtime.getRuntime().availableProcessors(), MAX_READS_AHEAD));
        boolean[] sentOne = new boolean[partitions.size()];
        try (ReadAhead<SendTurns.Turn<VerifiedObject>, CheckedObject> objects = new ReadAhead<>(turns,
                t -> verifier.reread(partitions.get(t.partition()).partition(), t.object()), reads, "mirror-v3-restore")) {
            for (SendTurns.Turn<VerifiedObject> turn : turns) {
                if (failure.first() != null) {
                    break;
                }
                VerifiedPartition vp = partitions.get(turn.partition());
                send(producer, vp, turn.object(), objects.next(), offsets.get(turn.partition()), progress, failure);
                if (!sentOne[turn.partition()] && options.afterFirstObject() != null) {
                    producer.flush();
                    options.afterFirstObject().run(vp.partition());
                }
                sentOne[turn.partition()] = true;
            }
        }
        Map<Integer, Long> produced = new TreeMap<>();
        for (int i = 0; i < partitions.size(); i++) {
            produced.put(partitions.get(i).partition(), offsets.get(i).next());
        }
        return produced;
    }

    /** Sends one object's records up to the cut, each checked for size first and at its offset when acknowledged. */
    private void send(Producer<byte[], byte[]> producer, VerifiedPartition vp, VerifiedObject vo, CheckedObject o, TargetOffsets offsets,
            Progress progress, ProduceFailure failure) throws InterruptedException {
        int p = vp.partition();
        String header = options.originalOffsetHeader();
        long headerOverhead = RestoredRecords.headerOverhead(header);
        if (!failure.awaitRoom()) {
            return; // also between objects: an object of fewer records than a check's worth would never look
        }
        int uncounted = 0; // sent since the last count: the shared counters are touched once per check, not per record
        try {
            for (BackupRecord r : o.records()) {
                if (failure.first() != null || r.offset() > vp.lastOffset()) {
                    break; // records after the cut the verify pass chose are never sent
                }
                long sentFor;
                try {
                    sentFor = offsets.assign(r);
                } catch (TargetOffsets.Hole e) {
                    throw new RestoreCheckException(e.getMessage() + " (the verify pass did not see it: " + vo.name() + " changed?)", e);
                }
                long size = RecordSizes.batchOfOne(r) + headerOverhead;
                if (size > topic.maxMessageBytes()) {
                    throw new RestoreCheckException("the record at offset " + r.offset() + " of " + vp.topic() + "/" + p + " is " + size
                            + " bytes as a batch on its own, and target topic " + topic.name() + " takes at most "
                            + topic.maxMessageBytes() + " (max.message.bytes); it was not sent");
                }
                if (uncounted == ProduceFailure.CHECK_EVERY) {
                    failure.countSent(uncounted);
                    uncounted = 0;
                    if (!failure.awaitRoom()) {
                        break;
                    }
                }
                producer.send(RestoredRecords.toProduce(topic.name(), p, r, header), (md, e) -> {
                    failure.delivered();
                    acknowledged(p, sentFor, md, e, progress, failure);
                });
                uncounted++;
            }
        } finally {
            failure.countSent(uncounted);
        }
    }

    private void acknowledged(int p, long sentFor, RecordMetadata md, Exception e, Progress progress, ProduceFailure failure) {
        if (e != null) {
            failure.fail(new RestoreCheckException("target " + topic.name() + "/" + p + ": the record sent for offset " + sentFor
                    + " was not stored: " + Failures.describe(e), e));
        } else if (md.offset() != sentFor) {
            failure.fail(new RestoreCheckException("target: sent for offset " + sentFor + ", the broker stored it at " + topic.name() + "/"
                    + p + " offset " + md.offset() + ": another writer on the partition, or a record lost or written twice"));
        } else {
            progress.add(p, 1);
        }
    }

    /** A failure after the first send: the records in flight have been waited for; say how many were sent. */
    private static RuntimeException afterSending(RuntimeException f, long n) {
        if (n == 0) {
            return f;
        }
        String message = f.getMessage() != null && f.getMessage().startsWith("target: sent for offset")
                ? f.getMessage() + ". " + DELETE_AND_RECREATE
                : "after sending " + n + " records: " + Failures.describe(f) + ". " + DELETE_AND_RECREATE;
        return new RestoreCheckException(message, f);
    }

    private void checkHighWatermarks(Map<Integer, Long> produced) {
        Map<TopicPartition, Long> hwms = target.highWatermarks(produced.keySet().stream()
                .map(p -> new TopicPartition(topic.name(), p)).collect(Collectors.toList()));
        for (Map.Entry<Integer, Long> e : produced.entrySet()) {
            long hwm = hwms.get(new TopicPartition(topic.name(), e.getKey()));
            if (hwm != e.getValue()) {
                throw new RestoreCheckException("target " + topic.name() + "/" + e.getKey() + " has high watermark " + hwm + " after the"
                        + " restore, and " + e.getValue() + " records were produced into it: another writer on the partition, or a"
                        + " record lost or written twice. " + DELETE_AND_RECREATE);
            }
        }
    }
}
