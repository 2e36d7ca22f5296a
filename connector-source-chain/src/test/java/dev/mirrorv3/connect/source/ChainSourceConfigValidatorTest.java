package dev.mirrorv3.connect.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * validate()'s partition.mapping rule against a real filesystem backup in a temp dir: two backup partitions never go
 * to one target partition, whether partition.mapping sends them there or one keeps its number. (No target cluster is
 * configured, so validate() reaches none; its error on target.admin.bootstrap.servers is not looked at here.)
 */
class ChainSourceConfigValidatorTest {
    @TempDir
    Path root;

    private Map<String, String> config(String partitions, String mapping) {
        Map<String, String> c = ChainSourceTestSupport.offlineConfig(root, partitions);
        c.put("partition.mapping", mapping);
        return c;
    }

    private void backupPartitions(int... partitions) throws Exception {
        Files.createDirectories(root.resolve("orders-backup"));
        for (int p : partitions) {
            Files.createDirectories(root.resolve("orders-backup").resolve(Integer.toString(p)));
        }
    }

    private static List<String> errors(Map<String, String> config, String key) {
        return new ChainSourceConnector().validate(config).configValues().stream().filter(v -> v.name().equals(key))
                .map(ConfigValue::errorMessages).findFirst().orElseThrow();
    }

    @Test
    void aMappingOntoAPartitionTheBackupHasIsRefused() throws Exception {
        backupPartitions(0, 1, 2);
        assertThat(errors(config("", "0:1"), "partition.mapping")).singleElement().asString()
                .contains("backup partitions 0 and 1 would both go to target partition 1")
                .contains("partition.mapping sends 0 to 1").contains("1 is not in partition.mapping");
        assertThat(errors(config("", "0:1,1:0"), "partition.mapping")).as("a swap").isEmpty();
        assertThat(errors(config("", "0:3"), "partition.mapping")).as("onto a partition the backup lacks").isEmpty();
        assertThat(errors(config("", "2:0"), "partition.mapping")).singleElement().asString()
                .contains("backup partitions 0 and 2 would both go to target partition 0");
    }

    @Test
    void explicitPartitionsAndTheMappingAreCheckedWithoutTheBackup() {
        // no backup directory: filesystem.root has its own error, and the mapping is checked against what is configured
        assertThat(errors(config("0,1", "0:1"), "partition.mapping")).singleElement().asString()
                .contains("backup partitions 0 and 1 would both go to target partition 1");
        assertThat(errors(config("", "0:5,1:5"), "partition.mapping")).singleElement().asString()
                .contains("backup partitions 0 and 1 would both go to target partition 5");
        assertThat(errors(config("0,2", "0:1"), "partition.mapping")).isEmpty();
    }

    @Test
    void explicitPartitionsDecideWhatIsFollowedNotTheBackupsDirectories() throws Exception {
        backupPartitions(0, 1);
        assertThat(errors(config("0", "0:1"), "partition.mapping")).as("backup partition 1 is not followed").isEmpty();
    }

    @Test
    void aSnapshotBackupIsRefusedNamingTheMode() {
        Map<String, String> c = config("", "");
        c.put("compaction", "log");
        assertThat(errors(c, "compaction")).singleElement().asString()
                .contains("compaction=log", "following a snapshot has no meaning", "mirror-v3 restore --offsets renumber");
        assertThat(errors(config("", ""), "compaction")).as("a chain").isEmpty();
    }

    @Test
    void untilOffsetMustNameEveryFollowedPartitionUnlessUntilTimestampIsSet() throws Exception {
        backupPartitions(0, 1, 2);
        Map<String, String> c = config("", "");
        c.put("until.offset", "0:10,1:20");
        assertThat(errors(c, "until.offset")).as("the backup's partitions are followed").singleElement().asString()
                .contains("names no offset for backup partitions [2]", "set until.timestamp too");
        c.put("until.offset", "0:10,1:20,2:30");
        assertThat(errors(c, "until.offset")).isEmpty();

        Map<String, String> some = config("0,1", "");
        some.put("until.offset", "0:10");
        assertThat(errors(some, "until.offset")).singleElement().asString().contains("names no offset for backup partitions [1]");
        some.put("until.timestamp", "2026-11-30T14:02:00Z");
        assertThat(errors(some, "until.offset")).as("a timestamp cuts the others").isEmpty();
    }
}
