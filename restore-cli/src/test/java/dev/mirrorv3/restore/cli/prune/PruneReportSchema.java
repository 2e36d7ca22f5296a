package dev.mirrorv3.restore.cli.prune;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;

/** Checks a prune report against config/schemas/prune-report.schema.json, as restore's reports are checked against theirs. */
public final class PruneReportSchema {
    static final Path SCHEMA = Path.of("..", "config", "schemas", "prune-report.schema.json");

    private PruneReportSchema() {
    }

    public static Set<ValidationMessage> errors(JsonNode report) throws IOException {
        return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(Files.readString(SCHEMA)).validate(report);
    }

    /** The report, read, after asserting the schema accepts it. */
    public static JsonNode checked(Path report) throws IOException {
        JsonNode json = new ObjectMapper().readTree(report.toFile());
        assertThat(errors(json)).as(Files.readString(report)).isEmpty();
        return json;
    }
}
