package dev.mirrorv3.connect.kafka;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.Compression;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.PayloadBytes;
import dev.mirrorv3.chain.envelope.RecordTypeCheck;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.envelope.ValueType;
import dev.mirrorv3.kafka.config.ConnectorChecks;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.header.Header;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Turns a source record, as Connect hands it over, into the destination's record with the exact bytes: key, value and
 * headers must be byte arrays (the byte-array converters), checked against keys.type and values.type when those are
 * set; the timestamp is the source's, or the destination producer's.
 *
 * @param typeCheck null when keys and values are plain bytes
 */
record DestinationRecords(boolean sourceTimestamps, RecordTypeCheck typeCheck) {
    static DestinationRecords of(KafkaSinkConfig config) {
        boolean typed = config.keysType() != ValueType.BYTES || config.valuesType() != ValueType.BYTES;
        return new DestinationRecords(config.sourceTimestamps(), typed ? new RecordTypeCheck(new EnvelopeSettings(EnvelopeFormat.NDJSON,
                Compression.UNCOMPRESSED, config.keysType(), config.valuesType())) : null);
    }

    ProducerRecord<byte[], byte[]> toProducerRecord(SinkRecord r, Mirror m) {
        byte[] key = bytes(r.key(), r, "key", "key.converter");
        byte[] value = bytes(r.value(), r, "value", "value.converter");
        Long ts = sourceTimestamps && r.timestamp() != null && r.timestamp() >= 0 ? r.timestamp() : null;
        if (typeCheck != null) {
            typeCheck.check(new BackupRecord(m.source.topic(), m.source.partition(), r.originalKafkaOffset(), ts,
                    TimestampType.NOT_AVAILABLE, key, value, List.of()));
        }
        RecordHeaders headers = new RecordHeaders();
        for (Header h : r.headers()) {
            headers.add(new RecordHeader(h.key(), bytes(h.value(), r, "header '" + h.key() + "'", "header.converter")));
        }
        return new ProducerRecord<>(m.destination.topic(), m.destination.partition(), ts, key, value, headers);
    }

    private static byte[] bytes(Object o, SinkRecord r, String field, String converterSetting) {
        if (o == null || o instanceof byte[]) {
            return (byte[]) o;
        }
        throw new DataException("record at " + r.originalTopic() + "/" + r.originalKafkaPartition() + " offset " + r.originalKafkaOffset()
                + " has a " + field + " of type " + o.getClass().getSimpleName() + ", not bytes: the Kafka sink copies exact bytes;"
                + " set " + converterSetting + "=" + ConnectorChecks.BYTE_ARRAY_CONVERTER);
    }

    /** Key, value and header bytes of {@code pr}, as the metrics count them. */
    static long payloadBytes(ProducerRecord<byte[], byte[]> pr) {
        PayloadBytes n = PayloadBytes.of(pr.key(), pr.value());
        for (org.apache.kafka.common.header.Header h : pr.headers()) {
            n.header(h.key(), h.value());
        }
        return n.total();
    }
}
