package dev.mirrorv3.restore.cli;

import static dev.mirrorv3.restore.cli.StatusRow.Column.number;
import static dev.mirrorv3.restore.cli.StatusRow.Column.text;

import dev.mirrorv3.chain.Chain;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.meta.MetaName;
import dev.mirrorv3.chain.meta.MetaSnapshots;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.snapshot.SnapshotReader;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.config.TopicsSetting;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * Blob sink rows: per backed-up partition, the source's high watermark, the backup's next offset and the lag, and the
 * times of the topic's newest metadata snapshots (topic metadata, consumer-group offsets) beside the chains; for a
 * compaction=log backup also the newest snapshot's keys (from its footer) and its {@code to}.
 */
final class BlobSinkStatus implements StatusReader {
    static final List<StatusRow.Column> COLUMNS = List.of(text("TOPIC", "topic"), number("PARTITION", "partition"),
            number("SOURCE_HWM", "source_high_watermark"), number("BACKUP_NEXT", "backup_next_offset"), number("LAG", "lag"),
            text("TOPIC_SNAPSHOT", "topic_snapshot"), text("GROUPS_SNAPSHOT", "groups_snapshot"),
            number("KEYS", "snapshot_keys").whenPresent(), number("SNAPSHOT_TO", "snapshot_to").whenPresent());

    @Override
    public List<StatusRow.Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<StatusRow> rows(ConnectorConfig c, Context context) {
        List<String> topics = topics(c);
        if (topics.isEmpty()) {
            return List.of(StatusRow.failed(ConnectorKind.BLOB_SINK, c.name(),
                    "no topics setting (topics.regex is not supported by status)"));
        }
        List<StatusRow> rows = new ArrayList<>();
        try (ClusterOffsets source = new ClusterOffsets("source cluster", adminConfig(c, context), context.timeout())) {
            for (String topic : topics) {
                rows.addAll(topicRows(c, topic, source, context));
            }
        }
        return rows;
    }

    private List<StatusRow> topicRows(ConnectorConfig c, String topic, ClusterOffsets source, Context context) {
        Backup b;
        try {
            b = Backup.of(c, topic, context.keysDir());
        } catch (UsageException e) {
            return List.of(row(c, topic, null, null, null, e.getMessage()));
        }
        List<StatusRow> rows = new ArrayList<>();
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
            String[] metaTimes = new String[2];
            String metaError = null;
            try {
                MetaSnapshots meta = new MetaSnapshots(store, ObjectEncryption.readOnly(b.keys()));
                metaTimes[0] = newest(meta.topicNames());
                metaTimes[1] = newest(meta.groupNames());
            } catch (RuntimeException e) {
                metaError = "snapshots: " + Failures.describe(e);
            }
            ChainReader reader = new ChainReader(store, b.envelope(), b.keys());
            SnapshotReader snapshots = SnapshotRestoreRun.applies(b) ? new SnapshotReader(store, b.envelope(), b.keys()) : null;
            for (int p : partitions) {
                Long hwm = hwms.highWatermarks().get(p);
                Long next = null;
                Long keys = null;
                Long snapshotTo = null;
                String error = StatusRow.errors(hwms.error(), metaError);
                try {
                    if (snapshots != null) {
                        Optional<ObjectName> newest = snapshots.list(p).newest();
                        next = newest.map(o -> o.to() + 1).orElse(0L);
                        if (newest.isPresent()) {
                            snapshotTo = newest.get().to();
                            keys = snapshots.keys(p, newest.get());
                        }
                    } else {
                        Chain chain = reader.listChain(p, OptionalLong.empty());
                        next = chain.nextOffset().isPresent() ? chain.nextOffset().getAsLong() : 0L;
                    }
                } catch (RuntimeException e) {
                    error = StatusRow.errors(error, "backup: " + Failures.describe(e));
                }
                if (error == null && hwm == null) {
                    error = "partition " + p + " is not in the source topic";
                }
                rows.add(new StatusRow(ConnectorKind.BLOB_SINK, c.name(), StatusRow.values(COLUMNS, topic, p, hwm, next,
                        StatusRow.lag(hwm, next), metaTimes[0], metaTimes[1], keys, snapshotTo), error));
            }
        }
        return rows;
    }

    private static StatusRow row(ConnectorConfig c, String topic, Integer partition, Long hwm, Long next, String error) {
        return new StatusRow(ConnectorKind.BLOB_SINK, c.name(),
                StatusRow.values(COLUMNS, topic, partition, hwm, next, StatusRow.lag(hwm, next), null, null, null, null), error);
    }

    /** The time of the newest snapshot, e.g. 2026-05-04T10:15:00.123Z; null if there is none. */
    private static String newest(List<MetaName> names) {
        return names.isEmpty() ? null : Instant.ofEpochMilli(names.get(names.size() - 1).timeMs()).toString();
    }

    static List<String> topics(ConnectorConfig c) {
        return TopicsSetting.listed(c.settings());
    }

    /** The connector's source.admin.* settings (bootstrap defaulting to consumer.override.bootstrap.servers), then the options'. */
    private static Map<String, Object> adminConfig(ConnectorConfig c, Context context) {
        Map<String, Object> admin = new HashMap<>();
        c.settings().forEach((k, v) -> {
            if (k.startsWith("source.admin.") && !k.equals(dev.mirrorv3.connect.blob.BlobSinkConfig.DEPRECATED_ADMIN_TIMEOUT_MS)) {
                admin.put(k.substring("source.admin.".length()), v);
            }
        });
        if (admin.getOrDefault("bootstrap.servers", "").toString().isBlank()) {
            admin.put("bootstrap.servers", c.settings().getOrDefault("consumer.override.bootstrap.servers", ""));
        }
        admin.putAll(context.sourceOverrides()); // --bootstrap-servers / --command-config override the connector's
        return admin;
    }
}
