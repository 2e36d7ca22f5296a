package dev.mirrorv3.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --connector-config}: the REST body, the flat map, or an array of those; {@code --connector} names only the unnamed. */
class ConnectorConfigTest {
    @TempDir
    Path dir;

    @Test
    void aFileNamesItsConnectorsAndConnectorNamesOnlyAnUnnamedOne() throws Exception {
        Path body = Files.writeString(dir.resolve("body.json"), "{\"name\":\"orders-standby\",\"config\":{\"topics\":\"orders\"}}");
        Path flat = Files.writeString(dir.resolve("flat.json"), "{\"topics\":\"orders\"}");
        Path array = Files.writeString(dir.resolve("array.json"),
                "[{\"name\":\"a\",\"config\":{\"topics\":\"x\"}},{\"name\":\"b\",\"topics\":\"y\"}]");

        assertThat(ConnectorConfig.allFromFile(body, "orders-dr")).extracting(ConnectorConfig::name).containsExactly("orders-standby");
        assertThat(ConnectorConfig.allFromFile(flat, "orders-dr")).extracting(ConnectorConfig::name).containsExactly("orders-dr");
        assertThat(ConnectorConfig.allFromFile(array, null)).extracting(c -> c.name() + ":" + c.settings().get("topics"))
                .containsExactly("a:x", "b:y");
        assertThatThrownBy(() -> ConnectorConfig.allFromFile(flat, null)).isInstanceOf(UsageException.class)
                .hasMessageContaining("does not name the connector");
        Path empty = Files.writeString(dir.resolve("empty.json"), "[]");
        assertThatThrownBy(() -> ConnectorConfig.allFromFile(empty, null)).isInstanceOf(UsageException.class)
                .hasMessageContaining("empty JSON array");
    }
}
