package dev.mirrorv3.connect.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.docs.ConfigSchemas;
import dev.mirrorv3.kafka.config.ConnectorLevelRules;
import dev.mirrorv3.testsupport.GeneratedSchemaContract;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.runtime.SourceConnectorConfig;
import org.junit.jupiter.api.Test;

/**
 * {@code config/schemas/chain-source-connector.schema.json} is the JSON Schema generated from ChainSourceConfig and
 * Connect's source connector settings, and the example fits it. Regenerate with {@code mvn -pl connector-source-chain
 * -am test -Dtest=ChainSourceConfigSchemaTest -Dsurefire.failIfNoSpecifiedTests=false -DupdateSchemas=true}.
 */
class ChainSourceConfigSchemaTest extends GeneratedSchemaContract {
    private static final Path SCHEMA = Path.of("..", "config", "schemas", "chain-source-connector.schema.json");
    private static final Path EXAMPLE = Path.of("..", "examples", "chain-source", "chain-source-filesystem.json");
    private static final List<String> PASS_THROUGH = ChainSourceValidation.PASS_THROUGH;

    ChainSourceConfigSchemaTest() {
        super(SCHEMA, PASS_THROUGH, ChainSourceConfigSchemaTest::generate);
    }

    @Test
    void theExampleFitsTheSchemaAndPassesTheOfflineRules() throws Exception {
        Map<String, String> config = connectorConfig(EXAMPLE);
        assertFits(config, EXAMPLE);
        assertThat(config).containsEntry("producer.override.enable.idempotence", "true").containsEntry("producer.override.acks", "all");
    }

    @Test
    void theQuickstartTemplatesFitTheSchema() throws Exception {
        for (String name : List.of("quickstart-chain-source.json", "quickstart-chain-source-s3.json")) {
            Path template = Path.of("..", "examples", "templates", name);
            Map<String, String> config = connectorConfig(template);
            assertThat(config).as(name).containsEntry("connector.class", ChainSourceConnector.class.getName())
                    .containsEntry("producer.override.enable.idempotence", "true").containsEntry("producer.override.acks", "all");
            assertFits(config, template);
        }
    }

    private static String generate() {
        return ConfigSchemas.jsonSchema(ChainSourceConnector.class.getName(),
                "JSON config of mirror-v3's chain source (follow-restore; PUT /connectors/<name>/config)."
                        + " Generated from ChainSourceConfig and Connect's source connector settings by ChainSourceConfigSchemaTest.",
                List.of(ChainSourceConfig.CONFIG_DEF, SourceConnectorConfig.configDef()), PASS_THROUGH, ConnectorLevelRules.Kind.SOURCE);
    }
}
