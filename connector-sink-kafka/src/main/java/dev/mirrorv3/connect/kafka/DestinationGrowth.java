package dev.mirrorv3.connect.kafka;

import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.connect.ConnectFailures;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.common.errors.InvalidPartitionsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adds partitions to a mirror's destination topic when its source topic grew while the connector watched it, so that
 * source partition p keeps a same-numbered destination partition. Only a destination that had at least the source's
 * former count is grown: one that was already too small (or a wrong topic) is left alone, and the task refuses the
 * partition with what to do ({@link MirrorPositions}). Adding partitions cannot be undone; the topic's own settings
 * (retention, cleanup.policy) apply to them. Connect-free.
 */
public final class DestinationGrowth {
    private static final Logger log = LoggerFactory.getLogger(DestinationGrowth.class);

    private final Admin destination;
    private final String destinationDescription;
    private final Duration timeout;
    private final UnaryOperator<String> destinationTopic;

    /**
     * @param destination an admin client of the destination cluster (not closed here)
     * @param destinationDescription how messages name the destination cluster (its bootstrap servers)
     * @param destinationTopic the destination topic of a source topic
     */
    public DestinationGrowth(Admin destination, String destinationDescription, Duration timeout, UnaryOperator<String> destinationTopic) {
        this.destination = destination;
        this.destinationDescription = destinationDescription;
        this.timeout = timeout;
        this.destinationTopic = destinationTopic;
    }

    /**
     * Grows each destination topic whose source topic grew from {@code before} to {@code now}. A failure that a permission
     * or the topic's state explains is logged with what to do (the task then refuses the new partition with its own
     * message); a transient one is thrown, to be tried again.
     */
    public void grow(Map<String, Integer> before, Map<String, Integer> now) throws Exception {
        for (Map.Entry<String, Integer> e : now.entrySet()) {
            Integer was = before.get(e.getKey());
            if (was != null && e.getValue() > was) {
                grow(e.getKey(), was, e.getValue());
            }
        }
    }

    private void grow(String source, int was, int now) throws Exception {
        String topic = destinationTopic.apply(source);
        String where = "destination topic " + topic + " on " + destinationDescription;
        try {
            int has = partitions(topic);
            if (has >= now) {
                return;
            }
            if (has < was) {
                log.warn("source topic {} grew from {} to {} partitions; {} has {}, fewer than the source had: not adding partitions"
                        + " (is it the right topic?)", source, was, now, where, has);
                return;
            }
            destination.createPartitions(Map.of(topic, NewPartitions.increaseTo(now))).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            log.info("source topic {} grew from {} to {} partitions: added partitions {}-{} to {}", source, was, now, has, now - 1, where);
        } catch (ExecutionException ex) {
            Throwable cause = ex.getCause();
            if (cause instanceof InvalidPartitionsException && partitions(topic) >= now) {
                return; // grown meanwhile, by someone else
            }
            if (ConnectFailures.isTransient(cause)) {
                throw cause instanceof Exception c ? c : ex;
            }
            String fix = cause instanceof UnknownTopicOrPartitionException ? "create it with " + now + " partitions"
                    : Failures.isAuthorization(cause) ? "grant the destination admin client (destination.admin.*, destination.sasl.*"
                    + " settings) Alter on the topic, or add the partitions yourself (kafka-topics --alter --topic " + topic
                    + " --partitions " + now + ")"
                    : "add the partitions yourself (kafka-topics --alter --topic " + topic + " --partitions " + now + ")";
            log.error("source topic {} grew from {} to {} partitions, and adding partitions to {} failed: {}. The task that gets a new"
                    + " partition will refuse it until the destination has it: {}, then restart the task", source, was, now, where,
                    Failures.describe(cause), fix);
        }
    }

    private int partitions(String topic) throws Exception {
        return destination.describeTopics(List.of(topic)).allTopicNames().get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .get(topic).partitions().size();
    }
}
