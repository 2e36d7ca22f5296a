package dev.mirrorv3.restore.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The status rows of one connector class: its columns, and one row per partition it handles. */
interface StatusReader {

    /** What every reader needs from the command line. */
    record Context(Duration timeout, Path keysDir, Map<String, Object> sourceOverrides) {
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
