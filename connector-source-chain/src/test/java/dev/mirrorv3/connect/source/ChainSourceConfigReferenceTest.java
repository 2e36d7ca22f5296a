package dev.mirrorv3.connect.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.docs.ConfigDocs;
import dev.mirrorv3.testsupport.ConnectorConfigs;
import dev.mirrorv3.testsupport.GeneratedDocs;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;

/**
 * Every setting is documented, grouped and displayed; the reference in docs/configuration.md is the one generated from the ConfigDef;
 * the blob sink's store settings are the same definitions. Regenerate that section with {@code mvn -pl
 * connector-source-chain -am test -Dtest=ChainSourceConfigReferenceTest -Dsurefire.failIfNoSpecifiedTests=false
 * -DupdateReadme=true}.
 */
class ChainSourceConfigReferenceTest {
    private static final String START = "<!-- chain-source-config:start (generated from ChainSourceConfig; see "
            + "ChainSourceConfigReferenceTest) -->";
    private static final String END = "<!-- chain-source-config:end -->";

    @Test
    void everySettingIsDocumentedGroupedAndDisplayed() {
        GeneratedDocs.assertDocumentedGroupedAndDisplayed(ChainSourceConfig.CONFIG_DEF);
        assertThat(ChainSourceConfig.CONFIG_DEF.configKeys().get("s3.read.secret.access.key").type).isEqualTo(ConfigDef.Type.PASSWORD);
    }

    @Test
    void configurationPageHoldsTheGeneratedReference() throws Exception {
        GeneratedDocs.checkSection(GeneratedDocs.CONFIGURATION, START, END, ConfigDocs.markdown(ChainSourceConfig.CONFIG_DEF),
                "chain source");
    }

    @Test
    void aBlobSinkConfigParsesAsTheBackupsStoreSettings() {
        Map<String, String> sink = new HashMap<>();
        ConnectorConfigs.with(sink, "destination.type", "s3", "s3.bucket", "b", "s3.region", "us-east-1",
                "s3.read.access.key.id", "id", "s3.read.secret.access.key", "secret", "format", "ndjson",
                "destination.name", "${topic}-backup", "topics", "orders", "target.topic", "orders-standby", "offsets", "preserve");
        ChainSourceConfig c = new ChainSourceConfig(sink);
        assertThat(c.destinationName()).isEqualTo("orders-backup");
        assertThat(c.envelope().format().extension()).isEqualTo("ndjson");
        assertThat(c.targetPartition(3)).isEqualTo(3);
        sink.put("partition.mapping", "0:3,1:4");
        assertThat(new ChainSourceConfig(sink).targetPartition(1)).isEqualTo(4);
    }
}
