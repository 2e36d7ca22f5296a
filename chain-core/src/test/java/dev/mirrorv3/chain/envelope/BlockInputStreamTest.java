package dev.mirrorv3.chain.envelope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.EOFException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.io.SeekableInputStream;
import org.junit.jupiter.api.Test;

/** The one seekable stream of our Parquet input files, over one block or over ranges fetched as they are needed. */
class BlockInputStreamTest {
    private static final byte[] DATA = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};

    /** Ranges of {@link #DATA} of at least 4 bytes, each fetch recorded. */
    private static final class Ranges implements BlockInputStream.Blocks {
        final List<Long> fetchedAt = new ArrayList<>();

        @Override
        public long getLength() {
            return DATA.length;
        }

        @Override
        public BlockInputStream.Block blockAt(long pos, int wanted) {
            fetchedAt.add(pos);
            int end = (int) Math.min(DATA.length, pos + Math.max(wanted, 4));
            return new BlockInputStream.Block(pos, Arrays.copyOfRange(DATA, (int) pos, end));
        }

        @Override
        public String shortRead(long pos, int wanted) {
            return wanted + " at " + pos;
        }
    }

    @Test
    void readsAcrossBlocksFetchingOnlyWhatIsOutsideTheCurrentOne() throws Exception {
        Ranges ranges = new Ranges();
        SeekableInputStream in = new BlockInputStream(ranges);
        in.seek(8);
        byte[] tail = new byte[2];
        in.readFully(tail);
        in.seek(1);
        assertThat(in.read()).isEqualTo(1);
        byte[] three = new byte[3];
        in.readFully(three);
        ByteBuffer rest = ByteBuffer.allocate(5);
        in.readFully(rest);

        assertThat(tail).containsExactly(8, 9);
        assertThat(three).containsExactly(2, 3, 4);
        assertThat(rest.array()).containsExactly(5, 6, 7, 8, 9);
        assertThat(ranges.fetchedAt).containsExactly(8L, 1L, 5L);
        assertThat(in.read()).isEqualTo(-1);
        assertThat(in.read(new byte[1], 0, 1)).isEqualTo(-1);
    }

    @Test
    void aShortReadSaysWhatTheSourceSaysAndASeekOutsideTheObjectFails() throws Exception {
        SeekableInputStream in = new BlockInputStream(new Ranges());
        in.seek(7);

        assertThatThrownBy(() -> in.readFully(new byte[4])).isInstanceOf(EOFException.class).hasMessage("4 at 7");
        assertThatThrownBy(() -> in.seek(11)).isInstanceOf(EOFException.class).hasMessage("seek to 11 outside 0..10");
    }

    @Test
    void anInMemoryFileIsOneBlockAndKeepsItsMessage() throws Exception {
        SeekableInputStream in = new InMemoryInputFile(DATA).newStream();
        assertThat(in.skip(8)).isEqualTo(8);
        assertThat(in.available()).isZero();
        assertThat(in.read()).isEqualTo(8);
        assertThat(in.available()).isEqualTo(1);

        assertThatThrownBy(() -> in.readFully(new byte[2])).hasMessage("need 2 bytes at 9 but the object has 10");
    }
}
