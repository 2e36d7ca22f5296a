package dev.mirrorv3.kafka;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the partition counts of a sink connector's topics on a timer, for the connector (not its tasks): when a topic
 * grows, the connector asks Connect for new task configs, which carry the counts ({@link #TASK_CONFIG}) so that they
 * differ and Connect really restarts the tasks (MirrorMaker 2's source connector follows topic changes the same way).
 * The restarted tasks give the new partitions a committed offset in {@code start()}, while the group is empty
 * ({@link GroupOffsetSeeder}): a running task cannot, and its consumer would fail on a new partition with
 * {@code NoOffsetForPartitionException} (Connect asks for the position before {@code open()}). A task that failed that
 * way, because its consumer noticed the partition first, is replaced by the same reconfiguration. A topic deleted and
 * created again (a new topic id, whatever its partition count) restarts the tasks too, with no growth: the restarted
 * tasks' {@code open()} refuses to continue the old topic's copy with the new one and says what to do
 * ({@link PositionRule#checkIdentity}), instead of a task failing in Connect's rebalance with a bare
 * {@code NoOffsetForPartitionException} (the group's offsets went with the deleted topic). Connect-free.
 */
public final class PartitionWatch implements AutoCloseable {
    /** The task config key holding the partition counts seen (e.g. "events:4,orders:2"); tasks do not read it. */
    public static final String TASK_CONFIG = "task.partition.counts";
    /** The task config key holding the topic ids seen (as {@link #format}); tasks do not read it. */
    public static final String TASK_CONFIG_IDS = "task.topic.ids";

    private static final Logger log = LoggerFactory.getLogger(PartitionWatch.class);

    /** What a connector does before its tasks restart on grown topics (the Kafka sink grows its destination topics). */
    public interface Growth {
        /**
         * @param before the counts the tasks run with (a topic unknown then is absent)
         * @param now the counts found
         * @throws Exception a transient failure: the watch tries again at its next look, and restarts the tasks only then
         */
        void grown(Map<String, Integer> before, Map<String, Integer> now) throws Exception;
    }

    private final Admin admin;
    private final List<String> topics;
    private final long intervalMs;
    private final Duration timeout;
    private final String name;
    private final Growth growth;
    private final Runnable requestReconfiguration;
    private volatile Map<String, Integer> counts = Map.of();
    private volatile Map<String, String> ids = Map.of();
    private volatile boolean stopping;
    private Thread thread;
    private String lastFailure;

    /**
     * @param admin an admin client of the source cluster, owned (closed) by the watch
     * @param name the connector's name, for log lines and the thread's name
     * @param requestReconfiguration asks Connect for new task configs ({@code ConnectorContext.requestTaskReconfiguration})
     */
    public PartitionWatch(Admin admin, Collection<String> topics, long intervalMs, Duration timeout, String name, Growth growth,
                          Runnable requestReconfiguration) {
        this.admin = admin;
        this.topics = List.copyOf(topics);
        this.intervalMs = intervalMs;
        this.timeout = timeout;
        this.name = name;
        this.growth = growth;
        this.requestReconfiguration = requestReconfiguration;
    }

    /**
     * Looks once now, for the first task configs (best effort: counts that cannot be read yet are filled in by the first
     * look that can, which then restarts the tasks), then every interval on a daemon thread.
     */
    public void start() {
        try {
            Seen seen = describe();
            counts = seen.counts();
            ids = seen.ids();
        } catch (Exception e) {
            log.warn("{}: cannot read the partition counts of {} yet ({}); looking again in {} ms", name, topics, Failures.describe(e),
                    intervalMs);
        }
        thread = new Thread(this::run, "mirror-v3-partition-watch-" + name);
        thread.setDaemon(true);
        thread.start();
    }

    /** The partition counts to put in the task configs (as {@link #format}). */
    public Map<String, Integer> counts() {
        return counts;
    }

    /** The topic ids to put in the task configs (as {@link #format}). */
    public Map<String, String> ids() {
        return ids;
    }

    /** "a:3,b:2", sorted by topic: one task config value. */
    public static String format(Map<String, ?> counts) {
        return new TreeMap<>(counts).entrySet().stream().map(e -> e.getKey() + ":" + e.getValue()).collect(Collectors.joining(","));
    }

    private void run() {
        while (!stopping) {
            try {
                Thread.sleep(intervalMs);
            } catch (InterruptedException e) {
                return;
            }
            try {
                lookOnce();
                lastFailure = null;
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                String failure = Failures.describe(e);
                if (!failure.equals(lastFailure)) { // once per distinct failure, not every interval
                    log.warn("{}: watching the partition counts of {} failed: {}; looking again every {} ms", name, topics, failure,
                            intervalMs);
                }
                lastFailure = failure;
            }
        }
    }

    /**
     * One look: when a topic has more partitions than the tasks run with, or was created again, prepare and ask for new
     * task configs.
     */
    void lookOnce() throws Exception {
        Map<String, Integer> before = counts;
        Seen seen = describe();
        Map<String, Integer> now = seen.counts();
        Set<String> recreated = recreated(ids, seen.ids());
        if (!grew(before, now) && recreated.isEmpty()) {
            return;
        }
        if (!recreated.isEmpty()) {
            log.warn("{}: {} deleted and created again (new topic id): restarting the tasks, which refuse to continue the old"
                    + " topic's copy with it", name, recreated);
        }
        Map<String, Integer> grown = new TreeMap<>(now);
        recreated.forEach(t -> grown.put(t, before.getOrDefault(t, 0))); // a new topic's partitions are no growth of the old
        if (grew(before, grown)) {
            log.info("{}: partition counts of {} are now {} (tasks run with {}): restarting the tasks, whose start() gives the new"
                    + " partitions a committed offset", name, topics, now, before.isEmpty() ? "unknown" : before);
            growth.grown(before, grown);
        }
        counts = Map.copyOf(now); // before asking: Connect may call taskConfigs() at once
        ids = Map.copyOf(seen.ids());
        if (!stopping) {
            requestReconfiguration.run();
        }
    }

    /** Whether a topic has more partitions than before, or became known. */
    static boolean grew(Map<String, Integer> before, Map<String, Integer> now) {
        return now.entrySet().stream().anyMatch(e -> e.getValue() > before.getOrDefault(e.getKey(), 0));
    }

    /** The topics known before and now whose id changed (deleted and created again). */
    static Set<String> recreated(Map<String, String> before, Map<String, String> now) {
        Set<String> changed = new TreeSet<>();
        now.forEach((t, id) -> {
            String was = before.getOrDefault(t, "");
            if (!was.isEmpty() && !id.isEmpty() && !was.equals(id)) {
                changed.add(t);
            }
        });
        return changed;
    }

    /** What one look found: each existing topic's partition count and id. */
    record Seen(Map<String, Integer> counts, Map<String, String> ids) {
    }

    /** The partition count and id of each topic that exists (a missing one is absent: its creation counts as growth). */
    Seen describe() throws Exception {
        Map<String, KafkaFuture<TopicDescription>> futures = admin.describeTopics(topics,
                new DescribeTopicsOptions().timeoutMs((int) timeout.toMillis())).topicNameValues();
        Map<String, Integer> found = new TreeMap<>();
        Map<String, String> foundIds = new TreeMap<>();
        for (Map.Entry<String, KafkaFuture<TopicDescription>> f : futures.entrySet()) {
            try {
                TopicDescription d = f.getValue().get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
                found.put(f.getKey(), d.partitions().size());
                foundIds.put(f.getKey(), d.topicId() == null ? "" : d.topicId().toString());
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                    throw e.getCause() instanceof Exception c ? c : e;
                }
            }
        }
        return new Seen(found, foundIds);
    }

    @Override
    public void close() {
        stopping = true;
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(timeout.toMillis() + 2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        admin.close(Duration.ofSeconds(5));
    }
}
