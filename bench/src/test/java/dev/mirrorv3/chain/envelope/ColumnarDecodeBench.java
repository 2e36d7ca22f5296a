package dev.mirrorv3.chain.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.api.Test;

/**
 * Not part of the test suite (no *Test suffix): what a reader of the envelope column by column would save the restore's
 * verify pass over parquet-mr's record-at-a-time reading ({@link ParquetCodec#decode}). It decodes one object of the
 * blob sink's default size (16 MiB of values, at most 100,000 records, no headers) both ways, alternating in rounds in
 * one JVM on one thread, and prints the thread CPU time of each and their ratio; the column-by-column reader reads every
 * envelope column through parquet-mr's {@code ColumnReader}s (the same page decoding and decompression) and builds the
 * same records, which it checks. Run it with {@code mvn -B -ntp -o -q -pl bench -am test -Dtest=ColumnarDecodeBench
 * -Dsurefire.failIfNoSpecifiedTests=false -Ddecode.bench.values=100 -Ddecode.bench.rounds=30}.
 */
class ColumnarDecodeBench {
    private static final int VALUE_BYTES = Integer.getInteger("decode.bench.values", 100);
    private static final int ROUNDS = Integer.getInteger("decode.bench.rounds", 30);
    private static final int RECORDS = Math.min(100_000, (16 << 20) / VALUE_BYTES);

    @Test
    void printsTheDecodeTimeOfTheRecordReaderAgainstAColumnByColumnReader() throws Exception {
        ParquetCodec codec = new ParquetCodec(EnvelopeSettings.parquetBytes());
        byte[] object = codec.encode(records());
        assertThat(columnByColumn(object)).as("both readers return the same records").isEqualTo(codec.decode(object, "bench"));
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        double[] ratios = new double[ROUNDS];
        for (int round = 0; round < ROUNDS + 5; round++) { // the first 5 warm the JIT up
            long t0 = threads.getCurrentThreadCpuTime();
            codec.decode(object, "bench");
            long t1 = threads.getCurrentThreadCpuTime();
            columnByColumn(object);
            long t2 = threads.getCurrentThreadCpuTime();
            if (round >= 5) {
                ratios[round - 5] = (double) (t2 - t1) / (t1 - t0);
                System.out.printf("round %d: %,d records of %,d B: record reader %.1f ms, column by column %.1f ms (CPU), %.2f%n",
                        round - 4, RECORDS, VALUE_BYTES, (t1 - t0) / 1e6, (t2 - t1) / 1e6, ratios[round - 5]);
            }
        }
        Arrays.sort(ratios);
        System.out.printf("median of %d rounds, column by column / record reader CPU time: %.2f (rounds %.2f-%.2f)%n", ROUNDS,
                ratios[ROUNDS / 2], ratios[0], ratios[ROUNDS - 1]);
    }

    private static List<BackupRecord> records() {
        Random random = new Random(1);
        List<BackupRecord> records = new ArrayList<>(RECORDS);
        for (int i = 0; i < RECORDS; i++) {
            byte[] value = new byte[VALUE_BYTES];
            for (int j = 0; j < VALUE_BYTES; j++) {
                value[j] = (byte) ('A' + random.nextInt(26)); // ProducerPerformance's payload: random capital letters
            }
            records.add(new BackupRecord("bench", 0, i, 1_700_000_000_000L + i, TimestampType.CREATE_TIME, null, value, List.of()));
        }
        return records;
    }

    /** Every envelope column read on its own, then the records built from the columns (objects without headers). */
    @SuppressWarnings("deprecation")
    private static List<BackupRecord> columnByColumn(byte[] object) throws Exception {
        ParquetReadOptions options = ParquetReadOptions.builder(new PlainParquetConfiguration()).usePageChecksumVerification(true).build();
        try (ParquetFileReader reader = ParquetFileReader.open(new InMemoryInputFile(object), options)) {
            MessageType projection = ParquetEnvelopeReadSupport.projection(reader.getFooter().getFileMetaData().getSchema());
            reader.setRequestedSchema(projection);
            EnvelopeRecordConverter converter = new EnvelopeRecordConverter(projection, ArrowSchemaFooter.payloadEncodings(
                    reader.getFooter().getFileMetaData().getKeyValueMetaData().get(ArrowSchemaFooter.KEY)));
            List<BackupRecord> out = new ArrayList<>();
            for (PageReadStore pages = reader.readNextRowGroup(); pages != null; pages = reader.readNextRowGroup()) {
                int rows = (int) pages.getRowCount();
                ColumnReadStoreImpl store = new ColumnReadStoreImpl(pages, converter, projection,
                        reader.getFooter().getFileMetaData().getCreatedBy());
                Columns c = new Columns(rows);
                for (ColumnDescriptor column : projection.getColumns()) {
                    c.read(column, store.getColumnReader(column), rows);
                }
                for (int i = 0; i < rows; i++) {
                    out.add(new BackupRecord(c.topics[i], c.partitions[i], c.offsets[i], c.timestamps[i], c.types[i], c.keys[i],
                            c.values[i], List.of()));
                }
            }
            return out;
        }
    }

    private static final class Columns {
        final String[] topics;
        final int[] partitions;
        final long[] offsets;
        final Long[] timestamps;
        final TimestampType[] types;
        final byte[][] keys;
        final byte[][] values;

        Columns(int rows) {
            topics = new String[rows];
            partitions = new int[rows];
            offsets = new long[rows];
            timestamps = new Long[rows];
            types = new TimestampType[rows];
            keys = new byte[rows][];
            values = new byte[rows][];
        }

        void read(ColumnDescriptor column, ColumnReader r, int rows) {
            int present = column.getMaxDefinitionLevel();
            switch (column.getPath()[0]) {
                case EnvelopeSchema.TOPIC -> strings(r, rows, topics, s -> s);
                case EnvelopeSchema.TIMESTAMP_TYPE -> strings(r, rows, types, TimestampType::fromStored);
                case EnvelopeSchema.PARTITION -> {
                    for (int i = 0; i < rows; i++, r.consume()) {
                        partitions[i] = r.getInteger();
                    }
                }
                case EnvelopeSchema.OFFSET -> {
                    for (int i = 0; i < rows; i++, r.consume()) {
                        offsets[i] = r.getLong();
                    }
                }
                case EnvelopeSchema.TIMESTAMP_MS -> {
                    for (int i = 0; i < rows; i++, r.consume()) {
                        timestamps[i] = r.getCurrentDefinitionLevel() == present ? r.getLong() : null;
                    }
                }
                case EnvelopeSchema.KEY, EnvelopeSchema.VALUE -> {
                    byte[][] to = column.getPath()[0].equals(EnvelopeSchema.KEY) ? keys : values;
                    for (int i = 0; i < rows; i++, r.consume()) {
                        to[i] = r.getCurrentDefinitionLevel() == present ? r.getBinary().getBytes() : null;
                    }
                }
                default -> { // headers: none in these objects, one empty list per row
                    for (long i = r.getTotalValueCount(); i > 0; i--) {
                        r.consume();
                    }
                }
            }
        }

        /** A dictionary-encoded string column: each distinct value decoded once in a row. */
        private static <T> void strings(ColumnReader r, int rows, T[] to, java.util.function.Function<String, T> decode) {
            Binary last = null;
            T decoded = null;
            for (int i = 0; i < rows; i++, r.consume()) {
                Binary b = r.getBinary();
                if (!b.equals(last)) {
                    last = b.copy();
                    decoded = decode.apply(b.toStringUsingUTF8());
                }
                to[i] = decoded;
            }
        }
    }
}
