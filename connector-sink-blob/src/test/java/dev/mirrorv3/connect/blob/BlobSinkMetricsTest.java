package dev.mirrorv3.connect.blob;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkTaskContext;
import org.junit.jupiter.api.Test;

/** A runtime older than Kafka 4.1 has no plugin metrics: the task works on, without metrics. */
class BlobSinkMetricsTest {
    @Test
    void anOldRuntimeMeansNoMetricsAndNoFailure() {
        SinkTaskContext old = (SinkTaskContext) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {SinkTaskContext.class}, (proxy, method, args) -> {
                    if (method.getName().equals("pluginMetrics")) {
                        throw new NoSuchMethodError("org.apache.kafka.connect.sink.SinkTaskContext.pluginMetrics()");
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        TopicPartition tp = new TopicPartition("t", 0);
        try (BlobSinkMetrics metrics = new BlobSinkMetrics(old, "m", () -> 0)) {
            assertThat(metrics.enabled()).isFalse();
            metrics.opened(tp, 5);
            metrics.flushed(tp, 10, 5, 100, 1_000);
            metrics.highWatermark(tp, 12);
            metrics.restart();
            metrics.bufferedBytes(3);
            assertThat(metrics.openPartitions()).containsExactly(tp);
            metrics.closed(tp);
            assertThat(metrics.openPartitions()).isEmpty();
        }
        try (BlobSinkMetrics second = new BlobSinkMetrics(old, "m2", () -> 0)) {
            assertThat(second.enabled()).isFalse(); // and no second warning (one per worker)
        }
    }
}
