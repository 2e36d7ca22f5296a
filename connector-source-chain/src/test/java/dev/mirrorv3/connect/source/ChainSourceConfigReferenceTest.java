package dev.mirrorv3.connect.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.docs.ConfigDocs;
import dev.mirrorv3.testsupport.ConfigReferenceContract;
import dev.mirrorv3.testsupport.ConnectorConfigs;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every setting is documented, grouped and displayed, the secret is a password; the reference in docs/configuration.md
 * is the one generated from the ConfigDef; the blob sink's store settings are the same definitions. Regenerate that
 * section with {@code mvn -pl connector-source-chain -am test -Dtest=ChainSourceConfigReferenceTest -Dsurefire.failIfNoSpecifiedTests=false
 * -DupdateReadme=true}.
 */
class ChainSourceConfigReferenceTest extends ConfigReferenceContract {
    ChainSourceConfigReferenceTest() {
        super(ChainSourceConfig.CONFIG_DEF, List.of("s3.read.secret.access.key"),
                "<!-- chain-source-config:start (generated from ChainSourceConfig; see ChainSourceConfigReferenceTest) -->",
                "<!-- chain-source-config:end -->", ConfigDocs::markdown, "chain source");
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
