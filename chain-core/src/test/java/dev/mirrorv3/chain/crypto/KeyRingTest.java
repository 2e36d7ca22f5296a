package dev.mirrorv3.chain.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The keys dir: every bad case names the file, and no message holds key material. */
class KeyRingTest {
    static final byte[] K1 = bytes(1, 32);
    static final byte[] K2 = bytes(2, 32);

    @TempDir
    Path dir;

    static byte[] bytes(int seed, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (seed * 31 + i * 7);
        }
        return b;
    }

    static String b64(byte[] b) {
        return Base64.getEncoder().encodeToString(b);
    }

    private Path write(String name, String content) throws Exception {
        return Files.writeString(dir.resolve(name), content, StandardCharsets.US_ASCII);
    }

    @Test
    void loadsKeysTrimmedAndSkipsDotEntriesAsInAKubernetesSecretVolume() throws Exception {
        // A Secret volume: k1 -> ..data/k1, ..data -> ..2026_11_29_12_00_00.123, the real files in the timestamped dir.
        Path stamped = Files.createDirectory(dir.resolve("..2026_11_29_12_00_00.123"));
        Files.writeString(stamped.resolve("k1"), "\n  " + b64(K1) + "  \n");
        Files.writeString(stamped.resolve("k-2"), b64(K2));
        Files.createSymbolicLink(dir.resolve("..data"), stamped.getFileName());
        Files.createSymbolicLink(dir.resolve("k1"), Path.of("..data/k1"));
        Files.createSymbolicLink(dir.resolve("k-2"), Path.of("..data/k-2"));
        write(".hidden", "not a key");

        KeyRing ring = KeyRing.load(dir);

        assertThat(ring.ids()).containsExactly("k-2", "k1");
        assertThat(ring.key("k1")).hasValueSatisfying(k -> assertThat(k).isEqualTo(K1));
        assertThat(ring.key("k-2")).hasValueSatisfying(k -> assertThat(k).isEqualTo(K2));
        assertThat(ring.toString()).doesNotContain(b64(K1)).contains("k1");
        byte[] copy = ring.key("k1").orElseThrow();
        copy[0] ^= 1;
        assertThat(ring.key("k1").orElseThrow()).as("keys are handed out as copies").isEqualTo(K1);
    }

    @Test
    void everyBadEntryIsAnErrorNamingTheFileNeverItsContent() throws Exception {
        String shortKey = b64(bytes(3, 16));
        String longKey = b64(bytes(4, 48));
        String notBase64 = "this-is-not*base64" + b64(K1).substring(0, 10);
        Map<String, String> cases = Map.of(
                "K1", b64(K1),                         // upper case: not a key id
                "key.txt", b64(K1),                    // a dot in the name
                "a".repeat(33), b64(K1),               // too long
                "-k1", b64(K1),                        // must start with a letter or digit
                "short", shortKey,
                "long", longKey,
                "garbage", notBase64,
                "zero", b64(new byte[32]));
        for (Map.Entry<String, String> c : cases.entrySet()) {
            Path sub = Files.createDirectory(dir.resolve("case-" + Math.abs(c.getKey().hashCode())));
            write(sub.getFileName() + "/ok", b64(K2));
            Path file = Files.writeString(sub.resolve(c.getKey()), c.getValue());
            assertThatThrownBy(() -> KeyRing.load(sub)).as(c.getKey())
                    .isInstanceOf(KeysDirException.class)
                    .hasMessageContaining(file.toString())
                    .satisfies(e -> assertNoKeyMaterial(e.getMessage(), c.getValue(), b64(K2)));
        }
    }

    @Test
    void aDirectoryInsideAndAMissingDirectoryAreErrors() throws Exception {
        Files.createDirectory(dir.resolve("sub"));
        assertThatThrownBy(() -> KeyRing.load(dir)).hasMessageContaining(dir.resolve("sub").toString())
                .hasMessageContaining("not a regular file");
        assertThatThrownBy(() -> KeyRing.load(dir.resolve("absent"))).hasMessageContaining(dir.resolve("absent").toString())
                .hasMessageContaining("does not exist");
    }

    @Test
    void settingsNeedAKeyFileForTheWriteKeyId() throws Exception {
        write("k1", b64(K1));
        ObjectEncryption enc = ObjectEncryption.fromSettings(Map.of("encryption", "parquet", "encryption.keys.dir", dir.toString(),
                "encryption.key.id", "k1"));
        assertThat(enc.writeKeyId()).isEqualTo("k1");
        assertThat(enc.writeKey()).isEqualTo(K1);

        assertThatThrownBy(() -> ObjectEncryption.fromSettings(Map.of("encryption", "parquet", "encryption.keys.dir", dir.toString(),
                "encryption.key.id", "k2")))
                .isInstanceOf(KeysDirException.class).hasMessageContaining(dir.resolve("k2") + " does not exist")
                .satisfies(e -> assertNoKeyMaterial(e.getMessage(), b64(K1)));
        assertThatThrownBy(() -> ObjectEncryption.fromSettings(Map.of("encryption", "parquet", "encryption.key.id", "k1")))
                .hasMessageContaining("encryption.keys.dir");
        assertThatThrownBy(() -> ObjectEncryption.fromSettings(Map.of("encryption", "parquet", "encryption.keys.dir", dir.toString())))
                .hasMessageContaining("encryption.key.id");
        ObjectEncryption none = ObjectEncryption.fromSettings(Map.of("encryption", "none", "encryption.keys.dir", dir.toString()));
        assertThat(none.encryptsNewObjects()).isFalse();
        assertThat(none.keys().ids()).as("with none the keys still read older objects").containsExactly("k1");
    }

    @Test
    void missingKeysAreListed() {
        KeyRing ring = KeyRing.of("test keys", Map.of("k2", K2));
        List<ObjectName> objects = List.of(ObjectName.plain(0, 9, EnvelopeFormat.PARQUET),
                new ObjectName(10, 19, EnvelopeFormat.PARQUET, "k1"), new ObjectName(20, 29, EnvelopeFormat.PARQUET, "k2"),
                new ObjectName(30, 39, EnvelopeFormat.PARQUET, "k0"));
        assertThatThrownBy(() -> ring.requireKeysFor("/backups/m/0", objects))
                .isInstanceOf(MissingKeysException.class)
                .hasMessageContaining("[k0, k1]")
                .hasMessageContaining("/backups/m/0")
                .hasMessageContaining(objects.get(1).fileName())
                .satisfies(e -> assertThat(((MissingKeysException) e).missing()).containsExactlyInAnyOrder("k0", "k1"));
    }

    static void assertNoKeyMaterial(String message, String... keyTexts) {
        for (String k : keyTexts) {
            assertThat(message).doesNotContain(k.strip());
            assertThat(message).doesNotContain(k.strip().substring(0, 12));
        }
    }
}
