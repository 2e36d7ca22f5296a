package dev.mirrorv3.kafka.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store fragment's rules, once for both connectors that use them: the blob sink writes (WRITE), the chain source
 * reads (READ). Each case is the setting that gets the error and a piece of its one message.
 */
class StoreConfigFragmentTest {
    private static final String KEY = Base64.getEncoder().encodeToString(new byte[] {
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32});
    private static final ConfigDef DEF = def();

    @TempDir
    Path dir;

    private static ConfigDef def() {
        ConfigDef def = new ConfigDef();
        new StoreConfigFragment("Destination", StoreConfigFragment.Access.WRITE, Map.of()).define(new SettingsTable(def));
        return def;
    }

    /** setting -> its error messages after the ConfigDef's own checks and the fragment's rules. */
    private static Map<String, List<String>> errors(Map<String, String> props, StoreConfigFragment.Access access, boolean offline,
            boolean[] complete) {
        Config config = new Config(new ArrayList<>(DEF.validate(props)));
        StoreConfigFragment fragment = new StoreConfigFragment("Destination", access, Map.of());
        ConnectorChecks checks = new ConnectorChecks(props, config);
        fragment.validate(props, checks, offline);
        boolean c = fragment.locationComplete(props, checks);
        if (complete != null) {
            complete[0] = c;
        }
        Map<String, List<String>> out = new HashMap<>();
        for (ConfigValue v : config.configValues()) {
            if (!v.errorMessages().isEmpty()) {
                out.put(v.name(), v.errorMessages());
            }
        }
        return out;
    }

    private static Map<String, List<String>> errors(Map<String, String> props, StoreConfigFragment.Access access, boolean offline) {
        return errors(props, access, offline, null);
    }

    private static Map<String, String> props(String... kv) {
        Map<String, String> p = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            p.put(kv[i], kv[i + 1]);
        }
        return p;
    }

    @Test
    void aFilesystemRootIsRequiredAndAbsoluteForBothAndWritableForTheWriter() throws Exception {
        for (StoreConfigFragment.Access access : StoreConfigFragment.Access.values()) {
            assertThat(errors(props(), access, true).get("filesystem.root")).singleElement().asString()
                    .startsWith("required with destination.type=filesystem");
            assertThat(errors(props("filesystem.root", "backups"), access, true).get("filesystem.root")).singleElement().asString()
                    .isEqualTo("must be an absolute path (the worker's working directory is not a stable place): backups");
            assertThat(errors(props("filesystem.root", dir.resolve("new/backups").toString()), access, false)).as(access.name()).isEmpty();
        }
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        String root = file.resolve("backups").toString();
        assertThat(errors(props("filesystem.root", root), StoreConfigFragment.Access.WRITE, false).get("filesystem.root"))
                .singleElement().asString().isEqualTo(root + " cannot be created or written by the worker (" + file
                        + " is not a writable directory)");
        assertThat(errors(props("filesystem.root", root), StoreConfigFragment.Access.WRITE, true)).as("offline: the worker's").isEmpty();
        assertThat(errors(props("filesystem.root", root), StoreConfigFragment.Access.READ, false))
                .as("a reader does not write there; whether the backup exists is the chain source's own rule").isEmpty();
    }

    @Test
    void s3NeedsBucketRegionAndTheIdentitiesOfItsAccess() {
        Map<String, List<String>> writer = errors(props("destination.type", "s3"), StoreConfigFragment.Access.WRITE, true);
        assertThat(writer).containsOnlyKeys("s3.bucket", "s3.region", "s3.write.access.key.id", "s3.write.secret.access.key",
                "s3.read.access.key.id", "s3.read.secret.access.key", "encryption");
        assertThat(writer.get("s3.write.access.key.id")).singleElement().asString()
                .contains("required with destination.type=s3", "s3:PutObject only", "${env:S3_WRITE_ACCESS_KEY_ID}");
        assertThat(writer.get("encryption")).singleElement().asString().contains("encryption=parquet", "encryption=none");

        Map<String, List<String>> reader = errors(props("destination.type", "s3"), StoreConfigFragment.Access.READ, true);
        assertThat(reader).as("a reader needs the read identity only, and encryption may stay unset")
                .containsOnlyKeys("s3.bucket", "s3.region", "s3.read.access.key.id", "s3.read.secret.access.key");
        assertThat(reader.get("s3.bucket")).singleElement().asString()
                .isEqualTo("required with destination.type=s3: the bucket that holds the backup's chains");
    }

    @Test
    void anS3EndpointIsAnHttpUrlWithAHostAndOnlyACompleteS3ConfigCanBeTried() {
        Map<String, String> s3 = props("destination.type", "s3", "s3.bucket", "b", "s3.region", "us-east-1",
                "s3.read.access.key.id", "r", "s3.read.secret.access.key", "rs", "encryption", "none");
        boolean[] complete = new boolean[1];
        assertThat(errors(s3, StoreConfigFragment.Access.READ, false, complete)).isEmpty();
        assertThat(complete[0]).isTrue();

        s3.put("s3.endpoint", "minio:9000");
        assertThat(errors(s3, StoreConfigFragment.Access.READ, false, complete).get("s3.endpoint")).singleElement().asString()
                .isEqualTo("must be an http:// or https:// URL with a host, e.g. https://minio:9000 (found minio:9000)");
        assertThat(complete[0]).isFalse();
        s3.put("s3.endpoint", "http://minio:9000");
        s3.remove("s3.region");
        assertThat(errors(s3, StoreConfigFragment.Access.READ, false, complete)).containsOnlyKeys("s3.region");
        assertThat(complete[0]).isFalse();
    }

    /** Both connectors (a sink's config is reused by the chain source): the Object Lock retention and the prune identity. */
    @Test
    void theObjectLockRetentionAndThePruneIdentityComeInPairsAndOnS3Only() {
        for (StoreConfigFragment.Access access : StoreConfigFragment.Access.values()) {
            Map<String, String> s3 = props("destination.type", "s3", "s3.bucket", "b", "s3.region", "us-east-1",
                    "s3.write.access.key.id", "w", "s3.write.secret.access.key", "ws", "s3.read.access.key.id", "r",
                    "s3.read.secret.access.key", "rs", "encryption", "none");
            Map<String, String> both = new HashMap<>(s3);
            both.putAll(props("s3.object.lock.mode", "Compliance", "s3.object.lock.retain.days", "30",
                    "s3.prune.access.key.id", "${env:S3_PRUNE_ACCESS_KEY_ID}", "s3.prune.secret.access.key", "ps"));
            boolean[] complete = new boolean[1];
            assertThat(errors(both, access, true, complete)).as(access.name()).isEmpty();
            assertThat(complete[0]).as("the prune identity is no part of what the connector needs").isTrue();

            Map<String, String> modeOnly = new HashMap<>(s3);
            modeOnly.putAll(props("s3.object.lock.mode", "governance", "s3.prune.access.key.id", "p"));
            assertThat(errors(modeOnly, access, true)).as(access.name()).containsOnlyKeys("s3.object.lock.retain.days",
                    "s3.prune.secret.access.key");
            assertThat(errors(modeOnly, access, true).get("s3.object.lock.retain.days")).singleElement().asString()
                    .startsWith("required with s3.object.lock.mode: the number of days each new object is kept unchanged");
            assertThat(errors(modeOnly, access, true).get("s3.prune.secret.access.key")).singleElement().asString()
                    .startsWith("required with s3.prune.access.key.id: the secret access key of the prune identity");

            Map<String, String> daysOnly = new HashMap<>(s3);
            daysOnly.putAll(props("s3.object.lock.retain.days", "7", "s3.prune.secret.access.key", "ps"));
            assertThat(errors(daysOnly, access, true)).as(access.name()).containsOnlyKeys("s3.object.lock.mode",
                    "s3.prune.access.key.id");
            assertThat(errors(daysOnly, access, true).get("s3.object.lock.mode")).singleElement().asString()
                    .startsWith("required with s3.object.lock.retain.days: governance").contains("compliance");

            Map<String, String> wrong = new HashMap<>(both);
            wrong.putAll(props("s3.object.lock.mode", "legal-hold", "s3.object.lock.retain.days", "0"));
            assertThat(errors(wrong, access, true)).as(access.name()).containsOnlyKeys("s3.object.lock.mode",
                    "s3.object.lock.retain.days");

            Map<String, String> filesystem = props("filesystem.root", "/var/backups", "s3.object.lock.mode", "governance",
                    "s3.object.lock.retain.days", "30", "s3.prune.access.key.id", "p", "s3.prune.secret.access.key", "ps");
            Map<String, List<String>> onFilesystem = errors(filesystem, access, true);
            assertThat(onFilesystem).as(access.name()).containsOnlyKeys("s3.object.lock.mode", "s3.object.lock.retain.days",
                    "s3.prune.access.key.id", "s3.prune.secret.access.key");
            assertThat(onFilesystem.get("s3.object.lock.mode")).singleElement().asString()
                    .isEqualTo("only with destination.type=s3: a filesystem has no Object Lock; remove it");
            assertThat(onFilesystem.get("s3.prune.access.key.id")).singleElement().asString()
                    .isEqualTo("only with destination.type=s3: the prune identity signs S3 requests; remove it");
        }
    }

    @Test
    void encryptionRulesForTheWriterAndTheReader() throws Exception {
        Path keys = Files.createDirectory(dir.resolve("keys"));
        Files.writeString(keys.resolve("k1"), KEY);
        String root = dir.toString();
        StoreConfigFragment.Access write = StoreConfigFragment.Access.WRITE;
        StoreConfigFragment.Access read = StoreConfigFragment.Access.READ;

        assertThat(errors(props("filesystem.root", root, "encryption", "parquet", "encryption.keys.dir", keys.toString(),
                "encryption.key.id", "k1"), write, false)).isEmpty();
        assertThat(errors(props("filesystem.root", root, "encryption", "parquet", "encryption.keys.dir", keys.toString(),
                "encryption.key.id", "k9"), write, false).get("encryption.key.id")).singleElement().asString()
                .startsWith(keys.resolve("k9") + " does not exist: add the key file of k9");
        assertThat(errors(props("filesystem.root", root, "encryption", "parquet", "encryption.keys.dir", keys.toString(),
                "encryption.key.id", "K_1"), write, true).get("encryption.key.id")).singleElement().asString()
                .startsWith("'K_1' is not a key id");
        assertThat(errors(props("filesystem.root", root, "encryption", "none", "encryption.key.id", "k1"), write, true))
                .containsOnlyKeys("encryption.key.id");
        assertThat(errors(props("filesystem.root", root, "encryption", "parquet", "format", "ndjson", "encryption.keys.dir",
                keys.toString(), "encryption.key.id", "k1"), write, true)).containsOnlyKeys("encryption", "format");

        Map<String, List<String>> readerWithoutDir = errors(props("filesystem.root", root, "encryption", "parquet"), read, true);
        assertThat(readerWithoutDir).as("the reader names no key id: the objects do").containsOnlyKeys("encryption.keys.dir");
        assertThat(readerWithoutDir.get("encryption.keys.dir")).singleElement().asString().startsWith("required with encryption=parquet");
        assertThat(errors(props("filesystem.root", root, "encryption", "parquet", "encryption.keys.dir", keys.toString()), read, false))
                .isEmpty();

        Files.writeString(keys.resolve("k2"), KEY.substring(0, 24)); // 16 bytes, not 32
        for (StoreConfigFragment.Access access : StoreConfigFragment.Access.values()) {
            List<String> bad = errors(props("filesystem.root", root, "encryption", "parquet", "encryption.keys.dir", keys.toString(),
                    "encryption.key.id", "k1"), access, false).get("encryption.keys.dir");
            assertThat(bad).as(access.name()).singleElement().asString().contains(keys.resolve("k2").toString()).doesNotContain(KEY);
            assertThat(errors(props("filesystem.root", root, "encryption", "parquet", "encryption.keys.dir", keys.toString(),
                    "encryption.key.id", "k1"), access, true)).as("offline: the keys dir is the worker's").isEmpty();
            assertThat(errors(props("filesystem.root", root, "encryption.keys.dir", "keys"), access, true).get("encryption.keys.dir"))
                    .singleElement().asString().isEqualTo("must be an absolute path: keys");
        }
    }
}
