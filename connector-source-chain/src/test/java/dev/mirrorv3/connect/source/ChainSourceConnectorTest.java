package dev.mirrorv3.connect.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceConnectorContext;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChainSourceConnectorTest {
    @TempDir
    Path root;

    private Map<String, String> config(String partitions) {
        return ChainSourceTestSupport.offlineConfig(root, partitions);
    }

    @Test
    void everyBackupPartitionIsInExactlyOneTask() throws Exception {
        Files.createDirectories(root.resolve("orders-backup"));
        ChainSourceConnector connector = new ChainSourceConnector();
        connector.start(config("0,1,2,3,4"));
        List<Map<String, String>> tasks = connector.taskConfigs(2);
        assertThat(tasks).hasSize(2);
        List<String> assigned = new ArrayList<>();
        tasks.forEach(t -> assigned.addAll(Arrays.asList(t.get(ChainSourceConfig.TASK_PARTITIONS).split(","))));
        assertThat(assigned).containsExactlyInAnyOrder("0", "1", "2", "3", "4");
        assertThat(connector.taskConfigs(10)).as("no idle task").hasSize(5);
        assertThat(connector.exactlyOnceSupport(Map.of())).isEqualTo(ExactlyOnceSupport.UNSUPPORTED);
        connector.stop();
    }

    @Test
    void aMissingFilesystemBackupDirectoryIsRefused() {
        assertThatThrownBy(() -> new ChainSourceConnector().start(config("0"))).isInstanceOf(ConnectException.class)
                .hasMessageContaining(root.resolve("orders-backup") + " does not exist");
    }

    @Test
    void startRefusesTwoBackupPartitionsMappedToOneTargetPartition() throws Exception {
        Files.createDirectories(root.resolve("orders-backup").resolve("0"));
        Files.createDirectories(root.resolve("orders-backup").resolve("1"));
        Map<String, String> listed = config("");
        listed.put("partition.mapping", "0:1");
        assertThatThrownBy(() -> new ChainSourceConnector().start(listed)).as("the backup's directories")
                .isInstanceOf(ConnectException.class)
                .hasMessageContaining("backup partitions 0 and 1 would both go to target partition 1");
        Map<String, String> explicit = config("0,1");
        explicit.put("partition.mapping", "0:1");
        assertThatThrownBy(() -> new ChainSourceConnector().start(explicit)).as("partitions set explicitly")
                .isInstanceOf(ConnectException.class).hasMessageContaining("backup partitions 0 and 1 would both go to target partition 1");
        Map<String, String> swapped = config("");
        swapped.put("partition.mapping", "0:1,1:0");
        ChainSourceConnector connector = new ChainSourceConnector();
        connector.start(swapped);
        assertThat(connector.taskConfigs(1)).extracting(t -> t.get(ChainSourceConfig.TASK_PARTITIONS)).containsExactly("0,1");
        connector.stop();
    }

    @Test
    void aPartitionThatAppearsLaterOntoATakenTargetPartitionFailsTheConnector() throws Exception {
        Files.createDirectories(root.resolve("orders-backup").resolve("0"));
        AtomicInteger requests = new AtomicInteger();
        List<Throwable> raised = new java.util.concurrent.CopyOnWriteArrayList<>();
        SourceConnectorContext context = (SourceConnectorContext) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {SourceConnectorContext.class}, (proxy, method, args) -> {
                    if (method.getName().equals("requestTaskReconfiguration")) {
                        requests.incrementAndGet();
                    } else if (method.getName().equals("raiseError")) {
                        raised.add((Throwable) args[0]);
                    }
                    return null;
                });
        Map<String, String> c = config("");
        c.put("poll.interval.ms", "100");
        c.put("partition.mapping", "0:1");
        ChainSourceConnector connector = new ChainSourceConnector();
        connector.initialize(context);
        connector.start(c);
        try {
            Files.createDirectories(root.resolve("orders-backup").resolve("1"));
            Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).until(() -> !raised.isEmpty());
            assertThat(raised).singleElement().asString().contains("backup partitions 0 and 1 would both go to target partition 1");
            assertThat(requests).as("no task is given partition 1").hasValue(0);
            assertThat(connector.taskConfigs(4)).extracting(t -> t.get(ChainSourceConfig.TASK_PARTITIONS)).containsExactly("0");
        } finally {
            connector.stop();
        }
    }

    @Test
    void grownIsTheUnionWhenTheListingShowsANewPartition() {
        assertThat(ChainSourceConnector.grown(List.of(0, 1), List.of(0, 1))).isEmpty();
        assertThat(ChainSourceConnector.grown(List.of(0, 1), List.of(1))).as("a vanished directory keeps its task").isEmpty();
        assertThat(ChainSourceConnector.grown(List.of(), List.of(2, 0))).contains(List.of(0, 2));
        assertThat(ChainSourceConnector.grown(List.of(0, 2), List.of(1, 0))).contains(List.of(0, 1, 2));
        assertThat(ChainSourceConnector.grown(List.of(0), List.of())).isEqualTo(Optional.empty());
    }

    @Test
    void aPartitionDirectoryThatAppearsLaterRequestsTaskReconfiguration() throws Exception {
        Files.createDirectories(root.resolve("orders-backup").resolve("0"));
        AtomicInteger requests = new AtomicInteger();
        SourceConnectorContext context = (SourceConnectorContext) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {SourceConnectorContext.class}, (proxy, method, args) -> {
                    if (method.getName().equals("requestTaskReconfiguration")) {
                        requests.incrementAndGet();
                    }
                    return null;
                });
        Map<String, String> c = config("");
        c.put("poll.interval.ms", "100");
        ChainSourceConnector connector = new ChainSourceConnector();
        connector.initialize(context);
        connector.start(c);
        try {
            assertThat(connector.taskConfigs(4)).extracting(t -> t.get(ChainSourceConfig.TASK_PARTITIONS)).containsExactly("0");
            awaitListings(connector, 5);
            assertThat(requests).as("nothing new after 5 listings").hasValue(0);
            Files.createDirectories(root.resolve("orders-backup").resolve("1"));
            Awaitility.await().atMost(java.time.Duration.ofSeconds(10)).until(() -> requests.get() == 1);
            assertThat(connector.taskConfigs(4)).extracting(t -> t.get(ChainSourceConfig.TASK_PARTITIONS)).containsExactly("0", "1");
            awaitListings(connector, 5);
            assertThat(requests).as("requested once per change (5 more listings)").hasValue(1);
        } finally {
            connector.stop();
        }

        Map<String, String> explicit = config("0");
        explicit.put("poll.interval.ms", "100");
        ChainSourceConnector fixed = new ChainSourceConnector();
        fixed.initialize(context);
        fixed.start(explicit);
        Files.createDirectories(root.resolve("orders-backup").resolve("2"));
        assertThat(fixed.watching()).as("partitions set explicitly: not watched").isFalse();
        assertThat(requests).hasValue(1);
        assertThat(fixed.taskConfigs(4)).extracting(t -> t.get(ChainSourceConfig.TASK_PARTITIONS)).containsExactly("0");
        fixed.stop();
    }

    /** Waits until the connector's watcher has listed the backup {@code more} more times: a negative window in listings. */
    private static void awaitListings(ChainSourceConnector connector, int more) {
        long target = connector.listings() + more;
        Awaitility.await("%d more listings".formatted(more)).atMost(java.time.Duration.ofSeconds(30))
                .until(() -> connector.listings() >= target);
    }
}
