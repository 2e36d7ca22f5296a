package dev.mirrorv3.connect.kafka;

import dev.mirrorv3.kafka.config.ClusterAccess;
import dev.mirrorv3.kafka.config.ConnectorValidator;
import dev.mirrorv3.kafka.config.TopicsSetting;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Cross-field rules of the Kafka sink (docs/kafka-sink.md), each error attached to the setting it concerns, so that
 * {@code PUT /connector-plugins/{class}/config/validate} reports it per field and says how to fix it.
 */
final class KafkaSinkConfigValidator extends ConnectorValidator<KafkaSinkConfig> {
    private static final String CLIENT_ID = "mirror-v3-kafka-sink-validate";
    /** The destination's bootstrap is required by the ConfigDef; its client takes the destination.* security settings. */
    private static final ClusterAccess DESTINATION = new ClusterAccess("destination", KafkaSinkConfig.DESTINATION_BOOTSTRAP, null,
            "destination.*", "the sink writes the copy there");

    /** @param offline contact nothing (CI of GitOps repositories): skip the checks that need the source or destination cluster */
    KafkaSinkConfigValidator(Map<String, String> props, Config config, boolean offline) {
        super(props, config, offline, KafkaSinkConfig.FRAGMENTS, KafkaSinkConfig::new);
    }

    @Override
    protected void checkConnector() {
        checkProducerOverrides();
        List<String> topics = topics();
        checkTopics(topics);
        checkSourceCluster();
        checkDestination(topics);
    }

    private List<String> topics() {
        return TopicsSetting.listed(props);
    }

    private void checkProducerOverrides() {
        KafkaSinkConfig.FIXED_PRODUCER_SETTINGS.forEach((key, value) -> {
            String set = props.get(KafkaSinkConfig.DESTINATION_PRODUCER_PREFIX + key);
            if (set != null && !value.equalsIgnoreCase(set.trim()) && !("acks".equals(key) && "-1".equals(set.trim()))) {
                error(KafkaSinkConfig.DESTINATION_BOOTSTRAP, "destination.producer." + key + "=" + set + " is refused: the per-record"
                        + " offset check needs an idempotent producer with acks=all; remove the setting");
            }
        });
        if (props.containsKey(KafkaSinkConfig.DESTINATION_PRODUCER_PREFIX + "transactional.id")) {
            error(KafkaSinkConfig.DESTINATION_BOOTSTRAP, "destination.producer.transactional.id is refused: transaction markers would"
                    + " take offsets in the destination; remove the setting");
        }
        String inFlight = props.get(KafkaSinkConfig.DESTINATION_PRODUCER_PREFIX + "max.in.flight.requests.per.connection");
        if (inFlight != null) {
            try {
                if (Integer.parseInt(inFlight.trim()) > 5) {
                    error(KafkaSinkConfig.DESTINATION_BOOTSTRAP, "destination.producer.max.in.flight.requests.per.connection=" + inFlight
                            + ": an idempotent producer keeps order with at most 5");
                }
            } catch (NumberFormatException e) {
                error(KafkaSinkConfig.DESTINATION_BOOTSTRAP, "destination.producer.max.in.flight.requests.per.connection is not a number: "
                        + inFlight);
            }
        }
    }

    private void checkTopics(List<String> topics) {
        String destination = props.getOrDefault(KafkaSinkConfig.DESTINATION_TOPIC, "");
        boolean perTopic = destination.isBlank() || destination.contains(KafkaSinkConfig.TOPIC_PLACEHOLDER);
        if (topics.size() > 1 && !perTopic) {
            error(KafkaSinkConfig.DESTINATION_TOPIC, "several topics would be copied into the same destination partitions; leave"
                    + " destination.topic empty (the source topic's name) or use ${topic}, e.g. ${topic}-copy");
        }
    }

    private void checkSourceCluster() {
        ClusterAccess.SOURCE.validate(props, checks, offline, () -> {
            KafkaSinkConfig parsed = parsed();
            return parsed == null ? null : parsed.sourceAdminConfig(CLIENT_ID);
        });
    }

    /** The destination cluster is reachable and each destination topic of the listed topics exists. */
    private void checkDestination(List<String> topics) {
        KafkaSinkConfig parsed = parsed();
        DESTINATION.validate(props, checks, offline, () -> parsed == null ? null : parsed.destinationAdminConfig(CLIENT_ID),
                admin -> requireDestinationTopics(admin, parsed, topics));
    }

    private void requireDestinationTopics(Admin admin, KafkaSinkConfig parsed, List<String> topics) {
        List<String> missing = new ArrayList<>();
        for (String topic : topics) {
            String destination = parsed.destinationTopic(topic);
            try {
                TopicDescription d = admin.describeTopics(List.of(destination)).allTopicNames()
                        .get(ClusterAccess.REACH_TIMEOUT_MS, TimeUnit.MILLISECONDS).get(destination);
                if (d == null) {
                    missing.add(destination);
                }
            } catch (java.util.concurrent.ExecutionException e) {
                if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                    missing.add(destination);
                }
            } catch (Exception e) {
                return; // reachable but slow: the task checks again when it opens the partitions
            }
        }
        if (!missing.isEmpty()) {
            error(KafkaSinkConfig.DESTINATION_TOPIC, "destination topic(s) " + String.join(", ", missing) + " do not exist on "
                    + parsed.destinationBootstrap() + ": the Kafka sink never creates topics; create each with at least the source"
                    + " topic's partitions");
        }
    }

}
