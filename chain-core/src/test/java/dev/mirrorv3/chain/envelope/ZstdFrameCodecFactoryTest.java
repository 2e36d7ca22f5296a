package dev.mirrorv3.chain.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.luben.zstd.Zstd;
import java.util.Random;
import org.apache.parquet.bytes.BytesInput;
import org.junit.jupiter.api.Test;

/**
 * A page compressed in a reused scratch is the frame {@link Zstd#compress} makes of it (the call each page was compressed
 * with before the scratch), page after page, a small page after a large one included.
 */
class ZstdFrameCodecFactoryTest {

    @Test
    void pagesCompressedInOneScratchAreTheFramesOfZstdCompress() throws Exception {
        Random rnd = new Random(7);
        EncodeScratch scratch = new EncodeScratch(0);
        ZstdFrameCodecFactory.FrameCompressor compressor = new ZstdFrameCodecFactory.FrameCompressor(ParquetCodec.ZSTD_LEVEL, scratch);
        int[] sizes = {1 << 20, 10, 300_000, 0, 1, (1 << 20) + 17, 64};
        try {
            for (int i = 0; i < sizes.length; i++) {
                byte[] page = new byte[sizes[i]];
                if (i % 2 == 0) {
                    rnd.nextBytes(page); // incompressible: the frame is about the page's size
                } else {
                    for (int b = 0; b < page.length; b++) {
                        page[b] = (byte) ('a' + rnd.nextInt(4)); // compressible
                    }
                }
                byte[] frame = compressor.compress(BytesInput.concat(BytesInput.from(page, 0, page.length / 2),
                        BytesInput.from(page, page.length / 2, page.length - page.length / 2))).toByteArray();
                assertThat(frame).as("page %d of %d bytes", i, sizes[i]).isEqualTo(Zstd.compress(page, ParquetCodec.ZSTD_LEVEL));
            }
        } finally {
            compressor.release();
        }
    }

    @Test
    void theCompressorWorksInDirectBuffersSoNoJavaArrayIsPinnedWhileZstdRuns() {
        EncodeScratch scratch = new EncodeScratch(1 << 20);
        assertThat(scratch.page(1 << 20).isDirect()).isTrue();
        assertThat(scratch.frame(1 << 20).isDirect()).isTrue();
        assertThat(scratch.page(10).capacity()).as("reused, not shrunk").isEqualTo(1 << 20);
        assertThat(scratch.page(10).position()).as("cleared for the next page").isZero();
    }
}
