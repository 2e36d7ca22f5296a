package dev.mirrorv3.connect.source;

import dev.mirrorv3.chain.Version;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.restore.Follower;
import dev.mirrorv3.chain.restore.RestoreCut;
import dev.mirrorv3.chain.restore.StandbyCut;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.kafka.FailureNotes;
import dev.mirrorv3.kafka.HeartbeatSchedule;
import dev.mirrorv3.kafka.LogOffsets;
import dev.mirrorv3.kafka.PartitionException;
import dev.mirrorv3.kafka.PartitionRetry;
import dev.mirrorv3.kafka.connect.ConnectFailures;
import dev.mirrorv3.kafka.restore.RestoreCheckException;
import dev.mirrorv3.kafka.restore.TargetIdentity;
import dev.mirrorv3.kafka.restore.TargetTail;
import dev.mirrorv3.kafka.restore.TargetTopic;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
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
 * itself is positioned again after its backoff; the other partitions go on. Anything else fails the task. The target
 * topic's id is recorded at the first positioning and required at every positioning, once per {@code poll()} before
 * records are handed out, and to explain a mismatch ({@link TargetIdentity}): a target deleted and created again is the
 * condition of every partition of the task (they all write into it), so it fails the task, whatever partition.failure.
 */
public class ChainSourceTask extends SourceTask {
    private static final Logger log = LoggerFactory.getLogger(ChainSourceTask.class);
    /** How often a follower that is behind reads the backup's newest object ahead for the lag in seconds. */
    static final long LAG_READ_AHEAD_INTERVAL_MS = 30_000;
    /**
     * Objects the task's partitions read ahead together (each while the records of its last object are sent): decoding
     * overlaps with Connect's sending, and memory holds at most this many objects more, however many partitions.
     */
    static final int OBJECTS_READ_AHEAD = 2;

    private final Clock clock;
    /** A mismatch of a record of no followed partition (fails the task). */
    private final AtomicReference<String> mismatch = new AtomicReference<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private ChainSourceConfig config;
    private Store store;
    private LogOffsets targetOffsets;
    private TargetTail tail;
    private TargetIdentity identity;
    /** poll() calls, and the one whose identity check was made: one check per call, before any record is handed out. */
    private long polls;
    private long identityCheckedAt = -1;
    private List<PartitionFollow> follows = List.of();
    private ChainSourceMetrics metrics;
    private HeartbeatSchedule heartbeats;
    private int turn;
    private String name;
    private FollowIsolation isolation;

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
        identity = new TargetIdentity(targetOffsets.admin(), config.targetTopic(), config.adminTimeout());
        metrics = new ChainSourceMetrics(context, name, config.pollIntervalMs());
        isolation = new FollowIsolation(name, config, clock, targetOffsets.admin(), metrics);
        Store backup = store;
        metrics.storeRequests(config.sourceTopic(), () -> List.of(backup.requests()));
        List<PartitionFollow> fs = new ArrayList<>();
        KeyRing keys = config.keys();
        RestoreCut cut = config.restoreCut(config.taskPartitions());
        Semaphore readAhead = new Semaphore(OBJECTS_READ_AHEAD);
        for (int p : config.taskPartitions()) {
            Follower follower = new Follower(store, config.envelope(), keys, config.sourceTopic(), p, config.offsetMode(),
                    config.chainStart())
                    .until(cut)
                    .readingAhead(readAhead);
            fs.add(new PartitionFollow(p, new TopicPartition(config.targetTopic(), config.targetPartition(p)), follower,
                    new PartitionRetry(config.retryBackoffInitialMs(), config.retryBackoffMaxMs(), metrics::restart,
                            ConnectFailures.KINDS),
                    config.destinationName(), metrics.partition(config.sourceTopic(), p), clock.millis()));
            log.info("{}: following backup {} (topic {}, partition {}) into {} with offsets={}, listing every {} ms", name,
                    follower.location(), config.sourceTopic(), p, fs.get(fs.size() - 1).target, config.offsetMode().cliName(),
                    config.pollIntervalMs());
        }
        follows = fs;
        heartbeats = new HeartbeatSchedule(config.heartbeatIntervalMs(), clock.millis());
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
        polls++;
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
            } else if (identityCheckedAt != polls) {
                identity.check(); // the producer may have written into a topic created again since the last look
                identityCheckedAt = polls;
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
                isolation.isolate(f, e, follows);
            }
            return List.of();
        }
    }

    /**
     * Reads the target's high watermark h, places the follower there and checks the target's last record. After a
     * transient failure h is where the follower stopped (everything handed to Connect is acknowledged by now), so it
     * keeps its place instead of re-reading the chain; any other h (records lost, another writer) positions it anew.
     */
    private void position(PartitionFollow f) {
        identity.check(); // the first positioning records the target's id; later ones require it
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
                throw new PartitionException(e.getMessage() + f.follower.renumberAfterPrune(), e); // this target partition's
            }
        }
        if (!kept) {
            requireTargetInsideCut(f, h, topic.logAppendTime());
        }
        identity.check(); // h and the last record were read from the topic whose id was checked
        identityCheckedAt = polls;
        f.positionedAt(clock.millis(), previous);
        isolation.cleared(f);
        log.info("{}: {} resumes at target offset {} (the target's high watermark{}), {} backup offset {}", name, f.target, h,
                previous.isPresent() ? "; its last record is the backup's offset " + previous.get().offset() : "",
                kept ? "where it stopped: next object from" : "next object from", f.follower.nextChainOffset());
    }

    /**
     * A timestamp cut with preserve: the placing checked the object holding the target's last record; every record the
     * target holds must lie inside the cut, by the target's own timestamps (its time index), or on a LogAppendTime target,
     * whose timestamps are not the backup's, by the backup's records before h.
     */
    private void requireTargetInsideCut(PartitionFollow f, long h, boolean logAppendTime) {
        StandbyCut cut = f.follower.standbyCut();
        if (h == 0 || !cut.uncheckedBeforeTail()) {
            return;
        }
        if (logAppendTime) {
            cut.requireBackupInsideBefore(h);
            return;
        }
        tail.firstStampedAfter(f.target, cut.timestampMs()).filter(o -> o.offset() < h).ifPresent(o -> {
            throw cut.targetPast(o.offset(), o.timestamp(), h);
        });
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
            throw new ConnectException(name + ": " + identity.explain(m));
        }
        for (PartitionFollow f : follows) {
            String problem = f.takeMismatch();
            if (problem != null) {
                String explained = identity.explain(problem); // a re-created target is the likelier cause, and the task's
                isolation.isolate(f, identity.recreated() ? new RestoreCheckException(explained)
                        : new PartitionException(name + ": " + problem), follows);
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
