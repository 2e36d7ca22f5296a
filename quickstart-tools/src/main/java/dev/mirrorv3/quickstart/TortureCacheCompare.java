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
        Usage.exactly(args, 5, "TortureCacheCompare <bootstrap> <topic> <sidecar base URL> <notify log> <timeout s>");
        String topic = args[1];
        String base = args[2];
        long deadline = System.nanoTime() + Duration.ofSeconds(Long.parseLong(args[4])).toNanos();
        Map<Integer, List<CacheExpectation.Entry>> partitions = read(args[0], topic);
        CacheExpectation expected = new CacheExpectation(partitions);

        waitCaughtUp(base, topic, expected.lastOffsets(), deadline);

        Findings findings = new Findings();
        checkServed(base, expected, findings);
        Set<String> listed = checkListed(base, expected, findings);
        Notified notified = awaitNotified(Path.of(args[3]), expected, deadline);
        findings.missing += notified.unnotified().size();
        notified.unnotified().stream().limit(5).forEach(c -> findings.example("change of key " + c.key() + " at " + topic + "-"
                + c.partition() + " offset " + c.offset() + " was never notified"));
        long records = partitions.values().stream().mapToLong(List::size).sum();
        long keyNotifications = notified.batches().stream().mapToLong(b -> b.keys().size()).sum();
        System.out.println("RESULT records=" + records + " missing=" + findings.missing + " duplicated=0 differing="
                + findings.differing + " gaps=0 overlaps=0");
        System.out.println("  served: " + expected.everSeen().size() + " keys checked over GET /cache/v1/raw/{key} ("
                + expected.latest().size() + " live, " + (expected.everSeen().size() - expected.latest().size()) + " deleted), "
                + listed.size() + " listed by GET /cache/v1/keys");
        System.out.println("  notified: " + (expected.changes().size() - notified.unnotified().size()) + " of "
                + expected.changes().size() + " changes, in " + notified.batches().size() + " batches naming " + keyNotifications
                + " keys (re-notifications after a restart included)");
        findings.examples.forEach(e -> System.out.println("  " + e));
        System.exit(findings.missing == 0 && findings.differing == 0 ? 0 : 1);
    }

    /** What the check found wrong: counts, and the first ten examples. */
    private static final class Findings {
        private final List<String> examples = new ArrayList<>();
        private int missing;
        private int differing;

        void example(String e) {
            if (examples.size() < 10) {
                examples.add(e);
            }
        }
    }

    /** The notifications the receiver logged, and the changes none of them covers. */
    private record Notified(List<CacheExpectation.Batch> batches, List<CacheExpectation.Change> unnotified) {
    }

    /** The topic's records (read_committed) per partition. */
    private static Map<Integer, List<CacheExpectation.Entry>> read(String bootstrap, String topic) throws Exception {
        Map<Integer, List<CacheExpectation.Entry>> partitions = new TreeMap<>();
        for (Map.Entry<Integer, List<ConsumerRecord<byte[], byte[]>>> e : TopicReader.readAll(bootstrap, topic).entrySet()) {
            List<CacheExpectation.Entry> list = new ArrayList<>();
            for (ConsumerRecord<byte[], byte[]> r : e.getValue()) {
                list.add(new CacheExpectation.Entry(r.partition(), r.offset(), r.key(), r.value()));
            }
            partitions.put(e.getKey(), list);
        }
        return partitions;
    }

    /** Every key the topic ever held over {@code GET /cache/v1/raw/{key}}: its latest value, or 404 when deleted. */
    private static void checkServed(String base, CacheExpectation expected, Findings findings) throws Exception {
        for (String key : expected.everSeen()) {
            HttpResponse<byte[]> r = get(base + "/cache/v1/raw/" + URLEncoder.encode(key, StandardCharsets.UTF_8).replace("+", "%20"));
            byte[] want = expected.latest().get(key);
            if (want != null && r.statusCode() == 404) {
                findings.missing++;
                findings.example("key " + key + ": not served (404), the topic's latest value has " + want.length + " bytes");
            } else if (want == null && r.statusCode() != 404) {
                findings.differing++;
                findings.example("key " + key + ": deleted in the topic, served with HTTP " + r.statusCode());
            } else if (want != null && (r.statusCode() != 200 || !Arrays.equals(want, r.body()))) {
                findings.differing++;
                findings.example("key " + key + ": HTTP " + r.statusCode() + " with " + r.body().length
                        + " bytes, not the topic's latest value (" + want.length + " bytes)");
            }
        }
    }

    /** {@code GET /cache/v1/keys} lists exactly the live keys; returns what it listed. */
    private static Set<String> checkListed(String base, CacheExpectation expected, Findings findings) throws Exception {
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
        findings.differing += extra.size();
        findings.missing += unlisted.size();
        extra.stream().limit(3).forEach(k -> findings.example("GET /cache/v1/keys lists " + k + ", which the topic does not hold"));
        unlisted.stream().limit(3).forEach(k -> findings.example("GET /cache/v1/keys does not list " + k));
        return listed;
    }

    /** Reads the receiver's log until every change is notified or the deadline passes. */
    private static Notified awaitNotified(Path log, CacheExpectation expected, long deadline) throws Exception {
        while (true) {
            List<CacheExpectation.Batch> batches = batches(log);
            List<CacheExpectation.Change> unnotified = expected.unnotified(batches);
            if (unnotified.isEmpty() || System.nanoTime() > deadline) {
                return new Notified(batches, unnotified);
            }
            Thread.sleep(500);
        }
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
            body.path("offsets").properties().forEach(f -> offsets.put(Integer.parseInt(f.getKey()), f.getValue().asLong()));
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
}
