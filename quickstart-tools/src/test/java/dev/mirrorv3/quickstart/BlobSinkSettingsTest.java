package dev.mirrorv3.quickstart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.store.Store;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The quickstart's and the benches' view of a blob sink config: one destination, or one of a tee's, named. */
class BlobSinkSettingsTest {
    @TempDir
    Path dir;

    private Path tee() throws Exception {
        Path f = dir.resolve("demo-backup.json");
        Files.writeString(f, "{\"name\":\"demo-backup\",\"config\":{\"topics\":\"demo\",\"source.admin.bootstrap.servers\":\"k:9092\","
                + "\"destinations\":\"local,offsite\",\"destinations.local.filesystem.root\":\"" + dir.resolve("local") + "\","
                + "\"destinations.offsite.filesystem.root\":\"" + dir.resolve("offsite") + "\","
                + "\"destinations.offsite.destination.name\":\"demo-copy\",\"destinations.offsite.format\":\"ndjson\"}}");
        return f;
    }

    @Test
    void eachDestinationOfATeeIsReadThroughItsOwnSettings() throws Exception {
        BlobSinkSettings offsite = BlobSinkSettings.load(tee(), "demo-backup", "offsite");
        assertThat(offsite.destinationName()).isEqualTo("demo-copy");
        assertThat(offsite.envelope().format().extension()).isEqualTo("ndjson");
        try (Store store = offsite.store()) {
            assertThat(store.location(0)).isEqualTo(dir.resolve("offsite").resolve("demo-copy").resolve("0").toString());
        }
        BlobSinkSettings local = BlobSinkSettings.load(tee(), "demo-backup", "local");
        assertThat(local.chainDir()).isEqualTo(dir.resolve("local").resolve("demo-backup").toString());
    }

    @Test
    void aTeeNeedsItsDestinationNamed() throws Exception {
        Path f = tee();
        assertThatThrownBy(() -> BlobSinkSettings.load(f, "demo-backup")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(f.toString()).hasMessageContaining("several destinations [local, offsite]");
    }
}
