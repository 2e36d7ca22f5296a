package dev.mirrorv3.connect.kafka;

import dev.mirrorv3.docs.ConfigDocs;
import dev.mirrorv3.testsupport.ConfigReferenceContract;
import java.util.List;

/**
 * Every setting of the Kafka sink is documented, grouped and displayed, its secrets are passwords, and the reference in
 * docs/configuration.md is the one generated from the ConfigDef. Regenerate it with {@code mvn -pl connector-sink-kafka
 * -am test -Dtest=ConfigReferenceTest -Dsurefire.failIfNoSpecifiedTests=false -DupdateReadme=true}.
 */
class ConfigReferenceTest extends ConfigReferenceContract {
    ConfigReferenceTest() {
        super(KafkaSinkConfig.CONFIG_DEF, List.of(KafkaSinkConfig.SASL_JAAS_CONFIG, KafkaSinkConfig.SSL_KEY_PASSWORD,
                        KafkaSinkConfig.SSL_KEYSTORE_PASSWORD, KafkaSinkConfig.SSL_TRUSTSTORE_PASSWORD),
                "<!-- kafka-sink-config:start (generated from KafkaSinkConfig; see connector-sink-kafka ConfigReferenceTest) -->",
                "<!-- kafka-sink-config:end -->", ConfigDocs::markdown, "Kafka sink");
    }
}
