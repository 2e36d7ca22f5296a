package dev.mirrorv3.restore.cli.start;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.manifest.ChainStart;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.restore.cli.CliRun;
import dev.mirrorv3.restore.cli.TestBackups;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One rule for where a chain may start, in every command that reads one: a chain whose head was removed by hand (not by
 * {@code mirror-v3 prune}) is refused by restore, decrypt and both status rows with the same message.
 */
public class ChainStartRuleTest {
    static final String SHORTENED = "starts at offset 100 (00000000000000000100-00000000000000000199.parquet), not at 0 nor at"
            + " its recorded start";

    @TempDir
    Path dir;
    Path root;
    Path sinkConfig;
    Path sourceConfig;
    List<ObjectName> objects;

    @BeforeEach
    void backup() throws Exception {
        root = Files.createDirectory(dir.resolve("backups"));
        sinkConfig = TestBackups.connectorJson(dir, "orders-backup", "orders", root);
        sourceConfig = dir.resolve("orders-standby.json");
        Files.writeString(sourceConfig, "{\"name\":\"orders-standby\",\"config\":{"
                + "\"connector.class\":\"dev.mirrorv3.connect.source.ChainSourceConnector\",\"tasks.max\":\"1\","
                + "\"topics\":\"orders\",\"destination.type\":\"filesystem\",\"filesystem.root\":\"" + root + "\","
                + "\"destination.name\":\"orders-backup\",\"target.topic\":\"orders\",\"offsets\":\"preserve\","
                + "\"target.admin.bootstrap.servers\":\"localhost:1\","
                + "\"key.converter\":\"org.apache.kafka.connect.converters.ByteArrayConverter\","
                + "\"value.converter\":\"org.apache.kafka.connect.converters.ByteArrayConverter\"}}");
    }

    /** A chain 0-399 written as this version's sink writes it: with its manifest, a chain under the rule. */
    void writtenUnderTheRule() {
        objects = TestBackups.writeWithTheSinksWriter(root, TestBackups.records("orders", 0, 0, 399, o -> true), 100);
        assertThat(root.resolve("orders-backup/_manifest/0")).as("premise: a manifest").isNotEmptyDirectory();
    }

    /** A chain 0-399 as an earlier version wrote it: no manifest, no start record. */
    void writtenBeforeTheRule(long from) {
        List<BackupRecord> records = TestBackups.records("orders", 0, from, 399, o -> true);
        objects = TestBackups.write(root, "orders-backup", 0, from, records, 100);
        assertThat(root.resolve("orders-backup/_manifest")).as("premise: no manifest").doesNotExist();
        assertThat(root.resolve("orders-backup/_start")).as("premise: no start record").doesNotExist();
    }

    /** Removes the chain's first object by hand: the backup silently lacks offsets 0-99. */
    void shortenByHand() throws Exception {
        Files.delete(root.resolve("orders-backup/0").resolve(objects.get(0).fileName()));
    }

    /** What prune does: records the new start, then removes the objects before it. */
    void shortenAsPruneDoes() throws Exception {
        ChainStart.record(new FilesystemStore(root, "orders-backup"), 0, 100);
        shortenByHand();
    }

    @Test
    void everyCommandReadsAChainThatStartsAtItsRecordedStart() throws Exception {
        writtenBeforeTheRule(0);
        shortenAsPruneDoes();
        CliRun restore = CliRun.run("restore", "--connector-config", sinkConfig.toString(), "--offsets", "renumber",
                "--verify-only", "--progress", "none");
        assertThat(restore.exitCode()).as(restore.toString()).isZero();
        assertThat(restore.out()).contains("records: 300");
        decryptAndTheSinksStatusRowAccept();
        CliRun sourceStatus = CliRun.run("status", "--connector-config", sourceConfig.toString(), "--timeout-ms", "300");
        assertThat(sourceStatus.out()).as(sourceStatus.toString()).doesNotContain("backup: ").contains("400");
    }

    /** Decrypt copies the chain's three objects, and the blob sink's status row shows its end without a backup error. */
    void decryptAndTheSinksStatusRowAccept() {
        CliRun decrypt = CliRun.run("decrypt", "--connector-config", sinkConfig.toString(), "--output",
                dir.resolve("out").toString(), "--progress", "none");
        assertThat(decrypt.exitCode()).as(decrypt.toString()).isZero();
        assertThat(decrypt.out()).contains("3 plain objects copied");
        CliRun sinkStatus = CliRun.run("status", "--connector-config", sinkConfig.toString(), "--bootstrap-servers",
                "localhost:1", "--timeout-ms", "300");
        assertThat(sinkStatus.out()).as(sinkStatus.toString()).doesNotContain("backup: ").contains("400");
    }

    @Test
    void restoreRefusesAChainShortenedByHand() throws Exception {
        writtenUnderTheRule();
        shortenByHand();
        CliRun r = CliRun.run("restore", "--connector-config", sinkConfig.toString(), "--offsets", "renumber", "--verify-only",
                "--progress", "none");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.err()).as(r.toString()).contains(SHORTENED);
    }

    @Test
    void decryptRefusesAChainShortenedByHand() throws Exception {
        writtenUnderTheRule();
        shortenByHand();
        CliRun r = CliRun.run("decrypt", "--connector-config", sinkConfig.toString(), "--output", dir.resolve("out").toString(),
                "--progress", "none");
        assertThat(r.exitCode()).as(r.toString()).isNotZero();
        assertThat(r.err()).as(r.toString()).contains(SHORTENED);
        assertThat(dir.resolve("out/0")).as("nothing copied").doesNotExist();
    }

    @Test
    void blobSinkStatusRowRefusesAChainShortenedByHand() throws Exception {
        writtenUnderTheRule();
        shortenByHand();
        CliRun r = CliRun.run("status", "--connector-config", sinkConfig.toString(), "--bootstrap-servers", "localhost:1",
                "--timeout-ms", "300");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).as(r.toString()).contains("backup: the chain at", SHORTENED);
    }

    @Test
    void chainSourceStatusRowRefusesAChainShortenedByHand() throws Exception {
        writtenUnderTheRule();
        shortenByHand();
        CliRun r = CliRun.run("status", "--connector-config", sourceConfig.toString(), "--timeout-ms", "300");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).as(r.toString()).contains("backup: the chain at", SHORTENED);
    }

    static final String BEFORE_THE_RULE = "starts at offset 100 (00000000000000000100-00000000000000000199.parquet), not at 0;"
            + " if objects before it were removed on purpose, pass --chain-start 100";

    @Test
    void aChainFromBeforeTheRuleIsReadAsBeforeByEveryCommandThatNeverWrites() throws Exception {
        writtenBeforeTheRule(100);
        CliRun restore = CliRun.run("restore", "--connector-config", sinkConfig.toString(), "--offsets", "renumber",
                "--verify-only", "--progress", "none");
        assertThat(restore.exitCode()).as(restore.toString()).isEqualTo(1);
        assertThat(restore.err()).as(restore.toString()).contains(BEFORE_THE_RULE);
        CliRun from100 = CliRun.run("restore", "--connector-config", sinkConfig.toString(), "--offsets", "renumber",
                "--verify-only", "--progress", "none", "--chain-start", "100");
        assertThat(from100.exitCode()).as(from100.toString()).isZero();
        assertThat(from100.out()).contains("records: 300");
        CliRun sourceStatus = CliRun.run("status", "--connector-config", sourceConfig.toString(), "--timeout-ms", "300");
        assertThat(sourceStatus.out()).as(sourceStatus.toString()).contains("backup: the chain at", BEFORE_THE_RULE);
        decryptAndTheSinksStatusRowAccept();
        assertThat(root.resolve("orders-backup/_start")).as("no reader records a start").doesNotExist();
    }
}
