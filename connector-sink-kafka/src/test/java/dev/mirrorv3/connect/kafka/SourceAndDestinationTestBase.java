package dev.mirrorv3.connect.kafka;

import dev.mirrorv3.testsupport.ConnectTestCluster;
import dev.mirrorv3.testsupport.RestartableKafka;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Kafka sink integration test class: one Connect worker with its broker (the source) and a destination cluster,
 * both started before the class's first test and stopped after its last. The destination also has a listener behind a
 * proxy that can freeze ({@link RestartableKafka#perClassWithProxy()}); a test that does not connect through it is
 * not affected by it.
 */
abstract class SourceAndDestinationTestBase {
    @RegisterExtension
    static final ConnectTestCluster cluster = ConnectTestCluster.perClass(1);

    @RegisterExtension
    static final RestartableKafka destination = RestartableKafka.perClassWithProxy();

    /** The sink's config copying {@code topic} from the source to the destination (directly, not through the proxy). */
    static Map<String, String> config(String topic) {
        return KafkaSinkTestSupport.sinkConfig(topic, cluster.bootstrapServers(), destination.bootstrapServers());
    }

    /** Creates {@code topic} on the source and its copy of the same name on the destination. */
    static void createTopics(String topic, int partitions) {
        createTopics(topic, topic, partitions);
    }

    static void createTopics(String topic, String copy, int partitions) {
        cluster.kafka().createTopic(topic, partitions);
        destination.createTopic(copy, partitions);
    }

    /** {@link KafkaSinkTestSupport#produceVaried} to the source topic. */
    static void produceToSource(String topic, int partitions, int perPartition, long seed) {
        KafkaSinkTestSupport.produceVaried(cluster.bootstrapServers(), topic, partitions, perPartition, seed);
    }

    static Map<Integer, Long> sourceHighWatermarks(String topic, int partitions) {
        try (Admin admin = cluster.kafka().createAdminClient()) {
            return KafkaSinkTestSupport.highWatermarks(admin, topic, partitions);
        }
    }
}
