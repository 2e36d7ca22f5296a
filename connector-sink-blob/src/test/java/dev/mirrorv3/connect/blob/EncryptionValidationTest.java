package dev.mirrorv3.connect.blob;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** validate()'s encryption rules: per-field errors naming the file, never the key material. */
class EncryptionValidationTest {
    private static final String KEY = Base64.getEncoder().encodeToString(new byte[] {
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32});
    private static final String SHORT_KEY = Base64.getEncoder().encodeToString("sixteen-byte-key".getBytes());

    @TempDir
    Path dir;

    private Map<String, String> config(String... kv) {
        Map<String, String> c = BlobSinkTestSupport.sinkConfig("orders", dir.resolve("backups"), "localhost:1");
        c.remove("source.admin.bootstrap.servers"); // an error of its own, and no 5 s attempt to reach a cluster
        for (int i = 0; i < kv.length; i += 2) {
            c.put(kv[i], kv[i + 1]);
        }
        return c;
    }

    /** setting -> its error messages, for the encryption settings and format (offline: the source cluster is not up). */
    private Map<String, List<String>> errors(Map<String, String> config, boolean offline) {
        Map<String, List<String>> out = new HashMap<>();
        for (ConfigValue v : BlobSinkValidation.VALIDATION.validate(config, offline).configValues()) {
            if (!v.errorMessages().isEmpty() && (v.name().startsWith("encryption") || v.name().equals("format"))) {
                out.put(v.name(), v.errorMessages());
            }
        }
        return out;
    }

    private Path keysDir(String... files) throws Exception {
        Path keys = Files.createTempDirectory(dir, "keys");
        for (int i = 0; i < files.length; i += 2) {
            Files.writeString(keys.resolve(files[i]), files[i + 1]);
        }
        return keys;
    }

    @Test
    void aGoodEncryptedConfigHasNoEncryptionErrors() throws Exception {
        Path keys = keysDir("k1", KEY + "\n", "k2", KEY);
        assertThat(errors(config("encryption", "parquet", "encryption.keys.dir", keys.toString(), "encryption.key.id", "k2"), false))
                .isEmpty();
        assertThat(errors(config("encryption", "none", "encryption.keys.dir", keys.toString()), false))
                .as("none with a keys dir: reading older encrypted objects").isEmpty();
    }

    @Test
    void eachBadCaseIsAPerFieldErrorNamingTheFileAndNeverTheKey() throws Exception {
        Path badName = keysDir("k1", KEY, "Key.TXT", KEY);
        Path shortKey = keysDir("k1", SHORT_KEY);
        Path keys = keysDir("k1", KEY);

        Map<String, Map<String, List<String>>> cases = new java.util.LinkedHashMap<>();
        cases.put("bad file name", errors(config("encryption", "parquet", "encryption.keys.dir", badName.toString(),
                "encryption.key.id", "k1"), false));
        cases.put("short key", errors(config("encryption", "parquet", "encryption.keys.dir", shortKey.toString(),
                "encryption.key.id", "k1"), false));
        cases.put("missing key file", errors(config("encryption", "parquet", "encryption.keys.dir", keys.toString(),
                "encryption.key.id", "k9"), false));
        cases.put("bad key id", errors(config("encryption", "parquet", "encryption.keys.dir", keys.toString(),
                "encryption.key.id", "K_1"), false));
        cases.put("ndjson", errors(config("encryption", "parquet", "format", "ndjson", "encryption.keys.dir", keys.toString(),
                "encryption.key.id", "k1"), false));
        cases.put("no dir, no id", errors(config("encryption", "parquet"), false));
        cases.put("id with none", errors(config("encryption", "none", "encryption.key.id", "k1"), false));
        cases.put("unknown mode", errors(config("encryption", "aes"), false));

        assertThat(cases.get("bad file name")).containsOnlyKeys("encryption.keys.dir");
        assertThat(cases.get("bad file name").get("encryption.keys.dir").get(0)).contains(badName.resolve("Key.TXT").toString());
        assertThat(cases.get("short key").get("encryption.keys.dir").get(0)).contains(shortKey.resolve("k1").toString(), "16 bytes");
        assertThat(cases.get("missing key file").get("encryption.key.id").get(0)).contains(keys.resolve("k9") + " does not exist");
        assertThat(cases.get("bad key id").get("encryption.key.id").get(0)).contains("'K_1' is not a key id");
        assertThat(cases.get("ndjson")).containsKeys("encryption", "format");
        assertThat(cases.get("ndjson").get("format").get(0)).contains("NDJSON objects cannot be encrypted");
        assertThat(cases.get("no dir, no id")).containsOnlyKeys("encryption.keys.dir", "encryption.key.id");
        assertThat(cases.get("id with none")).containsOnlyKeys("encryption.key.id");
        assertThat(cases.get("unknown mode")).containsOnlyKeys("encryption");

        String all = cases.values().stream().flatMap(m -> m.values().stream()).flatMap(List::stream).collect(Collectors.joining("\n"));
        assertThat(all).doesNotContain(KEY).doesNotContain(KEY.substring(0, 12)).doesNotContain(SHORT_KEY.substring(0, 12));
    }

    @Test
    void offlineChecksTheSyntaxOnlyAndS3AsksForAChoice() {
        assertThat(errors(config("encryption", "parquet", "encryption.keys.dir", "/etc/mirror-v3/keys", "encryption.key.id", "k1"), true))
                .as("the keys dir lives on the worker").isEmpty();
        assertThat(errors(config("encryption", "parquet", "encryption.keys.dir", "keys", "encryption.key.id", "k1"), true))
                .containsOnlyKeys("encryption.keys.dir");
        Map<String, String> s3 = config("destination.type", "s3");
        assertThat(errors(s3, true).get("encryption").get(0)).contains("encryption=parquet", "encryption=none");
    }
}
