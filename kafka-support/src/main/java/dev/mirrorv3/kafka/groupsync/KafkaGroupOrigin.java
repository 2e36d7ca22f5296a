package dev.mirrorv3.kafka.groupsync;

import dev.mirrorv3.kafka.groups.CommittedOffsets;
import dev.mirrorv3.kafka.groups.GroupSelection;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The committed offsets of a Kafka cluster's consumer groups on the topics a mirror copies, keyed by the copies'
 * partitions (same partition number; the topic mapped as the mirror maps it). Lists the groups and reads their offsets
 * in batches ({@link CommittedOffsets}).
 */
public final class KafkaGroupOrigin implements GroupOffsetSync.Origin {
    private final CommittedOffsets committed;
    private final Predicate<String> mirroredTopic;
    private final UnaryOperator<String> destinationTopic;

    /**
     * @param source an admin client of the source cluster (not owned)
     * @param mirroredTopic whether a source topic is mirrored
     * @param destinationTopic the copy of a source topic
     */
    public KafkaGroupOrigin(Admin source, Duration timeout, Predicate<String> mirroredTopic, UnaryOperator<String> destinationTopic) {
        this.committed = new CommittedOffsets(source, timeout);
        this.mirroredTopic = mirroredTopic;
        this.destinationTopic = destinationTopic;
    }

    @Override
    public Map<String, Map<TopicPartition, OffsetAndMetadata>> offsets(GroupSelection selection) throws Exception {
        List<String> groups = committed.listGroups().stream().filter(selection::selected).toList();
        Map<String, Map<TopicPartition, OffsetAndMetadata>> out = new LinkedHashMap<>();
        committed.read(groups, tp -> mirroredTopic.test(tp.topic())).forEach((group, offsets) -> {
            Map<TopicPartition, OffsetAndMetadata> mapped = new HashMap<>();
            offsets.forEach((tp, o) -> mapped.put(new TopicPartition(destinationTopic.apply(tp.topic()), tp.partition()), o));
            out.put(group, mapped);
        });
        return out;
    }
}
