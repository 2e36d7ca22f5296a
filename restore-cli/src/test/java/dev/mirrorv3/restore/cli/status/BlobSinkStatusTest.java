package dev.mirrorv3.restore.cli.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.restore.cli.ConnectorConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The blob sink's rows read the connector's settings through its own config class, as the other connectors' rows do. */
class BlobSinkStatusTest {

    @Test
    void aConfigTheConnectorRejectsIsOneRowNamingTheSetting(@TempDir Path root) {
        ConnectorConfig c = new ConnectorConfig("orders-backup", Map.of("connector.class", "BlobSinkConnector", "topics", "orders",
                "destination.type", "filesystem", "filesystem.root", root.toString(), "flush.max.records", "many"));

        List<StatusRow> rows = new BlobSinkStatus().rows(c, new StatusReader.Context(Duration.ofSeconds(1), null, Map.of()));

        assertThat(rows).singleElement().satisfies(r -> assertThat(r.error())
                .startsWith("connector config: Invalid value many for configuration flush.max.records")
                .endsWith("(mirror-v3 validate lists every problem)"));
    }
}
