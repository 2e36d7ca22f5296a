package dev.mirrorv3.connect.blob;

import dev.mirrorv3.kafka.PerPartition;
import dev.mirrorv3.kafka.PositionRule;
import dev.mirrorv3.kafka.SourceTopicCheck;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Function;
import org.apache.kafka.common.TopicPartition;

/**
 * The source topic's identity as the blob sink checks it (docs/design.md, the position rule): against the id the
 * backup recorded when partitions are opened ({@link BackupIdentity}), then before each commit of their records
 * against the id they were opened with ({@link SourceTopicCheck}, which {@link BoundWriter} asks), so that a topic
 * deleted and created again under a running task never reaches the old chain.
 *
 * @param backup the id the backup recorded, checked and recorded when partitions are opened
 * @param running the check before each commit (task thread)
 */
record IdentityChecks(BackupIdentity backup, SourceTopicCheck running) {
    /**
     * Checks the opened partitions' backups, then expects their records to come from the topic they were checked against.
     *
     * @param destinationNext each partition's next offset in the backup, empty when it holds nothing
     * @param opened where a topic whose backup is another topic's fails each of its partitions
     * @param location where each partition's backup is, for the messages
     */
    void opened(Map<TopicPartition, OptionalLong> destinationNext, PerPartition<?> opened, Function<TopicPartition, String> location) {
        Map<String, String> ids = backup.verify(destinationNext, opened);
        destinationNext.keySet().stream().filter(tp -> !opened.failed(tp)).forEach(tp -> running.expect(tp,
                ids.getOrDefault(tp.topic(), ""), new PositionRule.BlobChain(location.apply(tp))));
    }
}
