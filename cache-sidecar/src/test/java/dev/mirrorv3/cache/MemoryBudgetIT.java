package dev.mirrorv3.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.Test;

/** The memory budget once a cache is ready: readiness stays sticky, but says why, and the sidecar exits with 1. */
class MemoryBudgetIT extends SidecarITSupport {

    @Test
    void readyCacheGrowingPastTheBudget_staysReadyWithTheMessage_thenExits1() throws Exception {
        kafka.createTopic("grows", 1);
        produce("grows", 0, "first", "1");
        Sidecar s = sidecar("memory: {max-bytes: 4Mi, exceeded-exit-after-ms: 1500}\ncaches:\n"
                + cacheYaml("g", "grows", "main: true"));
        SidecarClient c = awaitReady(s);
        assertThat(c.text("/q/metrics")).contains("mirror_v3_cache_memory_budget_bytes 4194304",
                "mirror_v3_cache_memory_budget_exceeded{cache=\"g\",topic=\"grows\"} 0");
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        // 8 MB for a budget of 4 MiB: three of the store's 1 MiB pages (PageTable) fit, a fourth does not
        for (int i = 0; i < 8000; i++) {
            sent.add(producer.send(new ProducerRecord<>("grows", 0, utf8("key-" + i), new byte[1000])));
        }
        produceAll(sent);
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                .until(() -> c.text("/q/health/ready").contains("memory_budget_exceeded"));
        long seenAt = System.nanoTime();
        var ready = c.get("/q/health/ready");
        String body = new String(ready.body(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(ready.statusCode()).as("readiness stays sticky once ready").isEqualTo(200);
        assertThat(body).contains("\"unhealthy\":[{\"name\":\"g\",\"reason\":\"memory_budget_exceeded\","
                + "\"message\":\"cache g exceeds memory.max-bytes: ", " of the 4194304 bytes budget (memory.max-bytes)");
        assertThat(c.text("/q/metrics"))
                .contains("mirror_v3_cache_memory_budget_exceeded{cache=\"g\",topic=\"grows\"} 1");
        assertThat(c.text("/cache/v1/raw/first")).isEqualTo("1"); // still serving what it holds
        Cache cache = s.caches().get(0);
        assertThat(cache.store().footprint()).isLessThanOrEqualTo(4 << 20);
        assertThat(s.awaitExit(Duration.ofSeconds(30))).isEqualTo(1);
        assertThat((System.nanoTime() - seenAt) / 1_000_000).isLessThan(1500 + 10_000);
    }
}
