package dev.mirrorv3.quickstart;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The torture suite's final check of the cache sidecar scenario: the topic (read_committed) against what the sidecar
 * serves and what it notified ({@link CacheExpectation}). Waits until the sidecar has consumed every partition's last
 * record ({@code GET /cache/v1/offset/{topic}/{partition}}), then:
 * <ul>
 *   <li>every key the topic ever held, over {@code GET /cache/v1/raw/{key}}: its latest value byte for byte, or 404
 *   when it was deleted; and {@code GET /cache/v1/keys} lists exactly the live keys;</li>
 *   <li>every change is covered by a notification the receiver logged ({@link TortureNotifyReceiver}), waiting for the
 *   last batches until the deadline.</li>
 * </ul>
 * Prints {@code RESULT records=… missing=… duplicated=0 differing=… gaps=0 overlaps=0} (missing: live keys not served
 * and changes never notified; differing: keys served with another value, or served though deleted), with details.
 *
 * <p>Usage: {@code TortureCacheCompare <bootstrap> <topic> <sidecar base URL> <notify log> <timeout s>}
 */
public final class TortureCacheCompare {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private TortureCacheCompare() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            System.err.println("usage: TortureCacheCompare <bootstrap> <topic> <sidecar base URL> <notify log> <timeout s>");
            System.exit(2);
        }
        String topic = args[1];
        String base = args[2];
        Path log = Path.of(args[3]);
        long deadline = System.nanoTime() + Duration.ofSeconds(Long.parseLong(args[4])).toNanos();
        Map<Integer, List<CacheExpectation.Entry>> partitions = new TreeMap<>();
        long records = 0;
        for (Map.Entry<Integer, List<ConsumerRecord<byte[], byte[]>>> e : TopicReader.readAll(args[0], topic).entrySet()) {
            List<CacheExpectation.Entry> list = new ArrayList<>();
            for (ConsumerRecord<byte[], byte[]> r : e.getValue()) {
                list.add(new CacheExpectation.Entry(r.partition(), r.offset(), r.key(), r.value()));
            }
            records += list.size();
            partitions.put(e.getKey(), list);
        }
        CacheExpectation expected = new CacheExpectation(partitions);

        waitCaughtUp(base, topic, expected.lastOffsets(), deadline);

        int missing = 0;
        int differing = 0;
        List<String> examples = new ArrayList<>();
        for (String key : expected.everSeen()) {
            HttpResponse<byte[]> r = get(base + "/cache/v1/raw/" + URLEncoder.encode(key, StandardCharsets.UTF_8).replace("+", "%20"));
            byte[] want = expected.latest().get(key);
            if (want != null && r.statusCode() == 404) {
                missing++;
                example(examples, "key " + key + ": not served (404), the topic's latest value has " + want.length + " bytes");
            } else if (want == null && r.statusCode() != 404) {
                differing++;
                example(examples, "key " + key + ": deleted in the topic, served with HTTP " + r.statusCode());
            } else if (want != null && (r.statusCode() != 200 || !Arrays.equals(want, r.body()))) {
                differing++;
                example(examples, "key " + key + ": HTTP " + r.statusCode() + " with " + r.body().length + " bytes, not the topic's latest"
                        + " value (" + want.length + " bytes)");
            }
        }
        Set<String> listed = new HashSet<>();
        for (String k : new String(get(base + "/cache/v1/keys").body(), StandardCharsets.UTF_8).split("\n")) {
            if (!k.isEmpty()) {
                listed.add(k);
            }
        }
        Set<String> extra = new HashSet<>(listed);
        extra.removeAll(expected.latest().keySet());
        Set<String> unlisted = new HashSet<>(expected.latest().keySet());
        unlisted.removeAll(listed);
        differing += extra.size();
        missing += unlisted.size();
        extra.stream().limit(3).forEach(k -> example(examples, "GET /cache/v1/keys lists " + k + ", which the topic does not hold"));
        unlisted.stream().limit(3).forEach(k -> example(examples, "GET /cache/v1/keys does not list " + k));

        List<CacheExpectation.Batch> batches;
        List<CacheExpectation.Change> unnotified;
        while (true) {
            batches = batches(log);
            unnotified = expected.unnotified(batches);
            if (unnotified.isEmpty() || System.nanoTime() > deadline) {
                break;
            }
            Thread.sleep(500);
        }
        missing += unnotified.size();
        unnotified.stream().limit(5).forEach(c -> example(examples, "change of key " + c.key() + " at " + topic + "-" + c.partition()
                + " offset " + c.offset() + " was never notified"));
        long keyNotifications = batches.stream().mapToLong(b -> b.keys().size()).sum();
        System.out.println("RESULT records=" + records + " missing=" + missing + " duplicated=0 differing=" + differing
                + " gaps=0 overlaps=0");
        System.out.println("  served: " + expected.everSeen().size() + " keys checked over GET /cache/v1/raw/{key} ("
                + expected.latest().size() + " live, " + (expected.everSeen().size() - expected.latest().size()) + " deleted), "
                + listed.size() + " listed by GET /cache/v1/keys");
        System.out.println("  notified: " + (expected.changes().size() - unnotified.size()) + " of " + expected.changes().size()
                + " changes, in " + batches.size() + " batches naming " + keyNotifications + " keys (re-notifications after a"
                + " restart included)");
        examples.forEach(e -> System.out.println("  " + e));
        System.exit(missing == 0 && differing == 0 ? 0 : 1);
    }

    private static void waitCaughtUp(String base, String topic, Map<Integer, Long> last, long deadline) throws Exception {
        Map<Integer, Long> at = new TreeMap<>();
        while (true) {
            boolean done = true;
            for (Map.Entry<Integer, Long> e : last.entrySet()) {
                HttpResponse<byte[]> r = get(base + "/cache/v1/offset/" + topic + "/" + e.getKey());
                long o = r.statusCode() == 200 ? Long.parseLong(new String(r.body(), StandardCharsets.UTF_8).trim()) : -1;
                at.put(e.getKey(), o);
                done &= o >= e.getValue();
            }
            if (done) {
                return;
            }
            if (System.nanoTime() > deadline) {
                System.out.println("the sidecar at " + base + " did not consume " + topic + " to its last records " + last
                        + " before the deadline: it is at " + at);
                System.exit(1);
            }
            Thread.sleep(500);
        }
    }

    /** The receiver's log: one kkv-v1 body per line. */
    static List<CacheExpectation.Batch> batches(Path log) throws IOException {
        List<CacheExpectation.Batch> out = new ArrayList<>();
        if (!Files.exists(log)) {
            return out;
        }
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            JsonNode body;
            try {
                body = JSON.readTree(line);
            } catch (IOException partialLastLine) {
                continue; // the receiver is writing it
            }
            Map<Integer, Long> offsets = new HashMap<>();
            body.path("offsets").fields().forEachRemaining(f -> offsets.put(Integer.parseInt(f.getKey()), f.getValue().asLong()));
            Set<String> keys = new HashSet<>();
            body.path("updates").fieldNames().forEachRemaining(keys::add);
            out.add(new CacheExpectation.Batch(keys, offsets));
        }
        return out;
    }

    private static HttpResponse<byte[]> get(String url) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).GET().build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray());
    }

    private static void example(List<String> examples, String e) {
        if (examples.size() < 10) {
            examples.add(e);
        }
    }
}
