package dev.mirrorv3.chain.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Not part of the test suite (no *Test suffix); run it with
 * {@code mvn -pl chain-core test -Dtest=EnvelopeThroughputBench -Dcodec.bench.records=1000000}.
 * Prints encode/decode throughput (no timing assertions: the machine is shared). Default 50k records
 * so the suite stays quick; {@code -Dcodec.bench.records=1000000} measures the 1M-record case, and
 * {@code -Dcodec.bench.only="zstd bytes"} compares plain and encrypted Parquet zstd only.
 */
class EnvelopeThroughputBench {
    private static final int RECORDS = Integer.getInteger("codec.bench.records", 50_000);
    private static final int ROUNDS = Integer.getInteger("codec.bench.rounds", 1);
    /** Only the cases whose label contains this, e.g. -Dcodec.bench.only="zstd bytes" (plain and AES-GCM). */
    private static final String ONLY = System.getProperty("codec.bench.only", "");

    @Test
    void printsThroughputFor100ByteValues() {
        List<BackupRecord> records = Samples.bulk(RECORDS, 100, false);
        List<BackupRecord> text = Samples.bulk(RECORDS, 100, true);
        measure("parquet zstd bytes", new EnvelopeSettings(EnvelopeFormat.PARQUET, Compression.ZSTD, ValueType.BYTES,
                ValueType.BYTES), records);
        measure("parquet zstd bytes AES-GCM", new EnvelopeSettings(EnvelopeFormat.PARQUET, Compression.ZSTD, ValueType.BYTES,
                ValueType.BYTES),
                new ObjectEncryption(KeyRing.of("bench", Map.of("k1", randomKey())), "k1"), records);
        measure("parquet snappy bytes", new EnvelopeSettings(EnvelopeFormat.PARQUET, Compression.SNAPPY, ValueType.BYTES,
                ValueType.BYTES), records);
        measure("parquet uncompressed bytes", new EnvelopeSettings(EnvelopeFormat.PARQUET, Compression.UNCOMPRESSED, ValueType.BYTES,
                ValueType.BYTES), records);
        measure("parquet zstd utf8", new EnvelopeSettings(EnvelopeFormat.PARQUET, Compression.ZSTD, ValueType.UTF8, ValueType.UTF8), text);
        measure("ndjson bytes", new EnvelopeSettings(EnvelopeFormat.NDJSON, Compression.UNCOMPRESSED, ValueType.BYTES,
                ValueType.BYTES), records);
        measure("ndjson utf8", new EnvelopeSettings(EnvelopeFormat.NDJSON, Compression.UNCOMPRESSED, ValueType.UTF8, ValueType.UTF8), text);
    }

    private static byte[] randomKey() {
        byte[] key = new byte[32];
        new java.security.SecureRandom().nextBytes(key);
        return key;
    }

    private static double rate(int records, long nanos) {
        return records / (nanos / 1e9);
    }

    private static void measure(String label, EnvelopeSettings settings, List<BackupRecord> records) {
        measure(label, settings, ObjectEncryption.none(), records);
    }

    private static void measure(String label, EnvelopeSettings settings, ObjectEncryption encryption, List<BackupRecord> records) {
        if (!label.contains(ONLY)) {
            return;
        }
        EnvelopeCodec codec = EnvelopeCodecs.forSettings(settings, encryption);
        String keyId = encryption.writeKeyId();
        codec.decode(codec.encode(records.subList(0, 1000)), keyId, "warm-up");
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int round = 0; round < ROUNDS; round++) {
            long c0 = threads.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            byte[] bytes = codec.encode(records);
            long c1 = threads.getCurrentThreadCpuTime();
            long t1 = System.nanoTime();
            List<BackupRecord> back = codec.decode(bytes, keyId, "bench");
            long c2 = threads.getCurrentThreadCpuTime();
            long t2 = System.nanoTime();
            assertThat(back).hasSize(records.size());
            // CPU time of this thread is the steadier number on a shared machine; wall time includes GC and neighbours.
            System.out.printf("%-28s %,d rec, %,d B: encode %,9.0f rec/s wall (%,9.0f rec/s cpu),"
                    + " decode %,9.0f rec/s wall (%,9.0f rec/s cpu)%n",
                    label, records.size(), bytes.length,
                    rate(records.size(), t1 - t0), rate(records.size(), c1 - c0),
                    rate(records.size(), t2 - t1), rate(records.size(), c2 - c1));
        }
    }
}
