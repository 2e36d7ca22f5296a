package dev.mirrorv3.kafka.restore;

import dev.mirrorv3.chain.restore.OffsetMode;
import java.time.Clock;
import java.util.Objects;

/**
 * How to restore: the offset mode, the refusals an operator may waive, and the optional header carrying each
 * record's backed-up offset (renumber).
 *
 * @param originalOffsetHeader header name, or null for none; its value is the offset as decimal UTF-8 text
 * @param afterFirstObject test hook: runs on the sending thread once a partition's first object is acknowledged
 */
public record RestoreOptions(OffsetMode mode, boolean acceptRetention, boolean acceptLogAppendTime, String originalOffsetHeader,
        Clock clock, PartitionHook afterFirstObject) {

    public RestoreOptions {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(clock, "clock");
    }

    public static RestoreOptions of(OffsetMode mode) {
        return new RestoreOptions(mode, false, false, null, Clock.systemUTC(), null);
    }

    /** A test hook run with the partition number. */
    @FunctionalInterface
    public interface PartitionHook {
        void run(int partition) throws Exception;
    }
}
