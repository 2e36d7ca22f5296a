package dev.mirrorv3.kafka.groups;

import dev.mirrorv3.kafka.Failures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The active-group guard of KIP-1279's group mirroring: offsets are never written for a group that is active on the
 * destination (any state other than EMPTY or DEAD), because its live consumers own their position. Skipped groups are
 * logged (once each time a group starts being skipped, not on every pass) and counted. A group that cannot be described
 * for a non-transient reason (e.g. no Describe permission) counts as active: its position cannot be shown to be free.
 */
public final class ActiveGroups {
    private static final Logger log = LoggerFactory.getLogger(ActiveGroups.class);
    /** Groups described per describeConsumerGroups call; the admin client batches them per coordinator. */
    static final int GROUPS_PER_CALL = 500;

    private final Admin admin;
    private final Duration timeout;
    private final String cluster;
    private final AtomicLong skippedTotal = new AtomicLong();
    private volatile int skippedLast;
    private Set<String> loggedSkipped = Set.of();

    /**
     * @param admin an admin client of the cluster the offsets are written to (not owned)
     * @param cluster how log lines name that cluster, e.g. "destination localhost:9092"
     */
    public ActiveGroups(Admin admin, Duration timeout, String cluster) {
        this.admin = admin;
        this.timeout = timeout;
        this.cluster = cluster;
    }

    /** Whether a group in this state has live members (or is about to). */
    public static boolean isActive(GroupState state) {
        return state != GroupState.EMPTY && state != GroupState.DEAD;
    }

    /**
     * The groups whose offsets may be written now (EMPTY, DEAD or unknown to the cluster); the others are skipped,
     * logged and counted.
     *
     * @throws Exception a transient failure (a timeout, the coordinator moving): nothing is decided, try again later
     */
    public synchronized Set<String> inactive(Collection<String> groups) throws Exception {
        Set<String> free = new LinkedHashSet<>();
        Set<String> skipped = new HashSet<>();
        List<String> all = List.copyOf(new LinkedHashSet<>(groups));
        for (int from = 0; from < all.size(); from += GROUPS_PER_CALL) {
            List<String> chunk = all.subList(from, Math.min(all.size(), from + GROUPS_PER_CALL));
            Map<String, KafkaFuture<ConsumerGroupDescription>> described = admin.describeConsumerGroups(chunk,
                    new DescribeConsumerGroupsOptions().timeoutMs((int) timeout.toMillis())).describedGroups();
            for (String group : chunk) {
                String why = activity(group, described.get(group));
                if (why == null) {
                    free.add(group);
                } else {
                    skipped.add(group);
                    if (!loggedSkipped.contains(group)) {
                        log.info("not writing the offsets of consumer group {} on {}: {}; its consumers own their position (skipped"
                                + " until it is EMPTY)", group, cluster, why);
                    }
                }
            }
        }
        loggedSkipped = Set.copyOf(skipped);
        skippedLast = skipped.size();
        skippedTotal.addAndGet(skipped.size());
        return free;
    }

    /** Why the group counts as active, or null when it is free. */
    private String activity(String group, KafkaFuture<ConsumerGroupDescription> future) throws Exception {
        try {
            ConsumerGroupDescription d = future.get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
            return isActive(d.groupState()) ? "it is " + d.groupState() + " with " + d.members().size() + " member(s)" : null;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof GroupIdNotFoundException) {
                return null;
            }
            if (Failures.isTransient(cause)) {
                throw cause instanceof Exception c ? c : e;
            }
            return "it cannot be described (" + Failures.describe(cause) + ")";
        }
    }

    /** Groups skipped as active by the last {@link #inactive} call. */
    public int skippedLast() {
        return skippedLast;
    }

    /** Groups skipped as active, summed over every call (a group skipped on two passes counts twice). */
    public long skippedTotal() {
        return skippedTotal.get();
    }

    /** For messages: the groups skipped by the last call, sorted. */
    public synchronized List<String> lastSkipped() {
        List<String> l = new ArrayList<>(loggedSkipped);
        l.sort(null);
        return l;
    }
}
