package dev.mirrorv3.kafka.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.envelope.Compression;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.ValueType;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.junit.jupiter.api.Test;

/** The store fragment's typed view: each setting read once, with the fragment's defaults, for one destination. */
class StoreSettingsTest {

    @Test
    void unsetSettingsReadAsTheirDefaults() {
        StoreSettings store = StoreSettings.of(Map.of());
        assertThat(store.destinationType()).isEqualTo("filesystem");
        assertThat(store.filesystem()).isTrue();
        assertThat(store.s3()).isFalse();
        assertThat(store.destinationName()).isEmpty();
        assertThat(store.keysDir()).isEmpty();
        assertThat(store.ndjson()).isFalse();
        assertThat(store.envelope()).isEqualTo(EnvelopeSettings.parquetBytes());
        assertThat(store.keys().ids()).isEmpty();
    }

    @Test
    void valuesAreReadTrimmedAndTypeAndFormatInAnyCase() {
        StoreSettings store = StoreSettings.of(Map.of("destination.type", " S3 ", "s3.endpoint", " http://minio:9000 ",
                "s3.bucket", "backups ", "s3.prefix", " archive/", "destination.name", " ${topic}-copy ", "format", "NDJSON",
                "keys.type", "utf8", "values.type", " json "));
        assertThat(store.s3()).isTrue();
        assertThat(store.filesystem()).isFalse();
        assertThat(store.s3Endpoint()).isEqualTo("http://minio:9000");
        assertThat(store.s3Bucket()).isEqualTo("backups");
        assertThat(store.s3Prefix()).isEqualTo("archive/");
        assertThat(store.destinationName()).isEqualTo("${topic}-copy");
        assertThat(store.chainName("sink", "orders")).isEqualTo("orders-copy");
        assertThat(store.ndjson()).isTrue();
        assertThat(store.envelope()).isEqualTo(new EnvelopeSettings(EnvelopeFormat.NDJSON, Compression.ZSTD, ValueType.UTF8,
                ValueType.JSON));
        assertThat(store.keysType()).isEqualTo(ValueType.UTF8);
        assertThat(store.valuesType()).isEqualTo(ValueType.JSON);
    }

    @Test
    void aFilesystemRootAndAnEmptyNameFallBackToTheConnectorsName() {
        StoreSettings store = StoreSettings.of(Map.of("filesystem.root", " /var/backups ", "destination.name", " "));
        assertThat(store.filesystemRoot()).isEqualTo(Path.of("/var/backups"));
        assertThat(store.chainName("orders-sink", "orders")).isEqualTo("orders-sink");
    }

    @Test
    void aReaderWithoutAWriteIdentityUsesItsReadIdentityForBoth() {
        StoreSettings reader = StoreSettings.of(Map.of("destination.type", "s3", "s3.region", "us-east-1", "s3.bucket", "b",
                "s3.read.access.key.id", "reader", "s3.read.secret.access.key", "reader-secret")).forReading();
        assertThat(reader.get(StoreConfigFragment.S3_WRITE_ACCESS_KEY_ID)).isEqualTo("reader");
        assertThat(reader.get(StoreConfigFragment.S3_WRITE_SECRET_ACCESS_KEY)).isEqualTo("reader-secret");
        assertThat(reader.s3Settings().bucket()).isEqualTo("b");

        StoreSettings both = StoreSettings.of(Map.of("s3.write.access.key.id", "writer", "s3.read.access.key.id", "reader"));
        assertThat(both.forReading()).isSameAs(both);
    }

    @Test
    void aTeesDestinationIsReadFromItsOwnPrefixedSettings() {
        Map<String, String> props = Map.of("destinations", "local,offsite", "destinations.local.filesystem.root", "/a",
                "destinations.offsite.destination.type", "s3", "destinations.offsite.s3.bucket", "off",
                "destinations.offsite.format", "ndjson");
        DestinationSettings offsite = DestinationSettings.select(props, "offsite");
        assertThat(offsite.store().s3()).isTrue();
        assertThat(offsite.store().s3Bucket()).isEqualTo("off");
        assertThat(offsite.store().ndjson()).isTrue();
        assertThat(DestinationSettings.select(props, "local").store().filesystemRoot()).isEqualTo(Path.of("/a"));
    }

    @Test
    void theFragmentsKeysAreTheSettingsItDefines() {
        ConfigDef def = new ConfigDef();
        new StoreConfigFragment("Destination", StoreConfigFragment.Access.WRITE, Map.of()).define(new SettingsTable(def));
        assertThat(StoreConfigFragment.KEYS).containsExactlyInAnyOrderElementsOf(def.names());
        assertThat(DestinationSettings.STORE_KEYS).isSameAs(StoreConfigFragment.KEYS);
    }
}
