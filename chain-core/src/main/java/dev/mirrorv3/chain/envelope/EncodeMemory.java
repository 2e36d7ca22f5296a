package dev.mirrorv3.chain.envelope;

import dev.mirrorv3.chain.bytes.ObjectBytes;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The memory a codec encodes objects in, reused from one object to the next instead of allocated (and zeroed) anew for
 * each (docs/blob-sink.md, "Encoding memory"). Two kinds, each handed to one user at a time:
 * <ul>
 *   <li>scratch ({@link EncodeScratch}): Parquet's page and column buffers and the ZSTD arrays, taken by an encoding for
 *       as long as it runs, on its thread, and given back when it ends;</li>
 *   <li>outputs ({@link ChunkedByteOutput}): the chunks an object is written into. They hold the finished object
 *       ({@link ObjectBytes}) until its holder releases it: the commit, once the object is durable, or never, if it is
 *       dropped unfinished (then the garbage collector takes the chunks). A frozen commit waiting to be re-issued keeps
 *       its chunks however many other objects are encoded meanwhile: those take other outputs.</li>
 * </ul>
 * At most {@code kept} of each wait for reuse (a task's flush threads: no more encode at once), each with at most
 * {@link #MAX_KEPT_BYTES} of buffers; more are made when more are held (frozen commits of several partitions) and dropped
 * when given back. Thread-safe; one instance serves the writers of one task's destination.
 */
public final class EncodeMemory {
    /** What one kept scratch or output may hold between objects; larger ones shrink to it when given back. */
    static final long MAX_KEPT_BYTES = 64L << 20;

    private final int kept;
    private final Deque<EncodeScratch> scratches = new ArrayDeque<>();
    private final Deque<ChunkedByteOutput> outputs = new ArrayDeque<>();

    private EncodeMemory(int kept) {
        this.kept = kept;
    }

    /** Keeps nothing between objects: each allocates its own memory (codecs that encode now and then). */
    public static EncodeMemory unpooled() {
        return new EncodeMemory(0);
    }

    /** Keeps the memory of up to {@code kept} objects encoded at once (a task's flush threads; at least 1). */
    public static EncodeMemory pooled(int kept) {
        if (kept < 1) {
            throw new IllegalArgumentException("an encoding memory pool keeps at least 1: " + kept);
        }
        return new EncodeMemory(kept);
    }

    synchronized EncodeScratch takeScratch() {
        EncodeScratch s = scratches.poll();
        return s != null ? s : new EncodeScratch(MAX_KEPT_BYTES);
    }

    /** After the encoding that took it ended (its Parquet writer closed), whether it succeeded or not. */
    synchronized void giveBack(EncodeScratch s) {
        s.done();
        if (scratches.size() < kept) {
            scratches.push(s);
        }
    }

    synchronized ChunkedByteOutput takeOutput() {
        ChunkedByteOutput out = outputs.poll();
        return out != null ? out : new ChunkedByteOutput();
    }

    /** The object written into {@code out}: its chunks come back here when the object is released. */
    ObjectBytes finish(ChunkedByteOutput out) {
        return out.finish(() -> giveBack(out));
    }

    /** An output whose object was released, or whose encoding failed before it finished. */
    synchronized void giveBack(ChunkedByteOutput out) {
        if (outputs.size() < kept) {
            out.trimTo(MAX_KEPT_BYTES);
            outputs.push(out);
        }
    }

    /** Scratches and outputs waiting for reuse, for tests. */
    synchronized int keptNow() {
        return scratches.size() + outputs.size();
    }
}
