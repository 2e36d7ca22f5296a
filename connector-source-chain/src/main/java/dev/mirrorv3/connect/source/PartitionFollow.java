package dev.mirrorv3.connect.source;

import dev.mirrorv3.chain.restore.Follower;
import dev.mirrorv3.kafka.Backoff;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.TopicPartition;

/**
 * One backup partition of a task: its follower, its target partition, whether it is positioned at the target's high
 * watermark, its backoff, the records handed to Connect that the producer has not acknowledged yet and its metrics.
 */
final class PartitionFollow {
    final int backupPartition;
    final TopicPartition target;
    final Follower follower;
    final Backoff backoff;
    final Map<String, Object> sourcePartition;
    final ChainSourceMetrics.Partition metrics;
    private final AtomicLong outstanding = new AtomicLong();
    boolean positioned;
    long notBefore;
    long emptySince;
    long lastHeartbeat;
    long sinceHeartbeat;

    /** @param now the task clock's time: the empty-backup wait and the heartbeat interval count from it */
    PartitionFollow(int backupPartition, TopicPartition target, Follower follower, Backoff backoff, String backupName,
            ChainSourceMetrics.Partition metrics, long now) {
        this.emptySince = now;
        this.lastHeartbeat = now;
        this.backupPartition = backupPartition;
        this.target = target;
        this.follower = follower;
        this.backoff = backoff;
        this.sourcePartition = Map.of("backup", backupName, "partition", backupPartition);
        this.metrics = metrics;
    }

    void sent(int records) {
        outstanding.addAndGet(records);
        sinceHeartbeat += records;
    }

    void acknowledged() {
        outstanding.decrementAndGet();
    }

    long outstanding() {
        return outstanding.get();
    }
}
