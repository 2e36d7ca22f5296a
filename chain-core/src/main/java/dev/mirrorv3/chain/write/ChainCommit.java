package dev.mirrorv3.chain.write;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.bytes.ObjectBytes;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeCodec;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One object cut from a {@link ChainWriter}'s buffer ({@link ChainWriter#cut}, {@link ChainWriter#cutBehind}), committed
 * by {@link #run()} on whichever thread runs it.
 */
public final class ChainCommit {
    private static final Logger log = LoggerFactory.getLogger(ChainWriter.class); // the writer's log lines

    private final ChainWriter writer;
    private final EnvelopeCodec codec;
    private final Cut cut;
    /** The object of the commit this one was cut behind and waits for; null if none. */
    private final ObjectName after;

    /**
     * One object's records cut from the buffer, what the commit needs.
     *
     * @param toEncode the records to encode; null when the pending commit is re-issued (its bytes are frozen)
     * @param firstBufferedAtMs the time trigger's start, given back to the buffer if the commit fails
     */
    record Cut(FlushTrigger trigger, List<BackupRecord> toEncode, ObjectName name, int records, long payloadBytes,
               long firstBufferedAtMs) {
    }

    ChainCommit(ChainWriter writer, EnvelopeCodec codec, Cut cut, ObjectName after) {
        this.writer = writer;
        this.codec = codec;
        this.cut = cut;
        this.after = after;
    }

    /** Payload bytes of the records this object holds. */
    public long payloadBytes() {
        return cut.payloadBytes();
    }

    public ObjectName name() {
        return cut.name();
    }

    Cut cut() {
        return cut;
    }

    ObjectName after() {
        return after;
    }

    /**
     * Encodes, checks the tail, commits (or re-issues the pending commit) and checks for a twin; only then are the
     * records durable and dropped from the buffer. On any exception the records stay buffered, the object stays the
     * pending commit once it passed the tail check, and the next {@link ChainWriter#cut} re-issues it. A commit cut
     * behind another encodes at once and goes on only after that one succeeded. The encoded bytes live in the codec's
     * reused memory: they are released once the object is durable, or at once if this commit is abandoned, never while
     * the pending commit may re-issue them (docs/blob-sink.md, "Encoding memory").
     *
     * @throws CommitAbandonedException if the commit before it failed: nothing of this one reached the store
     */
    public FlushResult run() {
        if (after == null) {
            return writer.commit(this, null, null);
        }
        ObjectBytes encoded = null;
        RuntimeException encodeFailure = null;
        try {
            encoded = codec.encodeObject(cut.toEncode()); // while the commit before it uploads
            // ./torture's sink-s3 reads this line to know that a worker it kills holds a commit waiting behind an upload
            log.info("encoded {}/{} ({} records) while {} is written: it is created once that one is durable",
                    writer.location(), name(), cut.records(), after);
        } catch (RuntimeException e) {
            encodeFailure = e; // thrown once this commit is the chain's next, in order
        }
        boolean turn = false;
        try {
            turn = writer.awaitTurn(this);
        } finally {
            if (!turn && encoded != null) {
                encoded.release(); // abandoned (or interrupted): nothing of it reached the store, nothing reads it again
            }
        }
        if (!turn) {
            log.info("abandoned the commit of {}/{} ({} records, encoded while {} was written): that commit failed; nothing of it"
                    + " was written, its records stay buffered and are written after the failed commit is re-issued",
                    writer.location(), name(), cut.records(), after);
            throw new CommitAbandonedException(writer.location() + "/" + name(), after, "was abandoned: it was behind the failed");
        }
        return writer.commit(this, encoded, encodeFailure);
    }
}
