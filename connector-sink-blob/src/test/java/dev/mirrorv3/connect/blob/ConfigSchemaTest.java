package dev.mirrorv3.connect.blob;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.docs.ConfigSchemas;
import dev.mirrorv3.kafka.config.ConnectorLevelRules;
import dev.mirrorv3.testsupport.GeneratedDocs;
import dev.mirrorv3.testsupport.GeneratedSchemaContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.connect.runtime.SinkConnectorConfig;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * {@code config/schemas/blob-sink-connector.schema.json} is the JSON Schema generated from BlobSinkConfig and
 * Connect's sink connector settings, and the examples fit it. Regenerate with {@code mvn -pl connector-sink-blob
 * -am test -Dtest=ConfigSchemaTest -Dsurefire.failIfNoSpecifiedTests=false -DupdateSchemas=true}.
 */
class ConfigSchemaTest extends GeneratedSchemaContract {
    private static final Path SCHEMA = Path.of("..", "config", "schemas", "blob-sink-connector.schema.json");
    static final List<String> PASS_THROUGH = BlobSinkValidation.PASS_THROUGH;

    ConfigSchemaTest() {
        super(SCHEMA, PASS_THROUGH, ConfigSchemaTest::generate);
    }

    @Test
    @SuppressWarnings("unchecked")
    void theExamplesFitTheSchema() throws Exception {
        Map<String, Object> schema = new Yaml().load(generated());
        Map<String, Map<String, Object>> properties = (Map<String, Map<String, Object>>) schema.get("properties");
        assertThat(properties).containsKeys("filesystem.root", "flush.max.records", "source.lag.interval.ms", "topics",
                "errors.tolerance", "tasks.max");
        assertThat(properties.get("format").get("anyOf").toString()).contains("[parquet, ndjson]");
        List<Path> examples;
        try (Stream<Path> files = Stream.of("", "dual-write", "templates")
                .flatMap(dir -> list(Path.of("..", "examples", dir)))) {
            examples = files.filter(p -> p.toString().endsWith(".json")).toList();
        }
        assertThat(examples).hasSizeGreaterThanOrEqualTo(3);
        int blobExamples = 0;
        for (Path example : examples) {
            Map<String, Object> config = new Yaml().load(Files.readString(example, StandardCharsets.UTF_8));
            if (config.get("config") instanceof Map<?, ?> inner) {
                config = (Map<String, Object>) inner; // the POST /connectors form: {"name": ..., "config": {...}}
            }
            if (!BlobSinkConnector.class.getName().equals(config.get("connector.class"))
                    && String.valueOf(config.get("connector.class")).startsWith("dev.mirrorv3.connect.")) {
                continue; // the quickstart's Kafka sink and chain source: their own modules check them against their schemas
            }
            blobExamples++;
            assertThat(config.get("connector.class")).isEqualTo(BlobSinkConnector.class.getName());
            for (Map.Entry<String, Object> e : config.entrySet()) {
                assertThat(e.getValue()).as(example + ": " + e.getKey() + " is a string").isInstanceOf(String.class);
                Map<String, Object> property = properties.get(e.getKey());
                if (property != null && property.get("anyOf") instanceof List<?> anyOf
                        && ((Map<String, Object>) anyOf.get(0)).get("enum") instanceof List<?> choices) {
                    assertThat((List<Object>) choices).as(example + ": " + e.getKey()).contains(e.getValue());
                }
            }
            GeneratedDocs.assertFitsSchema(schema, config, PASS_THROUGH, example);
        }
        assertThat(blobExamples).as("blob sink examples checked").isGreaterThanOrEqualTo(5);
    }

    private static Stream<Path> list(Path dir) {
        try {
            return Files.list(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String generate() {
        return ConfigSchemas.jsonSchema(BlobSinkConnector.class.getName(),
                "JSON config of mirror-v3's blob sink (PUT /connectors/<name>/config). Generated"
                        + " from BlobSinkConfig and Connect's sink connector settings by ConfigSchemaTest.",
                List.of(BlobSinkConfig.CONFIG_DEF, SinkConnectorConfig.configDef()), PASS_THROUGH, ConnectorLevelRules.Kind.SINK);
    }
}
