package dev.mirrorv3.bench.discard;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;

/**
 * The benches' discard sink: its task counts the records it is given and reports their offsets in {@code preCommit},
 * nothing else. On the same worker and topic as a real sink it measures what any Connect sink can reach there (the
 * consumer, the converters, the task loop and the offset commits), the ceiling the blob sink is compared with.
 * Installed in the bench worker's plugin.path as its own plugin directory (bench/target/plugins/discard-sink); not
 * part of the bundle.
 */
public class DiscardSinkConnector extends SinkConnector {
    private Map<String, String> props;

    @Override
    public void start(Map<String, String> props) {
        this.props = Map.copyOf(props);
    }

    @Override
    public Class<? extends Task> taskClass() {
        return DiscardSinkTask.class;
    }

    /** Every task gets the connector's settings; with {@code count.file}, task i writes to that file + "." + i. */
    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        List<Map<String, String>> configs = new ArrayList<>();
        for (int i = 0; i < maxTasks; i++) {
            Map<String, String> c = new java.util.HashMap<>(props);
            c.put(DiscardSinkTask.TASK_INDEX, Integer.toString(i));
            configs.add(c);
        }
        return configs;
    }

    @Override
    public void stop() {
        // nothing held
    }

    @Override
    public ConfigDef config() {
        return new ConfigDef().define(DiscardSinkTask.COUNT_FILE, ConfigDef.Type.STRING, "", ConfigDef.Importance.LOW,
                "A file the task writes the number of records it has counted to at every offset commit (task i: this path"
                        + " + '.' + i); empty: none.");
    }

    @Override
    public String version() {
        return "0.1.0";
    }
}
