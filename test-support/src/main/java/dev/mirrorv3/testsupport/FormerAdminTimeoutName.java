package dev.mirrorv3.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.DynamicTest;

/**
 * A connector's former name of admin.timeout.ms, the name the connectors share, and how the connector reads a config:
 * {@link #tests()} are what every such former name must do (still work, be no setting of the admin client it was
 * named after, be reported as deprecated and as ignored next to the shared name, which wins, and be listed in
 * docs/configuration.md), one dynamic test each, so a single test checks every connector alike.
 *
 * @param former the former name, e.g. source.admin.timeout.ms
 * @param connector the connector as docs/configuration.md's table of former names calls it
 * @param settings a valid config of the connector without either name
 * @param reads how the connector parses a config: its admin timeout and the config of the client the former name was
 *     named after
 * @param validation the connector's warnings about a config (deprecated names) and its offline validation
 * @param currentByAlias the connector's former names, each to its current name
 */
public record FormerAdminTimeoutName(String former, String connector, Map<String, String> settings, Reads reads, Validation validation,
                                     Map<String, String> currentByAlias) {
    public static final String SHARED = "admin.timeout.ms";

    /** How the connector's config reads the timeout and the former name's client config. */
    public record Reads(Function<Map<String, String>, Duration> adminTimeout,
                        Function<Map<String, String>, Map<String, Object>> formerClientConfig) {
    }

    /** The connector's warnings and offline validation of a config. */
    public record Validation(Function<Map<String, String>, List<String>> warnings, Function<Map<String, String>, Config> validate) {
    }

    /** {@link #settings()} with byte-array converters and {@code extra}. */
    public Map<String, String> config(Map<String, String> extra) {
        Map<String, String> c = new HashMap<>(settings);
        c.put("key.converter", ConnectorConfigs.BYTES);
        c.put("value.converter", ConnectorConfigs.BYTES);
        c.put("header.converter", ConnectorConfigs.BYTES);
        c.putAll(extra);
        return c;
    }

    /** The validation of a config with the former name set to {@code value}: its value of that name. */
    public ConfigValue validatedFormer(String value) {
        return validation.validate().apply(config(Map.of(former, value))).configValues().stream().filter(v -> v.name().equals(former))
                .findFirst().orElseThrow();
    }

    /** What every former name must do, one test each, named after the connector. */
    public Stream<DynamicTest> tests() {
        return Stream.of(
                DynamicTest.dynamicTest(connector + ": the shared name sets the timeout", this::theSharedNameSetsTheTimeout),
                DynamicTest.dynamicTest(connector + ": " + former + " still works and is no admin client setting",
                        this::theFormerNameStillWorksAndIsNotAnAdminClientSetting),
                DynamicTest.dynamicTest(connector + ": validate accepts " + former + " and recommends moving its value",
                        this::validateAcceptsTheFormerNameAndRecommendsMovingItsValue),
                DynamicTest.dynamicTest(connector + ": the shared name wins", this::theSharedNameWins),
                DynamicTest.dynamicTest(connector + ": docs/configuration.md lists " + former, this::theReadmeListsTheFormerName));
    }

    private void theSharedNameSetsTheTimeout() {
        assertThat(reads.adminTimeout().apply(config(Map.of(SHARED, "3000")))).isEqualTo(Duration.ofMillis(3000));
        assertThat(validation.warnings().apply(config(Map.of(SHARED, "3000")))).isEmpty();
    }

    private void theFormerNameStillWorksAndIsNotAnAdminClientSetting() {
        Map<String, String> config = config(Map.of(former, "2000"));
        assertThat(reads.adminTimeout().apply(config)).isEqualTo(Duration.ofMillis(2000));
        assertThat(reads.formerClientConfig().apply(config)).doesNotContainKey("timeout.ms").containsEntry("bootstrap.servers", "k:9092");
        assertThat(validation.warnings().apply(config))
                .containsExactly(former + " is deprecated: rename it to admin.timeout.ms (same meaning; the old name still works)");
    }

    private void validateAcceptsTheFormerNameAndRecommendsMovingItsValue() {
        Map<String, ConfigValue> values = new HashMap<>();
        validation.validate().apply(config(Map.of(former, "2000"))).configValues().forEach(v -> values.put(v.name(), v));
        values.values().forEach(v -> assertThat(v.errorMessages()).as(v.name()).isEmpty());
        assertThat(values.get(SHARED).recommendedValues()).containsExactly("2000");
    }

    private void theSharedNameWins() {
        assertThat(reads.adminTimeout().apply(config(Map.of(former, "2000", SHARED, "3000")))).isEqualTo(Duration.ofMillis(3000));
    }

    private void theReadmeListsTheFormerName() throws Exception {
        assertThat(currentByAlias).containsExactly(Map.entry(former, SHARED));
        assertThat(Files.readString(GeneratedDocs.CONFIGURATION)).contains("| `" + former + "` | " + connector + " | `" + SHARED + "` |");
    }
}
