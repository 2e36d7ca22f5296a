package dev.mirrorv3.chain.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.Chain;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.Compression;
import dev.mirrorv3.chain.envelope.EnvelopeCodec;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.envelope.EnvelopeDecodeException;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.ObjectAuthenticationException;
import dev.mirrorv3.chain.envelope.RecordHeader;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.envelope.ValueType;
import dev.mirrorv3.chain.manifest.ChainHead;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.read.ObjectCheckException;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.write.ChainWriter;
import dev.mirrorv3.chain.write.FlushPolicy;
import dev.mirrorv3.chain.write.FlushTrigger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.crypto.FileDecryptionProperties;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.api.ReadSupport;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Parquet modular encryption of our objects. */
class ParquetEncryptionTest {
    static final byte[] K1 = KeyRingTest.bytes(1, 32);
    static final byte[] K2 = KeyRingTest.bytes(2, 32);
    static final KeyRing KEYS = KeyRing.of("test keys", Map.of("k1", K1, "k2", K2));
    static final EnvelopeSettings UNCOMPRESSED =
            new EnvelopeSettings(EnvelopeFormat.PARQUET, Compression.UNCOMPRESSED, ValueType.UTF8, ValueType.UTF8);

    @TempDir
    Path dir;

    static List<BackupRecord> records(long from, int n) {
        List<BackupRecord> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long offset = from + i;
            out.add(new BackupRecord("orders", 0, offset, 1_700_000_000_000L + offset, TimestampType.CREATE_TIME,
                    utf8("customer-" + offset), utf8("{\"card\":\"PLAINTEXT-4111-" + offset + "\"}"),
                    List.of(new RecordHeader("trace", utf8("HEADERTEXT-" + offset)))));
        }
        return out;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static boolean contains(byte[] haystack, String needle) {
        byte[] n = utf8(needle);
        outer:
        for (int i = 0; i + n.length <= haystack.length; i++) {
            for (int j = 0; j < n.length; j++) {
                if (haystack[i + j] != n[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static EnvelopeCodec writer(String keyId) {
        return EnvelopeCodecs.forSettings(UNCOMPRESSED, new ObjectEncryption(KEYS, keyId));
    }

    @Test
    void encryptedObjectsRoundTripAndHoldNoPlaintext() {
        List<BackupRecord> records = records(100, 200);
        byte[] plain = EnvelopeCodecs.forSettings(UNCOMPRESSED).encode(records);
        byte[] encrypted = writer("k1").encode(records);

        assertThat(contains(plain, "PLAINTEXT-4111-150")).as("the plain object holds the value (the grep works)").isTrue();
        for (String text : List.of("PLAINTEXT", "customer-", "HEADERTEXT", "orders", "card")) {
            assertThat(contains(encrypted, text)).as("encrypted object holds '" + text + "'").isFalse();
        }
        assertThat(new String(Arrays.copyOfRange(encrypted, encrypted.length - 4, encrypted.length), StandardCharsets.US_ASCII))
                .as("encrypted footer").isEqualTo("PARE");
        assertThat(EnvelopeCodecs.forSettings(UNCOMPRESSED, ObjectEncryption.readOnly(KEYS)).decode(encrypted, "k1", "o"))
                .containsExactlyElementsOf(records);
        assertThat(writer("k1").writeKeyId()).isEqualTo("k1");
    }

    @Test
    void aStandardParquetMrReaderWithOnlyTheKeyReadsOurObject() throws Exception {
        List<BackupRecord> records = records(0, 300);
        Path file = Files.write(dir.resolve("00000000000000000000-00000000000000000299.k-k1.parquet"),
                EnvelopeCodecs.forSettings(EnvelopeSettings.parquetBytes(), new ObjectEncryption(KEYS, "k1")).encode(records));

        // parquet-mr's example Group API, its own LocalInputFile, and nothing but the footer key: not our read support.
        FileDecryptionProperties decryption = FileDecryptionProperties.builder().withFooterKey(K1.clone()).build();
        List<Group> rows = new ArrayList<>();
        try (ParquetReader<Group> reader = new GroupReaderBuilder(new LocalInputFile(file)).withDecryption(decryption).build()) {
            for (Group g = reader.read(); g != null; g = reader.read()) {
                rows.add(g);
            }
        }
        assertThat(rows).hasSize(records.size());
        for (int i = 0; i < rows.size(); i++) {
            Group g = rows.get(i);
            BackupRecord r = records.get(i);
            assertThat(g.getString("topic", 0)).isEqualTo("orders");
            assertThat(g.getLong("offset", 0)).isEqualTo(r.offset());
            assertThat(g.getBinary("key", 0).getBytes()).isEqualTo(r.key());
            assertThat(g.getBinary("value", 0).getBytes()).isEqualTo(r.value());
            assertThat(g.getGroup("headers", 0).getGroup("list", 0).getGroup("item", 0).getString("key", 0)).isEqualTo("trace");
        }

        FileDecryptionProperties wrong = FileDecryptionProperties.builder().withFooterKey(K2.clone()).build();
        assertThatThrownBy(() -> {
            try (ParquetReader<Group> reader = new GroupReaderBuilder(new LocalInputFile(file)).withDecryption(wrong).build()) {
                reader.read();
            }
        }).as("parquet-mr with the wrong key").isInstanceOf(org.apache.parquet.crypto.TagVerificationException.class)
                .hasMessageContaining("GCM tag check failed");
    }

    /**
     * Not what the toolchain reference found (DuckDB failing on parquet-mr's AAD): DuckDB 2.0.0.1, the version pinned
     * here, reads our encrypted objects given the key, and refuses a wrong one. docs/blob-sink.md: decrypt is for the readers that
     * cannot (and DuckDB versions that fail with "Computed AES tag differs").
     */
    @Test
    void duckDbReadsOurEncryptedObjectsWithTheKeyAndRefusesAWrongOne() throws Exception {
        List<BackupRecord> records = records(0, 3000);
        Path file = Files.write(dir.resolve("enc.parquet"),
                EnvelopeCodecs.forSettings(EnvelopeSettings.parquetBytes(), new ObjectEncryption(KEYS, "k1")).encode(records));
        long valueBytes = records.stream().mapToLong(r -> r.value().length).sum();
        String query = "SELECT count(*), sum(octet_length(value)), max(\"offset\") FROM read_parquet('" + file
                + "', encryption_config = {footer_key: 'k1'})";
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            st.execute("PRAGMA add_parquet_key('k1', '" + Base64.getEncoder().encodeToString(K1) + "')");
            var rs = st.executeQuery(query);
            rs.next();
            assertThat(List.of(rs.getLong(1), rs.getLong(2), rs.getLong(3))).containsExactly(3000L, valueBytes, 2999L);
        }
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            st.execute("PRAGMA add_parquet_key('k1', '" + Base64.getEncoder().encodeToString(K2) + "')");
            assertThatThrownBy(() -> st.executeQuery(query).next()).isInstanceOf(SQLException.class)
                    .hasMessageContaining("Computed AES tag differs from read AES tag");
        }
    }

    @Test
    void wrongKeyAndAFlippedByteFailAuthentication() {
        byte[] encrypted = writer("k1").encode(records(0, 500));
        KeyRing wrongK1 = KeyRing.of("other keys", Map.of("k1", K2));
        EnvelopeCodec wrongReader = EnvelopeCodecs.forSettings(UNCOMPRESSED, ObjectEncryption.readOnly(wrongK1));
        assertThatThrownBy(() -> wrongReader.decode(encrypted, "k1", "/b/m/0/x.k-k1.parquet"))
                .isInstanceOf(ObjectAuthenticationException.class)
                .hasMessageContaining("/b/m/0/x.k-k1.parquet")
                .hasMessageContaining("authentication failed: wrong key or modified object");

        EnvelopeCodec reader = EnvelopeCodecs.forSettings(UNCOMPRESSED, ObjectEncryption.readOnly(KEYS));
        for (int at : new int[] {encrypted.length / 3, encrypted.length / 2, encrypted.length - 200}) {
            byte[] tampered = encrypted.clone();
            tampered[at] ^= 0x01;
            assertThatThrownBy(() -> reader.decode(tampered, "k1", "/b/m/0/x.k-k1.parquet")).as("byte " + at + " flipped")
                    .isInstanceOf(ObjectAuthenticationException.class)
                    .hasMessageContaining("authentication failed: wrong key or modified object");
        }
    }

    @Test
    void aNameThatDoesNotMatchTheEncryptionIsRefused() {
        byte[] encrypted = writer("k1").encode(records(0, 5));
        byte[] plain = EnvelopeCodecs.forSettings(UNCOMPRESSED).encode(records(0, 5));
        EnvelopeCodec reader = EnvelopeCodecs.forSettings(UNCOMPRESSED, ObjectEncryption.readOnly(KEYS));
        assertThatThrownBy(() -> reader.decode(encrypted, null, "o")).isInstanceOf(EnvelopeDecodeException.class)
                .hasMessageContaining("carries no key id");
        assertThatThrownBy(() -> reader.decode(plain, "k1", "o")).hasMessageContaining("plain Parquet file");
        assertThatThrownBy(() -> reader.decode(encrypted, "k2", "o")).hasMessageContaining("names key id 'k1'");
        assertThatThrownBy(() -> EnvelopeCodecs.forSettings(
                new EnvelopeSettings(EnvelopeFormat.NDJSON, Compression.ZSTD, ValueType.BYTES, ValueType.BYTES),
                new ObjectEncryption(KEYS, "k1")))
                .hasMessageContaining("NDJSON");
    }

    @Test
    void oneChainMixesPlainAndSeveralKeysAndListingNamesMissingKeys() {
        FilesystemStore store = new FilesystemStore(dir, "m");
        FlushPolicy policy = new FlushPolicy(1000, 1 << 20, 1000);
        long next = 0;
        // plain -> k1 -> k2 (rotation) -> plain (encryption turned off), each a "restart" with a new writer
        for (String keyId : new String[] {null, "k1", "k2", null}) {
            ChainHead chain = new ChainReader(store, UNCOMPRESSED, KEYS).head(0);
            ChainWriter w = new ChainWriter(store, 0, EnvelopeCodecs.forSettings(UNCOMPRESSED, new ObjectEncryption(KEYS, keyId)),
                    policy, Clock.systemUTC(), chain, next);
            records(next, 10).forEach(w::append);
            w.flush(FlushTrigger.CLOSE);
            next += 10;
        }
        ChainReader reader = new ChainReader(store, UNCOMPRESSED, KEYS);
        Chain chain = reader.listChain(0, OptionalLong.of(0));
        assertThat(chain.objects()).extracting(ObjectName::keyId).containsExactly(null, "k1", "k2", null);
        List<BackupRecord> all = new ArrayList<>();
        chain.objects().forEach(o -> all.addAll(reader.read(0, o, "orders").records()));
        assertThat(all).containsExactlyElementsOf(records(0, 40));

        ChainReader withoutK1 = new ChainReader(store, UNCOMPRESSED, KeyRing.of("keys dir /keys", Map.of("k2", K2)));
        assertThatThrownBy(() -> withoutK1.listChain(0, OptionalLong.empty()))
                .isInstanceOf(MissingKeysException.class).hasMessageContaining("[k1]").hasMessageContaining("keys dir /keys");
        assertThatThrownBy(() -> new ChainReader(store, UNCOMPRESSED).listChain(0, OptionalLong.empty()))
                .hasMessageContaining("[k1, k2]");

        ChainReader wrongKeys = new ChainReader(store, UNCOMPRESSED, KeyRing.of("keys dir /keys", Map.of("k1", K2, "k2", K2)));
        ObjectName k1Object = chain.objects().get(1);
        assertThatThrownBy(() -> wrongKeys.read(0, k1Object, "orders"))
                .isInstanceOf(ObjectCheckException.class)
                .hasMessageContaining(store.location(0) + "/" + k1Object)
                .hasMessageContaining("authentication failed: wrong key or modified object");
    }

    private static final class GroupReaderBuilder extends ParquetReader.Builder<Group> {
        GroupReaderBuilder(InputFile file) {
            super(file, new PlainParquetConfiguration());
        }

        @Override
        protected ReadSupport<Group> getReadSupport() {
            return new GroupReadSupport();
        }
    }
}
