package dev.mirrorv3.restore.cli.status;

import static dev.mirrorv3.restore.cli.status.StatusRow.Column.number;
import static dev.mirrorv3.restore.cli.status.StatusRow.Column.text;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.manifest.ChainHead;
import dev.mirrorv3.chain.manifest.ChainStart.BeforeTheRule;
import dev.mirrorv3.chain.meta.MetaName;
import dev.mirrorv3.chain.meta.MetaSnapshots;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.snapshot.SnapshotReader;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.connect.blob.BlobSinkConfig;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.restore.cli.Backup;
import dev.mirrorv3.restore.cli.ConnectorConfig;
import dev.mirrorv3.restore.cli.ConnectorKind;
import dev.mirrorv3.restore.cli.UsageException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Blob sink rows: per backed-up partition, the source's high watermark, the backup's next offset and the lag, and the
 * times of the topic's newest metadata snapshots (topic metadata, consumer-group offsets) beside the chains; for a
 * compaction=log backup also the newest snapshot's keys (from its footer) and its {@code to}.
 */
final class BlobSinkStatus extends SinkStatus<BlobSinkConfig> {
    static final List<StatusRow.Column> COLUMNS = List.of(text("TOPIC", "topic"), number("PARTITION", "partition"),
            number("SOURCE_HWM", "source_high_watermark"), number("BACKUP_NEXT", "backup_next_offset"), number("LAG", "lag"),
            text("TOPIC_SNAPSHOT", "topic_snapshot"), text("GROUPS_SNAPSHOT", "groups_snapshot"),
            number("KEYS", "snapshot_keys").whenPresent(), number("SNAPSHOT_TO", "snapshot_to").whenPresent());

    BlobSinkStatus() {
        super(new Sink<>(ConnectorKind.BLOB_SINK, BlobSinkConfig::new, BlobSinkConfig::sourceAdminConfig, COLUMNS));
    }

    @Override
    List<StatusRow> rows(ConnectorConfig c, BlobSinkConfig config, List<String> topics, ClusterOffsets source, Context context) {
        List<StatusRow> rows = new ArrayList<>();
        for (String topic : topics) {
            rows.addAll(topicRows(c, topic, source, context));
        }
        return rows;
    }

    private List<StatusRow> topicRows(ConnectorConfig c, String topic, ClusterOffsets source, Context context) {
        Backup b;
        try {
            b = Backup.of(c, topic, context.keysDir(), context.destination());
        } catch (UsageException e) {
            return List.of(row(c, topic, null, null, null, e.getMessage()));
        }
        try (Store store = b.openStore()) {
            TreeSet<Integer> partitions;
            try {
                partitions = new TreeSet<>(store.partitions());
            } catch (RuntimeException e) {
                return List.of(row(c, topic, null, null, null, "backup: " + Failures.describe(e)));
            }
            ClusterOffsets.TopicOffsets hwms = source.topic(topic);
            for (int p = 0; p < hwms.partitions(); p++) {
                partitions.add(p);
            }
            if (partitions.isEmpty()) {
                return List.of(row(c, topic, null, null, null, StatusRow.errors(hwms.error(),
                        "no partition in the source topic or the backup")));
            }
            MetaTimes meta = MetaTimes.read(store, b);
            BackupEnds ends = new BackupEnds(store, b);
            List<StatusRow> rows = new ArrayList<>();
            for (int p : partitions) {
                rows.add(partitionRow(c, topic, p, hwms, meta, ends));
            }
            return rows;
        }
    }

    private static StatusRow partitionRow(ConnectorConfig c, String topic, int p, ClusterOffsets.TopicOffsets hwms, MetaTimes meta,
            BackupEnds ends) {
        Long hwm = hwms.highWatermarks().get(p);
        BackupEnd end = ends.of(p);
        String error = StatusRow.errors(hwms.error(), meta.error(), end.error());
        if (error == null && hwm == null) {
            error = "partition " + p + " is not in the source topic";
        }
        return new StatusRow(ConnectorKind.BLOB_SINK, c.name(), StatusRow.values(COLUMNS, topic, p, hwm, end.next(),
                StatusRow.lag(hwm, end.next()), meta.topic(), meta.groups(), end.keys(), end.snapshotTo()), error);
    }

    /** The times of the topic's newest metadata snapshots, or why they could not be read. */
    private record MetaTimes(String topic, String groups, String error) {
        static MetaTimes read(Store store, Backup b) {
            try {
                MetaSnapshots meta = new MetaSnapshots(store, ObjectEncryption.readOnly(b.keys()));
                return new MetaTimes(newest(meta.topicNames()), newest(meta.groupNames()), null);
            } catch (RuntimeException e) {
                return new MetaTimes(null, null, "snapshots: " + Failures.describe(e));
            }
        }
    }

    /**
     * Where a partition's backup ends: the next offset, and for snapshots (compaction=log) the newest one's keys and end;
     * what was read before a failure, and the failure.
     */
    private record BackupEnd(Long next, Long keys, Long snapshotTo, String error) {
    }

    /** Reads a partition's {@link BackupEnd} from its chain, or from its snapshots for a compaction=log backup. */
    private static final class BackupEnds {
        private final ChainReader chains;
        private final SnapshotReader snapshots;

        BackupEnds(Store store, Backup b) {
            chains = new ChainReader(store, b.envelope(), b.keys());
            snapshots = b.snapshots() ? new SnapshotReader(store, b.envelope(), b.keys()) : null;
        }

        BackupEnd of(int p) {
            Long next = null;
            Long snapshotTo = null;
            try {
                if (snapshots == null) {
                    // from the newest manifest on: as cheap for a chain of years as of days; a reader: it records nothing
                    ChainHead chain = chains.head(p, BeforeTheRule.ACCEPT);
                    return new BackupEnd(chain.nextOffset().isPresent() ? chain.nextOffset().getAsLong() : 0L, null, null, null);
                }
                Optional<ObjectName> newest = snapshots.head(p).last();
                next = newest.map(o -> o.to() + 1).orElse(0L);
                if (newest.isEmpty()) {
                    return new BackupEnd(next, null, null, null);
                }
                snapshotTo = newest.get().to();
                return new BackupEnd(next, snapshots.keys(p, newest.get()), snapshotTo, null);
            } catch (RuntimeException e) {
                return new BackupEnd(next, null, snapshotTo, "backup: " + Failures.describe(e));
            }
        }
    }

    private static StatusRow row(ConnectorConfig c, String topic, Integer partition, Long hwm, Long next, String error) {
        return new StatusRow(ConnectorKind.BLOB_SINK, c.name(),
                StatusRow.values(COLUMNS, topic, partition, hwm, next, StatusRow.lag(hwm, next), null, null, null, null), error);
    }

    /** The time of the newest snapshot, e.g. 2026-05-04T10:15:00.123Z; null if there is none. */
    private static String newest(List<MetaName> names) {
        return names.isEmpty() ? null : Instant.ofEpochMilli(names.get(names.size() - 1).timeMs()).toString();
    }
}
