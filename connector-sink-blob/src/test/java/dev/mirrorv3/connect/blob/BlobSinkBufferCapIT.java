package dev.mirrorv3.connect.blob;

import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.assertChainEquals;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.assertContiguous;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.awaitChainNext;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.chain;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.consumeAll;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.nextAfterLast;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.producer;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.readChain;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.sinkConfig;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.testsupport.OneWorkerTestBase;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * 100 busy partitions: the task-wide buffer cap bounds buffered bytes (read from the task's plugin-metrics gauge
 * through JMX while records flow) and flushes the largest buffers early. Every partition's chain is then compared with
 * the source record by record: the cap starts each partition's objects at its own moments, so a record lost or doubled
 * at one partition's early flush shows only in that partition.
 */
class BlobSinkBufferCapIT extends OneWorkerTestBase {
    private static final EnvelopeSettings PARQUET = EnvelopeSettings.parquetBytes();
    private static final long CAP = 64 * 1024;
    private static final int PARTITIONS = 100;
    private static final int RECORDS_PER_PARTITION = 40;

    @Test
    void bufferedBytesNeverExceedTheCap() throws Exception {
        String topic = "busy";
        cluster.kafka().createTopic(topic, PARTITIONS);
        Map<String, String> config = sinkConfig(topic, root, cluster.bootstrapServers());
        config.put("flush.max.records", "1000000");
        config.put("flush.max.bytes", "100000000");
        config.put("flush.max.time.ms", "4000");
        config.put("buffer.max.bytes", Long.toString(CAP));
        cluster.deploy("cap", config);
        cluster.awaitRunning("cap", Duration.ofSeconds(60));

        MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
        ObjectName pattern = new ObjectName("kafka.connect:type=plugins,connector=cap,task=0,mirror=cap");
        Awaitility.await("the task's buffered-bytes gauge is registered").atMost(Duration.ofSeconds(30))
                .until(() -> !jmx.queryNames(pattern, null).isEmpty());
        ObjectName gauge = jmx.queryNames(pattern, null).iterator().next();
        AtomicLong max = new AtomicLong();
        AtomicLong samples = new AtomicLong();
        AtomicBoolean sampling = new AtomicBoolean(true);
        AtomicReference<Throwable> samplerFailure = new AtomicReference<>();
        Thread sampler = new Thread(() -> {
            while (sampling.get()) {
                try {
                    long v = ((Number) jmx.getAttribute(gauge, BlobSinkMetrics.BUFFERED_BYTES)).longValue();
                    max.accumulateAndGet(v, Math::max);
                    samples.incrementAndGet();
                    Thread.sleep(1);
                } catch (Exception e) {
                    samplerFailure.set(e); // e.g. the gauge unregistered while the task runs: fails the test below
                    return;
                }
            }
        });
        sampler.start();

        Random random = new Random(3);
        try (KafkaProducer<byte[], byte[]> producer = producer(cluster.bootstrapServers())) {
            for (int i = 0; i < RECORDS_PER_PARTITION; i++) {
                for (int p = 0; p < PARTITIONS; p++) {
                    producer.send(new ProducerRecord<>(topic, p, null, BlobSinkTestSupport.bytes(random, 500)));
                }
            }
        }
        Map<Integer, List<ConsumerRecord<byte[], byte[]>>> expected = consumeAll(cluster.bootstrapServers(), topic);
        assertThat(expected).as("records per partition in the source").hasSize(PARTITIONS)
                .allSatisfy((p, records) -> assertThat(records).as("partition %d", p).hasSize(RECORDS_PER_PARTITION));
        awaitChainNext(cluster, root, "cap", PARQUET, nextAfterLast(expected), Duration.ofSeconds(90));
        sampling.set(false);
        sampler.join();

        assertThat(samplerFailure.get()).as("the gauge sampler failed").isNull();
        assertThat(samples.get()).as("gauge samples taken while records flowed").isGreaterThan(100);
        assertThat(max.get()).as("largest buffered-bytes seen").isGreaterThan(0).isLessThanOrEqualTo(CAP);
        long objects = 0;
        for (int p = 0; p < PARTITIONS; p++) {
            objects += chain(root, "cap", p, PARQUET).objects().size();
        }
        // 2 MB through a 64 KiB cap: far more objects than one time-triggered flush per partition.
        assertThat(objects).as("objects written (cap-triggered flushes)").isGreaterThan(PARTITIONS + 20L);
        // Every partition, record by record: the cap flushes each partition's buffer early, at its own moments.
        for (int p = 0; p < PARTITIONS; p++) {
            assertChainEquals(expected.get(p), readChain(root, "cap", topic, p, PARQUET));
            assertContiguous(chain(root, "cap", p, PARQUET), 0);
        }
        cluster.delete("cap");
    }
}
