package dev.mirrorv3.restore.cli.decrypt;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.ParquetCodec;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.manifest.ChainHead;
import dev.mirrorv3.chain.snapshot.SnapshotReader;
import dev.mirrorv3.chain.snapshot.SnapshotWriter;
import dev.mirrorv3.chain.snapshot.TakenStamps;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.write.FlushPolicy;
import dev.mirrorv3.chain.write.FlushTrigger;
import dev.mirrorv3.restore.cli.CliRun;
import dev.mirrorv3.restore.cli.TestBackups;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compaction=log backup in the command line without a cluster: DuckDB reads a plain snapshot as it is, and
 * {@code decrypt} writes plain copies of plain and encrypted snapshots (each stands alone: there is no contiguous chain).
 */
class SnapshotDecryptTest {
    @TempDir
    Path dir;
    Path root;
    Path keys;
    Path config;
    /** The state (key -> value) after the first snapshot's records, and after all records. */
    Map<String, String> stateAtFirst;
    Map<String, String> stateAtEnd;
    String firstName;
    String newestName;

    /** Two snapshots of a topic with updates and tombstones: the first plain, the second encrypted with k1. */
    @BeforeEach
    void backup() throws Exception {
        root = Files.createDirectory(dir.resolve("backups"));
        keys = TestBackups.keysWithK1(dir);
        KeyRing ring = KeyRing.load(keys);
        FilesystemStore store = new FilesystemStore(root, "kv-backup");
        Random random = new Random(11);
        Map<String, String> state = new TreeMap<>();
        long offset = 0;
        String[] keyIds = {null, "k1"};
        for (String keyId : keyIds) {
            ChainHead chain = new SnapshotReader(store, TestBackups.SETTINGS, ring).head(0);
            SnapshotWriter w = new SnapshotWriter(store, "kv", 0, new SnapshotWriter.Settings(TestBackups.SETTINGS,
                    new ParquetCodec(TestBackups.SETTINGS, new ObjectEncryption(ring, keyId)),
                    new SnapshotReader(store, TestBackups.SETTINGS, ring),
                    new FlushPolicy(Long.MAX_VALUE, Long.MAX_VALUE, 3_600_000), Clock.systemUTC(), 16 * 1024), chain, offset,
                    dir.resolve("spill"));
            for (int i = 0; i < 1_500; i++, offset++) {
                String k = "key-" + random.nextInt(400);
                String v = random.nextInt(5) == 0 ? null : "v" + offset;
                if (v == null) {
                    state.remove(k);
                } else {
                    state.put(k, v);
                }
                w.append(new BackupRecord("kv", 0, offset, TestBackups.BASE_TS + offset, TimestampType.CREATE_TIME,
                        k.getBytes(StandardCharsets.UTF_8), v == null ? null : v.getBytes(StandardCharsets.UTF_8), List.of()));
            }
            String name = w.flush(FlushTrigger.TIME).orElseThrow().name().fileName();
            if (keyId == null) {
                stateAtFirst = new TreeMap<>(state);
                firstName = name;
            } else {
                newestName = name;
            }
        }
        stateAtEnd = state;
        assertThat(newestName).contains(".k-k1.");
        config = dir.resolve("kv-backup.json");
        Files.writeString(config, Files.readString(TestBackups.connectorJson(dir, "kv-backup", "kv", root))
                .replace("\"tasks.max\"", "\"compaction\":\"log\",\"tasks.max\""));
    }

    @Test
    void duckDbReadsAPlainSnapshotAsItIsInKeyOrder() throws Exception {
        assertThat(duckDbState(root.resolve("kv-backup/0/" + firstName))).isEqualTo(stateAtFirst);
    }

    @Test
    void decryptWritesPlainCopiesOfEverySnapshotThatDuckDbReads() throws Exception {
        Path out = dir.resolve("plain");
        CliRun r = CliRun.run("decrypt", "--connector-config", config.toString(), "--keys-dir", keys.toString(),
                "--output", out.toString(), "--progress", "none");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("decrypt: 1 encrypted objects written plain, 1 plain objects copied (" + stateAtEnd.size()
                + " records decrypted)");
        try (Stream<Path> s = Files.list(out.resolve("0"))) {
            assertThat(s.map(p -> p.getFileName().toString()).sorted().toList())
                    .containsExactly(firstName, newestName.replace(".k-k1.parquet", ".parquet"));
        }
        assertThat(duckDbState(out.resolve("0/" + firstName))).isEqualTo(stateAtFirst);
        assertThat(duckDbState(out.resolve("0/" + newestName.replace(".k-k1.parquet", ".parquet")))).isEqualTo(stateAtEnd);
        assertThat(new ParquetCodec(TestBackups.SETTINGS).footerMetadata(new org.apache.parquet.io.LocalInputFile(
                out.resolve("0/" + newestName.replace(".k-k1.parquet", ".parquet"))), null, "the plain copy"))
                .as("the plain copy keeps what --until-timestamp reads").containsEntry(TakenStamps.FOOTER_KEY,
                        Long.toString(TestBackups.BASE_TS + 2_999));

        CliRun noKey = CliRun.run("decrypt", "--connector-config", config.toString(), "--output", dir.resolve("nokey").toString(),
                "--progress", "none");
        assertThat(noKey.exitCode()).as(noKey.toString()).isEqualTo(1);
        assertThat(noKey.err()).contains("[k1]");
    }

    /** key -> value of a Parquet snapshot read with DuckDB, in file order, which must be key order. */
    private static Map<String, String> duckDbState(Path file) throws Exception {
        Map<String, String> got = new LinkedHashMap<>();
        List<String> order = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT key, value FROM read_parquet('" + file + "') ORDER BY file_row_number")) {
            while (rs.next()) {
                String k = new String(rs.getBytes(1), StandardCharsets.UTF_8);
                got.put(k, new String(rs.getBytes(2), StandardCharsets.UTF_8));
                order.add(k);
            }
        }
        assertThat(order).as("rows sorted by key, one per key").isSorted().doesNotHaveDuplicates();
        return new TreeMap<>(got);
    }
}
