package dev.mirrorv3.bench;

import java.util.Map;

/**
 * A sink run's rate in its steady state: the records its group committed between the first look at which it had
 * committed {@value #FROM_SHARE} of the topic and the first at which it had committed {@value #TO_SHARE}, over the time
 * between those looks. Read from the same committed offsets as the run's clock ({@link CommittedOffsets}), the same way
 * for every sink; it leaves out what a run's wall-clock time also holds: the deploy (the connector's start and its
 * group's join) and the tail (a blob sink's last, partial object waits up to flush.max.time.ms for more records before
 * it is written, a latency setting and not a rate).
 */
final class SteadyRate {
    static final double FROM_SHARE = 0.2;
    static final double TO_SHARE = 0.8;

    private final TopicRange range;
    private final long records;
    private double fromSeconds = -1;
    private long fromRecords;
    private double toSeconds = -1;
    private long toRecords;

    SteadyRate(TopicRange range) {
        this.range = range;
        this.records = range.records();
    }

    /** One look at the group's committed offsets ({@code committed}: partition to offset), {@code seconds} into the run. */
    void observe(double seconds, Map<Integer, Long> committed) {
        if (toSeconds >= 0) {
            return;
        }
        long done = 0;
        for (Map.Entry<Integer, Long> hw : range.highWatermarks().entrySet()) {
            long start = range.logStart().get(hw.getKey());
            long at = committed.getOrDefault(hw.getKey(), start);
            done += Math.max(0, Math.min(at, hw.getValue()) - start);
        }
        if (fromSeconds < 0 && done >= FROM_SHARE * records) {
            fromSeconds = seconds;
            fromRecords = done;
        } else if (fromSeconds >= 0 && done >= TO_SHARE * records) {
            toSeconds = seconds;
            toRecords = done;
        }
    }

    /** Whether the look at {@value #FROM_SHARE} of the topic has been seen: the steady state began. */
    boolean begun() {
        return fromSeconds >= 0;
    }

    /** Whether the look at {@value #TO_SHARE} of the topic has been seen: the steady state ended. */
    boolean ended() {
        return toSeconds >= 0;
    }

    /** Whether both looks were seen with records and time between them. */
    boolean measured() {
        return toSeconds > fromSeconds && fromSeconds >= 0 && toRecords > fromRecords;
    }

    long records() {
        return measured() ? toRecords - fromRecords : 0;
    }

    double seconds() {
        return measured() ? toSeconds - fromSeconds : 0;
    }
}
