package dev.mirrorv3.kafka;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * Log-start offsets and high watermarks of any cluster's partitions (a source, a destination, a restore target), through an
 * {@link Admin} client.
 */
public final class LogOffsets implements AutoCloseable {
    private final Admin admin;
    private final Duration timeout;

    public LogOffsets(Map<String, Object> adminConfig, Duration timeout) {
        this(Admin.create(adminConfig), timeout);
    }

    public LogOffsets(Admin admin, Duration timeout) {
        this.admin = admin;
        this.timeout = timeout;
    }

    /** The first offset still in each partition's log (retention and deleteRecords move it). */
    public Map<TopicPartition, Long> logStartOffsets(Collection<TopicPartition> partitions) {
        return list(partitions, OffsetSpec.earliest());
    }

    /** Each partition's high watermark (the offset after the last record written, committed or not). */
    public Map<TopicPartition, Long> highWatermarks(Collection<TopicPartition> partitions) {
        return list(partitions, OffsetSpec.latest());
    }

    public Admin admin() {
        return admin;
    }

    private Map<TopicPartition, Long> list(Collection<TopicPartition> partitions, OffsetSpec spec) {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions.forEach(tp -> request.put(tp, spec));
        ListOffsetsOptions options = new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED).timeoutMs((int) timeout.toMillis());
        Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> result;
        try {
            result = AdminWait.await(() -> admin.listOffsets(request, options).all().get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS),
                    () -> "listing offsets of " + partitions + " timed out after " + timeout);
        } catch (ExecutionException e) {
            throw AdminWait.failure("listing offsets of " + partitions, e);
        }
        Map<TopicPartition, Long> offsets = new HashMap<>();
        result.forEach((tp, info) -> offsets.put(tp, info.offset()));
        return offsets;
    }

    @Override
    public void close() {
        admin.close(Duration.ofSeconds(5));
    }
}
