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
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Checks the cache sidecar against the topic: reads the topic to its end (with a deadline), and requires
 * {@code GET /cache/v1/raw/{key}} to answer each key's latest value, byte for byte, with the
 * {@code x-kkv-last-seen-offsets} header. Every key is checked up to {@value #MAX_KEYS} keys (the demo topic has far
 * fewer); beyond that an evenly spread sample of that many, and the output says so. Exit 0 when every checked key
 * matches. Usage: SidecarCheck <bootstrap servers> <topic> <sidecar base URL>
 */
public final class SidecarCheck {
    static final int MAX_KEYS = 20_000;

    private SidecarCheck() {
    }

    public static void main(String[] args) throws Exception {
        Usage.exactly(args, 3, "SidecarCheck <bootstrap servers> <topic> <sidecar base URL>");
        Map<String, byte[]> latest = latestValues(TopicReader.readAll(args[0], args[1]));
        if (latest.isEmpty()) {
            System.out.println(args[1] + " holds no key with a value: nothing to check  FAILED");
            System.exit(1);
        }
        List<String> keys = latest.keySet().stream().sorted().toList();
        int step = Math.max(1, (keys.size() + MAX_KEYS - 1) / MAX_KEYS);
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        int checked = 0;
        for (int i = 0; i < keys.size(); i += step) {
            String key = keys.get(i);
            HttpRequest request = HttpRequest.newBuilder(URI.create(args[2] + "/cache/v1/raw/"
                    + URLEncoder.encode(key, StandardCharsets.UTF_8)))
                    .timeout(Duration.ofSeconds(10)).GET().build();
            HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            boolean ok = response.statusCode() == 200 && Arrays.equals(response.body(), latest.get(key))
                    && response.headers().firstValue("x-kkv-last-seen-offsets").isPresent();
            if (!ok) {
                System.out.println("GET /cache/v1/raw/" + key + " -> " + response.statusCode() + ", " + response.body().length + " bytes,"
                        + " x-kkv-last-seen-offsets " + response.headers().firstValue("x-kkv-last-seen-offsets").orElse("(missing)")
                        + ": NOT the key's latest value in the topic (" + latest.get(key).length + " bytes)");
                System.exit(1);
            }
            checked++;
        }
        System.out.println("GET /cache/v1/raw/{key} for " + (checked == keys.size() ? "every one of the " + keys.size() + " keys"
                : checked + " of the " + keys.size() + " keys (every " + step + "th)") + " of " + args[1]
                + ": each answers the key's latest value in the topic  OK");
        System.exit(0);
    }

    /** Each key's latest value; a tombstone removes the key (the sidecar answers 404 for it). */
    private static Map<String, byte[]> latestValues(Map<Integer, List<ConsumerRecord<byte[], byte[]>>> topic) {
        Map<String, byte[]> latest = new HashMap<>();
        for (List<ConsumerRecord<byte[], byte[]>> partition : topic.values()) {
            for (ConsumerRecord<byte[], byte[]> r : partition) {
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
        return latest;
    }
}
