package dev.mirrorv3.restore.cli.status;

import dev.mirrorv3.chain.Chain;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.RecordHeader;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.restore.OffsetMode;
import dev.mirrorv3.kafka.restore.TargetTail;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;

/**
 * How far a chain source's target partition is behind its backup partition, in backup offsets and in seconds of
 * record time: the timestamp of the backup's newest record minus that of the target's newest record (the backup's
 * oldest when the target is empty), the chain source keeping each record's timestamp. Objects and the target's last
 * record are read only when the target is behind.
 */
final class ChainSourceLag {
    private final ChainReader reader;
    private final String topic;
    private final OffsetMode mode;
    private final String originalOffsetHeader;
    private final Supplier<TargetTail> tail;

    /** Offsets the target lacks (null if unknown) and the seconds they span (null if unknown). */
    record Lag(Long offsets, Long seconds) {
    }

    /**
     * @param topic the backed-up topic, which every record must be of
     * @param originalOffsetHeader the header that carries each record's backup offset with renumber, or null
     * @param tail the target's reader, made on first use
     */
    ChainSourceLag(ChainReader reader, String topic, OffsetMode mode, String originalOffsetHeader, Supplier<TargetTail> tail) {
        this.reader = reader;
        this.topic = topic;
        this.mode = mode;
        this.originalOffsetHeader = originalOffsetHeader;
        this.tail = tail;
    }

    /**
     * @param end the backup's end: the offset after its newest object
     * @param hwm the target partition's high watermark
     */
    Lag of(int partition, Chain chain, long end, TopicPartition target, long hwm) {
        if (chain.isEmpty()) {
            return hwm == 0 ? new Lag(0L, 0L) : new Lag(mode == OffsetMode.PRESERVE ? end - hwm : null, null);
        }
        BackupRecord targetLast = null;
        Long offsets;
        if (mode == OffsetMode.PRESERVE) {
            offsets = end - hwm; // each record at its backup offset: the high watermark is the next backup offset to restore
        } else if (hwm == 0) {
            offsets = end - chain.first().orElseThrow().from();
        } else {
            targetLast = tail.get().recordAt(target, hwm - 1);
            Long original = originalOffset(targetLast);
            offsets = original == null ? null : end - (original + 1); // renumbered: only the header says where the target is
        }
        if (offsets != null && offsets <= 0) {
            return new Lag(offsets, offsets == 0 ? 0L : null);
        }
        Long newest = timestamp(last(read(partition, chain.last().orElseThrow()).records()));
        Long position;
        if (hwm == 0) {
            position = timestamp(read(partition, chain.first().orElseThrow()).records().get(0));
        } else {
            position = timestamp(targetLast != null ? targetLast : tail.get().recordAt(target, hwm - 1));
        }
        return new Lag(offsets, newest == null || position == null ? null : Math.max(0, newest - position) / 1000);
    }

    private dev.mirrorv3.chain.read.CheckedObject read(int partition, ObjectName name) {
        return reader.read(partition, name, topic);
    }

    private Long originalOffset(BackupRecord r) {
        if (originalOffsetHeader == null) {
            return null;
        }
        for (RecordHeader h : r.headers()) {
            if (h.key().equals(originalOffsetHeader) && h.value() != null) {
                try {
                    return Long.parseLong(new String(h.value(), StandardCharsets.UTF_8).trim());
                } catch (NumberFormatException e) {
                    return null;
                }
            }
        }
        return null;
    }

    private static BackupRecord last(List<BackupRecord> records) {
        return records.get(records.size() - 1);
    }

    private static Long timestamp(BackupRecord r) {
        return r.timestampMs() == null || r.timestampMs() < 0 ? null : r.timestampMs();
    }
}
