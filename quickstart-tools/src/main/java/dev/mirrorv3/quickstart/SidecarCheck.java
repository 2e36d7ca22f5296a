package dev.mirrorv3.quickstart;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Checks the cache sidecar against the topic: reads the topic to its end, takes the latest value of one key,
 * and requires {@code GET /cache/v1/raw/{key}} to answer exactly those bytes. Exit 0 when it does.
 * Usage: SidecarCheck <bootstrap servers> <topic> <sidecar base URL>
 */
public final class SidecarCheck {
    private SidecarCheck() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: SidecarCheck <bootstrap servers> <topic> <sidecar base URL>");
            System.exit(2);
        }
        Map<String, byte[]> latest = latestValues(args[0], args[1]);
        String key = latest.keySet().stream().sorted().findFirst().orElseThrow(() -> new IllegalStateException("topic is empty"));
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest request = HttpRequest.newBuilder(URI.create(args[2] + "/cache/v1/raw/" + URLEncoder.encode(key, StandardCharsets.UTF_8)))
                .timeout(Duration.ofSeconds(10)).GET().build();
        HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        boolean ok = response.statusCode() == 200 && Arrays.equals(response.body(), latest.get(key))
                && response.headers().firstValue("x-kkv-last-seen-offsets").isPresent();
        System.out.println("GET /cache/v1/raw/" + key + " -> " + response.statusCode() + ", "
                + response.body().length + " bytes, x-kkv-last-seen-offsets "
                + response.headers().firstValue("x-kkv-last-seen-offsets").orElse("(missing)")
                + (ok ? ": the key's latest value in the topic  OK" : ": NOT the key's latest value in the topic"));
        System.exit(ok ? 0 : 1);
    }

    private static Map<String, byte[]> latestValues(String bootstrap, String topic) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        Map<String, byte[]> latest = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p)) {
            List<TopicPartition> tps = consumer.partitionsFor(topic).stream().map(i -> new TopicPartition(topic, i.partition())).toList();
            consumer.assign(tps);
            consumer.seekToBeginning(tps);
            Map<TopicPartition, Long> end = consumer.endOffsets(tps);
            while (tps.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    if (r.key() != null) {
                        String k = new String(r.key(), StandardCharsets.UTF_8);
                        if (r.value() == null) {
                            latest.remove(k);
                        } else {
                            latest.put(k, r.value());
                        }
                    }
                }
            }
        }
        return latest;
    }
}
