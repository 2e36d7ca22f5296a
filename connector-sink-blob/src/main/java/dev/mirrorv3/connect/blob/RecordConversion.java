package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.RecordHeader;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.kafka.config.ConnectorChecks;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.sink.SinkRecord;

/** A SinkRecord as the backup holds it, at its original topic, partition and offset, with its exact bytes. */
final class RecordConversion {
    private RecordConversion() {
    }

    static BackupRecord toBackup(SinkRecord r) {
        List<RecordHeader> headers = new ArrayList<>();
        for (Header h : r.headers()) {
            headers.add(new RecordHeader(h.key(), bytes(h.value(), r, "header", h.key(), "header.converter")));
        }
        return new BackupRecord(
                r.originalTopic(),
                r.originalKafkaPartition(),
                r.originalKafkaOffset(),
                r.timestamp(),
                timestampType(r.timestampType()),
                bytes(r.key(), r, "key", null, "key.converter"),
                bytes(r.value(), r, "value", null, "value.converter"),
                headers);
    }

    // Runs for every field of every record: the error text is built only when it is needed.
    private static byte[] bytes(Object o, SinkRecord r, String what, String headerKey, String converterSetting) {
        if (o == null || o instanceof byte[]) {
            return (byte[]) o;
        }
        String where = r.originalTopic() + "/" + r.originalKafkaPartition() + " offset " + r.originalKafkaOffset();
        String field = headerKey == null ? what : what + " '" + headerKey + "'";
        throw new DataException("record at " + where + " has a " + field + " of type " + o.getClass().getSimpleName()
                + ", not bytes: the blob sink stores exact bytes; set " + converterSetting + "="
                + ConnectorChecks.BYTE_ARRAY_CONVERTER);
    }

    private static TimestampType timestampType(org.apache.kafka.common.record.TimestampType t) {
        if (t == null) {
            return TimestampType.NOT_AVAILABLE;
        }
        return switch (t) {
            case CREATE_TIME -> TimestampType.CREATE_TIME;
            case LOG_APPEND_TIME -> TimestampType.LOG_APPEND_TIME;
            default -> TimestampType.NOT_AVAILABLE;
        };
    }
}
