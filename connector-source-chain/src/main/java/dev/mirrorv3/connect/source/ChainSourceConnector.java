package dev.mirrorv3.connect.source;

import dev.mirrorv3.chain.Version;
import dev.mirrorv3.chain.restore.OffsetMode;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.kafka.Failures;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.source.ExactlyOnceSupport;
import org.apache.kafka.connect.source.SourceConnector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follow-restores a growing backup (a blob sink's chains) into a standby topic, stateless and exactly once (docs/chain-source.md):
 * one task per backed-up partition, spread over {@code tasks.max}; the target's high watermark is the position.
 */
public class ChainSourceConnector extends SourceConnector {
    private static final Logger log = LoggerFactory.getLogger(ChainSourceConnector.class);

    private Map<String, String> props;
    private volatile List<Integer> partitions = List.of();
    private Thread waiter;
    /** Listings of the backup's partitions done by the watcher: tests wait for some instead of sleeping. */
    private final AtomicLong listings = new AtomicLong();
    private volatile boolean stopping;
    private ChainSourceGroupSync groupSync;
    private final Clock clock;

    public ChainSourceConnector() {
        this(Clock.systemUTC());
    }

    /** @param clock the time of the "backup is empty" log lines and of the group sync passes */
    ChainSourceConnector(Clock clock) {
        this.clock = clock;
    }

    @Override
    public String version() {
        return Version.get();
    }

    @Override
    public void start(Map<String, String> props) {
        this.props = new HashMap<>(props);
        stopping = false;
        ChainSourceConfig config = new ChainSourceConfig(props);
        ChainSourceConfigValidator.requireBackupDirectory(config).ifPresent(problem -> {
            throw new ConnectException(problem);
        });
        if (config.groupsSync()) {
            if (config.offsetMode() != OffsetMode.PRESERVE) {
                throw new ConnectException(ChainSourceGroupSync.RENUMBER_REFUSED);
            }
        }
        PartitionMapping mapping = config.partitionMapping();
        if (!config.partitions().isEmpty()) {
            partitions = requireOwnTargets(mapping, config.partitions());
            startGroupSync(config);
            return;
        }
        String where;
        List<Integer> listed;
        try (Store store = config.openStore()) {
            listed = store.partitions();
            where = store.location(0).replaceAll("/0$", "");
        } catch (RuntimeException e) {
            throw new ConnectException("cannot list the backup's partitions: " + Failures.describe(e), e);
        }
        partitions = requireOwnTargets(mapping, listed);
        watchPartitions(config, mapping, where);
        startGroupSync(config);
    }

    /** groups.sync: after every check of start(), so that a failed start leaves no thread behind. */
    private void startGroupSync(ChainSourceConfig config) {
        if (config.groupsSync()) {
            groupSync = ChainSourceGroupSync.start(config, props.getOrDefault("name", "chain-source"), context, clock);
        }
    }

    /** The partitions to follow, each going to a target partition of its own (validate() may not have seen them). */
    private static List<Integer> requireOwnTargets(PartitionMapping mapping, List<Integer> followed) {
        mapping.sharedTarget(followed).ifPresent(m -> {
            throw new ConnectException(m);
        });
        return followed;
    }

    /**
     * Lists the backup's partition directories every poll interval and asks Connect for new task configs when one
     * appears (the sink got a new partition, or the backup had none or fewer at start), so that every backed-up
     * partition is followed without a restart. Not with an explicit {@code partitions}. A new partition that would go
     * to a target partition already taken fails the connector ({@code raiseError}) and is not followed; the tasks already
     * running keep their partitions.
     */
    private void watchPartitions(ChainSourceConfig config, PartitionMapping mapping, String where) {
        long since = clock.millis();
        waiter = new Thread(() -> {
            Store store = null;
            try {
                while (!stopping) {
                    try {
                        Thread.sleep(config.pollIntervalMs());
                    } catch (InterruptedException e) {
                        return;
                    }
                    try {
                        if (store == null) {
                            store = config.openStore();
                        }
                        List<Integer> found = store.partitions();
                        listings.incrementAndGet();
                        Optional<List<Integer>> grown = grown(partitions, found);
                        Optional<String> shared = grown.flatMap(mapping::sharedTarget);
                        if (shared.isPresent()) {
                            log.error("backup {} now has partitions {}: {}; not following them", where, grown.get(), shared.get());
                            context.raiseError(new ConnectException(shared.get()));
                            return;
                        }
                        if (grown.isPresent()) {
                            log.info("backup {} now has partitions {} (following {}): asking Connect to reconfigure the tasks", where,
                                    grown.get(), partitions);
                            partitions = grown.get();
                            context.requestTaskReconfiguration();
                        } else if (found.isEmpty()) {
                            log.info("backup {} is empty (no partition directories) for {} s; listing again every {} ms", where,
                                    (clock.millis() - since) / 1000, config.pollIntervalMs());
                        }
                    } catch (RuntimeException e) {
                        log.warn("listing backup {} failed: {}; listing again in {} ms", where, Failures.describe(e),
                                config.pollIntervalMs());
                        closeQuietly(store);
                        store = null;
                    }
                }
            } finally {
                closeQuietly(store);
            }
        }, "chain-source-partitions-" + props.getOrDefault("name", ""));
        waiter.setDaemon(true);
        if (partitions.isEmpty()) {
            log.info("backup {} is empty (no partition directories); listing again every {} ms", where, config.pollIntervalMs());
        }
        waiter.start();
    }

    /** How many times the watcher has listed the backup's partitions (0 when it does not watch). */
    long listings() {
        return listings.get();
    }

    /** Whether partitions that appear later are watched for (not with an explicit {@code partitions}). */
    boolean watching() {
        return waiter != null;
    }

    /**
     * The partitions to follow when the listing shows some not followed yet: the sorted union (a directory that
     * disappeared keeps its task, which then reports what is wrong); empty when nothing is new.
     */
    static Optional<List<Integer>> grown(List<Integer> following, List<Integer> listed) {
        if (following.containsAll(listed)) {
            return Optional.empty();
        }
        TreeSet<Integer> union = new TreeSet<>(following);
        union.addAll(listed);
        return Optional.of(List.copyOf(union));
    }

    private static void closeQuietly(Store store) {
        if (store == null) {
            return;
        }
        try {
            store.close();
        } catch (RuntimeException e) {
            log.debug("closing the store failed", e);
        }
    }

    @Override
    public Class<? extends Task> taskClass() {
        return ChainSourceTask.class;
    }

    /** Round-robin: each backup partition in exactly one task, so never two tasks for one target partition. */
    @Override
    public List<Map<String, String>> taskConfigs(int maxTasks) {
        List<Integer> ps = partitions;
        int tasks = Math.min(maxTasks, ps.size());
        List<Map<String, String>> configs = new ArrayList<>();
        for (int t = 0; t < tasks; t++) {
            int task = t;
            List<Integer> mine = new ArrayList<>();
            for (int i = 0; i < ps.size(); i++) {
                if (i % tasks == task) {
                    mine.add(ps.get(i));
                }
            }
            Map<String, String> c = new HashMap<>(props);
            c.put(ChainSourceConfig.TASK_PARTITIONS, mine.stream().map(String::valueOf).collect(Collectors.joining(",")));
            configs.add(c);
        }
        return configs;
    }

    @Override
    public void stop() {
        stopping = true;
        if (groupSync != null) {
            groupSync.close();
            groupSync = null;
        }
        if (waiter != null) {
            waiter.interrupt();
            waiter = null;
        }
    }

    @Override
    public ConfigDef config() {
        return ChainSourceValidation.VALIDATION.fragments().configDef();
    }

    @Override
    public Config validate(Map<String, String> connectorConfigs) {
        return ChainSourceValidation.VALIDATION.connectorValidate(connectorConfigs, super.validate(connectorConfigs));
    }

    /** Records are produced through Connect's producer, whose transactions would take offsets: not with this connector. */
    @Override
    public ExactlyOnceSupport exactlyOnceSupport(Map<String, String> connectorConfig) {
        return ExactlyOnceSupport.UNSUPPORTED;
    }
}
