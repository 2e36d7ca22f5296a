package dev.mirrorv3.restore.cli.decrypt;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.manifest.ChainHead;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.write.ChainWriter;
import dev.mirrorv3.chain.write.FlushPolicy;
import dev.mirrorv3.chain.write.FlushTrigger;
import dev.mirrorv3.restore.cli.CliRun;
import dev.mirrorv3.restore.cli.TestBackups;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Encrypted backups in the command line: verify with --keys-dir, missing key ids listed, decrypt for DuckDB. */
public class DecryptTest {
    public static final byte[] K1 = key(1);
    public static final byte[] K2 = key(2);

    @TempDir
    public Path dir;
    public Path root;
    public Path keys;
    public Path config;
    public List<BackupRecord> records;

    public static byte[] key(int seed) {
        byte[] k = new byte[32];
        for (int i = 0; i < 32; i++) {
            k[i] = (byte) (seed * 17 + i * 3);
        }
        return k;
    }

    /** One chain: plain, then k1, then k2 (rotation), then plain again; written by the sink's own ChainWriter. */
    @BeforeEach
    public void backup() throws Exception {
        root = Files.createDirectory(dir.resolve("backups"));
        keys = Files.createDirectory(dir.resolve("keys"));
        Files.writeString(keys.resolve("k1"), Base64.getEncoder().encodeToString(K1) + "\n");
        Files.writeString(keys.resolve("k2"), Base64.getEncoder().encodeToString(K2) + "\n");
        KeyRing ring = KeyRing.load(keys);
        records = TestBackups.records("orders", 0, 0, 799, o -> o % 97 != 13);
        FilesystemStore store = new FilesystemStore(root, "orders-backup");
        long next = 0;
        String[] phases = {null, "k1", "k2", null};
        for (int i = 0; i < phases.length; i++) {
            ChainHead chain = new ChainReader(store, TestBackups.SETTINGS, ring).head(0);
            ChainWriter w = new ChainWriter(store, 0, EnvelopeCodecs.forSettings(TestBackups.SETTINGS,
                    new ObjectEncryption(ring, phases[i])),
                    new FlushPolicy(100, 1 << 24, 60_000), Clock.systemUTC(), chain, next);
            long end = 200L * (i + 1);
            for (BackupRecord r : records) {
                if (r.offset() >= next && r.offset() < end) {
                    w.append(r);
                    if (w.sizeTrigger().isPresent()) {
                        w.flush(FlushTrigger.RECORDS);
                    }
                }
            }
            w.flush(FlushTrigger.CLOSE);
            next = w.durableNext();
        }
        config = TestBackups.connectorJson(dir, "orders-backup", "orders", root);
    }

    @Test
    public void verifyReadsTheMixedChainWithTheKeysAndListsMissingKeyIds() throws Exception {
        try (Stream<Path> s = Files.list(root.resolve("orders-backup/0"))) {
            assertThat(s.map(p -> p.getFileName().toString()).filter(n -> n.contains(".k-k1.") || n.contains(".k-k2.")).count())
                    .isGreaterThanOrEqualTo(4);
        }
        CliRun ok = CliRun.run("restore", "--connector-config", config.toString(), "--offsets", "renumber", "--verify-only",
                "--keys-dir", keys.toString(), "--progress", "none");
        assertThat(ok.exitCode()).as(ok.toString()).isZero();
        assertThat(ok.out()).contains("records: " + records.size());

        CliRun noKeys = CliRun.run("restore", "--connector-config", config.toString(), "--offsets", "renumber", "--verify-only",
                "--progress", "none");
        assertThat(noKeys.exitCode()).as(noKeys.toString()).isEqualTo(1);
        assertThat(noKeys.err()).contains("[k1, k2]", "pass --keys-dir");

        Files.delete(keys.resolve("k1"));
        CliRun withoutK1 = CliRun.run("restore", "--connector-config", config.toString(), "--offsets", "renumber", "--verify-only",
                "--keys-dir", keys.toString(), "--progress", "none");
        assertThat(withoutK1.exitCode()).as(withoutK1.toString()).isEqualTo(1);
        assertThat(withoutK1.err()).contains("[k1]").doesNotContain(Base64.getEncoder().encodeToString(K2));

        Files.writeString(keys.resolve("k1"), Base64.getEncoder().encodeToString(K2)); // the wrong key under k1's name
        CliRun wrong = CliRun.run("restore", "--connector-config", config.toString(), "--offsets", "renumber", "--verify-only",
                "--keys-dir", keys.toString(), "--progress", "none");
        assertThat(wrong.exitCode()).as(wrong.toString()).isEqualTo(1);
        assertThat(wrong.err()).contains(".k-k1.parquet: authentication failed: wrong key or modified object");
    }

    @Test
    public void statusListsMissingKeyIdsInTheRowsError() {
        // No source cluster here: each row also says it could not be reached; what matters is the backup part.
        CliRun noKeys = CliRun.run("status", "--connector-config", config.toString(), "--bootstrap-servers", "localhost:1",
                "--timeout-ms", "300");
        assertThat(noKeys.exitCode()).as(noKeys.toString()).isEqualTo(1);
        assertThat(noKeys.out()).contains("backup: the chain at", "[k1, k2]");
        CliRun withKeys = CliRun.run("status", "--connector-config", config.toString(), "--bootstrap-servers", "localhost:1",
                "--timeout-ms", "300", "--keys-dir", keys.toString());
        assertThat(withKeys.out()).doesNotContain("backup: ").contains("source cluster localhost:1");
    }

    @Test
    public void decryptWritesPlainCopiesThatDuckDbReads() throws Exception {
        Path out = dir.resolve("plain");
        CliRun r = CliRun.run("decrypt", "--connector-config", config.toString(), "--keys-dir", keys.toString(),
                "--output", out.toString(), "--progress", "plain");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("decrypt: 4 encrypted objects written plain, 4 plain objects copied");
        try (Stream<Path> s = Files.list(out.resolve("0"))) {
            assertThat(s.map(p -> p.getFileName().toString()).toList()).hasSize(8).allMatch(n -> n.matches("\\d{20}-\\d{20}\\.parquet"));
        }

        List<Long> offsets = new ArrayList<>();
        List<byte[]> values = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT \"offset\", value FROM read_parquet('" + out + "/0/*.parquet') ORDER BY \"offset\"")) {
            while (rs.next()) {
                offsets.add(rs.getLong(1));
                values.add(rs.getBytes(2));
            }
        }
        assertThat(offsets).containsExactlyElementsOf(records.stream().map(BackupRecord::offset).toList());
        for (int i = 0; i < records.size(); i++) {
            assertThat(values.get(i)).as("value at " + offsets.get(i)).isEqualTo(records.get(i).value());
        }

        CliRun again = CliRun.run("decrypt", "--connector-config", config.toString(), "--keys-dir", keys.toString(),
                "--output", out.toString(), "--progress", "none");
        assertThat(again.exitCode()).as("never overwrites").isEqualTo(2);

        Path range = dir.resolve("range");
        CliRun some = CliRun.run("decrypt", "--connector-config", config.toString(), "--keys-dir", keys.toString(),
                "--from", "250", "--to", "420", "--output", range.toString(), "--progress", "none");
        assertThat(some.exitCode()).as(some.toString()).isZero();
        try (Stream<Path> s = Files.list(range.resolve("0"))) {
            List<String> names = s.map(p -> p.getFileName().toString()).sorted().toList();
            assertThat(names).as("the objects that hold offsets 250-420, no more").hasSize(3);
            assertThat(Long.parseLong(names.get(0).substring(0, 20))).isLessThanOrEqualTo(250);
            assertThat(Long.parseLong(names.get(0).substring(21, 41))).isGreaterThanOrEqualTo(250);
            assertThat(Long.parseLong(names.get(2).substring(0, 20))).isLessThanOrEqualTo(420);
            assertThat(Long.parseLong(names.get(2).substring(21, 41))).isGreaterThanOrEqualTo(420);
        }
    }

    @Test
    public void helpExplainsDecrypt() {
        CliRun r = CliRun.run("decrypt", "--help");
        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("DuckDB", "--keys-dir", "--output", "--from", "never overwritten");
    }
}
