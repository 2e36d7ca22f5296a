package dev.mirrorv3.kafka.meta;

import dev.mirrorv3.chain.meta.TopicSnapshot;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;

/**
 * Reads what recreating a topic needs: partition count, replication factor, topic id and the configs set on the topic
 * itself ({@link ConfigEntry.ConfigSource#DYNAMIC_TOPIC_CONFIG}); broker defaults are left out, so a restore into
 * another cluster takes that cluster's defaults for them, as the topic did.
 */
public final class TopicMetadata {
    private TopicMetadata() {
    }

    /** @throws Exception the admin call's failure (transient or not: the caller classifies it) */
    public static TopicSnapshot read(Admin admin, String topic, long timeMs, Duration timeout) throws Exception {
        long wait = timeout.toMillis() + 1000;
        TopicDescription d = admin.describeTopics(List.of(topic), new DescribeTopicsOptions().timeoutMs((int) timeout.toMillis()))
                .allTopicNames().get(wait, TimeUnit.MILLISECONDS).get(topic);
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Config config = admin.describeConfigs(List.of(resource), new DescribeConfigsOptions().timeoutMs((int) timeout.toMillis()))
                .all().get(wait, TimeUnit.MILLISECONDS).get(resource);
        return new TopicSnapshot(timeMs, topic, d.topicId() == null ? "" : d.topicId().toString(), d.partitions().size(),
                d.partitions().get(0).replicas().size(), nonDefault(config));
    }

    /** The topic's own configs (sensitive ones, whose values a broker never returns, are left out). */
    static Map<String, String> nonDefault(Config config) {
        Map<String, String> own = new TreeMap<>();
        for (ConfigEntry e : config.entries()) {
            if (e.source() == ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG && !e.isSensitive() && e.value() != null) {
                own.put(e.name(), e.value());
            }
        }
        return own;
    }
}
