package dev.mirrorv3.chain.bytes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Chunked bytes read, hash, compare and stream as the one array they stand for; once released, not at all. */
class ObjectBytesTest {
    private static final byte[] ALL = new byte[3_000_001];

    static {
        for (int i = 0; i < ALL.length; i++) {
            ALL[i] = (byte) (i * 31 + i / 7);
        }
    }

    /** {@link #ALL} in three chunks, the last one longer than what is left of the object (stale bytes after it). */
    private static ObjectBytes chunked(Runnable onRelease) {
        byte[] a = Arrays.copyOfRange(ALL, 0, 1_000_000);
        byte[] b = Arrays.copyOfRange(ALL, 1_000_000, 2_500_000);
        byte[] c = Arrays.copyOf(Arrays.copyOfRange(ALL, 2_500_000, ALL.length), 900_000);
        Arrays.fill(c, ALL.length - 2_500_000, c.length, (byte) 0x5A);
        return ObjectBytes.ofChunks(List.of(a, b, c), ALL.length, onRelease);
    }

    @Test
    void chunksReadAsTheArrayTheyHold() throws Exception {
        ObjectBytes bytes = chunked(() -> { });
        assertThat(bytes.size()).isEqualTo(ALL.length);
        assertThat(bytes.toByteArray()).isEqualTo(ALL);
        assertThat(bytes.newInputStream().readAllBytes()).isEqualTo(ALL);
        ByteArrayOutputStream written = new ByteArrayOutputStream();
        bytes.writeTo(Channels.newChannel(written));
        assertThat(written.toByteArray()).isEqualTo(ALL);
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        bytes.update(digest);
        assertThat(digest.digest()).isEqualTo(MessageDigest.getInstance("SHA-256").digest(ALL));
    }

    @Test
    void contentEqualsOnlyExactlyTheSameBytes() throws Exception {
        ObjectBytes bytes = chunked(() -> { });
        assertThat(bytes.contentEquals(new ByteArrayInputStream(ALL))).isTrue();
        byte[] changed = ALL.clone();
        changed[2_999_999] ^= 1;
        assertThat(bytes.contentEquals(new ByteArrayInputStream(changed))).isFalse();
        assertThat(bytes.contentEquals(new ByteArrayInputStream(Arrays.copyOf(ALL, ALL.length - 1)))).as("shorter").isFalse();
        assertThat(bytes.contentEquals(new ByteArrayInputStream(Arrays.copyOf(ALL, ALL.length + 1)))).as("longer").isFalse();
    }

    @Test
    void releasedBytesAreNotReadAndTheirReleaseRunsOnce() {
        AtomicInteger releases = new AtomicInteger();
        ObjectBytes bytes = chunked(releases::incrementAndGet);
        InputStream open = bytes.newInputStream();
        bytes.release();
        bytes.release();
        assertThat(releases).hasValue(1);
        assertThatThrownBy(bytes::toByteArray).isInstanceOf(IllegalStateException.class).hasMessageContaining("released");
        assertThatThrownBy(open::readAllBytes).as("a stream opened before").isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> ObjectBytes.ofChunks(List.of(new byte[3]), 4, () -> { })).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void sharedBytesStayReadableUntilTheirLastHolderReleases() throws Exception {
        AtomicInteger releases = new AtomicInteger();
        ObjectBytes bytes = chunked(releases::incrementAndGet);
        List<ObjectBytes> views = bytes.shareAmong(3);
        views.get(0).release();
        views.get(0).release();
        assertThatThrownBy(views.get(0)::toByteArray).as("a released view").isInstanceOf(IllegalStateException.class);
        assertThat(views.get(1).toByteArray()).isEqualTo(ALL);
        views.get(1).release();
        assertThat(releases).as("one holder left").hasValue(0);
        assertThat(views.get(2).newInputStream().readAllBytes()).isEqualTo(ALL);
        views.get(2).release();
        assertThat(releases).hasValue(1);
        assertThat(bytes.released()).isTrue();
        assertThatThrownBy(() -> bytes.shareAmong(2)).as("released bytes are not shared").isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> chunked(() -> { }).shareAmong(0)).isInstanceOf(IllegalArgumentException.class);
    }
}
