package dev.mirrorv3.restore.cli.prune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.manifest.ChainStart;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.restore.cli.CliRun;
import dev.mirrorv3.restore.cli.Main;
import dev.mirrorv3.restore.cli.TestBackups;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * mirror-v3 prune run as a process and killed (SIGKILL) at random moments, again and again: after every kill each reader
 * accepts the chain, and a second run finishes it.
 */
class PruneKillIT {
    @TempDir
    Path dir;

    @Test
    void aPruneKilledAtAnyPointLeavesAChainEveryReaderAcceptsAndASecondRunFinishesIt() throws Exception {
        Random random = new Random(47);
        int killedMidway = 0;
        StringBuilder seen = new StringBuilder();
        for (int round = 0; round < 6; round++) {
            Path root = Files.createDirectory(dir.resolve("r" + round));
            List<BackupRecord> records = TestBackups.records("orders", 0, 0, 599, o -> true);
            List<ObjectName> objects = TestBackups.write(root, "orders-backup", 0, 0, records, 1);
            Path config = TestBackups.connectorJson(root, "orders-backup", "orders", root.resolve("."));
            String before = Instant.ofEpochMilli(TestBackups.BASE_TS + 500).toString();
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                    System.getProperty("java.class.path"), Main.class.getName(), "prune", "--connector-config", config.toString(),
                    "--before", before).redirectErrorStream(true).redirectOutput(root.resolve("prune.log").toFile()).start();
            if (round % 2 == 0) { // right after the start record landed: in the middle of the deletes
                Path started = root.resolve("orders-backup/_start/0");
                for (int i = 0; i < 600 && !(Files.isDirectory(started) && Files.list(started).findAny().isPresent()); i++) {
                    Thread.sleep(50);
                }
                Thread.sleep(random.nextInt(150));
            } else { // anywhere: before the record, between it and the deletes, or after
                Thread.sleep(300 + random.nextInt(4000));
            }
            p.destroyForcibly();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();

            seen.append("round ").append(round).append(": ").append(Files.readString(root.resolve("prune.log"))).append('\n');
            FilesystemStore store = new FilesystemStore(root, "orders-backup");
            ChainReader reader = new ChainReader(store, EnvelopeSettings.parquetBytes());
            List<ObjectName> left = reader.listChain(0, OptionalLong.empty()).objects();
            if (ChainStart.recordedByStartRecords(store, 0).isPresent() && left.get(0).from() > 0 && left.get(0).from() < 500) {
                killedMidway++; // the premise: killed after the start was recorded and some, not all, objects deleted
            }
            seen.append(" first object left ").append(left.get(0)).append('\n');
            assertThat(reader.head(0).nextOffset()).as("round " + round + ": the sink's open accepts it").hasValue(600);
            CliRun verify = CliRun.run("restore", "--connector-config", config.toString(), "--offsets", "renumber",
                    "--verify-only", "--progress", "none");
            assertThat(verify.exitCode()).as("round " + round + ": " + verify).isZero();

            CliRun again = CliRun.run("prune", "--connector-config", config.toString(), "--before", before);
            assertThat(again.exitCode()).as(again.toString()).isZero();
            assertThat(reader.listChain(0, OptionalLong.empty()).objects()).as("round " + round + ": finished")
                    .containsExactlyElementsOf(objects.subList(500, objects.size()));
        }
        assertThat(killedMidway).as("runs killed between their start record and their last delete; " + seen).isPositive();
    }
}
