package dev.mirrorv3.chain.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.bytes.ObjectBytes;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.manifest.ManifestCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Objects encoded one after another in one {@link EncodeMemory} (its scratch and output reused by each) are byte for byte
 * the objects encoded in fresh memory, whatever a larger object before them left in the chunks and buffers; and an
 * object not yet released keeps its bytes while others are encoded.
 */
class EncodeMemoryTest {
    /** Records and value sizes of the objects encoded in a row: large, tiny, larger, tiny, smaller, ... */
    private static final int[][] OBJECTS = {{3000, 1024}, {3, 100}, {600, 10240}, {1, 10}, {2000, 1024}, {40, 3000}, {5000, 100}};

    static Stream<EnvelopeSettings> settings() {
        return Stream.of(
                EnvelopeSettings.parquetBytes(),
                new EnvelopeSettings(EnvelopeFormat.PARQUET, Compression.ZSTD, ValueType.UTF8, ValueType.UTF8),
                new EnvelopeSettings(EnvelopeFormat.PARQUET, Compression.SNAPPY, ValueType.BYTES, ValueType.BYTES),
                new EnvelopeSettings(EnvelopeFormat.PARQUET, Compression.UNCOMPRESSED, ValueType.BYTES, ValueType.BYTES),
                new EnvelopeSettings(EnvelopeFormat.NDJSON, Compression.UNCOMPRESSED, ValueType.BYTES, ValueType.BYTES),
                new EnvelopeSettings(EnvelopeFormat.NDJSON, Compression.UNCOMPRESSED, ValueType.UTF8, ValueType.UTF8));
    }

    /** The i-th object of {@link #OBJECTS}: text for UTF-8 settings, else random bytes; offsets differ per object. */
    private static List<BackupRecord> object(int i, EnvelopeSettings settings) {
        List<BackupRecord> records = new ArrayList<>();
        for (BackupRecord r : Samples.bulk(OBJECTS[i][0], OBJECTS[i][1], settings.valuesType() == ValueType.UTF8)) {
            records.add(new BackupRecord(r.topic(), r.partition(), r.offset() + 10_000L * i, r.timestampMs(), r.timestampType(),
                    r.key(), r.value(), r.headers()));
        }
        return records;
    }

    @ParameterizedTest
    @MethodSource("settings")
    void objectsEncodedInARowInReusedMemoryAreTheBytesOfFreshMemory(EnvelopeSettings settings) {
        EncodeMemory memory = EncodeMemory.pooled(1);
        EnvelopeCodec reused = EnvelopeCodecs.forSettings(settings, ObjectEncryption.none(), memory);
        EnvelopeCodec fresh = EnvelopeCodecs.forSettings(settings);
        for (int i = 0; i < OBJECTS.length; i++) {
            List<BackupRecord> records = object(i, settings);
            byte[] expected = fresh.encode(records);
            ObjectBytes got = reused.encodeObject(records);
            assertThat(got.size()).as("object %d: size", i).isEqualTo(expected.length);
            assertThat(got.toByteArray()).as("object %d: bytes", i).isEqualTo(expected);
            assertThat(ManifestCodec.sha256(got)).as("object %d: its manifest's SHA-256", i).isEqualTo(ManifestCodec.sha256(expected));
            got.release();
            assertThat(memory.keptNow()).as("after object %d: its output (and Parquet's scratch) wait for the next", i)
                    .isEqualTo(settings.format() == EnvelopeFormat.PARQUET ? 2 : 1);
        }
    }

    @Test
    void encryptedObjectsEncodedInARowInReusedMemoryReadBackAsTheirRecords() {
        ObjectEncryption encryption = new ObjectEncryption(KeyRing.of("test keys", Map.of("k1", key())), "k1");
        EnvelopeCodec reused = EnvelopeCodecs.forSettings(EnvelopeSettings.parquetBytes(), encryption, EncodeMemory.pooled(1));
        for (int i = 0; i < OBJECTS.length; i++) {
            List<BackupRecord> records = object(i, EnvelopeSettings.parquetBytes());
            ObjectBytes got = reused.encodeObject(records);
            assertThat(reused.decode(got.toByteArray(), "k1", "object " + i)).as("object %d", i).isEqualTo(records);
            got.release();
        }
    }

    private static byte[] key() {
        byte[] key = new byte[32];
        new java.util.Random(3).nextBytes(key);
        return key;
    }

    @Test
    void anObjectNotReleasedKeepsItsBytesWhileOthersAreEncodedAndIsUnreadableOnceReleased() {
        EncodeMemory memory = EncodeMemory.pooled(1);
        EnvelopeCodec codec = EnvelopeCodecs.forSettings(EnvelopeSettings.parquetBytes(), ObjectEncryption.none(), memory);
        List<BackupRecord> held = object(4, EnvelopeSettings.parquetBytes());
        ObjectBytes first = codec.encodeObject(held);
        byte[] firstBytes = first.toByteArray();
        for (int i = 0; i < 3; i++) { // larger objects, in the memory of each other
            codec.encodeObject(object(2, EnvelopeSettings.parquetBytes())).release();
        }
        assertThat(first.toByteArray()).as("the held object's bytes, after three objects were encoded and released").isEqualTo(firstBytes);
        first.release();
        assertThatThrownBy(first::toByteArray).isInstanceOf(IllegalStateException.class).hasMessageContaining("were released");
        assertThat(memory.keptNow()).as("the pool keeps one scratch and one output, no more").isEqualTo(2);
    }

    @Test
    void aFailedEncodingGivesItsMemoryBack() {
        EncodeMemory memory = EncodeMemory.pooled(1);
        EnvelopeSettings json = new EnvelopeSettings(EnvelopeFormat.PARQUET, Compression.ZSTD, ValueType.BYTES, ValueType.JSON);
        EnvelopeCodec codec = EnvelopeCodecs.forSettings(json, ObjectEncryption.none(), memory);
        BackupRecord notJson = new BackupRecord("t", 0, 5, 1L, TimestampType.CREATE_TIME, null, Samples.utf8("{oops"), List.of());
        assertThatThrownBy(() -> codec.encodeObject(List.of(notJson))).isInstanceOf(ValueTypeException.class);
        assertThat(memory.keptNow()).as("its scratch and output are back").isEqualTo(2);
        List<BackupRecord> ok = List.of(new BackupRecord("t", 0, 6, 1L, TimestampType.CREATE_TIME, null, Samples.utf8("{}"), List.of()));
        assertThat(codec.encodeObject(ok).toByteArrayAndRelease()).isEqualTo(EnvelopeCodecs.forSettings(json).encode(ok));
    }

    /**
     * The point of the pool: an object encoded in reused memory allocates a fraction of its size (what Parquet allocates
     * per record and page), one in fresh memory more than its size (its pages, column chunks, output and copies). Measured
     * by the thread's allocated bytes, which no collector or neighbour changes.
     */
    @Test
    void anObjectEncodedInReusedMemoryAllocatesAFractionOfItsSize() {
        List<BackupRecord> records = Samples.bulk(2000, 1024, false);
        EnvelopeSettings settings = EnvelopeSettings.parquetBytes();
        long size = EnvelopeCodecs.forSettings(settings).encode(records).length;
        long reused = allocatedPerObject(EnvelopeCodecs.forSettings(settings, ObjectEncryption.none(), EncodeMemory.pooled(1)), records);
        long fresh = allocatedPerObject(EnvelopeCodecs.forSettings(settings), records);
        System.out.printf("an object of %,d bytes: %,d bytes allocated to encode it in reused memory, %,d in fresh memory%n",
                size, reused, fresh);
        assertThat(reused).as("bytes allocated per object in reused memory").isLessThan(size / 3);
        assertThat(fresh).as("bytes allocated per object in fresh memory").isGreaterThan(size);
    }

    /**
     * The warm-up runs exactly what is measured: a first SHA-256 through {@link ManifestCodec} initialises its JSON
     * mapper, megabytes that were counted against the objects whenever no earlier test in the JVM had done it.
     */
    private static long allocatedPerObject(EnvelopeCodec codec, List<BackupRecord> records) {
        encodeAndHash(codec, records, 5); // warm: class loading, static initialisers, the pool's first scratch and output
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        int objects = 10;
        encodeAndHash(codec, records, objects);
        return (threads.getCurrentThreadAllocatedBytes() - before) / objects;
    }

    private static void encodeAndHash(EnvelopeCodec codec, List<BackupRecord> records, int objects) {
        for (int i = 0; i < objects; i++) {
            ObjectBytes bytes = codec.encodeObject(records);
            ManifestCodec.sha256(bytes);
            bytes.release();
        }
    }
}
