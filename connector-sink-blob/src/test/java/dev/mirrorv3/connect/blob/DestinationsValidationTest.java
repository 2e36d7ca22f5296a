package dev.mirrorv3.connect.blob;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.kafka.config.DestinationSettings;
import dev.mirrorv3.kafka.config.StoreConfigFragment;
import dev.mirrorv3.testsupport.ConnectorConfigs;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tee's configuration (destinations=a,b): each destination a view over its prefix, validated per destination with
 * errors on the prefixed keys; without destinations nothing changes.
 */
class DestinationsValidationTest {
    @TempDir
    Path dir;

    /** A tee of a filesystem destination and an S3 one, offline (nothing contacted). */
    private Map<String, String> tee(String... kv) {
        Map<String, String> c = BlobSinkTestSupport.sinkConfig("orders", dir.resolve("local"), "localhost:1");
        c.remove("filesystem.root");
        c.put("name", "orders-backup");
        c.put("destinations", "local,offsite");
        c.put("destinations.local.filesystem.root", dir.resolve("local").toString());
        ConnectorConfigs.with(c, "destinations.offsite.destination.type", "s3", "destinations.offsite.s3.region", "us-east-1",
                "destinations.offsite.s3.bucket", "backups", "destinations.offsite.s3.write.access.key.id", "w",
                "destinations.offsite.s3.write.secret.access.key", "ws", "destinations.offsite.s3.read.access.key.id", "r",
                "destinations.offsite.s3.read.secret.access.key", "rs", "destinations.offsite.encryption", "none");
        return ConnectorConfigs.with(c, kv);
    }

    private static Map<String, List<String>> errors(Map<String, String> config) {
        Map<String, List<String>> out = new HashMap<>();
        for (ConfigValue v : BlobSinkValidation.VALIDATION.validate(config, true).configValues()) {
            if (!v.errorMessages().isEmpty()) {
                out.put(v.name(), v.errorMessages());
            }
        }
        return out;
    }

    @Test
    void aGoodTeeHasNoErrorsAndEachDestinationIsAViewOverItsPrefix() {
        assertThat(errors(tee())).isEmpty();
        BlobSinkConfig config = new BlobSinkConfig(tee("buffer.max.bytes", "1000", "destinations.offsite.flush.max.time.ms", "5000"));
        List<DestinationSettings> all = config.destinations();
        assertThat(all).extracting(d -> d.teeName().orElseThrow()).containsExactly("local", "offsite");
        BlobSinkConfig local = config.forDestination(all.get(0), 2);
        BlobSinkConfig offsite = config.forDestination(all.get(1), 2);
        assertThat(local.destinationType()).isEqualTo("filesystem");
        assertThat(local.filesystemRoot()).isEqualTo(dir.resolve("local"));
        assertThat(offsite.destinationType()).isEqualTo("s3");
        assertThat(offsite.s3Settings().bucket()).isEqualTo("backups");
        assertThat(local.bufferMaxBytes()).as("an equal share of buffer.max.bytes").isEqualTo(500);
        assertThat(local.flushPolicy().maxTimeMs()).as("the connector's cadence").isEqualTo(1000);
        assertThat(offsite.flushPolicy().maxTimeMs()).as("its own cadence").isEqualTo(5000);
        assertThat(all.get(1).chainName("orders-backup", "orders")).isEqualTo("orders-backup");
        assertThat(all.get(1).key("s3.bucket")).isEqualTo("destinations.offsite.s3.bucket");
    }

    @Test
    void withoutDestinationsTheConfigIsItsOwnSingleDestination() {
        Map<String, String> single = BlobSinkTestSupport.sinkConfig("orders", dir, "localhost:1");
        BlobSinkConfig config = new BlobSinkConfig(single);
        assertThat(config.tee()).isFalse();
        assertThat(config.forDestination(config.destinations().get(0), 1)).isSameAs(config);
        assertThat(config.destinations().get(0).teeName()).isEmpty();
        assertThat(config.destinations().get(0).chainName("c", "t")).isEqualTo("c");
    }

    @Test
    void eachDestinationsErrorNamesThePrefixedKey() {
        assertThat(errors(tee("destinations.offsite.s3.bucket", null)))
                .containsOnlyKeys("destinations.offsite.s3.bucket")
                .extractingByKey("destinations.offsite.s3.bucket").asString().contains("required with destination.type=s3");
        assertThat(errors(tee("destinations.local.filesystem.root", "relative/dir")))
                .containsOnlyKeys("destinations.local.filesystem.root");
        assertThat(errors(tee("destinations.offsite.encryption", null)))
                .containsOnlyKeys("destinations.offsite.encryption");
        assertThat(errors(tee("destinations.local.format", "csv")))
                .containsOnlyKeys("destinations.local.format");
        assertThat(errors(tee("destinations.local.flush.max.time.ms", "1")))
                .containsOnlyKeys("destinations.local.flush.max.time.ms");
    }

    @Test
    void theTeesOwnRulesAreRefusedOnTheKeyAsWritten() {
        assertThat(errors(tee("filesystem.root", "/tmp/x"))).containsOnlyKeys("filesystem.root")
                .extractingByKey("filesystem.root").asString().contains("destinations.<name>.filesystem.root");
        assertThat(errors(tee("destinations.other.filesystem.root", "/tmp/x"))).containsOnlyKeys("destinations.other.filesystem.root");
        assertThat(errors(tee("destinations.local.buffer.max.bytes", "10"))).containsOnlyKeys("destinations.local.buffer.max.bytes");
        assertThat(errors(tee("destinations", "local,offsite,Bad_Name"))).containsKey("destinations");
        assertThat(errors(tee("destinations", "local,offsite,local"))).containsOnlyKeys("destinations");
        assertThat(errors(tee("compaction", "log"))).containsKey("compaction");
    }

    @Test
    void twoDestinationsOnTheSameStoreAndNameAreRefused() {
        Map<String, String> same = tee("destinations.offsite.destination.type", null, "destinations.offsite.s3.region", null,
                "destinations.offsite.s3.bucket", null, "destinations.offsite.s3.write.access.key.id", null,
                "destinations.offsite.s3.write.secret.access.key", null, "destinations.offsite.s3.read.access.key.id", null,
                "destinations.offsite.s3.read.secret.access.key", null,
                "destinations.offsite.filesystem.root", dir.resolve("local") + "/./");
        assertThat(errors(same)).containsOnlyKeys("destinations.offsite.destination.name")
                .extractingByKey("destinations.offsite.destination.name").asString().contains("the same chains");
        same.put("destinations.offsite.destination.name", "orders-copy");
        assertThat(errors(same)).isEmpty();
    }

    @Test
    void theTeesPrefixCollidesWithNoSettingOfEitherSink() {
        assertThat(BlobSinkConfig.CONFIG_DEF.names()).noneMatch(k -> k.startsWith(DestinationSettings.PREFIX));
        assertThat(DestinationSettings.PREFIX).doesNotStartWith("destination.");
        assertThat(StoreConfigFragment.DESTINATION_NAME).doesNotStartWith(DestinationSettings.PREFIX);
    }

    @Test
    void aReaderNamesTheDestinationOfATee() {
        Map<String, String> c = tee();
        assertThat(DestinationSettings.select(c, "offsite").settings()).containsEntry("s3.bucket", "backups")
                .doesNotContainKey("destinations");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> DestinationSettings.select(c, null))
                .hasMessageContaining("several destinations [local, offsite]");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> DestinationSettings.select(c, "nope"))
                .hasMessageContaining("no destination nope");
    }
}
