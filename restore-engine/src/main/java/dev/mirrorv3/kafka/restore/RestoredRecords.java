package dev.mirrorv3.kafka.restore;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.RecordHeader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;

/**
 * A backup record as every restore produces it (the chain's {@link Restorer} and the {@link SnapshotRestorer}): its key,
 * value and headers, its own timestamp when it has one (else the producer's), and with {@code --original-offset-header}
 * one more header holding its backup offset in decimal.
 */
public final class RestoredRecords {
    private RestoredRecords() {
    }

    /** Extra bytes the original-offset header adds to a record (at most). */
    public static long headerOverhead(String originalOffsetHeader) {
        if (originalOffsetHeader == null) {
            return 0;
        }
        int k = originalOffsetHeader.getBytes(StandardCharsets.UTF_8).length;
        return 1 + RecordSizes.varintSize(k) + k + 1 + 19 + 1; // header count may grow a byte; offset as up to 19 digits
    }

    /**
     * @param originalOffsetHeader the header that keeps the record's backup offset, or null for none
     */
    public static ProducerRecord<byte[], byte[]> toProduce(String topic, int partition, BackupRecord r, String originalOffsetHeader) {
        Long ts = r.timestampMs() != null && r.timestampMs() >= 0 ? r.timestampMs() : null;
        if (r.headers().isEmpty() && originalOffsetHeader == null) {
            return new ProducerRecord<>(topic, partition, ts, r.key(), r.value()); // no header list to build and copy per record
        }
        List<Header> headers = new ArrayList<>(r.headers().size() + 1);
        for (RecordHeader h : r.headers()) {
            headers.add(new org.apache.kafka.common.header.internals.RecordHeader(h.key(), h.value()));
        }
        if (originalOffsetHeader != null) {
            headers.add(new org.apache.kafka.common.header.internals.RecordHeader(originalOffsetHeader,
                    Long.toString(r.offset()).getBytes(StandardCharsets.UTF_8)));
        }
        return new ProducerRecord<>(topic, partition, ts, r.key(), r.value(), headers);
    }
}
