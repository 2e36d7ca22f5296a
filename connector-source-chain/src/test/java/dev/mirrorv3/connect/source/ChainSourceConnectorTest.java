package dev.mirrorv3.connect.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChainSourceConnectorTest {
    @TempDir
    Path root;

    private Map<String, String> config(String partitions) {
        Map<String, String> c = new HashMap<>();
        c.put("topics", "orders");
        c.put("filesystem.root", root.toString());
        c.put("destination.name", "orders-backup");
        c.put("target.topic", "orders");
        c.put("offsets", "preserve");
        c.put("partitions", partitions);
        return c;
    }

    @Test
    void everyBackupPartitionIsInExactlyOneTask() throws Exception {
        Files.createDirectories(root.resolve("orders-backup"));
        ChainSourceConnector connector = new ChainSourceConnector();
        connector.start(config("0,1,2,3,4"));
        List<Map<String, String>> tasks = connector.taskConfigs(2);
        assertThat(tasks).hasSize(2);
        List<String> assigned = new ArrayList<>();
        tasks.forEach(t -> assigned.addAll(Arrays.asList(t.get(ChainSourceConfig.TASK_PARTITIONS).split(","))));
        assertThat(assigned).containsExactlyInAnyOrder("0", "1", "2", "3", "4");
        assertThat(connector.taskConfigs(10)).as("no idle task").hasSize(5);
        assertThat(connector.exactlyOnceSupport(Map.of())).isEqualTo(ExactlyOnceSupport.UNSUPPORTED);
        connector.stop();
    }

    @Test
    void aMissingFilesystemBackupDirectoryIsRefused() {
        assertThatThrownBy(() -> new ChainSourceConnector().start(config("0"))).isInstanceOf(ConnectException.class)
                .hasMessageContaining(root.resolve("orders-backup") + " does not exist");
    }
}
