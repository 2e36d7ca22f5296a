package dev.mirrorv3.connect.blob;

import org.apache.kafka.connect.errors.ConnectException;

/** A partition's backup cannot continue where the source is: never a silent jump. */
final class PositionException extends ConnectException {
    private static final long serialVersionUID = 1L;

    private PositionException(String message) {
        super(message);
    }

    static PositionException lost(String tp, String location, long next, long logStart) {
        return new PositionException("lost position for " + tp + ": the backup at " + location + " ends at next offset " + next
                + ", but the topic's log now starts at " + logStart + " (retention or deleteRecords removed offsets " + next + "-"
                + (logStart - 1) + " before they were backed up). The backup cannot continue without a gap. To accept the gap,"
                + " start a new chain (set destination.name to a new name, or move " + location + " away) and restart;"
                + " the old chain stays restorable up to offset " + (next - 1) + ".");
    }

    static PositionException ahead(String tp, String location, long next, long highWatermark) {
        return new PositionException("the destination is ahead of the source for " + tp + ": the backup at " + location
                + " ends at next offset " + next + ", and the topic's high watermark is " + highWatermark
                + " (was the topic deleted and re-created, or truncated?). Back the new topic up under a new destination.name,"
                + " or move the old chain away if its topic is gone.");
    }
}
