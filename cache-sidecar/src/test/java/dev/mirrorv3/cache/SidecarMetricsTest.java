package dev.mirrorv3.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.cache.store.MemoryBudget;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class SidecarMetricsTest {

    @Test
    void httpDurationsAreCountedPerRouteAndStatus() throws Exception {
        SidecarMetrics m = new SidecarMetrics(List.of(), MemoryBudget.unlimited(), () -> null);
        m.observeHttp("raw", 200, 50_000);
        m.observeHttp("raw", 200, 2_000_000_000L);
        m.observeHttp("raw", 404, 50_000);
        m.observeHttp("other", 404, 50_000);
        m.observeHttp("other", 99, 50_000); // outside 100-599: still counted
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        m.write(out);
        String text = out.toString(StandardCharsets.UTF_8);
        String name = "mirror_v3_cache_http_request_duration_seconds";
        assertThat(text).contains(name + "_count{route=\"raw\",status=\"200\"} 2")
                .contains(name + "_count{route=\"raw\",status=\"404\"} 1")
                .contains(name + "_count{route=\"other\",status=\"404\"} 1")
                .contains(name + "_count{route=\"other\",status=\"99\"} 1")
                .contains(name + "_bucket{route=\"raw\",status=\"200\",le=\"1.0\"} 1")
                .contains(name + "_bucket{route=\"raw\",status=\"200\",le=\"5.0\"} 2");
    }
}
