package dev.mirrorv3.chain.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The envelope's enums as settings, extensions and stored columns spell them, and the messages for unknown values. */
class WireNameTest {

    @Test
    void settingsAreReadInAnyCaseAndSpelledInLowerCase() {
        assertThat(Compression.fromConfig("ZSTD")).isEqualTo(Compression.ZSTD);
        assertThat(Compression.UNCOMPRESSED.configValue()).isEqualTo("uncompressed");
        assertThat(EnvelopeFormat.fromConfig("NdJson")).isEqualTo(EnvelopeFormat.NDJSON);
        assertThat(ValueType.fromConfig("Utf8")).isEqualTo(ValueType.UTF8);
        assertThat(ValueType.JSON.configValue()).isEqualTo("json");
    }

    @Test
    void extensionsAndStoredValuesMatchExactly() {
        assertThat(EnvelopeFormat.fromExtension("parquet")).isEqualTo(EnvelopeFormat.PARQUET);
        assertThat(EnvelopeFormat.fromExtension("PARQUET")).isNull();
        assertThat(EnvelopeFormat.fromExtension(null)).isNull();
        assertThat(TimestampType.LOG_APPEND_TIME.stored()).isEqualTo("log_append_time");
        assertThat(TimestampType.fromStored("create_time")).isEqualTo(TimestampType.CREATE_TIME);
        assertThat(TimestampType.fromStored("CREATE_TIME")).isEqualTo(TimestampType.NOT_AVAILABLE);
        assertThat(TimestampType.fromStored(null)).isEqualTo(TimestampType.NOT_AVAILABLE);
    }

    @Test
    void unknownSettingsNameWhatTheyAreAndTheValuesAllowed() {
        assertThatThrownBy(() -> Compression.fromConfig("lz4"))
                .hasMessage("unknown compression 'lz4': use zstd, snappy or uncompressed");
        assertThatThrownBy(() -> EnvelopeFormat.fromConfig("csv")).hasMessage("unknown format 'csv': use parquet or ndjson");
        assertThatThrownBy(() -> ValueType.fromConfig(null)).hasMessage("unknown type 'null': use bytes, utf8 or json");
    }
}
