package dev.mirrorv3.connect.source;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.PayloadBytes;
import dev.mirrorv3.chain.envelope.RecordHeader;
import dev.mirrorv3.chain.restore.CutFinder;
import dev.mirrorv3.chain.restore.Follower;
import dev.mirrorv3.kafka.PartitionRetry;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.header.ConnectHeaders;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One backup partition of a task: its follower and target partition, when it may be looked at next, whether it is
 * positioned at the target's high watermark, its retry, the records handed to Connect that the producer has not
 * acknowledged yet and its metrics. It turns the follower's records into Connect's, counts what the target
 * acknowledged, retries its transient failures ({@link PartitionRetry}) and writes its heartbeat and cut lines; the task
 * decides the turns and positions it.
 */
final class PartitionFollow {
    /** The task's logger: the lines keep the category operators filter on. */
    private static final Logger log = LoggerFactory.getLogger(ChainSourceTask.class);
    static final String OFFSET_KEY = "offset";
    static final String TARGET_OFFSET_KEY = "target.offset";

    final int backupPartition;
    final TopicPartition target;
    final Follower follower;
    final ChainSourceMetrics.Partition metrics;
    private final Map<String, Object> sourcePartition;
    private final PartitionRetry retry;
    private final AtomicLong outstanding = new AtomicLong();
    /** The first record the target did not store at its offset (set on the producer's thread), once. */
    private final AtomicReference<String> mismatch = new AtomicReference<>();
    private boolean mismatchTaken;
    private boolean positioned;
    private long notBefore;
    private long emptySince;
    private long sinceHeartbeat;

    /** @param now the task clock's time: the empty-backup wait counts from it */
    PartitionFollow(int backupPartition, TopicPartition target, Follower follower, PartitionRetry retry, String backupName,
            ChainSourceMetrics.Partition metrics, long now) {
        this.emptySince = now;
        this.backupPartition = backupPartition;
        this.target = target;
        this.follower = follower;
        this.retry = retry;
        this.sourcePartition = Map.of("backup", backupName, "partition", backupPartition);
        this.metrics = metrics;
    }

    /** Whether the task may look at this partition at {@code now}. */
    boolean due(long now) {
        return notBefore <= now;
    }

    /** When the task may look at this partition next. */
    long notBefore() {
        return notBefore;
    }

    /** Not before {@code timeMs}: the next listing, or what is in flight. */
    void waitUntil(long timeMs) {
        notBefore = timeMs;
    }

    boolean positioned() {
        return positioned;
    }

    /**
     * The follower stands at the target's high watermark, after the target's last record {@code previous} (none: an
     * empty target); the empty-backup wait counts from {@code now}.
     */
    void positionedAt(long now, Optional<BackupRecord> previous) {
        positioned = true;
        emptySince = now;
        metrics.positioned(previous.map(r -> r.offset() + 1).orElse(follower.nextChainOffset()),
                previous.map(PartitionFollow::timestamp).orElse(null));
    }

    /**
     * The partition failed and is isolated: it is positioned anew, not before {@code retryAtMs} ({@code Long.MAX_VALUE}:
     * only a restart of the task retries it).
     */
    void isolated(long retryAtMs) {
        positioned = false;
        notBefore = retryAtMs;
        follower.dropReadAhead(); // its permit is the task's: the other partitions read ahead meanwhile
    }

    /** Records the first record the target did not store at its offset (the producer's thread). */
    void mismatch(String problem) {
        mismatch.compareAndSet(null, problem);
    }

    /** The mismatch recorded, once: null when there is none or it was taken already. */
    String takeMismatch() {
        String m = mismatch.get();
        if (m == null || mismatchTaken) {
            return null;
        }
        mismatchTaken = true;
        return m;
    }

    /** The backup partition as the metrics and the failures name it (the backed-up topic and partition). */
    TopicPartition backup() {
        return metrics.partition();
    }

    /** A look at the backup worked: the next failure backs off from the start. */
    void succeeded() {
        retry.succeeded();
    }

    /**
     * A failure while following: a transient one unpositions the partition (it resumes at the target's high watermark)
     * and waits for the retry's delay; returns false for one that is not transient (the task isolates the partition or
     * fails).
     */
    boolean failed(RuntimeException e, long now, String task) {
        return retry.retry(e, (delay, attempt, cause) -> {
            positioned = false;
            notBefore = now + delay;
            follower.dropReadAhead();
            log.warn("{}: {} into {}: transient failure (attempt {}), retrying in {} ms at the target's high watermark: {}", task,
                    follower.location(), target, attempt, delay, cause);
        });
    }

    /** The follower found nothing new; says so while the backup has no object at all. */
    void nothingNew(long now, long pollIntervalMs, String task) {
        notBefore = now + pollIntervalMs;
        if (!follower.chainSeen()) {
            log.info("{}: backup {} is empty (no objects) for {} s; listing again every {} ms", task, follower.location(),
                    (now - emptySince) / 1000, pollIntervalMs);
        }
    }

    /** The records of a batch as Connect's, each with its backup offset and the target offset it must land at. */
    List<SourceRecord> records(List<Follower.Restored> batch, String originalOffsetHeader) {
        List<SourceRecord> out = new ArrayList<>(batch.size());
        for (Follower.Restored restored : batch) {
            BackupRecord r = restored.record();
            ConnectHeaders headers = new ConnectHeaders();
            for (RecordHeader h : r.headers()) {
                headers.add(h.key(), new SchemaAndValue(Schema.OPTIONAL_BYTES_SCHEMA, h.value()));
            }
            if (originalOffsetHeader != null) {
                headers.addBytes(originalOffsetHeader, Long.toString(r.offset()).getBytes(StandardCharsets.UTF_8));
            }
            Map<String, Object> offset = new HashMap<>(4); // room for both without a resize
            offset.put(OFFSET_KEY, r.offset());
            offset.put(TARGET_OFFSET_KEY, restored.targetOffset());
            out.add(new SourceRecord(sourcePartition, offset, target.topic(), target.partition(), Schema.OPTIONAL_BYTES_SCHEMA,
                    r.key(), Schema.OPTIONAL_BYTES_SCHEMA, r.value(), timestamp(r), headers));
        }
        outstanding.addAndGet(out.size());
        sinceHeartbeat += out.size();
        metrics.handedOut(out.get(0).timestamp());
        return out;
    }

    /**
     * The producer is done with a record (on its thread): written ({@code stored}) or not. Counted before the
     * outstanding count drops, so that a position taken once nothing is outstanding sees every restored record.
     */
    void acknowledged(SourceRecord record, boolean stored) {
        if (stored) {
            metrics.restored(backupOffset(record), record.timestamp(), payloadBytes(record));
        }
        outstanding.decrementAndGet();
    }

    long outstanding() {
        return outstanding.get();
    }

    /** Logs this partition's heartbeat line and starts counting the records for the next one. */
    void heartbeat(String task) {
        log.info("{}: heartbeat {} <- {}: {}, {} records handed to Connect since the last heartbeat", task, target,
                follower.location(), positioned ? "next target offset " + follower.nextTargetOffset()
                        + ", next object from backup offset " + follower.nextChainOffset() : "not positioned (retrying)",
                sinceHeartbeat);
        sinceHeartbeat = 0;
    }

    /** Says once, when the target has acknowledged everything up to the cut, that the follow stops there. */
    void reportCutReached(String task) {
        if (!follower.cutReached() || outstanding() > 0 || metrics.cutReached.get() == 1) {
            return;
        }
        metrics.cutReached.set(1);
        CutFinder c = follower.cut();
        String upTo = c.lastOffset() >= 0 ? "backup offset " + c.lastOffset() + stamped(c.lastTimestampMs())
                : "where it stood when the task started";
        String after = c.firstExcludedOffset() >= 0
                ? "; the first record after it is at offset " + c.firstExcludedOffset() + stamped(c.firstExcludedTimestampMs()) : "";
        log.info("{}: {} reached the cut ({}): the target holds the backup up to {}{}. Nothing more is sent and the task stays"
                + " RUNNING; remove until.timestamp/until.offset to follow on", task, target, c.requested(), upTo, after);
    }

    static long backupOffset(SourceRecord record) {
        return ((Number) record.sourceOffset().get(OFFSET_KEY)).longValue();
    }

    /** A backup record's timestamp as the target gets it: none when it had none. */
    private static Long timestamp(BackupRecord r) {
        return r.timestampMs() != null && r.timestampMs() >= 0 ? r.timestampMs() : null;
    }

    private static String stamped(Long ms) {
        return ms == null ? "" : " (stamped " + Instant.ofEpochMilli(ms) + ")";
    }

    /** Key, value and header bytes ({@link PayloadBytes}), as the Kafka sink counts them. */
    private static long payloadBytes(SourceRecord r) {
        PayloadBytes n = PayloadBytes.of(bytes(r.key()), bytes(r.value()));
        for (Header h : r.headers()) {
            n.header(h.key(), bytes(h.value()));
        }
        return n.total();
    }

    private static byte[] bytes(Object value) {
        return value instanceof byte[] b ? b : null;
    }
}
