package dev.mirrorv3.kafka.groupsync;

import dev.mirrorv3.kafka.groups.CommittedOffsets;
import dev.mirrorv3.kafka.groups.GroupSelection;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The committed offsets of a Kafka cluster's consumer groups on the topics a mirror copies, keyed by the copies'
 * partitions (same partition number; the topic mapped as the mirror maps it). Lists the groups and reads their offsets
 * in batches ({@link CommittedOffsets}), then leaves out the topics a {@link Gate} refuses (asked after the offsets were
 * read: offsets committed on a topic created again imply that topic existed when they were read).
 */
public final class KafkaGroupOrigin implements GroupOffsetSync.Origin {
    private final CommittedOffsets committed;
    private final Predicate<String> mirroredTopic;
    private final UnaryOperator<String> destinationTopic;
    private final Gate gate;

    /** Which source topics' offsets may not reach the standby now (a Kafka sink: a topic deleted and created again). */
    public interface Gate {
        /**
         * The topics of {@code topics} whose offsets are left out of this pass; the gate says why.
         *
         * @throws Exception a transient failure: the pass is tried again at the next interval
         */
        Set<String> refused(Set<String> topics) throws Exception;
    }

    /**
     * @param source an admin client of the source cluster (not owned)
     * @param mirroredTopic whether a source topic is mirrored
     * @param destinationTopic the copy of a source topic
     * @param gate the source topics left out of a pass
     */
    public KafkaGroupOrigin(Admin source, Duration timeout, Predicate<String> mirroredTopic, UnaryOperator<String> destinationTopic,
                            Gate gate) {
        this.committed = new CommittedOffsets(source, timeout);
        this.mirroredTopic = mirroredTopic;
        this.destinationTopic = destinationTopic;
        this.gate = gate;
    }

    @Override
    public Map<String, Map<TopicPartition, OffsetAndMetadata>> offsets(GroupSelection selection) throws Exception {
        List<String> groups = committed.listGroups().stream().filter(selection::selected).toList();
        Map<String, Map<TopicPartition, OffsetAndMetadata>> read = committed.read(groups, tp -> mirroredTopic.test(tp.topic()));
        Set<String> topics = new HashSet<>();
        read.values().forEach(offsets -> offsets.keySet().forEach(tp -> topics.add(tp.topic())));
        Set<String> refused = topics.isEmpty() ? Set.of() : gate.refused(topics);
        Map<String, Map<TopicPartition, OffsetAndMetadata>> out = new LinkedHashMap<>();
        read.forEach((group, offsets) -> {
            Map<TopicPartition, OffsetAndMetadata> mapped = new HashMap<>();
            offsets.forEach((tp, o) -> {
                if (!refused.contains(tp.topic())) {
                    mapped.put(new TopicPartition(destinationTopic.apply(tp.topic()), tp.partition()), o);
                }
            });
            if (!mapped.isEmpty()) {
                out.put(group, mapped);
            }
        });
        return out;
    }
}
