package dev.mirrorv3.connect.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.testsupport.ConnectorConfigs;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The destination clients' settings the config builds: what the guarantee needs always wins. */
class KafkaSinkConfigTest {
    private static Map<String, String> props() {
        Map<String, String> p = new HashMap<>();
        p.put("destination.bootstrap.servers", "dr:9092");
        return p;
    }

    @Test
    void theProducerIsAlwaysIdempotentWithAcksAllWhateverTheOverridesSay() {
        Map<String, String> p = ConnectorConfigs.with(props(), "destination.producer.acks", "1",
                "destination.producer.enable.idempotence", "false", "destination.producer.transactional.id", "x",
                "destination.producer.linger.ms", "50");
        Map<String, Object> c = new KafkaSinkConfig(p).producerConfig("id");
        assertThat(c).containsEntry("acks", "all").containsEntry("enable.idempotence", "true").containsEntry("linger.ms", "50")
                .containsEntry("bootstrap.servers", "dr:9092").doesNotContainKey("transactional.id");
    }

    @Test
    void securitySettingsGoToBothDestinationClients() {
        Map<String, String> p = ConnectorConfigs.with(props(), "destination.security.protocol", "SASL_SSL",
                "destination.sasl.mechanism", "SCRAM-SHA-512", "destination.sasl.jaas.config", "secret-jaas",
                "destination.admin.request.timeout.ms", "1234");
        KafkaSinkConfig config = new KafkaSinkConfig(p);
        for (Map<String, Object> c : new Map[] {config.producerConfig("p"), config.destinationAdminConfig("a")}) {
            assertThat(c).containsEntry("security.protocol", "SASL_SSL").containsEntry("sasl.mechanism", "SCRAM-SHA-512")
                    .containsEntry("sasl.jaas.config", "secret-jaas").doesNotContainKey("ssl.key.password");
        }
        assertThat(config.destinationAdminConfig("a")).containsEntry("request.timeout.ms", "1234");
    }

    @Test
    void theDestinationTopicDefaultsToTheSourcesNameAndResolvesTopicPlaceholders() {
        assertThat(new KafkaSinkConfig(props()).destinationTopic("orders")).isEqualTo("orders");
        Map<String, String> p = props();
        p.put("destination.topic", "${topic}-copy");
        assertThat(new KafkaSinkConfig(p).destinationTopic("orders")).isEqualTo("orders-copy");
    }

    @Test
    void theSourceAdminFallsBackToTheConsumersBootstrapServers() {
        Map<String, String> p = props();
        p.put("consumer.override.bootstrap.servers", "src:9092");
        assertThat(new KafkaSinkConfig(p).sourceAdminConfig("a")).containsEntry("bootstrap.servers", "src:9092");
    }
}
