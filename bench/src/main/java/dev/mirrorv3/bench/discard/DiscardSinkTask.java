package dev.mirrorv3.bench.discard;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;

/**
 * Counts the records it is given and reports, in {@code preCommit}, the offset after the last record of each partition:
 * Connect commits them for the connector's group, where a bench reads them as it reads every sink's. With
 * {@code count.file} it writes its count there first (replacing the file), an independent reading of what it was given.
 */
public class DiscardSinkTask extends SinkTask {
    static final String COUNT_FILE = "count.file";
    static final String TASK_INDEX = "task.index";
    private final Map<TopicPartition, OffsetAndMetadata> next = new HashMap<>();
    private Path countFile;
    private long count;

    @Override
    public void start(Map<String, String> props) {
        String file = props.getOrDefault(COUNT_FILE, "");
        countFile = file.isEmpty() ? null : Path.of(file + "." + props.getOrDefault(TASK_INDEX, "0"));
    }

    @Override
    public void put(Collection<SinkRecord> records) {
        for (SinkRecord r : records) {
            count++;
            next.put(new TopicPartition(r.topic(), r.kafkaPartition()), new OffsetAndMetadata(r.kafkaOffset() + 1));
        }
    }

    @Override
    public Map<TopicPartition, OffsetAndMetadata> preCommit(Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
        if (countFile != null) {
            writeCount();
        }
        return Map.copyOf(next);
    }

    private void writeCount() {
        Path tmp = countFile.resolveSibling(countFile.getFileName() + ".tmp");
        try {
            Files.writeString(tmp, Long.toString(count), StandardCharsets.UTF_8);
            Files.move(tmp, countFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the discard sink's count to " + countFile, e);
        }
    }

    @Override
    public void close(Collection<TopicPartition> partitions) {
        partitions.forEach(next::remove);
    }

    @Override
    public void stop() {
        // nothing held
    }

    @Override
    public String version() {
        return "0.1.0";
    }
}
