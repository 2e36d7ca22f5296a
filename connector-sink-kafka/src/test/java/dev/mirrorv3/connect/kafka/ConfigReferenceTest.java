package dev.mirrorv3.connect.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.docs.ConfigDocs;
import dev.mirrorv3.testsupport.GeneratedDocs;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;

/**
 * Every setting of the Kafka sink is documented, grouped and displayed, and the reference in docs/configuration.md is the one generated
 * from the ConfigDef. Regenerate it with {@code mvn -pl connector-sink-kafka -am test -Dtest=ConfigReferenceTest
 * -Dsurefire.failIfNoSpecifiedTests=false -DupdateReadme=true}.
 */
class ConfigReferenceTest {
    private static final String START = "<!-- kafka-sink-config:start (generated from KafkaSinkConfig; see connector-sink-kafka "
            + "ConfigReferenceTest) -->";
    private static final String END = "<!-- kafka-sink-config:end -->";

    @Test
    void everySettingIsDocumentedGroupedAndDisplayed() {
        GeneratedDocs.assertDocumentedGroupedAndDisplayed(KafkaSinkConfig.CONFIG_DEF);
    }

    @Test
    void secretsArePasswords() {
        for (String key : new String[] {KafkaSinkConfig.SASL_JAAS_CONFIG, KafkaSinkConfig.SSL_KEY_PASSWORD,
                KafkaSinkConfig.SSL_KEYSTORE_PASSWORD, KafkaSinkConfig.SSL_TRUSTSTORE_PASSWORD}) {
            assertThat(KafkaSinkConfig.CONFIG_DEF.configKeys().get(key).type).as(key).isEqualTo(ConfigDef.Type.PASSWORD);
        }
    }

    @Test
    void configurationPageHoldsTheGeneratedReference() throws Exception {
        GeneratedDocs.checkSection(GeneratedDocs.CONFIGURATION, START, END, ConfigDocs.markdown(KafkaSinkConfig.CONFIG_DEF), "Kafka sink");
    }
}
