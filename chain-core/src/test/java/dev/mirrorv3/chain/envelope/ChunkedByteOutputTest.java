package dev.mirrorv3.chain.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.bytes.ObjectBytes;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A reused output holds exactly the object written since its reset, none of the larger object before it. */
class ChunkedByteOutputTest {

    private static byte[] bytes(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    @Test
    void aSmallerObjectAfterALargerOneIsExactlyItsOwnBytes() {
        ChunkedByteOutput out = new ChunkedByteOutput();
        int[] sizes = {700_000, 5, 64 * 1024, 64 * 1024 + 1, 0, 300_000, 1};
        for (int i = 0; i < sizes.length; i++) {
            byte[] want = bytes(sizes[i], i);
            out.reset();
            out.write(want, 0, want.length / 3); // in pieces and single bytes, as Parquet writes
            for (int b = want.length / 3; b < want.length / 2; b++) {
                out.write(want[b]);
            }
            out.write(want, want.length / 2, want.length - want.length / 2);
            assertThat(out.getPos()).isEqualTo(want.length);
            ObjectBytes object = out.finish(() -> { });
            assertThat(object.size()).isEqualTo(want.length);
            assertThat(object.toByteArray()).as("object %d of %d bytes", i, sizes[i]).isEqualTo(want);
        }
        assertThat(out.capacity()).as("the chunks of the largest object stay for the next").isGreaterThanOrEqualTo(700_000);
    }

    @Test
    void trimmingKeepsTheFirstChunksOnly() {
        ChunkedByteOutput out = new ChunkedByteOutput();
        byte[] big = bytes(3 << 20, 1);
        out.write(big, 0, big.length);
        out.trimTo(256 * 1024);
        assertThat(out.capacity()).isBetween(64L * 1024, 256L * 1024);
        assertThat(out.getPos()).as("trimmed means reset").isZero();
        byte[] next = bytes(1 << 20, 2);
        out.write(next, 0, next.length);
        assertThat(out.finish(() -> { }).toByteArray()).isEqualTo(next);
    }
}
