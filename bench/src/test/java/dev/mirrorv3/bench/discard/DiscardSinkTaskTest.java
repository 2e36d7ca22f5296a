package dev.mirrorv3.bench.discard;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The discard sink counts what it is given and reports the offsets after it, for Connect to commit. */
class DiscardSinkTaskTest {
    @TempDir
    Path dir;

    @Test
    void preCommitReportsTheOffsetAfterEachPartitionsLastRecordAndWritesTheCount() throws Exception {
        DiscardSinkConnector connector = new DiscardSinkConnector();
        connector.start(Map.of("count.file", dir.resolve("run.count").toString(), "topics", "t"));
        DiscardSinkTask task = new DiscardSinkTask();
        task.start(connector.taskConfigs(1).get(0));

        task.put(List.of(record(0, 10), record(0, 11), record(1, 5)));
        task.put(List.of());
        Map<TopicPartition, OffsetAndMetadata> committed = task.preCommit(Map.of());

        assertThat(committed).containsOnly(Map.entry(new TopicPartition("t", 0), new OffsetAndMetadata(12)),
                Map.entry(new TopicPartition("t", 1), new OffsetAndMetadata(6)));
        assertThat(Files.readString(dir.resolve("run.count.0"))).isEqualTo("3");
        task.close(List.of(new TopicPartition("t", 1)));
        assertThat(task.preCommit(Map.of())).containsOnlyKeys(new TopicPartition("t", 0));
    }

    @Test
    void withoutACountFileItOnlyReportsOffsets() {
        DiscardSinkTask task = new DiscardSinkTask();
        task.start(Map.of());
        task.put(List.of(record(2, 0)));

        assertThat(task.preCommit(Map.of())).containsOnly(Map.entry(new TopicPartition("t", 2), new OffsetAndMetadata(1)));
        assertThat(dir).isEmptyDirectory();
    }

    private static SinkRecord record(int partition, long offset) {
        return new SinkRecord("t", partition, null, null, null, new byte[] {1}, offset);
    }
}
