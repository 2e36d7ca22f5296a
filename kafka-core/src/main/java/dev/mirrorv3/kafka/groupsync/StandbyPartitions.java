package dev.mirrorv3.kafka.groupsync;

import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Which of a group sync's partitions exist on the standby: one describeTopics call. A partition that does not exist yet
 * (a topic not yet created or grown, a partition not yet restored) would make listing offsets fail or wait for the
 * whole timeout, and with it the pass for every group.
 */
final class StandbyPartitions {
    private final Admin standby;
    private final Duration timeout;

    StandbyPartitions(Admin standby, Duration timeout) {
        this.standby = standby;
        this.timeout = timeout;
    }

    /** The partitions of {@code wanted} that the standby lacks (their topic is missing or has fewer partitions). */
    Set<TopicPartition> missing(Set<TopicPartition> wanted) throws Exception {
        Set<String> topics = new HashSet<>();
        wanted.forEach(tp -> topics.add(tp.topic()));
        Map<String, KafkaFuture<TopicDescription>> described = standby.describeTopics(topics,
                new DescribeTopicsOptions().timeoutMs((int) timeout.toMillis())).topicNameValues();
        Set<TopicPartition> missing = new HashSet<>();
        for (TopicPartition tp : wanted) {
            int partitions;
            try {
                partitions = described.get(tp.topic()).get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS).partitions().size();
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e.getCause() instanceof Exception c ? c : e;
                }
                partitions = 0;
            }
            if (tp.partition() >= partitions) {
                missing.add(tp);
            }
        }
        return missing;
    }
}
