package dev.mirrorv3.connect.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.docs.ConfigSchemas;
import dev.mirrorv3.kafka.config.ConnectorLevelRules;
import dev.mirrorv3.testsupport.GeneratedSchemaContract;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.runtime.SinkConnectorConfig;
import org.junit.jupiter.api.Test;

/**
 * {@code config/schemas/kafka-sink-connector.schema.json} is the JSON Schema generated from KafkaSinkConfig and
 * Connect's sink connector settings, and the examples (the quickstart's too) fit it. Regenerate with {@code mvn -pl connector-sink-kafka
 * -am test -Dtest=ConfigSchemaTest -Dsurefire.failIfNoSpecifiedTests=false -DupdateSchemas=true}.
 */
class ConfigSchemaTest extends GeneratedSchemaContract {
    private static final Path SCHEMA = Path.of("..", "config", "schemas", "kafka-sink-connector.schema.json");
    private static final List<Path> EXAMPLES = List.of(Path.of("..", "examples", "kafka-sink", "orders-dr.json"),
            Path.of("..", "examples", "templates", "quickstart-kafka-sink.json"));
    private static final List<String> PASS_THROUGH = KafkaSinkValidation.PASS_THROUGH;

    ConfigSchemaTest() {
        super(SCHEMA, PASS_THROUGH, ConfigSchemaTest::generate);
    }

    private static String generate() {
        return ConfigSchemas.jsonSchema(KafkaSinkConnector.class.getName(),
                "JSON config of mirror-v3's Kafka sink (PUT /connectors/<name>/config). Generated"
                        + " from KafkaSinkConfig and Connect's sink connector settings by connector-sink-kafka's ConfigSchemaTest.",
                List.of(KafkaSinkConfig.CONFIG_DEF, SinkConnectorConfig.configDef()), PASS_THROUGH, ConnectorLevelRules.Kind.SINK);
    }

    @Test
    void theExamplesFitTheSchema() throws Exception {
        for (Path example : EXAMPLES) {
            Map<String, String> config = connectorConfig(example);
            assertThat(config.get("connector.class")).as(example.toString()).isEqualTo(KafkaSinkConnector.class.getName());
            assertFits(config, example);
        }
    }
}
