package dev.mirrorv3.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.awaitility.Awaitility;

/**
 * The mirror_v3 series a connector's observability test expects in a scrape, and the wait until the scrape holds
 * exactly them: each partition's timestamp series must lie between the deployment and the scrape instead of having a
 * value, the store's request counts are taken out ({@link ObservabilityFiles#takeStoreRequests}) and checked by the test
 * (they only grow), and the rest must equal the expected series.
 */
public final class ExactScrape {
    /** Checks a scrape's store request counts ("GET ok" to count); may add the expected series it can only read now. */
    @FunctionalInterface
    public interface RequestsCheck {
        void check(Map<String, Double> requests) throws Exception;
    }

    private final String mirror;
    private final String topic;
    private final int partitions;
    private final Map<String, Double> expected = new TreeMap<>();

    /** The series of connector {@code mirror} copying partitions 0 to {@code partitions - 1} of {@code topic}. */
    public ExactScrape(String mirror, String topic, int partitions) {
        this.mirror = mirror;
        this.topic = topic;
        this.partitions = partitions;
    }

    /** The labels of a partition's series. */
    public String partition(int partition) {
        return "{mirror=\"" + mirror + "\",partition=\"" + partition + "\",topic=\"" + topic + "\"}";
    }

    /** Expects series {@code name} of partition 0, 1, ... to have {@code values}, in that order. */
    public ExactScrape perPartition(String name, double... values) {
        for (int p = 0; p < values.length; p++) {
            expected.put(name + partition(p), values[p]);
        }
        return this;
    }

    /** Expects series {@code name} of task 0 to have {@code value}. */
    public ExactScrape perTask(String name, double value) {
        expected.put(name + "{mirror=\"" + mirror + "\",task=\"0\"}", value);
        return this;
    }

    /** The expected series: "name{labels}" to value. */
    public Map<String, Double> expected() {
        return expected;
    }

    /**
     * Waits until {@code scrape} holds exactly the expected series, failing fast when the connector fails, then checks
     * that each partition's {@code timestampSeries} lies between {@code sinceSeconds} and now; returns the last scrape.
     */
    public Map<String, Double> await(ConnectTestCluster cluster, String description, Duration timeout, Supplier<Map<String, Double>> scrape,
                                     String timestampSeries, long sinceSeconds, RequestsCheck requests) {
        AtomicReference<Map<String, Double>> last = new AtomicReference<>();
        Awaitility.await(description).atMost(timeout).pollInterval(Duration.ofMillis(300))
                .failFast("connector failed", () -> cluster.failureTrace(mirror) != null)
                .untilAsserted(() -> {
                    last.set(scrape.get());
                    Map<String, Double> withoutTimestamps = new TreeMap<>(last.get());
                    withoutTimestamps.keySet().removeIf(k -> k.startsWith(timestampSeries));
                    requests.check(ObservabilityFiles.takeStoreRequests(withoutTimestamps, mirror, topic));
                    assertThat(withoutTimestamps).isEqualTo(expected);
                });
        long now = System.currentTimeMillis() / 1000;
        for (int p = 0; p < partitions; p++) {
            assertThat(last.get().get(timestampSeries + partition(p))).as(timestampSeries + " of " + partition(p))
                    .isBetween((double) sinceSeconds, (double) now);
        }
        return last.get();
    }
}
