package dev.mirrorv3.restore.cli.status;

import dev.mirrorv3.restore.cli.ConnectorConfig;
import dev.mirrorv3.restore.cli.ConnectorKind;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The status rows of one connector class: its columns, and one row per partition it handles. */
interface StatusReader {

    /**
     * What every reader needs from the command line.
     *
     * @param destination --destination: which destination of a blob sink with several to read; null for its one
     */
    record Context(Duration timeout, Path keysDir, Map<String, Object> sourceOverrides, String destination) {
        /** A sink's source admin client: the connector's own settings, which --bootstrap-servers / --command-config override. */
        Map<String, Object> sourceAdmin(Map<String, Object> connectors) {
            Map<String, Object> admin = new HashMap<>(connectors);
            admin.putAll(sourceOverrides);
            return admin;
        }
    }

    List<StatusRow.Column> columns();

    /** Never throws for what it cannot read: such a row carries the error. */
    List<StatusRow> rows(ConnectorConfig c, Context context);

    static StatusReader of(ConnectorKind kind) {
        return switch (kind) {
            case BLOB_SINK -> new BlobSinkStatus();
            case KAFKA_SINK -> new KafkaSinkStatus();
            case CHAIN_SOURCE -> new ChainSourceStatus();
        };
    }
}
