package dev.mirrorv3.chain.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** Parquet's released buffers come back for a later request of their size class, each to one user only. */
class RecyclingBufferAllocatorTest {

    @Test
    void aReleasedBufferIsGivenOutAgainAsAFreshOneWouldBe() {
        RecyclingBufferAllocator a = new RecyclingBufferAllocator(1 << 20);
        ByteBuffer first = a.allocate(5000);
        first.put(new byte[5000]);
        a.release(first);
        ByteBuffer again = a.allocate(5100);
        assertThat(again).as("the same size class (5 KiB)").isSameAs(first);
        assertThat(again.position()).isZero();
        assertThat(again.limit()).isEqualTo(5100);
        assertThat(again.remaining()).isEqualTo(5100);
        assertThat(a.allocate(6000)).as("another size class").isNotSameAs(first);
        assertThat(a.allocate(5000)).as("one user at a time").isNotSameAs(first);
    }

    @Test
    void aSecondReleaseOrABufferNeverGivenOutIsIgnored() {
        RecyclingBufferAllocator a = new RecyclingBufferAllocator(1 << 20);
        ByteBuffer b = a.allocate(100);
        a.release(b);
        a.release(b);
        a.release(ByteBuffer.allocate(4096));
        ByteBuffer x = a.allocate(100);
        ByteBuffer y = a.allocate(100);
        assertThat(x).isSameAs(b);
        assertThat(y).as("released twice, given out once").isNotSameAs(b);
    }

    @Test
    void buffersNeverReleasedAreForgottenAndTheKeptBytesAreBounded() {
        RecyclingBufferAllocator a = new RecyclingBufferAllocator(64 * 1024);
        ByteBuffer leaked = a.allocate(100);
        a.forgetLent();
        a.release(leaked);
        assertThat(a.keptBytes()).as("a buffer released after the encoding ended is not reused").isZero();
        ByteBuffer big = a.allocate(100_000);
        a.release(big);
        assertThat(a.keptBytes()).as("104 KiB exceeds the 64 KiB kept").isZero();
        a.release(a.allocate(40_000));
        assertThat(a.keptBytes()).isEqualTo(40 * 1024);
    }

    @Test
    void sizeClassesAreEighthsOfAPowerOfTwo() {
        assertThat(RecyclingBufferAllocator.sizeClass(0)).isEqualTo(4096);
        assertThat(RecyclingBufferAllocator.sizeClass(4097)).isEqualTo(4608);
        assertThat(RecyclingBufferAllocator.sizeClass((1 << 20) + 30)).as("a collected page of 1 MiB").isEqualTo((1 << 20) + (1 << 17));
        assertThat(RecyclingBufferAllocator.sizeClass((2 << 20) - 1)).isEqualTo(2 << 20);
        assertThat(RecyclingBufferAllocator.sizeClass(1 << 20)).as("a class is its own class").isEqualTo(1 << 20);
    }
}
