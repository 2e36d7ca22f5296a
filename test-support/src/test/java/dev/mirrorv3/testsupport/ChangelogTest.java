package dev.mirrorv3.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * CHANGELOG.md has a section for the version the poms build, and it names every setting of the configuration reference
 * (docs/configuration.md, generated from the ConfigDefs), every mirror_v3_* series of docs/operations.md and of
 * {@link ObservabilityFiles#exportedNames()} (the jmx-exporter rules, the verify run's, the cache sidecar's and the declared
 * series, each checked against a real scrape or output by its own test) and every alert of config/prometheus-rules.yaml;
 * the README's compatibility notes name the Kafka version the build tests with.
 */
class ChangelogTest {
    private static final Path ROOT = Path.of("..");
    private static final Pattern PROJECT_VERSION =
            Pattern.compile("<artifactId>mirror-v3-connect-parent</artifactId>\\s*<version>([^<]+)</version>");
    private static final Pattern KAFKA_VERSION = Pattern.compile("<kafka.version>([^<]+)</kafka.version>");
    private static final Pattern SETTING_ROW = Pattern.compile("(?m)^\\| `([a-z0-9._]+)` \\|");
    private static final Pattern SERIES = Pattern.compile("`(mirror_v3_[a-z0-9_]+)`");

    @Test
    void theSectionOfThisVersionNamesEverySettingAndEveryMetric() throws IOException {
        String version = group(PROJECT_VERSION, read("pom.xml"));
        String changelog = read("CHANGELOG.md");
        int from = changelog.indexOf("\n## " + version + "\n");
        assertThat(from).as("CHANGELOG.md has a '## " + version + "' section").isNotNegative();
        int next = changelog.indexOf("\n## ", from + 1);
        String section = next < 0 ? changelog.substring(from) : changelog.substring(from, next);
        assertThat(section).as("CHANGELOG.md " + version + ": settings of docs/configuration.md")
                .contains(all(SETTING_ROW, read("docs/configuration.md")));
        assertThat(section).as("CHANGELOG.md " + version + ": series of docs/operations.md")
                .contains(all(SERIES, read("docs/operations.md")));
        assertThat(section).as("CHANGELOG.md " + version + ": series exported (config/jmx-exporter.yaml, the CLI, the sidecar)")
                .contains(exportedSeries());
        assertThat(section).as("CHANGELOG.md " + version + ": alerts of config/prometheus-rules.yaml")
                .contains(ObservabilityFiles.alertRules().stream().map(r -> "`" + r.get("alert") + "`").toArray(String[]::new));
        assertThat(section).contains("### Settings", "### Metrics", "### Formats");
    }

    /** The mirror_v3_* series in backquotes, a histogram by its name (not its _bucket and _count series). */
    private static String[] exportedSeries() {
        Set<String> names = ObservabilityFiles.exportedNames();
        Set<String> series = new LinkedHashSet<>();
        for (String name : names) {
            String histogram = name.replaceFirst("_(bucket|count)$", "");
            String shown = !histogram.equals(name) && names.contains(histogram + "_bucket") ? histogram : name;
            if (shown.startsWith("mirror_v3_")) {
                series.add("`" + shown + "`");
            }
        }
        return series.toArray(new String[0]);
    }

    @Test
    void theReadmesCompatibilityNotesNameTheKafkaVersionTestedAndJava17() throws IOException {
        String kafka = group(KAFKA_VERSION, read("pom.xml"));
        String readme = read("README.md");
        int from = readme.indexOf("\n## Compatibility\n");
        assertThat(from).as("README.md has a Compatibility section").isNotNegative();
        String section = readme.substring(from, readme.indexOf("\n## ", from + 1));
        assertThat(section).contains("| " + kafka + " |", "Java | 17", "KIP-877");
    }

    private static String[] all(Pattern pattern, String text) {
        Set<String> found = new LinkedHashSet<>();
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            found.add("`" + m.group(1) + "`");
        }
        assertThat(found).as(pattern + " finds something").isNotEmpty();
        return found.toArray(new String[0]);
    }

    private static String group(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        assertThat(m.find()).as(pattern + " in the text").isTrue();
        return m.group(1);
    }

    private static String read(String path) throws IOException {
        return Files.readString(ROOT.resolve(path), StandardCharsets.UTF_8);
    }
}
