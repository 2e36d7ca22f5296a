package dev.mirrorv3.kafka;

import java.time.Instant;
import java.util.Optional;

/**
 * A partition's failure as one line of text that travels beside its position, so that {@code mirror-v3 status} can
 * name it: the sinks put it in the metadata of the offset they commit for the partition (Connect commits what
 * {@code preCommit} returns, metadata included), the chain source in a consumer group of its own on the target cluster
 * (docs/operations.md, "A failed partition"). A healthy partition's offset carries {@link #HEALTHY}, so that the first
 * commit after a retry replaces a failure's note even when the offset did not move (Connect skips a commit equal to
 * the last one).
 */
public final class FailureNote {
    /** The metadata of a healthy partition's offset. */
    public static final String HEALTHY = "mirror-v3: ok";
    private static final String PREFIX = "mirror-v3: ";
    private static final String FAILED = "partition FAILED since ";
    /** Well under the broker's offset.metadata.max.bytes (4096 by default), also in multi-byte UTF-8. */
    private static final int MAX_REASON_CHARS = 1000;

    private FailureNote() {
    }

    /** The note of a partition that failed at {@code sinceMs} for {@code reason}, with how it clears. */
    public static String failed(long sinceMs, FailureVerdict.Kind kind, String reason) {
        String r = reason.length() > MAX_REASON_CHARS ? reason.substring(0, MAX_REASON_CHARS) + "…" : reason;
        return PREFIX + FAILED + Instant.ofEpochMilli(sinceMs) + " (" + describe(kind) + "): " + r;
    }

    /** The failure a note names ("partition FAILED since …: reason"), empty for a healthy partition or foreign metadata. */
    public static Optional<String> failure(String metadata) {
        if (metadata == null || !metadata.startsWith(PREFIX + FAILED)) {
            return Optional.empty();
        }
        return Optional.of(metadata.substring(PREFIX.length()));
    }

    static String describe(FailureVerdict.Kind kind) {
        return kind == FailureVerdict.Kind.CLEARS_BY_ITSELF ? "retried by itself" : "needs an operator";
    }
}
