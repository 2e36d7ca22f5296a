package dev.mirrorv3.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** kkv-v1 notify as kafka-keyvalue does it, and the restart re-notification (cache-sidecar/README.md). */
class NotifyIT extends SidecarITSupport {

    private static final Duration WAIT = Duration.ofSeconds(10);

    private static String notifyYaml(String groupId, String targets, String statics, String extra) {
        return "group-id: " + groupId + "\nnotify:\n  targets: [" + targets + "]\n  static-targets: [" + statics
                + "]\n  linger-ms: 20\n  retry-backoff-ms: 100\n" + extra.indent(2);
    }

    @Test
    void checks14to16_exactPostOnlyForRealChanges_valueServedBeforePost() throws Exception {
        kafka.createTopic("n1", 1);
        produce("n1", 0, "old", "present-at-startup");
        RecordingTarget target = closeLater(RecordingTarget.onFreePort("127.0.0.1"));
        Sidecar s = sidecar("caches:\n" + cacheYaml("n1", "n1",
                "main: true\n" + notifyYaml("g-n1", target.url(), "", "")));
        SidecarClient c = awaitReady(s);
        // check 15's second half: when the POST arrives, the new value is already served with offset >= notified
        target.hook = body -> {
            var r = c.get("/cache/v1/raw/K");
            return new String(r.body()) + "|" + r.headers().firstValue("x-kkv-last-seen-offsets").orElse("");
        };
        RecordMetadata m = produce("n1", 0, "K", "v2");
        RecordingTarget.Received r = target.next(WAIT);
        // check 14: the record present at startup was not notified (this is the first POST)
        assertThat(r.method()).isEqualTo("POST");
        assertThat(r.path()).isEqualTo("/kafka-keyvalue/v1/updates");
        assertThat(r.header("Content-Type")).isEqualTo("application/json");
        assertThat(r.header("x-kkv-topic")).isEqualTo("n1");
        assertThat(r.header("x-kkv-offsets")).isEqualTo("{\"0\":" + m.offset() + "}");
        assertThat(r.body()).isEqualTo("{\"v\":1,\"topic\":\"n1\",\"offsets\":{\"0\":" + m.offset()
                + "},\"updates\":{\"K\":{}}}");
        String observed = (String) r.observed();
        assertThat(observed).startsWith("v2|");
        JsonNode hdr = RecordingTarget.JSON.readTree(observed.substring(3));
        assertThat(hdr.get(0).get("offset").asLong()).isGreaterThanOrEqualTo(m.offset());

        // check 16: same value again, a null key, and a tombstone of an unknown key: no POST. A sentinel proves it.
        target.hook = body -> null;
        produce("n1", 0, "K", "v2");
        produce("n1", 0, (String) null, "x");
        produce("n1", 0, "never-seen", null);
        RecordMetadata sentinel = produce("n1", 0, "sentinel", "1");
        RecordingTarget.Received next = target.next(WAIT);
        assertThat(next.keys()).containsExactly("sentinel");
        assertThat(next.header("x-kkv-offsets")).isEqualTo("{\"0\":" + sentinel.offset() + "}");

        // a tombstone of a known key is notified (kkv does), and /raw then answers 404
        produce("n1", 0, "K", null);
        assertThat(target.next(WAIT).keys()).containsExactly("K");
        assertThat(c.status("/cache/v1/raw/K")).isEqualTo(404);
    }

    @Test
    void check17_burst_everyKeyWithinBound_maxOffsetPerPartition_bodiesBelow100KB() throws Exception {
        kafka.createTopic("n17", 2);
        RecordingTarget target = closeLater(RecordingTarget.onFreePort("127.0.0.1"));
        Sidecar s = sidecar("caches:\n" + cacheYaml("n17", "n17",
                "main: true\n" + notifyYaml("g-n17", target.url(), "", "max-batch-bytes: 2048")));
        awaitReady(s);
        List<Future<RecordMetadata>> fs = new ArrayList<>();
        Map<Integer, Long> maxOffset = new HashMap<>();
        String pad = "k".repeat(60);
        for (int i = 0; i < 1000; i++) {
            fs.add(producer.send(new ProducerRecord<>("n17", i % 2, utf8(pad + (i % 50)), utf8("v" + i))));
        }
        produceAll(fs);
        for (Future<RecordMetadata> f : fs) {
            RecordMetadata md = f.get();
            maxOffset.merge(md.partition(), md.offset(), Math::max);
        }
        Set<String> seen = new HashSet<>();
        Map<Integer, Long> notifiedMax = new HashMap<>();
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        int posts = 0;
        while (seen.size() < 50 || !notifiedMax.equals(maxOffset)) {
            RecordingTarget.Received r = target.poll(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            assertThat(r).as("all 50 keys within 5 s; seen " + seen.size()).isNotNull();
            posts++;
            assertThat(r.body().length()).isLessThan(2048).isLessThan(100_000);
            seen.addAll(r.keys());
            r.json().get("offsets").properties().forEach(e ->
                    notifiedMax.merge(Integer.parseInt(e.getKey()), e.getValue().asLong(), Math::max));
        }
        assertThat(posts).isGreaterThan(1); // the 2 KB bound split the 50 keys of ~70 bytes
        assertThat(notifiedMax).isEqualTo(maxOffset);
    }

    @Test
    void check18_errorStatuses_keepServing_andLaterUpdatesArePosted() throws Exception {
        kafka.createTopic("n18", 1);
        RecordingTarget target = closeLater(RecordingTarget.onFreePort("127.0.0.1"));
        Sidecar s = sidecar("caches:\n" + cacheYaml("n18", "n18",
                "main: true\n" + notifyYaml("g-n18", target.url(), "", "retry-times: 1")));
        SidecarClient c = awaitReady(s);
        target.status.set(500);
        produce("n18", 0, "a", "1");
        assertThat(target.next(WAIT).keys()).containsExactly("a");
        assertThat(target.next(WAIT).keys()).containsExactly("a"); // one retry on 5xx
        target.status.set(404);
        produce("n18", 0, "b", "1");
        assertThat(target.next(WAIT).keys()).containsExactly("b"); // 4xx: skipped, no retry
        target.status.set(204);
        produce("n18", 0, "c", "1");
        assertThat(target.next(WAIT).keys()).containsExactly("c");
        assertThat(c.text("/cache/v1/raw/a")).isEqualTo("1");
        await().atMost(WAIT).untilAsserted(() -> assertThat(c.text("/q/metrics"))
                .contains("mirror_v3_notify_failed_total{cache=\"n18\",topic=\"n18\"} 1.0")
                .contains("mirror_v3_notify_skipped_total{cache=\"n18\",topic=\"n18\"} 1.0")
                .contains("mirror_v3_notify_delivered_total{cache=\"n18\",topic=\"n18\"} 1.0"));
    }

    @Test
    void check19_connectionRefused_retriedWithBackoff_deliveredOnceTargetIsBack() throws Exception {
        kafka.createTopic("n19", 1);
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Sidecar s = sidecar("caches:\n" + cacheYaml("n19", "n19", "main: true\n" + notifyYaml("g-n19",
                "http://127.0.0.1:" + port + "/kafka-keyvalue/v1/updates", "", "retry-times: 6")));
        SidecarClient c = awaitReady(s);
        produce("n19", 0, "a", "1");
        await().atMost(WAIT).until(() -> c.text("/q/metrics").lines()
                .filter(l -> l.startsWith("mirror_v3_notify_retries_total{cache=\"n19\""))
                .anyMatch(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)) >= 2));
        assertThat(c.text("/cache/v1/raw/a")).isEqualTo("1"); // reads unaffected
        RecordingTarget target = closeLater(new RecordingTarget("127.0.0.1", port));
        assertThat(target.next(WAIT).keys()).containsExactly("a");
        produce("n19", 0, "b", "1");
        assertThat(target.next(WAIT).keys()).containsExactly("b");
    }

    @Test
    void check20_everyResolvedAddressAndTheStaticUrlGetEveryPost() throws Exception {
        kafka.createTopic("n20", 1);
        // test-hosts (jdk.net.hosts.file) resolves targets.kkv.test to 127.0.0.2 and 127.0.0.3
        RecordingTarget a = closeLater(RecordingTarget.onFreePort("127.0.0.2"));
        int port = a.port();
        RecordingTarget b = closeLater(new RecordingTarget("127.0.0.3", port));
        RecordingTarget st = closeLater(RecordingTarget.onFreePort("127.0.0.4"));
        Sidecar s = sidecar("caches:\n" + cacheYaml("n20", "n20", "main: true\n" + notifyYaml("g-n20",
                "http://targets.kkv.test:" + port + "/kafka-keyvalue/v1/updates",
                "http://other.kkv.test:" + st.port() + "/kafka-keyvalue/v1/updates", "")));
        awaitReady(s);
        produce("n20", 0, "k1", "1");
        for (RecordingTarget t : List.of(a, b, st)) {
            assertThat(t.next(WAIT).keys()).containsExactly("k1");
        }
        produce("n20", 0, "k2", "1");
        for (RecordingTarget t : List.of(a, b, st)) {
            assertThat(t.next(WAIT).keys()).containsExactly("k2");
        }
    }

    /**
     * What stands in for kafka-keyvalue's catch-up POST (cache-sidecar/README.md, "Notifications to pods that are not ready yet"): with
     * the targets' headless Service publishing not-ready addresses, a starting pod is resolved from its first moment;
     * a change made after its first read of the cache is retried to it until its server listens, so it misses none,
     * while the ready pod gets the change at once and only once.
     */
    @Test
    void startingPodInTheHeadlessService_getsTheChangesMadeAfterItsFirstRead_onceItListens() throws Exception {
        kafka.createTopic("nstart", 1);
        produce("nstart", 0, "k0", "0");
        // test-hosts resolves targets.kkv.test to 127.0.0.2 (a ready pod) and 127.0.0.3 (a pod still starting)
        RecordingTarget ready = closeLater(RecordingTarget.onFreePort("127.0.0.2"));
        int port = ready.port();
        Sidecar s = sidecar("caches:\n" + cacheYaml("nstart", "nstart", "main: true\n" + notifyYaml("g-nstart",
                "http://targets.kkv.test:" + port + "/kafka-keyvalue/v1/updates", "", "retry-times: 8")));
        SidecarClient c = awaitReady(s);
        // the starting pod reads the cache (the kkv client's first read), then a change comes before it listens
        assertThat(c.text("/cache/v1/values")).isEqualTo("0\n");
        produce("nstart", 0, "k1", "1");
        assertThat(ready.next(WAIT).keys()).containsExactly("k1");
        await().atMost(WAIT).until(() -> c.text("/q/metrics").lines()
                .filter(l -> l.startsWith("mirror_v3_notify_retries_total{cache=\"nstart\""))
                .anyMatch(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)) >= 1));
        RecordingTarget starting = closeLater(new RecordingTarget("127.0.0.3", port));
        assertThat(starting.next(WAIT).keys()).containsExactly("k1");
        produce("nstart", 0, "k2", "2");
        assertThat(starting.next(WAIT).keys()).containsExactly("k2");
        assertThat(ready.next(WAIT).keys()).as("the ready pod got k1 once, then k2").containsExactly("k2");
    }

    @Test
    void check21_restart_notifiesWhatWasNotNotified_notWhatWas() throws Exception {
        kafka.createTopic("n21", 1);
        RecordingTarget target = closeLater(RecordingTarget.onFreePort("127.0.0.1"));
        String group = "g-n21";
        String cache = "caches:\n" + cacheYaml("n21", "n21", "main: true\n" + notifyYaml(group, target.url(), "",
                "%LINGER%"));
        // 1: a change is notified and its offset committed
        Sidecar s1 = sidecar("shutdown: {deadline-ms: 5000}\n" + cache.replace("%LINGER%", ""));
        awaitReady(s1);
        RecordMetadata y = produce("n21", 0, "notified", "1");
        assertThat(target.next(WAIT).keys()).containsExactly("notified");
        awaitCommitted(group, "n21", y.offset() + 1);
        s1.requestShutdown(0);
        s1.awaitExit(WAIT);
        // 2: a change is consumed and served, but the process stops before notifying it
        Sidecar s2 = sidecar("shutdown: {deadline-ms: 0}\n" + cache.replace("%LINGER%", "")
                .replace("linger-ms: 20", "linger-ms: 60000"));
        SidecarClient c2 = awaitReady(s2);
        produce("n21", 0, "missed", "1");
        await().atMost(WAIT).until(() -> c2.status("/cache/v1/raw/missed") == 200);
        s2.requestShutdown(0);
        s2.awaitExit(WAIT);
        // s2 has exited, so nothing more can be sent; the window lets a request it sent before exiting reach the target
        // (on a loaded 2-core machine the target's handler may take a while), so that "not notified" means something.
        assertThat(target.poll(Duration.ofSeconds(3))).as("s2 notified the change it stopped before notifying").isNull();
        // 3: after a restart with the same group it is notified once caught up; the notified one is not
        Sidecar s3 = sidecar(cache.replace("%LINGER%", ""));
        awaitReady(s3);
        assertThat(target.next(WAIT).keys()).containsExactly("missed");
        RecordMetadata z = produce("n21", 0, "after", "1");
        assertThat(target.next(WAIT).keys()).containsExactly("after");
        awaitCommitted(group, "n21", z.offset() + 1);
    }

    @Test
    void offsetResetEarliest_notifiesTheReplayedChangesOnceCaughtUp() throws Exception {
        kafka.createTopic("nearly", 1);
        produce("nearly", 0, "a", "1");
        produce("nearly", 0, "b", "1");
        produce("nearly", 0, "a", "2");
        RecordingTarget target = closeLater(RecordingTarget.onFreePort("127.0.0.1"));
        Sidecar s = sidecar("caches:\n" + cacheYaml("nearly", "nearly", "offset-reset: earliest\n"
                + notifyYaml("g-nearly", target.url(), "", "")));
        awaitReady(s);
        RecordingTarget.Received r = target.next(WAIT);
        assertThat(r.keys()).containsExactlyInAnyOrder("a", "b");
        assertThat(r.header("x-kkv-offsets")).isEqualTo("{\"0\":2}");
    }

    @Test
    void onFailureExit_endsTheProcessWithCode1() throws Exception {
        kafka.createTopic("nexit", 1);
        RecordingTarget target = closeLater(RecordingTarget.onFreePort("127.0.0.1"));
        target.status.set(503);
        Sidecar s = sidecar("caches:\n" + cacheYaml("nexit", "nexit", notifyYaml("g-nexit", target.url(), "",
                "retry-times: 1\non-failure: exit")));
        awaitReady(s);
        produce("nexit", 0, "a", "1");
        assertThat(s.awaitExit(WAIT)).isEqualTo(1);
    }

    private static void awaitCommitted(String group, String topic, long offset) {
        await().atMost(WAIT).until(() -> {
            Map<TopicPartition, OffsetAndMetadata> m = kafka.admin().listConsumerGroupOffsets(group)
                    .partitionsToOffsetAndMetadata().get();
            OffsetAndMetadata o = m.get(new TopicPartition(topic, 0));
            return o != null && o.offset() >= offset;
        });
    }
}
