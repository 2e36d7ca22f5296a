package dev.mirrorv3.restore.cli.status;

import static dev.mirrorv3.restore.cli.status.StatusRow.Column.number;
import static dev.mirrorv3.restore.cli.status.StatusRow.Column.text;

import dev.mirrorv3.chain.Chain;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.manifest.ChainStart;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.connect.source.ChainSourceConfig;
import dev.mirrorv3.kafka.FailureNotes;
import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.restore.TargetTail;
import dev.mirrorv3.restore.cli.Backup;
import dev.mirrorv3.restore.cli.ClientConfigs;
import dev.mirrorv3.restore.cli.ConnectorConfig;
import dev.mirrorv3.restore.cli.ConnectorKind;
import dev.mirrorv3.restore.cli.UsageException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigException;

/**
 * Chain source rows: per followed backup partition, the backup's end (the offset after its newest object), the target
 * partition's high watermark and the lag ({@link ChainSourceLag}). Store, keys, partitions, mapping and the target's
 * admin client come from {@link ChainSourceConfig}, as the connector makes them.
 */
final class ChainSourceStatus implements StatusReader {
    static final List<StatusRow.Column> COLUMNS = List.of(text("BACKUP", "backup"), number("PARTITION", "partition"),
            number("BACKUP_END", "backup_end_offset"), text("TARGET_TOPIC", "target_topic"), number("TARGET_PARTITION", "target_partition"),
            number("TARGET_HWM", "target_high_watermark"), number("LAG", "lag"), number("SECONDS_BEHIND", "seconds_behind"));

    @Override
    public List<StatusRow.Column> columns() {
        return COLUMNS;
    }

    @Override
    public List<StatusRow> rows(ConnectorConfig c, Context context) {
        ChainSourceConfig parsed;
        KeyRing keys;
        try {
            parsed = new ChainSourceConfig(c.settings());
            keys = Backup.keys(c, context.keysDir());
        } catch (ConfigException | UsageException e) {
            return List.of(StatusRow.invalidConfig(ConnectorKind.CHAIN_SOURCE, c.name(), e));
        }
        Map<String, Object> targetClient = ClientConfigs.withTimeout(parsed.targetClientConfig(), context.timeout());
        targetClient.put("client.id", ClientConfigs.STATUS_ID);
        Tail tail = new Tail(targetClient, context);
        Store store;
        try {
            store = parsed.openStore();
        } catch (RuntimeException e) {
            return List.of(row(c, parsed, null, null, null, null, "backup: " + Failures.describe(e)));
        }
        try (store;
             ClusterOffsets target = new ClusterOffsets("target cluster", parsed.targetClientConfig(), context.timeout());
             tail) {
            List<Integer> partitions;
            try {
                partitions = parsed.partitions().isEmpty() ? store.partitions() : parsed.partitions();
            } catch (RuntimeException e) {
                return List.of(row(c, parsed, null, null, null, null, "backup: " + Failures.describe(e)));
            }
            if (partitions.isEmpty()) {
                return List.of(row(c, parsed, null, null, null, null, null)); // no partition directory yet: waited for
            }
            ClusterOffsets.TopicOffsets hwms = target.topic(parsed.targetTopic());
            ClusterOffsets.Notes failed = target.failureNotes(FailureNotes.groupId(c.name()));
            ChainReader reader = new ChainReader(store, parsed.envelope(), keys);
            ChainSourceLag lags = new ChainSourceLag(reader, parsed.sourceTopic(), parsed.offsetMode(),
                    parsed.originalOffsetHeader(), tail);
            List<StatusRow> rows = new ArrayList<>();
            for (int p : partitions) {
                StatusRow r = partitionRow(c, parsed, p, reader, hwms, lags);
                rows.add(new StatusRow(r.kind(), r.connector(), r.values(), failed.addTo(r.error(),
                        new TopicPartition(parsed.targetTopic(), parsed.targetPartition(p)))));
            }
            return rows;
        }
    }

    private static StatusRow partitionRow(ConnectorConfig c, ChainSourceConfig parsed, int p, ChainReader reader,
            ClusterOffsets.TopicOffsets hwms, ChainSourceLag lags) {
        int targetPartition = parsed.targetPartition(p);
        Long hwm = hwms.highWatermarks().get(targetPartition);
        String error = hwms.error();
        if (error == null && hwm == null) {
            error = "target topic " + parsed.targetTopic() + " has " + hwms.partitions() + " partitions, and backup partition " + p
                    + " goes to partition " + targetPartition + ": add partitions or set partition.mapping";
        }
        Chain chain;
        try {
            chain = reader.listChain(p, ChainStart.required(parsed.chainStart()));
        } catch (RuntimeException e) {
            return row(c, parsed, p, null, hwm, null, StatusRow.errors(error, "backup: " + Failures.describe(e)));
        }
        long end = chain.nextOffset().orElse(parsed.chainStart());
        ChainSourceLag.Lag lag = null;
        if (hwm != null) {
            try {
                lag = lags.of(p, chain, end, new TopicPartition(parsed.targetTopic(), targetPartition), hwm);
            } catch (RuntimeException e) {
                error = "lag: " + Failures.describe(e);
            }
        }
        if (lag != null && lag.offsets() != null && lag.offsets() < 0) {
            error = "the target is past the backup (high watermark " + hwm + ", backup end " + end + "): it holds records that are not"
                    + " this backup's; the chain source fails on it";
        }
        return row(c, parsed, p, end, hwm, lag, error);
    }

    private static StatusRow row(ConnectorConfig c, ChainSourceConfig parsed, Integer p, Long end, Long hwm, ChainSourceLag.Lag lag,
            String error) {
        return new StatusRow(ConnectorKind.CHAIN_SOURCE, c.name(), StatusRow.values(COLUMNS, parsed.destinationName(), p, end,
                parsed.targetTopic(), p == null ? null : parsed.targetPartition(p), hwm, lag == null ? null : lag.offsets(),
                lag == null ? null : lag.seconds()), error);
    }

    /** The target's reader for the lag in seconds, made on first use (most rows have no lag and need none). */
    private static final class Tail implements Supplier<TargetTail>, AutoCloseable {
        private final Map<String, Object> clientConfig;
        private final Context context;
        private TargetTail tail;

        Tail(Map<String, Object> clientConfig, Context context) {
            this.clientConfig = clientConfig;
            this.context = context;
        }

        @Override
        public TargetTail get() {
            if (tail == null) {
                tail = new TargetTail(clientConfig, context.timeout());
            }
            return tail;
        }

        @Override
        public void close() {
            if (tail != null) {
                tail.close();
            }
        }
    }
}
