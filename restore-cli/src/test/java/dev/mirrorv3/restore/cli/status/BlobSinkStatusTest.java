package dev.mirrorv3.restore.cli.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.restore.cli.ConnectorConfig;
import java.nio.file.Files;
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

        List<StatusRow> rows = new BlobSinkStatus().rows(c, new StatusReader.Context(Duration.ofSeconds(1), null, Map.of(), null));

        assertThat(rows).singleElement().satisfies(r -> assertThat(r.error())
                .startsWith("connector config: Invalid value many for configuration flush.max.records")
                .endsWith("(mirror-v3 validate lists every problem)"));
    }

    /** --destination: a blob sink with several destinations shows the partitions of the destination named, no other's. */
    @Test
    void aTeeIsShownOneDestinationAtATime(@TempDir Path root) throws Exception {
        Map<String, String> settings = Map.of("connector.class", "BlobSinkConnector", "topics", "orders",
                "destinations", "local,offsite", "bootstrap.servers", "localhost:1",
                "destinations.local.filesystem.root", root.resolve("local").toString(),
                "destinations.offsite.filesystem.root", root.resolve("offsite").toString());
        ConnectorConfig c = new ConnectorConfig("orders-backup", settings);
        Files.createDirectories(root.resolve("local").resolve("orders-backup").resolve("1"));
        Files.createDirectories(root.resolve("offsite").resolve("orders-backup").resolve("3"));

        for (String d : List.of("local", "offsite")) {
            List<StatusRow> rows = new BlobSinkStatus().rows(c, new StatusReader.Context(Duration.ofSeconds(1), null, Map.of(), d));
            assertThat(rows).as(d).extracting(r -> r.values().get("partition"))
                    .containsExactly(d.equals("local") ? 1 : 3);
        }
        assertThat(new BlobSinkStatus().rows(c, new StatusReader.Context(Duration.ofSeconds(1), null, Map.of(), null)))
                .singleElement().satisfies(r -> assertThat(r.error()).contains("several destinations [local, offsite]")
                        .contains("--destination NAME"));
    }
}
