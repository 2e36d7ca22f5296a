package dev.mirrorv3.kafka.sink;

import dev.mirrorv3.kafka.PartitionWatch;
import dev.mirrorv3.kafka.config.ConnectorValidation;
import dev.mirrorv3.kafka.config.TopicsSetting;
import dev.mirrorv3.kafka.config.WatchedConnectorConfig;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.sink.SinkConnector;
import org.slf4j.Logger;

/**
 * The connector side of a sink that watches its topics' partition counts (docs/architecture.md): refuses at start what
 * validate() refuses but a stored config may hold (topics.regex), parses the config to fail fast on single-field errors,
 * starts the {@link PartitionWatch} of the listed topics, gives each task the counts and topic ids so that a change
 * restarts the tasks, closes what it started in reverse order, and answers config() and validate() from the connector's
 * {@link ConnectorValidation}. A sink adds what it starts besides ({@link #startConnector}), what a grown topic needs
 * ({@link #growth}) and its number of tasks.
 *
 * @param <C> the connector's config
 */
public abstract class WatchedSinkConnector<C extends WatchedConnectorConfig> extends SinkConnector {
    private final String kind;
    private final Logger log;
    private final ConnectorValidation validation;
    private final Deque<Runnable> closers = new ArrayDeque<>();
    private Map<String, String> props;
    private PartitionWatch watch;

    /**
     * @param kind the connector's name when it has none, and the middle of its watch client's id
     * @param log the connector's logger
     */
    protected WatchedSinkConnector(String kind, Logger log, ConnectorValidation validation) {
        this.kind = kind;
        this.log = log;
        this.validation = validation;
    }

    @Override
    public final void start(Map<String, String> props) {
        validation.fragments().refuseAtStart(props); // a stored config never went through validate()
        this.props = new HashMap<>(props);
        C config = parse(props); // fail fast on single-field errors
        List<String> topics = TopicsSetting.listed(props);
        String name = props.getOrDefault("name", kind);
        startConnector(config, props, name);
        if (topics.isEmpty()) {
            return; // never with the sinks' rules (topics.regex is refused above), but nothing to watch
        }
        PartitionWatch.Growth growth = growth(config, name);
        watch = new PartitionWatch(Admin.create(config.sourceAdminConfig("mirror-v3-" + kind + "-watch-" + name)), topics,
                config.partitionsWatchIntervalMs(), config.adminTimeout(), name, growth, context::requestTaskReconfiguration);
        PartitionWatch started = watch;
        onStop(started::close);
        watch.start();
    }

    protected abstract C parse(Map<String, String> props);

    /** What the connector starts besides the watch, before it; each registers its close with {@link #onStop}. */
    protected void startConnector(C config, Map<String, String> props, String name) {
    }

    /** What to do when a watched topic has grown, before the tasks restart; nothing by default. */
    protected PartitionWatch.Growth growth(C config, String name) {
        return (before, now) -> { };
    }

    /** Runs {@code close} at stop(), before what was registered earlier. */
    protected final void onStop(Runnable close) {
        closers.push(close);
    }

    /** How many tasks to run for {@code tasks.max}. */
    protected abstract int taskCount(int maxTasks);

    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        List<Map<String, String>> configs = new ArrayList<>();
        for (int i = 0; i < taskCount(maxTasks); i++) {
            Map<String, String> c = new HashMap<>(props);
            if (watch != null) {
                // differs after growth: Connect restarts the tasks
                c.put(PartitionWatch.TASK_CONFIG, PartitionWatch.format(watch.counts()));
                c.put(PartitionWatch.TASK_CONFIG_IDS, PartitionWatch.format(watch.ids())); // differs after a re-creation
            }
            configs.add(c);
        }
        return configs;
    }

    @Override
    public void stop() {
        while (!closers.isEmpty()) {
            closers.pop().run();
        }
        watch = null;
    }

    @Override
    public ConfigDef config() {
        return validation.fragments().configDef();
    }

    @Override
    public Config validate(Map<String, String> connectorConfigs) {
        return validation.connectorValidate(connectorConfigs, super.validate(connectorConfigs));
    }
}
