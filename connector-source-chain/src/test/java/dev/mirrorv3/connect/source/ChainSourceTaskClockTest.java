package dev.mirrorv3.connect.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.testsupport.MutableClock;
import java.lang.reflect.Proxy;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.internals.PluginMetricsImpl;
import org.apache.kafka.connect.source.SourceTaskContext;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;
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
        Capture logs = Capture.attach();
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
            assertThat(logs.heartbeats()).as("no heartbeat before 60 s of the task's clock").isEmpty();

            clock.advance(59_500);
            task.poll();
            assertThat(logs.heartbeats()).singleElement().asString().contains("heartbeat orders-restored-0")
                    .contains("not positioned (retrying)");
        } finally {
            logs.detach();
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

    /** The log lines of every logger of this JVM while attached. */
    private static final class Capture extends AbstractAppender {
        private final List<String> lines = Collections.synchronizedList(new ArrayList<>());

        private Capture() {
            super("chain-source-clock-capture", null, null, true, Property.EMPTY_ARRAY);
        }

        static Capture attach() {
            Capture appender = new Capture();
            appender.start();
            LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
            ctx.getConfiguration().getRootLogger().addAppender(appender, null, null);
            ctx.updateLoggers();
            return appender;
        }

        void detach() {
            LoggerContext ctx = (LoggerContext) LogManager.getContext(false);
            ctx.getConfiguration().getRootLogger().removeAppender(getName());
            ctx.updateLoggers();
            stop();
        }

        List<String> heartbeats() {
            synchronized (lines) {
                return lines.stream().filter(l -> l.contains(": heartbeat ")).toList();
            }
        }

        @Override
        public void append(LogEvent event) {
            lines.add(event.getMessage().getFormattedMessage());
        }
    }
}
