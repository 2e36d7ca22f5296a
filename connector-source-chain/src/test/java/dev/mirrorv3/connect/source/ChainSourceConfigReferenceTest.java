package dev.mirrorv3.connect.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.kafka.ConfigDocs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;

/**
 * Every setting is documented, grouped and displayed; the README's reference is the one generated from the ConfigDef;
 * the blob sink's store settings are the same definitions. Regenerate the README section with {@code mvn -pl
 * connector-source-chain -am test -Dtest=ChainSourceConfigReferenceTest -Dsurefire.failIfNoSpecifiedTests=false
 * -DupdateReadme=true}.
 */
class ChainSourceConfigReferenceTest {
    private static final String START = "<!-- chain-source-config:start (generated from ChainSourceConfig; see ChainSourceConfigReferenceTest) -->";
    private static final String END = "<!-- chain-source-config:end -->";

    @Test
    void everySettingIsDocumentedGroupedAndDisplayed() {
        for (ConfigDef.ConfigKey key : ChainSourceConfig.CONFIG_DEF.configKeys().values()) {
            assertThat(key.documentation).as("documentation of " + key.name).isNotBlank();
            assertThat(key.group).as("group of " + key.name).isNotBlank();
            assertThat(key.displayName).as("display name of " + key.name).isNotBlank();
        }
        assertThat(ChainSourceConfig.CONFIG_DEF.configKeys().get("s3.read.secret.access.key").type).isEqualTo(ConfigDef.Type.PASSWORD);
    }

    @Test
    void readmeHoldsTheGeneratedReference() throws Exception {
        Path readme = Path.of("..", "README.md");
        String text = Files.readString(readme, StandardCharsets.UTF_8);
        int start = text.indexOf(START);
        int end = text.indexOf(END);
        assertThat(start).as("README has the chain source reference markers").isNotNegative();
        assertThat(end).isGreaterThan(start);
        String generated = "\n" + ConfigDocs.markdown(ChainSourceConfig.CONFIG_DEF);
        if (Boolean.getBoolean("updateReadme")) {
            Files.writeString(readme, text.substring(0, start + START.length()) + generated + text.substring(end), StandardCharsets.UTF_8);
            return;
        }
        assertThat(text.substring(start + START.length(), end))
                .as("README's chain source reference; regenerate with -DupdateReadme=true (see this test's doc)").isEqualTo(generated);
    }

    @Test
    void aBlobSinkConfigParsesAsTheBackupsStoreSettings() {
        Map<String, String> sink = new HashMap<>();
        sink.put("destination.type", "s3");
        sink.put("s3.bucket", "b");
        sink.put("s3.region", "us-east-1");
        sink.put("s3.read.access.key.id", "id");
        sink.put("s3.read.secret.access.key", "secret");
        sink.put("format", "ndjson");
        sink.put("destination.name", "${topic}-backup");
        sink.put("topics", "orders");
        sink.put("target.topic", "orders-standby");
        sink.put("offsets", "preserve");
        ChainSourceConfig c = new ChainSourceConfig(sink);
        assertThat(c.destinationName()).isEqualTo("orders-backup");
        assertThat(c.envelope().format().extension()).isEqualTo("ndjson");
        assertThat(c.targetPartition(3)).isEqualTo(3);
        sink.put("partition.mapping", "0:3,1:4");
        assertThat(new ChainSourceConfig(sink).targetPartition(1)).isEqualTo(4);
    }
}
