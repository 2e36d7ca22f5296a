package dev.mirrorv3.kafka;

import java.util.OptionalLong;
import org.apache.kafka.common.TopicPartition;

/**
 * The one rule for where a copy of a source partition continues, shared by both sinks: the destination's next offset
 * must lie inside the source's log, {@code logStart <= next <= highWatermark}. Below the log start is a lost position
 * (retention or deleteRecords removed records before they were copied); above the high watermark the destination is
 * ahead (a re-created or truncated source, or another writer). An empty destination starts where its kind can: a blob
 * chain at the source's log start, a Kafka topic only at offset 0 (so not at all when the source's log starts above
 * it). Every message names the source partition, the
 * destination, the offsets and what to do; what to do depends on the kind of {@link Destination}.
 */
public final class PositionRule {
    private PositionRule() {
    }

    /** Where a copy is kept: how messages name it and what an operator does about a position it cannot continue from. */
    public sealed interface Destination permits BlobChain, KafkaTopic {
        /** The destination as messages name it. */
        String describe();

        /** Where an empty destination of this kind starts, given the source's log start: there, unless its kind cannot. */
        default long startWhenEmpty(long sourceLogStart) {
            return sourceLogStart;
        }

        /** Why an empty destination cannot start at the source's log start, and what to do. */
        default String cannotStart() {
            return "a new chain starts at the source's log start"; // never asked of a kind that starts there
        }

        /** What to do to accept a lost range, given the destination's next offset. */
        String acceptGap(long next);

        /** What to do when the destination is ahead of its source. */
        String whenAhead();

        /** What to do when the destination holds a copy of another topic of the same name (the source was re-created). */
        String whenRecreated();
    }

    /** A chain or snapshot series of the blob sink at {@code location}; an empty one starts at the source's log start. */
    public record BlobChain(String location) implements Destination {
        @Override
        public String describe() {
            return "the backup at " + location;
        }

        @Override
        public String acceptGap(long next) {
            return "The backup cannot continue without a gap. To accept the gap, start a new chain (set destination.name to a new"
                    + " name, or move " + location + " away) and restart; the old chain stays restorable up to offset " + (next - 1) + ".";
        }

        @Override
        public String whenAhead() {
            return "Back the new topic up under a new destination.name, or move the old chain away if its topic is gone.";
        }

        @Override
        public String whenRecreated() {
            return "Back the new topic up under a new destination.name (or another s3.prefix or filesystem.root) and keep the old"
                    + " backup, which restores the old topic; or, if the old backup is no longer needed, delete all of it deliberately"
                    + " (every partition and _meta/ beside " + location + "). Then restart the task (docs/operations.md).";
        }
    }

    /** A partition of a Kafka destination topic that keeps the source's offsets; an empty one can only start at offset 0. */
    public record KafkaTopic(TopicPartition partition) implements Destination {
        @Override
        public String describe() {
            return "destination " + partition;
        }

        @Override
        public long startWhenEmpty(long sourceLogStart) {
            return 0;
        }

        @Override
        public String cannotStart() {
            return "a Kafka destination cannot start above offset 0, so the source's offsets cannot be preserved. Back the topic up"
                    + " to a blob destination and restore it with --offsets renumber, or start from a destination filled by a"
                    + " preserve restore of a complete backup.";
        }

        @Override
        public String acceptGap(long next) {
            return "The copy cannot continue with the same offsets; to accept the gap, copy into a new destination topic from a"
                    + " blob backup restored with --offsets renumber.";
        }

        @Override
        public String whenAhead() {
            return "Copy into a new, empty destination topic.";
        }

        @Override
        public String whenRecreated() {
            return "Copy the new topic into a new, empty destination topic (destination.topic) and keep " + partition.topic()
                    + ", which holds the old topic; or, if the old copy is no longer needed, delete and re-create destination topic "
                    + partition.topic() + " empty. Then restart the task (docs/operations.md).";
        }
    }

    /**
     * The identity half of the rule: offsets alone cannot tell a topic deleted and created again under the same name
     * once the new one has grown past the destination's end, so a destination that holds records is continued only
     * from the topic whose id (Kafka's topic id, KIP-516) it recorded. An empty destination, or one that recorded no id
     * (made before ids were recorded), takes the current topic's.
     *
     * @param recordedId the topic id the destination holds a copy of, empty when it recorded none
     * @param destinationNext the destination's next offset, empty when it holds nothing yet
     * @throws PositionException the destination holds a copy of another topic of that name, with what to do
     */
    public static void checkIdentity(TopicPartition source, Destination destination, OptionalLong destinationNext, String recordedId,
                                     String currentId) {
        if (destinationNext.isEmpty() || recordedId.isEmpty() || recordedId.equals(currentId)) {
            return;
        }
        throw PositionException.ofTopic(source.topic(), "source topic " + source.topic() + " was deleted and created again: "
                + destination.describe()
                + " (next offset " + destinationNext.getAsLong() + ") holds a copy of the topic with id " + recordedId + ", and "
                + source.topic() + " now has id " + currentId + ", another topic of the same name. Nothing of the new topic was"
                + " written for " + source + ". " + destination.whenRecreated());
    }

    /**
     * The offset the copy of {@code source} continues at: the destination's next offset, or where an empty destination
     * of its kind starts.
     *
     * @param destinationNext the destination's next offset, empty when it holds nothing yet
     * @throws PositionException the position is outside the source's log, with what to do
     */
    public static long check(TopicPartition source, Destination destination, OptionalLong destinationNext, long sourceLogStart,
                             long sourceHighWatermark) {
        long emptyStart = destination.startWhenEmpty(sourceLogStart);
        long next = destinationNext.orElse(emptyStart);
        if (next < sourceLogStart) {
            if (next == emptyStart) {
                throw new PositionException(destination.describe() + " is empty, and the log of source " + source + " starts at offset "
                        + sourceLogStart + " (retention, compaction or deleteRecords removed the offsets before it): "
                        + destination.cannotStart());
            }
            throw new PositionException("lost position for " + source + ": " + destination.describe() + " ends at next offset " + next
                    + ", but the source's log now starts at " + sourceLogStart + " (retention or deleteRecords removed offsets " + next
                    + "-" + (sourceLogStart - 1) + " before they were copied). " + destination.acceptGap(next));
        }
        if (next > sourceHighWatermark) {
            throw new PositionException("the destination is ahead of the source for " + source + ": " + destination.describe()
                    + " ends at next offset " + next + ", and the source's high watermark is " + sourceHighWatermark + " (was the"
                    + " source topic deleted and re-created, or truncated, or did another writer add records to the destination?). "
                    + destination.whenAhead());
        }
        return next;
    }
}
