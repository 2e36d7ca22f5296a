package dev.mirrorv3.chain.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import org.apache.parquet.bytes.BytesInput;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ZSTD compressor never holds the GC locker: a JVM in which two threads compress 1 MiB pages while a third
 * allocates 4 MiB arrays has no collection started by the GC locker. One compressing a Java array (zstd-jni's
 * critical region) has about a third of its collections so, and a large allocation waiting on it fails with
 * {@code OutOfMemoryError} after two retries (docs/decisions.md, "The ZSTD call works in direct buffers").
 */
class ZstdGcLockerTest {
    private static final String LOCKER_GC = "GCLocker Initiated GC";

    @Test
    void compressingPagesNeverStartsACollectionFromTheGcLocker(@TempDir Path dir) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        // The output goes to a file, read once the JVM ended: a JVM that hangs then fails the wait, not the test run.
        Path log = dir.resolve("child.log");
        Process p = new ProcessBuilder(java.toString(), "-Xmx256m", "-XX:+UseG1GC", "-Xlog:gc:stdout",
                "-cp", System.getProperty("java.class.path"), CompressUnderChurn.class.getName())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean ended;
        try {
            ended = p.waitFor(60, TimeUnit.SECONDS);
        } finally {
            p.destroyForcibly();
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(ended).as("the forked JVM ends within 60 s\n%s", out).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).as("the run compressed pages").contains("pages compressed: ");
        // Only what the GC logged after the warm-up: loading classes and libraries from jars inflates them in critical regions too.
        List<String> measured = out.lines().dropWhile(l -> !l.equals(CompressUnderChurn.MEASURING)).toList();
        long collections = measured.stream().filter(l -> l.contains("Pause Young")).count();
        assertThat(collections).as("young collections while compressing (enough for the check to mean something)\n%s", out)
                .isGreaterThanOrEqualTo(20);
        assertThat(measured.stream().filter(l -> l.contains(LOCKER_GC)).toList()).as("collections the GC locker started").isEmpty();
    }

    /**
     * Two threads compress 1 MiB pages with {@link ZstdFrameCodecFactory.FrameCompressor} while this one churns: a
     * warm-up until both compressed a page and 0.3 s more (every class and library loaded), then two seconds measured.
     */
    static final class CompressUnderChurn {
        static final String MEASURING = "measuring";

        public static void main(String[] args) throws Exception {
            byte[] page = new byte[1 << 20];
            new Random(1).nextBytes(page);
            for (int i = 0; i < page.length; i += 2) {
                page[i] = 0;
            }
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLongArray pages = new AtomicLongArray(2);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                int id = t;
                Thread thread = new Thread(() -> {
                    ZstdFrameCodecFactory.FrameCompressor compressor =
                            new ZstdFrameCodecFactory.FrameCompressor(3, new EncodeScratch(1 << 20));
                    try {
                        while (!stop.get()) {
                            compressor.compress(BytesInput.from(page));
                            pages.incrementAndGet(id);
                        }
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    } finally {
                        compressor.release();
                    }
                });
                thread.start();
                threads.add(thread);
            }
            List<byte[]> kept = new ArrayList<>();
            // Warm-up: zstd-jni's library is unpacked from its jar (inflated in critical regions) by the first compress.
            while (pages.get(0) == 0 || pages.get(1) == 0) {
                churn(kept, TimeUnit.MILLISECONDS.toNanos(10));
            }
            churn(kept, TimeUnit.MILLISECONDS.toNanos(300));
            System.out.println(MEASURING);
            System.out.flush();
            churn(kept, TimeUnit.SECONDS.toNanos(2));
            stop.set(true);
            for (Thread thread : threads) {
                thread.join();
            }
            System.out.println("pages compressed: " + (pages.get(0) + pages.get(1)));
        }

        private static void churn(List<byte[]> kept, long nanos) {
            long end = System.nanoTime() + nanos;
            while (System.nanoTime() < end) {
                kept.add(new byte[4 << 20]);
                if (kept.size() > 20) {
                    kept.remove(0);
                }
            }
        }
    }
}
