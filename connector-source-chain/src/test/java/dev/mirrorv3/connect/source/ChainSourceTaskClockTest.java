package dev.mirrorv3.connect.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.testsupport.LogCapture;
import dev.mirrorv3.testsupport.MutableClock;
import java.lang.reflect.Proxy;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chain source task decides by the clock it is given, not by wall time: the retry delay after a transient failure
 * and the heartbeat interval count on a {@link MutableClock} that the test moves by hand. The target cluster is a closed
 * port, so positioning fails (a transient failure) within admin.timeout.ms; real time passes beyond the delay meanwhile,
 * which a task reading the system clock would take as the delay having passed.
 */
class ChainSourceTaskClockTest {
    @TempDir
    Path root;

    private final MutableClock clock = new MutableClock();
    private final Metrics registry = new Metrics();

    @Test
    void theRetryDelayAndTheHeartbeatCountOnTheInjectedClock() throws Exception {
        Files.createDirectories(root.resolve("orders-backup").resolve("0"));
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        Map<String, String> config = ChainSourceTestSupport.sourceConfig("orders", root, "orders-backup", "orders-restored", "preserve",
                "localhost:" + closedPort);
        config.put("name", "clock");
        config.put(ChainSourceConfig.TASK_PARTITIONS, "0");
        config.put("admin.timeout.ms", "100");
        config.put("retry.backoff.initial.ms", "500");
        config.put("retry.backoff.max.ms", "500");
        config.put("poll.interval.ms", "100");
        config.put("heartbeat.interval.ms", "60000");

        ChainSourceTask task = new ChainSourceTask(clock);
        task.initialize(context());
        LogCapture logs = LogCapture.attach();
        try {
            task.start(config);
            long wallStart = System.currentTimeMillis();
            assertThat(task.poll()).isNull();
            assertThat(restarts()).as("the first position fails: the target does not answer").isEqualTo(1);

            do {
                assertThat(task.poll()).isNull();
            } while (System.currentTimeMillis() - wallStart < 1_500);
            assertThat(restarts()).as("more than the 500 ms delay of wall time has passed, none of the task's clock").isEqualTo(1);

            clock.advance(500);
            assertThat(task.poll()).isNull();
            assertThat(restarts()).as("the task's clock reached the delay: positioning is tried again").isEqualTo(2);
            assertThat(heartbeats(logs)).as("no heartbeat before 60 s of the task's clock").isEmpty();

            clock.advance(59_500);
            task.poll();
            assertThat(heartbeats(logs)).singleElement().asString().contains("heartbeat orders-restored-0")
                    .contains("not positioned (retrying)");
        } finally {
            logs.close();
            task.stop();
            registry.close();
        }
    }

    private long restarts() {
        return registry.metrics().entrySet().stream().filter(e -> e.getKey().name().equals("mirror-restarts-total"))
                .map(e -> (Long) e.getValue().metricValue()).findFirst().orElseThrow();
    }

    private SourceTaskContext context() {
        PluginMetricsImpl plugin = new PluginMetricsImpl(registry, Map.of("connector", "clock", "task", "0"));
        return (SourceTaskContext) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {SourceTaskContext.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("pluginMetrics")) {
                        return plugin;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    private static List<String> heartbeats(LogCapture logs) {
        return logs.lines().stream().filter(l -> l.contains(": heartbeat ")).toList();
    }
}
