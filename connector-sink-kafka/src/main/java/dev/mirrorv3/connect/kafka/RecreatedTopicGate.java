package dev.mirrorv3.connect.kafka;

import dev.mirrorv3.kafka.LogOffsets;
import dev.mirrorv3.kafka.PositionException;
import dev.mirrorv3.kafka.PositionRule;
import dev.mirrorv3.kafka.TopicIds;
import dev.mirrorv3.kafka.groupsync.KafkaGroupOrigin;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka sink's group sync never copies the offsets of a source topic deleted and created again: they belong to
 * another topic of the same name, and its small offsets would move the standby's groups back. A source topic whose
 * id is not the one its destination topic records ({@link SourceIdentity}) is left out of each pass, said once with
 * the positioning message (both ids), until its destination records it again (a new, empty destination topic takes the
 * new topic). A reset of a group on the same topic still moves the standby. The ids are read after the offsets:
 * offsets committed on a new topic imply it existed when they were read.
 */
final class RecreatedTopicGate implements KafkaGroupOrigin.Gate {
    private static final Logger log = LoggerFactory.getLogger(RecreatedTopicGate.class);

    private final SourceIdentity identity;
    private final UnaryOperator<String> destinationTopic;
    private final String name;
    /** The message said for each refused topic, so that it is said again only when it changes. */
    private final Map<String, String> said = new HashMap<>();

    /**
     * @param identity which source topic each destination topic copies; its admin clients of the source and the destination
     *                 cluster (not owned) and its timeout are the gate's
     * @param destinationTopic the destination topic of a source topic
     * @param name the connector's name, for the log lines
     */
    RecreatedTopicGate(SourceIdentity identity, UnaryOperator<String> destinationTopic, String name) {
        this.identity = identity;
        this.destinationTopic = destinationTopic;
        this.name = name;
    }

    @Override
    public Set<String> refused(Set<String> topics) throws Exception {
        Map<String, String> current = TopicIds.readExisting(identity.source(), topics, identity.timeout());
        Map<String, TopicDescription> destinations = new TreeMap<>();
        for (String t : topics) {
            describe(destinationTopic.apply(t)).ifPresent(d -> destinations.put(d.name(), d));
        }
        Map<TopicPartition, String> recorded = identity.recorded(destinations).ids();
        Set<String> refused = new TreeSet<>();
        Map<TopicPartition, TopicPartition> differing = new HashMap<>(); // destination partition -> its source partition
        for (String t : topics) {
            String now = current.getOrDefault(t, "");
            TopicDescription d = destinations.get(destinationTopic.apply(t));
            if (now.isEmpty() || d == null) {
                continue; // gone since its offsets were read (they are the old topic's), or nothing to sync to
            }
            for (TopicPartitionInfo p : d.partitions()) {
                TopicPartition q = new TopicPartition(d.name(), p.partition());
                String copied = recorded.getOrDefault(q, "");
                if (!copied.isEmpty() && !copied.equals(now)) {
                    refused.add(t);
                    differing.put(q, new TopicPartition(t, q.partition()));
                    break; // one partition names it
                }
            }
        }
        say(differing, recorded, current);
        said.keySet().retainAll(refused);
        return refused;
    }

    /** Logs why each refused topic is left out, once per message. */
    private void say(Map<TopicPartition, TopicPartition> differing, Map<TopicPartition, String> recorded, Map<String, String> current) {
        if (differing.isEmpty()) {
            return;
        }
        Map<TopicPartition, Long> next = new LogOffsets(identity.destination(), identity.timeout()).highWatermarks(differing.keySet());
        differing.forEach((q, s) -> {
            try {
                PositionRule.checkIdentity(s, new PositionRule.KafkaTopic(q), OptionalLong.of(next.get(q)), recorded.get(q),
                        current.get(s.topic()));
            } catch (PositionException e) {
                if (!e.getMessage().equals(said.put(s.topic(), e.getMessage()))) {
                    log.warn("{}: consumer group offsets of source topic {} are not synced to {} (the destination's groups keep"
                            + " theirs): {}", name, s.topic(), q.topic(), e.getMessage());
                }
            }
        });
    }

    private Optional<TopicDescription> describe(String topic) throws Exception {
        KafkaFuture<TopicDescription> f = identity.destination().describeTopics(List.of(topic)).topicNameValues().get(topic);
        try {
            return Optional.of(f.get(identity.timeout().toMillis() + 1000, TimeUnit.MILLISECONDS));
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return Optional.empty();
            }
            throw e.getCause() instanceof Exception c ? c : e;
        }
    }
}
