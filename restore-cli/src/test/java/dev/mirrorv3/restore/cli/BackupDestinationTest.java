package dev.mirrorv3.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.store.Store;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --destination: a connector with several destinations is read one destination at a time, through its own settings. */
class BackupDestinationTest {
    @TempDir
    Path dir;

    private ConnectorConfig tee() {
        return new ConnectorConfig("orders-backup", Map.of("topics", "orders", "destinations", "local,offsite",
                "destinations.local.filesystem.root", dir.resolve("local").toString(),
                "destinations.offsite.filesystem.root", dir.resolve("offsite").toString(),
                "destinations.offsite.destination.name", "orders-copy",
                "destinations.offsite.format", "ndjson"));
    }

    @Test
    void eachDestinationIsReadThroughItsOwnSettings() {
        Backup offsite = Backup.of(tee(), null, null, "offsite");
        assertThat(offsite.destinationName()).isEqualTo("orders-copy");
        assertThat(offsite.envelope().format().extension()).isEqualTo("ndjson");
        try (Store store = offsite.openStore()) {
            assertThat(store.location(0)).isEqualTo(dir.resolve("offsite").resolve("orders-copy").resolve("0").toString());
        }
        Backup local = Backup.of(tee(), null, null, "local");
        assertThat(local.destinationName()).as("destination.name defaults to the connector's name").isEqualTo("orders-backup");
        try (Store store = local.openStore()) {
            assertThat(store.location(0)).startsWith(dir.resolve("local").toString());
        }
    }

    @Test
    void aTeeNeedsTheDestinationNamedAndASingleDestinationRefusesOne() {
        assertThatThrownBy(() -> Backup.of(tee(), null, null, null)).isInstanceOf(UsageException.class)
                .hasMessageContaining("several destinations [local, offsite]").hasMessageContaining("--destination NAME");
        assertThatThrownBy(() -> Backup.of(tee(), null, null, "elsewhere")).isInstanceOf(UsageException.class)
                .hasMessageContaining("no destination elsewhere");
        ConnectorConfig single = new ConnectorConfig("orders-backup", Map.of("topics", "orders", "filesystem.root", dir.toString()));
        assertThat(Backup.of(single, null, null, null).destinationName()).isEqualTo("orders-backup");
        assertThatThrownBy(() -> Backup.of(single, null, null, "local")).isInstanceOf(UsageException.class)
                .hasMessageContaining("has one destination");
    }
}
