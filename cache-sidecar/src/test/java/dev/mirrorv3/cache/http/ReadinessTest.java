package dev.mirrorv3.cache.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.cache.Cache;
import dev.mirrorv3.cache.config.CacheConfig;
import dev.mirrorv3.cache.config.NotifyConfig;
import dev.mirrorv3.cache.store.MemoryBudget;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReadinessTest {

    private static Cache cache(String name) {
        return new Cache(new CacheConfig(name, false, "localhost:9092", name, List.of(), null, "latest", Map.of(),
                NotifyConfig.none()), MemoryBudget.unlimited());
    }

    @Test
    void gcOverloaded_unhealthyWithTheMessageForEveryCache() {
        String body = new String(Readiness.body(List.of(cache("users"), cache("orders")), "the JVM spent 27000 ms"),
                StandardCharsets.UTF_8);
        assertThat(body).startsWith("{\"ready\":\"unhealthy\"")
                .contains("{\"name\":\"users\",\"reason\":\"gc_time_exceeded\",\"message\":\"the JVM spent 27000 ms\"}",
                        "{\"name\":\"orders\",\"reason\":\"gc_time_exceeded\",\"message\":\"the JVM spent 27000 ms\"}");
    }

    @Test
    void withoutOverload_warmingAndNoUnhealthyEntry() {
        String body = new String(Readiness.body(List.of(cache("users")), null), StandardCharsets.UTF_8);
        assertThat(body).startsWith("{\"ready\":\"warming\"").endsWith("\"unhealthy\":[]}");
    }
}
