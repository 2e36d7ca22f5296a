package dev.mirrorv3.cache.bench;

import dev.mirrorv3.testsupport.EmbeddedKafka;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * For bench/cache-sidecar: starts a broker, writes {@code N} records (key {@code key-<i>}, a ~100-byte JSON value)
 * to topic {@code bench}, prints {@code PAYLOAD=<bytes>} (the keys' and values' bytes it wrote, every key once: what a
 * cache of the topic holds, counted here rather than by the sidecar) and {@code BOOTSTRAP=<servers>}, and runs until
 * its standard input closes.
 */
public final class BenchKafka {

    private BenchKafka() {
    }

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        try (EmbeddedKafka kafka = EmbeddedKafka.start(Map.of("log.segment.bytes", String.valueOf(256 << 20)))) {
            kafka.createTopic("bench", 1);
            long t0 = System.nanoTime();
            long payload = 0;
            Map<String, Object> props = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                    ProducerConfig.LINGER_MS_CONFIG, 20, ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024,
                    ProducerConfig.COMPRESSION_TYPE_CONFIG, "none", ProducerConfig.ACKS_CONFIG, "1");
            try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(props, new ByteArraySerializer(),
                    new ByteArraySerializer())) {
                String pad = "x".repeat(60);
                for (int i = 0; i < n; i++) {
                    byte[] v = ("{\"id\":" + i + ",\"name\":\"user-" + i + "\",\"pad\":\"" + pad + "\"}")
                            .getBytes(StandardCharsets.UTF_8);
                    byte[] k = ("key-" + i).getBytes(StandardCharsets.UTF_8);
                    payload += k.length + v.length;
                    p.send(new ProducerRecord<>("bench", 0, k, v));
                }
                p.flush();
            }
            System.out.printf("LOADED=%d records in %.1f s%n", n, (System.nanoTime() - t0) / 1e9);
            System.out.println("PAYLOAD=" + payload);
            System.out.println("BOOTSTRAP=" + kafka.bootstrapServers());
            System.out.flush();
            try {
                while (System.in.read() >= 0) {
                    // wait for EOF
                }
            } catch (IOException e) {
                // stdin gone: stop
            }
        }
    }
}
