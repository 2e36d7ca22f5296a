package dev.mirrorv3.chain.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A small object (100 records of 100 B, what each of thousands of partitions flushes) costs what it holds, not a page
 * buffer: Parquet's own ZSTD compressor allocated one of the page size (1 MiB) per object and wrote through a stream
 * with a finalizer, which kept that buffer reachable until the finalizer thread ran: a task writing thousands of small
 * objects held hundreds of them alive after a full collection. Measured by the thread's allocated bytes
 * (com.sun.management.ThreadMXBean), which no collector timing can change.
 */
class ParquetSmallObjectAllocationTest {

    @Test
    void encodingASmallZstdObjectAllocatesFarLessThanAPageSizedBuffer() {
        EnvelopeCodec codec = EnvelopeCodecs.forSettings(EnvelopeSettings.parquetBytes());
        List<BackupRecord> records = Samples.bulk(100, 100, false);
        for (int i = 0; i < 20; i++) {
            codec.encode(records); // warm: class loading and one-time buffers out of the figure
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        int objects = 50;
        long encoded = 0;
        for (int i = 0; i < objects; i++) {
            encoded += codec.encode(records).length;
        }
        long perObject = (threads.getCurrentThreadAllocatedBytes() - before) / objects;
        System.out.printf("a ZSTD object of 100 records x 100 B: %d bytes encoded, %d bytes allocated to encode it%n",
                encoded / objects, perObject);
        assertThat(perObject).as("bytes allocated to encode one small object (the page size is 1 MiB)").isLessThan(512 * 1024);
    }
}
