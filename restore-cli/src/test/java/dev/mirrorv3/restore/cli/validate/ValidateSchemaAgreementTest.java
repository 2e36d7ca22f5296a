package dev.mirrorv3.restore.cli.validate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.mirrorv3.restore.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code validate --offline} and the generated JSON Schemas (config/schemas) give the same verdict on a corpus of
 * configs: each of Connect's connector-level rules, unfilled placeholders and misspelled names, plus good configs. An
 * unknown setting is a warning of validate (a worker ignores it) and an error of the schema (which cannot warn): both
 * flag it. Rules of a connector's validate() beyond its ConfigDef (ByteArrayConverter, auto.offset.reset=none, ...)
 * are validate's alone and not in the corpus (docs/decisions.md).
 */
class ValidateSchemaAgreementTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path SCHEMAS = Path.of("..", "config", "schemas");
    private static final Path EXAMPLES = Path.of("..", "examples");

    @TempDir
    Path dir;

    /** A config: an example with settings changed ({@code null} removes one), and whether it is good. */
    private record Case(String example, String schema, boolean good, String... changes) {
        @Override
        public String toString() {
            return example + " " + String.join(" ", changes);
        }
    }

    private static final String BLOB = "blob-sink-filesystem.json";
    private static final String KAFKA = "kafka-sink/orders-dr.json";
    private static final String CHAIN = "chain-source/chain-source-filesystem.json";

    private static Case blob(boolean good, String... changes) {
        return new Case(BLOB, "blob-sink-connector.schema.json", good, changes);
    }

    private static Case kafka(boolean good, String... changes) {
        return new Case(KAFKA, "kafka-sink-connector.schema.json", good, changes);
    }

    private static Case chain(boolean good, String... changes) {
        return new Case(CHAIN, "chain-source-connector.schema.json", good, changes);
    }

    private static final List<Case> CORPUS = List.of(
            blob(true),
            blob(true, "name", "orders-backup", "tasks.max", "4", "destination.name", "${topic}", "topics", "orders, payments"),
            blob(true, "source.admin.bootstrap.servers", "${file:/etc/kafka/secrets.properties:bootstrap}"),
            blob(false, "tasks.max", "abc"),
            blob(false, "tasks.max", "0"),
            blob(false, "tasks.max", "-1"),
            blob(false, "topics", null),
            blob(false, "topics", ""),
            blob(false, "topics", "bad topic!"),
            blob(false, "topics", ".."),
            blob(false, "topics", "a".repeat(250)),
            blob(true, "topics", "a".repeat(249)),
            blob(false, "topics", "orders", "topics.regex", "orders.*"),
            blob(false, "source.admin.bootstrap.servers", "@BOOTSTRAP_SERVERS@"),
            blob(false, "destination.name", "${TOPIC}"),
            blob(false, "consumer.override.client.id", "@CONNECTOR_NAME@-consumer"),
            blob(false, "flush.max.record", "10"),
            blob(false, "consumer.overide.max.poll.records", "10"),
            blob(false, "key.converter", "not a class!"),
            blob(false, "flush.max.records", "0"),
            kafka(true),
            kafka(false, "tasks.max", "0"),
            kafka(false, "topics", null),
            kafka(false, "topics", "orders payments"),
            kafka(false, "destination.topic", "@MIRROR_TOPIC@"),
            kafka(false, "timestamp.mod", "source"),
            chain(true),
            chain(false, "tasks.max", "abc"),
            chain(false, "target.topic", "@STANDBY_TOPIC@"),
            chain(false, "producer.overide.acks", "all"),
            chain(false, "topics.regex", "orders.*"));

    @Test
    void validateOfflineAndTheSchemaGiveTheSameVerdict() throws Exception {
        List<String> disagreements = new ArrayList<>();
        int i = 0;
        for (Case c : CORPUS) {
            ObjectNode config = config(c);
            Path file = dir.resolve("case" + i++ + ".json");
            Files.writeString(file, JSON.writeValueAsString(config));
            CliRun r = CliRun.run("validate", "--offline", "--connector-config", file.toString());
            boolean flagged = r.exitCode() != 0 || r.err().contains("is not a setting of this connector or of Connect");
            JsonSchema schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                    .getSchema(Files.readString(SCHEMAS.resolve(c.schema())));
            Set<ValidationMessage> schemaErrors = schema.validate(config);
            if (flagged != !schemaErrors.isEmpty() || flagged == c.good()) {
                disagreements.add(c + ": expected " + (c.good() ? "good" : "bad") + "; validate --offline "
                        + (flagged ? "flags it: " + r.err().replace(file.toString(), "").trim() : "accepts it") + "; the schema "
                        + (schemaErrors.isEmpty() ? "accepts it" : "refuses it: " + schemaErrors));
            }
        }
        assertThat(disagreements).as(String.join("\n", disagreements)).isEmpty();
    }

    /** The example's settings (the flat map) with the case's changes. */
    private static ObjectNode config(Case c) throws Exception {
        JsonNode root = JSON.readTree(EXAMPLES.resolve(c.example()).toFile());
        ObjectNode config = (ObjectNode) (root.has("config") ? root.get("config") : root).deepCopy();
        for (int i = 0; i < c.changes().length; i += 2) {
            if (c.changes()[i + 1] == null) {
                config.remove(c.changes()[i]);
            } else {
                config.put(c.changes()[i], c.changes()[i + 1]);
            }
        }
        return config;
    }
}
