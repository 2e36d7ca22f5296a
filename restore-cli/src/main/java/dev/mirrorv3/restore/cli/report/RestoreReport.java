package dev.mirrorv3.restore.cli.report;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The evidence a restore or a verify run leaves ({@code --report}): what was read, where the cut was, a digest of the
 * restored records per partition and what the target held before and after. {@code config/schemas/restore-report.schema.json}
 * describes it; {@code compare-report} compares two.
 *
 * @param mode verify-only or restore
 * @param result ok or failed
 * @param error why it failed, or null
 * @param recordsDigest what each partition's sha256 covers ({@link #RECORDS_DIGEST}): the records as backed up
 * @param groupSnapshot the consumer-group snapshot the group offsets came from, or null
 * @param groupsWithoutOffset restored partitions on which a selected group had no offset in that snapshot (nothing committed)
 * @param groupsSkipped selected groups not restored: their offsets are only in snapshots of another topic of the same name
 */
@JsonInclude(JsonInclude.Include.ALWAYS)
public record RestoreReport(int reportVersion, String tool, String toolVersion, String createdAt, String mode, String result, String error,
        BackupInfo backup, String offsets, Cut cut, Target target, Durations durationsMs, List<Partition> partitions,
        String recordsDigest, String groupSnapshot, List<GroupOffset> groupOffsets, List<GroupWithoutOffset> groupsWithoutOffset,
        List<GroupSkipped> groupsSkipped) {

    public static final int VERSION = 1;
    /**
     * The digest is of the records as backed up, so a verify run and a restore of the same backup and cut compare equal
     * (docs/decisions.md); what restore adds or the target changes is not in it.
     */
    public static final String RECORDS_DIGEST = "SHA-256 of the records as backed up (key, value, headers, timestamp), without the"
            + " --original-offset-header restore adds or a LogAppendTime target's restamped timestamps";
    public static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** @param location the chain's directory or prefix without the partition */
    public record BackupInfo(String location, String connector, String destinationName, String sourceTopic) {
    }

    /** @param untilTimestamp ISO-8601, or null */
    public record Cut(String untilTimestamp, Map<String, Long> untilOffsets) {
    }

    public record Target(String topic, String bootstrapServers) {
    }

    /** @param restore null for verify-only */
    public record Durations(long verify, Long restore) {
    }

    /**
     * One partition. With status failed only partition, status and error are known.
     *
     * @param lastOffset the last restored offset (the cut, or the chain's end)
     * @param sha256 {@link dev.mirrorv3.chain.restore.RecordDigest} of the restored records as backed up, hex
     * @param snapshot the snapshot restored (a compaction=log backup), or null for a chain
     */
    public record Partition(int partition, String status, String error, String location, Integer objects, Long records, Long holes,
            Long firstOffset, Long lastOffset, String lastTimestamp, Long firstExcludedOffset, String firstExcludedTimestamp,
            String sha256, Long targetHighWatermarkBefore, Long targetHighWatermarkAfter, String snapshot) {
    }

    /**
     * A consumer group's committed offset the restore applied ({@code --groups}).
     *
     * @param offset the offset committed on the target
     * @param backedUpOffset the offset in the group snapshot
     * @param clamped no, log-start or high-watermark: which bound of the restored partition moved it
     */
    public record GroupOffset(String group, int partition, long offset, long backedUpOffset, String clamped) {
    }

    /** A selected group without an offset on a restored partition in the group snapshot: its consumers start from auto.offset.reset. */
    public record GroupWithoutOffset(String group, int partition) {
    }

    /**
     * A group --groups selected that restore skipped: its offsets are only in group snapshots of another topic of the same
     * name than the backup's (the topic was deleted and created again).
     *
     * @param snapshot the newest such snapshot holding the group
     * @param topicId that snapshot's topic id
     */
    public record GroupSkipped(String group, String snapshot, String topicId, String reason) {
    }

    public static com.fasterxml.jackson.databind.JsonNode read(Path file) throws IOException {
        return JSON.readTree(file.toFile());
    }
}
