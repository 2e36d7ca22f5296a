package dev.mirrorv3.chain.testkit;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.envelope.TimestampType;
import dev.mirrorv3.chain.store.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Partition 0's chain as prune's and the chain start's tests begin from: four Parquet objects of 100 offsets each,
 * 0-399, every record stamped 1,000,000 + its offset (ms), so that a cut in ms names the objects it removes.
 */
public final class FourObjectChain {
    private FourObjectChain() {
    }

    /**
     * Creates the four objects, named with {@code keyId} ({@code null}: plain), each holding what {@code encode} makes
     * of its records (a record's value is {@code value}); returns every record, in offset order.
     */
    public static List<BackupRecord> write(Store store, String topic, String keyId, byte value,
            Function<List<BackupRecord>, byte[]> encode) {
        List<BackupRecord> all = new ArrayList<>();
        for (long from = 0; from < 400; from += 100) {
            List<BackupRecord> records = new ArrayList<>();
            for (long o = from; o < from + 100; o++) {
                records.add(new BackupRecord(topic, 0, o, 1_000_000L + o, TimestampType.CREATE_TIME, null, new byte[] {value},
                        List.of()));
            }
            all.addAll(records);
            store.create(0, new ObjectName(from, from + 99, EnvelopeFormat.PARQUET, keyId).fileName(), encode.apply(records));
        }
        return all;
    }
}
