package dev.mirrorv3.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;

/**
 * Generated text committed to the repository (configuration references between markers in docs/, JSON Schemas under
 * config/schemas): a test asserts the committed text is the generated one, or rewrites it when run with
 * {@code -DupdateReadme=true} / {@code -DupdateSchemas=true} (the flag keeps its name from when the references were in
 * the README). Paths are relative to a module directory.
 */
public final class GeneratedDocs {
    /** The page that holds the three connectors' configuration references, seen from a module directory. */
    public static final Path CONFIGURATION = Path.of("..", "docs", "configuration.md");
    /** The page that holds the SMTs' reference, seen from a module directory. */
    public static final Path TRANSFORMS = Path.of("..", "docs", "transforms.md");

    private GeneratedDocs() {
    }

    /** Every setting of {@code def} has documentation, a group and a display name (what the generated reference shows). */
    public static void assertDocumentedGroupedAndDisplayed(ConfigDef def) {
        for (ConfigDef.ConfigKey key : def.configKeys().values()) {
            assertThat(key.documentation).as("documentation of " + key.name).isNotBlank();
            assertThat(key.group).as("group of " + key.name).isNotBlank();
            assertThat(key.displayName).as("display name of " + key.name).isNotBlank();
        }
    }

    /**
     * The section of {@code page} between {@code start} and {@code end} is {@code "\n" + generated}; with
     * -DupdateReadme=true it is rewritten instead.
     *
     * @param what names the section in assertion messages, e.g. "blob sink"
     * @return the committed section (before any rewrite), for further checks
     */
    public static String checkSection(Path page, String start, String end, String generated, String what) throws IOException {
        return checkSection(page, start, end, generated, what + " reference", "-DupdateReadme=true (see this test's doc)");
    }

    /**
     * As {@link #checkSection(Path, String, String, String, String)}, the failure naming the command that regenerates the
     * section.
     *
     * @param regenerate the command, e.g. {@code mvn ... -DupdateReadme=true}
     */
    public static String checkSection(Path page, String start, String end, String generated, String what, String regenerate)
            throws IOException {
        String text = Files.readString(page, StandardCharsets.UTF_8);
        int from = text.indexOf(start);
        int to = text.indexOf(end);
        assertThat(from).as(page + " has the " + what + " markers " + start).isNotNegative();
        assertThat(to).isGreaterThan(from);
        String expected = "\n" + generated;
        String current = text.substring(from + start.length(), to);
        if (updatingDocs()) {
            Files.writeString(page, text.substring(0, from + start.length()) + expected + text.substring(to), StandardCharsets.UTF_8);
            return current;
        }
        assertThat(current).as(page + ": the " + what + " is not the generated one; regenerate it with " + regenerate).isEqualTo(expected);
        return current;
    }

    /** Whether the check rewrote the section (then further checks of the committed text are skipped). */
    public static boolean updatingDocs() {
        return Boolean.getBoolean("updateReadme");
    }

    /** {@code file} holds {@code generated}; with -DupdateSchemas=true it is written instead. */
    public static void checkFile(Path file, String generated) throws IOException {
        if (Boolean.getBoolean("updateSchemas")) {
            Files.createDirectories(file.getParent());
            Files.writeString(file, generated, StandardCharsets.UTF_8);
            return;
        }
        assertThat(Files.readString(file, StandardCharsets.UTF_8)).as(file + "; regenerate with -DupdateSchemas=true")
                .isEqualTo(generated);
    }

    /**
     * A connector config (an example) fits a generated JSON Schema: every key is a property of the schema or starts with
     * one of the pass-through prefixes, and every required key is there.
     *
     * @param where names the config in assertion messages, e.g. its file
     */
    public static void assertFitsSchema(Map<String, ?> schema, Map<String, ?> config, List<String> passThrough, Object where) {
        Map<?, ?> properties = (Map<?, ?>) schema.get("properties");
        for (String key : config.keySet()) {
            boolean known = properties.containsKey(key) || passThrough.stream().anyMatch(key::startsWith);
            assertThat(known).as(where + ": " + key + " is allowed by the schema").isTrue();
        }
        for (Object key : (List<?>) schema.get("required")) {
            assertThat(config).as(where + " has " + key).containsKey((String) key);
        }
    }
}
