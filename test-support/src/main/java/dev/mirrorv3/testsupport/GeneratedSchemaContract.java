package dev.mirrorv3.testsupport;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A connector's committed JSON Schema of its config ({@code config/schemas/...}) is the one its ConfigDefs generate
 * now, and its examples fit it: each connector's schema test subclasses this with how its schema is generated and
 * checks its examples with {@link #assertFits}. Regenerate with {@code -DupdateSchemas=true}
 * ({@link GeneratedDocs#checkFile}).
 */
public abstract class GeneratedSchemaContract {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path committed;
    private final List<String> passThrough;
    private final Supplier<String> generator;

    /**
     * @param committed the schema file in the repository
     * @param passThrough the prefixes of keys the connector passes on as they are (allowed beyond the schema's properties)
     * @param generator the schema as the connector's ConfigDefs generate it now
     */
    protected GeneratedSchemaContract(Path committed, List<String> passThrough, Supplier<String> generator) {
        this.committed = committed;
        this.passThrough = passThrough;
        this.generator = generator;
    }

    /** The schema as the connector's ConfigDefs generate it now. */
    protected final String generated() {
        return generator.get();
    }

    /** {@link #generated()}, parsed. */
    @SuppressWarnings("unchecked")
    protected final Map<String, Object> generatedSchema() throws IOException {
        return JSON.readValue(generated(), Map.class);
    }

    /** The connector config in a JSON file holding a REST body: {@code {"name": ..., "config": {...}}}. */
    @SuppressWarnings("unchecked")
    protected static Map<String, String> connectorConfig(Path restBody) throws IOException {
        return (Map<String, String>) JSON.readValue(restBody.toFile(), Map.class).get("config");
    }

    /** {@code config}, read from {@code where}, fits the generated schema ({@link GeneratedDocs#assertFitsSchema}). */
    protected final void assertFits(Map<String, ?> config, Path where) throws IOException {
        GeneratedDocs.assertFitsSchema(generatedSchema(), config, passThrough, where);
    }

    @Test
    void theCommittedSchemaIsTheGeneratedOne() throws Exception {
        GeneratedDocs.checkFile(committed, generated());
    }
}
