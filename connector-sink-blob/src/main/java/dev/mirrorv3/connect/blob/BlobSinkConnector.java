package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.Version;
import dev.mirrorv3.kafka.sink.WatchedSinkConnector;
import java.util.Map;
import org.apache.kafka.connect.connector.Task;
import org.slf4j.LoggerFactory;

/**
 * Backs up topic partitions to chains of objects, exactly once (docs/blob-sink.md). One task, whatever tasks.max says:
 * one writer per partition; scale with more connectors (per topic or per set of partitions). Watches the partition
 * counts of its topics and restarts the task when one grows, so that new partitions are backed up with no action.
 */
public class BlobSinkConnector extends WatchedSinkConnector<BlobSinkConfig> {
    public BlobSinkConnector() {
        super("blob-sink", LoggerFactory.getLogger(BlobSinkConnector.class), BlobSinkValidation.VALIDATION);
    }

    @Override
    public String version() {
        return Version.get();
    }

    @Override
    protected BlobSinkConfig parse(Map<String, String> props) {
        return new BlobSinkConfig(props);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return BlobSinkTask.class;
    }

    @Override
    protected int taskCount(int maxTasks) {
        return 1;
    }
}
