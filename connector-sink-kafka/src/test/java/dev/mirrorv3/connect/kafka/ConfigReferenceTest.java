package dev.mirrorv3.connect.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.kafka.ConfigDocs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;

/**
 * Every setting of the Kafka sink is documented, grouped and displayed, and the README's reference is the one generated
 * from the ConfigDef. Regenerate it with {@code mvn -pl connector-sink-kafka -am test -Dtest=ConfigReferenceTest
 * -Dsurefire.failIfNoSpecifiedTests=false -DupdateReadme=true}.
 */
class ConfigReferenceTest {
    private static final String START = "<!-- kafka-sink-config:start (generated from KafkaSinkConfig; see connector-sink-kafka ConfigReferenceTest) -->";
    private static final String END = "<!-- kafka-sink-config:end -->";

    @Test
    void everySettingIsDocumentedGroupedAndDisplayed() {
        for (ConfigDef.ConfigKey key : KafkaSinkConfig.CONFIG_DEF.configKeys().values()) {
            assertThat(key.documentation).as("documentation of " + key.name).isNotBlank();
            assertThat(key.group).as("group of " + key.name).isNotBlank();
            assertThat(key.displayName).as("display name of " + key.name).isNotBlank();
        }
    }

    @Test
    void secretsArePasswords() {
        for (String key : new String[] {KafkaSinkConfig.SASL_JAAS_CONFIG, KafkaSinkConfig.SSL_KEY_PASSWORD,
                KafkaSinkConfig.SSL_KEYSTORE_PASSWORD, KafkaSinkConfig.SSL_TRUSTSTORE_PASSWORD}) {
            assertThat(KafkaSinkConfig.CONFIG_DEF.configKeys().get(key).type).as(key).isEqualTo(ConfigDef.Type.PASSWORD);
        }
    }

    @Test
    void readmeHoldsTheGeneratedReference() throws Exception {
        Path readme = Path.of("..", "README.md");
        String text = Files.readString(readme, StandardCharsets.UTF_8);
        int start = text.indexOf(START);
        int end = text.indexOf(END);
        assertThat(start).as("README has the Kafka sink reference markers").isNotNegative();
        assertThat(end).isGreaterThan(start);
        String generated = "\n" + ConfigDocs.markdown(KafkaSinkConfig.CONFIG_DEF);
        String current = text.substring(start + START.length(), end);
        if (Boolean.getBoolean("updateReadme")) {
            Files.writeString(readme, text.substring(0, start + START.length()) + generated + text.substring(end), StandardCharsets.UTF_8);
            return;
        }
        assertThat(current).as("README's Kafka sink reference; regenerate with -DupdateReadme=true (see this test's doc)")
                .isEqualTo(generated);
    }
}
