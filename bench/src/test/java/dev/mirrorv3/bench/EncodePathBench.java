package dev.mirrorv3.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.bytes.ObjectBytes;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EncodeMemory;
import dev.mirrorv3.chain.envelope.EnvelopeCodec;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.manifest.ManifestCodec;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Not part of the test suite (no *Test suffix): the blob sink's per-object path on one thread, encode, SHA-256 and a
 * file write (no fsync), for objects encoded the way they were before the encoding memory (a fresh memory per object,
 * the object joined into one array, hashed and written from it) and in one reused {@link EncodeMemory} (hashed and
 * written from its chunks), alternating in rounds in one JVM; prints MB/s of values by thread CPU time and wall time,
 * bytes allocated per object, and the ratio. Run it with
 * {@code mvn -B -ntp -o -q -pl bench -am test -Dtest=EncodePathBench -Dsurefire.failIfNoSpecifiedTests=false
 * -Dencode.bench.values=1024 -Dencode.bench.objects=20 -Dencode.bench.rounds=5}. No timing assertion: the machine is
 * shared; it checks only that both ways wrote the same bytes.
 */
class EncodePathBench {
    private static final int VALUE_BYTES = Integer.getInteger("encode.bench.values", 1024);
    private static final int OBJECTS = Integer.getInteger("encode.bench.objects", 20);
    private static final int ROUNDS = Integer.getInteger("encode.bench.rounds", 5);
    /** Records per object: 16 MiB of values, the blob sink's default flush.max.bytes. */
    private static final int RECORDS = Math.min(100_000, (16 << 20) / VALUE_BYTES);

    @TempDir
    Path dir;

    private record Figures(long cpuNanos, long wallNanos, long allocated, String sha256) {
    }

    @Test
    void printsTheEncodePathWithFreshAgainstReusedMemory() throws IOException {
        List<BackupRecord> records = records();
        EnvelopeSettings settings = EnvelopeSettings.parquetBytes();
        EnvelopeCodec fresh = EnvelopeCodecs.forSettings(settings);
        EnvelopeCodec reused = EnvelopeCodecs.forSettings(settings, ObjectEncryption.none(), EncodeMemory.pooled(1));
        run(fresh, records, true, 3); // warm: JIT, the pool's first scratch and output
        run(reused, records, false, 3);
        long values = (long) RECORDS * VALUE_BYTES * OBJECTS;
        double[] freshCpu = new double[ROUNDS];
        double[] reusedCpu = new double[ROUNDS];
        for (int round = 0; round < ROUNDS; round++) {
            boolean freshFirst = round % 2 == 0; // the order alternates
            Figures a = freshFirst ? run(fresh, records, true, OBJECTS) : run(reused, records, false, OBJECTS);
            Figures b = freshFirst ? run(reused, records, false, OBJECTS) : run(fresh, records, true, OBJECTS);
            Figures f = freshFirst ? a : b;
            Figures r = freshFirst ? b : a;
            assertThat(r.sha256()).as("both ways hash the same object").isEqualTo(f.sha256());
            freshCpu[round] = values / 1e6 / (f.cpuNanos() / 1e9);
            reusedCpu[round] = values / 1e6 / (r.cpuNanos() / 1e9);
            System.out.printf("round %d: %d objects of %,d x %,d B: fresh memory %6.1f MB/s cpu %6.1f MB/s wall %,12d B allocated"
                    + " per object | reused memory %6.1f MB/s cpu %6.1f MB/s wall %,12d B allocated per object | reused/fresh"
                    + " cpu %.2f wall %.2f%n", round + 1, OBJECTS, RECORDS, VALUE_BYTES,
                    freshCpu[round], values / 1e6 / (f.wallNanos() / 1e9), f.allocated() / OBJECTS,
                    reusedCpu[round], values / 1e6 / (r.wallNanos() / 1e9), r.allocated() / OBJECTS,
                    (double) f.cpuNanos() / r.cpuNanos(), (double) f.wallNanos() / r.wallNanos());
        }
        java.util.Arrays.sort(freshCpu);
        java.util.Arrays.sort(reusedCpu);
        System.out.printf("median of %d rounds, MB/s of values by thread CPU time: fresh %.1f, reused %.1f, reused/fresh %.2f%n",
                ROUNDS, freshCpu[ROUNDS / 2], reusedCpu[ROUNDS / 2], reusedCpu[ROUNDS / 2] / freshCpu[ROUNDS / 2]);
    }

    /** Encodes, hashes and writes {@code objects} objects: joined into one array as before, or from the chunks. */
    private Figures run(EnvelopeCodec codec, List<BackupRecord> records, boolean joined, int objects) throws IOException {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long cpu0 = threads.getCurrentThreadCpuTime();
        long alloc0 = threads.getCurrentThreadAllocatedBytes();
        long wall0 = System.nanoTime();
        String sha = null;
        for (int i = 0; i < objects; i++) {
            Path file = dir.resolve((joined ? "fresh-" : "reused-") + i);
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                if (joined) {
                    byte[] bytes = codec.encode(records);
                    sha = ManifestCodec.sha256(bytes);
                    ByteBuffer buf = ByteBuffer.wrap(bytes);
                    while (buf.hasRemaining()) {
                        ch.write(buf);
                    }
                } else {
                    ObjectBytes bytes = codec.encodeObject(records);
                    sha = ManifestCodec.sha256(bytes);
                    bytes.writeTo(ch);
                    bytes.release();
                }
            }
            Files.delete(file);
        }
        return new Figures(threads.getCurrentThreadCpuTime() - cpu0, System.nanoTime() - wall0,
                threads.getCurrentThreadAllocatedBytes() - alloc0, sha);
    }

    /** One object's records: random values (as the blob sink bench's producer writes), 16-byte keys. */
    private static List<BackupRecord> records() {
        Random rnd = new Random(42);
        List<BackupRecord> out = new ArrayList<>(RECORDS);
        for (int i = 0; i < RECORDS; i++) {
            byte[] key = new byte[16];
            byte[] value = new byte[VALUE_BYTES];
            rnd.nextBytes(key);
            rnd.nextBytes(value);
            out.add(new BackupRecord("bench", 0, i, 1_700_000_000_000L + i, TimestampType.CREATE_TIME, key, value, List.of()));
        }
        return out;
    }
}
