package dev.mirrorv3.connect.source;

import dev.mirrorv3.chain.Version;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.restore.Follower;
import dev.mirrorv3.chain.restore.RestoreCut;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.kafka.FailureNotes;
import dev.mirrorv3.kafka.FailureVerdict;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.HeartbeatSchedule;
import dev.mirrorv3.kafka.LogOffsets;
import dev.mirrorv3.kafka.PartitionException;
import dev.mirrorv3.kafka.PartitionFailures;
import dev.mirrorv3.kafka.PartitionRetry;
import dev.mirrorv3.kafka.restore.RestoreCheckException;
import dev.mirrorv3.kafka.restore.TargetTail;
import dev.mirrorv3.kafka.restore.TargetTopic;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.SourceRecord;
import org.apache.kafka.connect.source.SourceTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows the backup partitions assigned to it into the target topic. Each {@code poll()} returns the records of one
 * whole checked object (or what is left of it) of one partition, round-robin; the target's high watermark is read only
 * when a partition is (re)positioned, at start and after a transient failure. Every record's stored offset is checked in
 * {@link #commitRecord}; a mismatch is acted on from the next {@code poll()}, since Connect only logs exceptions thrown
 * in {@code commitRecord}. A failure that belongs to one backup partition (its chain, its target partition, a missing key
 * id, a mismatch) isolates that partition with partition.failure=partition: it is not followed further, named by
 * mirror_v3_partition_failed, in the log and in {@code mirror-v3 status} ({@link FailureNotes}), and one that can clear by
 * itself is positioned again after its backoff; the other partitions go on. Anything else fails the task.
 */
public class ChainSourceTask extends SourceTask {
    private static final Logger log = LoggerFactory.getLogger(ChainSourceTask.class);
    /** How often a follower that is behind reads the backup's newest object ahead for the lag in seconds. */
    static final long LAG_READ_AHEAD_INTERVAL_MS = 30_000;

    private final Clock clock;
    /** A mismatch of a record of no followed partition (fails the task). */
    private final AtomicReference<String> mismatch = new AtomicReference<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private ChainSourceConfig config;
    private Store store;
    private LogOffsets targetOffsets;
    private TargetTail tail;
    private List<PartitionFollow> follows = List.of();
    private ChainSourceMetrics metrics;
    private HeartbeatSchedule heartbeats;
    private int turn;
    private String name;
    private FailureVerdict.Isolation isolation;
    private PartitionFailures failures;
    private FailureNotes notes;
    /** Target partitions with a failure note from an earlier run, cleared once they are positioned. */
    private Set<TopicPartition> noted = Set.of();

    public ChainSourceTask() {
        this(Clock.systemUTC());
    }

    /** @param clock the time of backoffs, heartbeats and the empty-backup wait; tests move it by hand */
    ChainSourceTask(Clock clock) {
        this.clock = clock;
    }

    @Override
    public String version() {
        return Version.get();
    }

    @Override
    public void start(Map<String, String> props) {
        config = new ChainSourceConfig(props);
        name = props.getOrDefault("name", "chain-source");
        if (config.snapshotBackup()) {
            throw new org.apache.kafka.connect.errors.ConnectException(ChainSourceConfig.COMPACTION_REFUSED);
        }
        store = openStore(config);
        targetOffsets = new LogOffsets(config.targetClientConfig(), config.adminTimeout());
        tail = new TargetTail(config.targetClientConfig(), config.adminTimeout());
        metrics = new ChainSourceMetrics(context, name, config.pollIntervalMs());
        isolation = config.partitionFailure();
        failures = new PartitionFailures(clock, config.retryBackoffInitialMs(), config.partitionRetryMaxMs(), "POST /connectors/" + name
                + "/restart?includeTasks=true restarts the connector's tasks, which position and check their partitions again"
                + " (docs/operations.md, \"A failed partition\")", log, metrics);
        notes = new FailureNotes(targetOffsets.admin(), FailureNotes.groupId(name), config.adminTimeout());
        List<PartitionFollow> fs = new ArrayList<>();
        KeyRing keys = config.keys();
        RestoreCut cut = config.restoreCut(config.taskPartitions());
        for (int p : config.taskPartitions()) {
            Follower follower = new Follower(store, config.envelope(), keys, config.sourceTopic(), p, config.offsetMode(),
                    config.chainStart())
                    .until(cut);
            fs.add(new PartitionFollow(p, new TopicPartition(config.targetTopic(), config.targetPartition(p)), follower,
                    new PartitionRetry(config.retryBackoffInitialMs(), config.retryBackoffMaxMs(), metrics::restart),
                    config.destinationName(), metrics.partition(config.sourceTopic(), p), clock.millis()));
            log.info("{}: following backup {} (topic {}, partition {}) into {} with offsets={}, listing every {} ms", name,
                    follower.location(), config.sourceTopic(), p, fs.get(fs.size() - 1).target, config.offsetMode().cliName(),
                    config.pollIntervalMs());
        }
        follows = fs;
        heartbeats = new HeartbeatSchedule(config.heartbeatIntervalMs(), clock.millis());
        noted = readNotes();
    }

    /** The backup's store; a seam for tests that inject store faults. */
    protected Store openStore(ChainSourceConfig config) {
        return config.openStore();
    }

    /** {@link #LAG_READ_AHEAD_INTERVAL_MS}; a seam for tests that look at the lag right after a listing. */
    protected long lagReadAheadIntervalMs() {
        return LAG_READ_AHEAD_INTERVAL_MS;
    }

    @Override
    public List<SourceRecord> poll() throws InterruptedException {
        throwIfMismatch();
        long now = clock.millis();
        if (heartbeats.due(now)) {
            follows.forEach(f -> f.heartbeat(name));
        }
        long wakeAt = now + config.pollIntervalMs();
        for (int i = 0; i < follows.size(); i++) {
            PartitionFollow f = follows.get((turn + i) % follows.size());
            if (!f.due(now)) {
                wakeAt = Math.min(wakeAt, f.notBefore());
                continue;
            }
            List<SourceRecord> records = poll(f, now);
            if (!records.isEmpty()) {
                turn = (turn + i + 1) % follows.size();
                return records;
            }
            wakeAt = Math.min(wakeAt, f.notBefore());
        }
        long sleep = Math.min(1000, Math.max(0, wakeAt - clock.millis())); // stop() is seen within a second
        if (sleep > 0 && stopped.await(sleep, TimeUnit.MILLISECONDS)) {
            return null;
        }
        throwIfMismatch();
        return null;
    }

    private List<SourceRecord> poll(PartitionFollow f, long now) {
        try {
            if (!f.positioned()) {
                if (f.outstanding() > 0) {
                    f.waitUntil(now + 100); // wait for what is in flight: it counts in the high watermark
                    return List.of();
                }
                position(f);
            }
            List<Follower.Restored> batch = f.follower.next();
            f.succeeded();
            polled(f, now);
            if (batch.isEmpty()) {
                f.nothingNew(now, config.pollIntervalMs(), name);
                f.reportCutReached(name);
                return List.of();
            }
            return f.records(batch, config.originalOffsetHeader());
        } catch (RuntimeException e) {
            if (!f.failed(e, now, name)) {
                isolate(f, e);
            }
            return List.of();
        }
    }

    /**
     * A failure of one backup partition that is not transient: isolates it (partition.failure=partition and a condition
     * of the partition, {@link FailureVerdict}), or fails the task. The store refusing every partition fails the task.
     */
    private void isolate(PartitionFollow f, RuntimeException e) {
        FailureVerdict verdict = FailureVerdict.of(e).under(isolation);
        if (!verdict.isolates()) {
            throw new ConnectException(name + ": follow-restore of " + f.follower.location() + " into " + f.target + " stopped: "
                    + Failures.describe(e), e);
        }
        PartitionFailures.Failure failure = failures.fail(f.backup(), verdict, e, OptionalLong.empty());
        f.isolated(failure.retryAtMs());
        try {
            notes.record(f.target, 0, failure.note());
        } catch (RuntimeException n) {
            log.warn("{}: cannot note the failure of {} for mirror-v3 status in consumer group {}: {}", name, f.target,
                    FailureNotes.groupId(name), Failures.describe(n));
        }
        if (verdict.refused() && failures.allRefused(follows.stream().map(PartitionFollow::backup).toList())) {
            throw new ConnectException(name + ": the store refuses every partition of this task: " + Failures.describe(e), e);
        }
    }

    /** The target partitions with a failure note from an earlier run; none when the notes cannot be read. */
    private Set<TopicPartition> readNotes() {
        try {
            return new HashSet<>(notes.read().keySet());
        } catch (RuntimeException e) {
            log.debug("{}: cannot read the failure notes in consumer group {}: {}", name, FailureNotes.groupId(name), Failures.describe(e));
            return new HashSet<>();
        }
    }

    /** The partition is positioned: no longer failed, and an earlier run's note of its failure goes. */
    private void cleared(PartitionFollow f) {
        failures.positioned(f.backup());
        if (noted.remove(f.target)) {
            try {
                notes.clear(List.of(f.target));
            } catch (RuntimeException e) {
                noted.add(f.target);
                log.debug("{}: cannot clear the failure note of {}: {}", name, f.target, Failures.describe(e));
            }
        }
    }

    /**
     * Reads the target's high watermark h, places the follower there and checks the target's last record. After a
     * transient failure h is where the follower stopped (everything handed to Connect is acknowledged by now), so it
     * keeps its place instead of re-reading the chain; any other h (records lost, another writer) positions it anew.
     */
    private void position(PartitionFollow f) {
        long h = targetOffsets.highWatermarks(List.of(f.target)).get(f.target);
        TargetTopic topic = TargetTopic.inspect(targetOffsets.admin(), f.target.topic(), config.adminTimeout());
        if (f.target.partition() >= topic.partitions()) {
            throw new PartitionException("target topic " + topic.name() + " has " + topic.partitions() + " partitions, and backup"
                    + " partition " + f.backupPartition + " goes to partition " + f.target.partition()
                    + ": add partitions or set partition.mapping");
        }
        boolean kept = f.follower.isAt(h);
        Optional<BackupRecord> previous = f.follower.resume(h);
        if (previous.isPresent()) {
            try {
                tail.verifyLast(f.target, h, previous.get(), config.originalOffsetHeader(), topic.logAppendTime());
            } catch (RestoreCheckException e) {
                throw new PartitionException(e.getMessage(), e); // this target partition's
            }
        }
        f.positionedAt(clock.millis(), previous);
        cleared(f);
        log.info("{}: {} resumes at target offset {} (the target's high watermark{}), {} backup offset {}", name, f.target, h,
                previous.isPresent() ? "; its last record is the backup's offset " + previous.get().offset() : "",
                kept ? "where it stopped: next object from" : "next object from", f.follower.nextChainOffset());
    }

    /** Publishes the follower's view after a successful look at the backup (the newest record may take a read). */
    private void polled(PartitionFollow f, long now) {
        f.metrics.polled(f.follower.backupEnd(), f.follower.newestTimestampMs(now, lagReadAheadIntervalMs()), f.follower.objectsRead(),
                now);
    }

    /**
     * Called by Connect once the producer has acknowledged a record (on the producer's thread): the offset the broker stored
     * it at must be the one it was produced for.
     */
    @Override
    public void commitRecord(SourceRecord record, RecordMetadata metadata) {
        PartitionFollow f = follow(record.kafkaPartition());
        Object expected = record.sourceOffset().get(PartitionFollow.TARGET_OFFSET_KEY);
        long backupOffset = PartitionFollow.backupOffset(record);
        if (f != null) {
            f.acknowledged(record, metadata != null);
        }
        java.util.function.Consumer<String> mismatch = f != null ? f::mismatch : m -> this.mismatch.compareAndSet(null, m);
        if (metadata == null) {
            mismatch.accept("the record of backup offset " + backupOffset + " for " + record.topic() + "/"
                    + record.kafkaPartition() + " target offset " + expected + " was not written (dropped by a transform or an error"
                    + " tolerance): the target now misses it; re-create the target topic and follow again");
            return;
        }
        long want = ((Number) expected).longValue();
        if (metadata.offset() != want) {
            mismatch.accept("target " + metadata.topic() + "/" + metadata.partition() + ": the record of backup offset "
                    + backupOffset + " was produced for offset " + want + ", and the broker stored it at offset " + metadata.offset()
                    + ": another writer on the partition (a second follower, a zombie task, a producer), or a worker with"
                    + " exactly.once.source.support=enabled, whose transaction markers take offsets (run this connector on a worker"
                    + " without it). The target may now hold records that are not the backup's: re-create the target topic and"
                    + " follow again");
        }
    }

    private PartitionFollow follow(Integer targetPartition) {
        for (PartitionFollow f : follows) {
            if (targetPartition != null && f.target.partition() == targetPartition) {
                return f;
            }
        }
        return null;
    }

    /** Acts on the mismatches commitRecord saw: isolates each partition's (or fails the task with it). */
    private void throwIfMismatch() {
        String m = mismatch.get();
        if (m != null) {
            throw new ConnectException(name + ": " + m);
        }
        for (PartitionFollow f : follows) {
            String problem = f.takeMismatch();
            if (problem != null) {
                isolate(f, new PartitionException(name + ": " + problem));
            }
        }
    }

    @Override
    public void stop() {
        stopped.countDown();
        closeQuietly(metrics);
        // Connect calls stop() on the task's thread once poll() has returned (AbstractWorkerSourceTask.close), so
        // closing the clients here cannot race a poll.
        closeQuietly(tail);
        closeQuietly(targetOffsets);
        closeQuietly(store);
    }

    private static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            log.debug("closing {} failed: {}", c, e.toString());
        }
    }
}
