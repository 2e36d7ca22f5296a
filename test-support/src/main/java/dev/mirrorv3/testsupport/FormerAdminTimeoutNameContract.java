package dev.mirrorv3.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * admin.timeout.ms is the name the connectors share; a connector's former name of it still works, is no setting of the
 * admin client it was named after, is reported as deprecated (and as ignored next to the shared name, which wins), and
 * docs/configuration.md lists it. Each connector with a former name subclasses this with how it reads its config.
 */
public abstract class FormerAdminTimeoutNameContract {
    private static final String SHARED = "admin.timeout.ms";

    /** A directory for the connector's filesystem store. */
    @TempDir
    protected Path root;

    private final String former;
    private final Function<Map<String, String>, Duration> adminTimeout;
    private final Function<Map<String, String>, Map<String, Object>> formerClientConfig;
    /** The row of docs/configuration.md's table of former names. */
    private final String formerNameRow;
    private final Function<Map<String, String>, List<String>> warnings;
    private final Function<Map<String, String>, Config> validate;
    private final Map<String, String> currentByAlias;

    /**
     * @param former the former name, e.g. source.admin.timeout.ms
     * @param connector the connector as docs/configuration.md's table of former names calls it
     * @param adminTimeout the admin timeout the connector's config parses a config to
     * @param formerClientConfig the config of the admin client the former name was named after
     * @param warnings the connector's warnings about a config (deprecated names)
     * @param validate the connector's offline validation of a config
     * @param currentByAlias the connector's former names, each to its current name
     */
    protected FormerAdminTimeoutNameContract(String former, String connector, Function<Map<String, String>, Duration> adminTimeout,
                                             Function<Map<String, String>, Map<String, Object>> formerClientConfig,
                                             Function<Map<String, String>, List<String>> warnings,
                                             Function<Map<String, String>, Config> validate, Map<String, String> currentByAlias) {
        this.former = former;
        this.adminTimeout = adminTimeout;
        this.formerClientConfig = formerClientConfig;
        this.formerNameRow = "| `" + former + "` | " + connector + " | `" + SHARED + "` |";
        this.warnings = warnings;
        this.validate = validate;
        this.currentByAlias = currentByAlias;
    }

    /** A valid config of the connector without either name (byte-array converters are added to it). */
    protected abstract Map<String, String> settings();

    /** {@link #settings()} with byte-array converters and {@code extra}. */
    protected final Map<String, String> config(Map<String, String> extra) {
        Map<String, String> c = new HashMap<>(settings());
        c.put("key.converter", ConnectorConfigs.BYTES);
        c.put("value.converter", ConnectorConfigs.BYTES);
        c.put("header.converter", ConnectorConfigs.BYTES);
        c.putAll(extra);
        return c;
    }

    @Test
    void theSharedNameSetsTheTimeout() {
        assertThat(adminTimeout.apply(config(Map.of(SHARED, "3000")))).isEqualTo(Duration.ofMillis(3000));
        assertThat(warnings.apply(config(Map.of(SHARED, "3000")))).isEmpty();
    }

    @Test
    void theFormerNameStillWorksAndIsNotAnAdminClientSetting() {
        Map<String, String> config = config(Map.of(former, "2000"));
        assertThat(adminTimeout.apply(config)).isEqualTo(Duration.ofMillis(2000));
        assertThat(formerClientConfig.apply(config)).doesNotContainKey("timeout.ms").containsEntry("bootstrap.servers", "k:9092");
        assertThat(warnings.apply(config))
                .containsExactly(former + " is deprecated: rename it to admin.timeout.ms (same meaning; the old name still works)");
    }

    @Test
    void validateAcceptsTheFormerNameAndRecommendsMovingItsValue() {
        Map<String, ConfigValue> values = new HashMap<>();
        validate.apply(config(Map.of(former, "2000"))).configValues().forEach(v -> values.put(v.name(), v));
        values.values().forEach(v -> assertThat(v.errorMessages()).as(v.name()).isEmpty());
        assertThat(values.get(SHARED).recommendedValues()).containsExactly("2000");
    }

    @Test
    void theSharedNameWins() {
        assertThat(adminTimeout.apply(config(Map.of(former, "2000", SHARED, "3000")))).isEqualTo(Duration.ofMillis(3000));
    }

    @Test
    void theReadmeListsTheFormerName() throws Exception {
        assertThat(currentByAlias).containsExactly(Map.entry(former, SHARED));
        assertThat(Files.readString(GeneratedDocs.CONFIGURATION)).contains(formerNameRow);
    }

    /** The validation of a config with the former name set to {@code value}: its value of that name. */
    protected final ConfigValue validatedFormer(String value) {
        return validate.apply(config(Map.of(former, value))).configValues().stream().filter(v -> v.name().equals(former)).findFirst()
                .orElseThrow();
    }
}
