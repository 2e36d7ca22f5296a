package dev.mirrorv3.chain.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Prints encode/decode throughput (no timing assertions: the machine is shared). Default 200k records
 * so the suite stays quick; {@code -Dcodec.bench.records=1000000} measures the 1M-record case.
 */
class EnvelopeThroughputTest {
    private static final int RECORDS = Integer.getInteger("codec.bench.records", 200_000);
    private static final int ROUNDS = Integer.getInteger("codec.bench.rounds", 1);

    @Test
    void printsThroughputFor100ByteValues() {
        List<BackupRecord> records = Samples.bulk(RECORDS, 100, false);
        List<BackupRecord> text = Samples.bulk(RECORDS, 100, true);
        measure("parquet zstd bytes", new EnvelopeSettings(EnvelopeFormat.PARQUET, Compression.ZSTD, ValueType.BYTES, ValueType.BYTES), records);
        measure("parquet snappy bytes", new EnvelopeSettings(EnvelopeFormat.PARQUET, Compression.SNAPPY, ValueType.BYTES, ValueType.BYTES), records);
        measure("parquet uncompressed bytes", new EnvelopeSettings(EnvelopeFormat.PARQUET, Compression.UNCOMPRESSED, ValueType.BYTES, ValueType.BYTES), records);
        measure("parquet zstd utf8", new EnvelopeSettings(EnvelopeFormat.PARQUET, Compression.ZSTD, ValueType.UTF8, ValueType.UTF8), text);
        measure("ndjson bytes", new EnvelopeSettings(EnvelopeFormat.NDJSON, Compression.UNCOMPRESSED, ValueType.BYTES, ValueType.BYTES), records);
        measure("ndjson utf8", new EnvelopeSettings(EnvelopeFormat.NDJSON, Compression.UNCOMPRESSED, ValueType.UTF8, ValueType.UTF8), text);
    }

    private static void measure(String label, EnvelopeSettings settings, List<BackupRecord> records) {
        EnvelopeCodec codec = EnvelopeCodecs.forSettings(settings);
        codec.decode(codec.encode(records.subList(0, 1000)), "warm-up");
        for (int round = 0; round < ROUNDS; round++) {
            long t0 = System.nanoTime();
            byte[] bytes = codec.encode(records);
            long t1 = System.nanoTime();
            List<BackupRecord> back = codec.decode(bytes, "bench");
            long t2 = System.nanoTime();
            assertThat(back).hasSize(records.size());
            System.out.printf("%-28s %,d records: %,d bytes; encode %,.0f rec/s (%.0f ms), decode %,.0f rec/s (%.0f ms)%n",
                    label, records.size(), bytes.length,
                    records.size() / ((t1 - t0) / 1e9), (t1 - t0) / 1e6,
                    records.size() / ((t2 - t1) / 1e9), (t2 - t1) / 1e6);
        }
    }
}
