package dev.mirrorv3.kafka.groups;

import dev.mirrorv3.kafka.Failures;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsResult;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the committed offsets of many consumer groups at once, through the batched
 * {@code Admin.listConsumerGroupOffsets(Map<String, ListConsumerGroupOffsetsSpec>)} (KIP-709): the admin client sends
 * one OffsetFetch per group coordinator for all the groups of a call, so a cluster with thousands of groups costs a
 * few requests, not one per group. Groups are passed {@link #GROUPS_PER_CALL} at a time to bound each response.
 */
public final class CommittedOffsets {
    private static final Logger log = LoggerFactory.getLogger(CommittedOffsets.class);
    /** Groups per listConsumerGroupOffsets call. */
    public static final int GROUPS_PER_CALL = 500;

    /** One batched call: the committed offsets of each group of the request (null offsets for none). */
    interface Fetch {
        Map<String, KafkaFuture<Map<TopicPartition, OffsetAndMetadata>>> fetch(Map<String, ListConsumerGroupOffsetsSpec> request);
    }

    private final Admin admin;
    private final Fetch fetch;
    private final Duration timeout;
    private final AtomicLong calls = new AtomicLong();

    /** @param admin an admin client of the cluster to read (not owned) */
    public CommittedOffsets(Admin admin, Duration timeout) {
        this(admin, request -> {
            ListConsumerGroupOffsetsResult r = admin.listConsumerGroupOffsets(request,
                    new ListConsumerGroupOffsetsOptions().timeoutMs((int) timeout.toMillis()));
            Map<String, KafkaFuture<Map<TopicPartition, OffsetAndMetadata>>> futures = new HashMap<>();
            request.keySet().forEach(g -> futures.put(g, r.partitionsToOffsetAndMetadata(g)));
            return futures;
        }, timeout);
    }

    CommittedOffsets(Admin admin, Fetch fetch, Duration timeout) {
        this.admin = admin;
        this.fetch = fetch;
        this.timeout = timeout;
    }

    /**
     * The ids of the cluster's consumer groups (classic and KIP-848 groups of the "consumer" protocol: Connect's worker
     * groups, share and streams groups are not listed).
     */
    public List<String> listGroups() throws Exception {
        Collection<GroupListing> listings = admin.listGroups(ListGroupsOptions.forConsumerGroups().timeoutMs((int) timeout.toMillis()))
                .all().get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
        return listings.stream().map(GroupListing::groupId).sorted().toList();
    }

    /**
     * The committed offsets of each group on the partitions {@code wanted} accepts; a group with none there is absent.
     * A group that disappeared since it was listed is absent too; one that cannot be read for another non-transient
     * reason (e.g. no Describe permission on it) is logged and absent.
     *
     * @throws Exception a transient failure: nothing is returned, try again later
     */
    public Map<String, Map<TopicPartition, OffsetAndMetadata>> read(Collection<String> groups, Predicate<TopicPartition> wanted)
            throws Exception {
        Map<String, Map<TopicPartition, OffsetAndMetadata>> found = new LinkedHashMap<>();
        List<String> all = List.copyOf(new LinkedHashSet<>(groups));
        for (int from = 0; from < all.size(); from += GROUPS_PER_CALL) {
            Map<String, ListConsumerGroupOffsetsSpec> request = new LinkedHashMap<>();
            all.subList(from, Math.min(all.size(), from + GROUPS_PER_CALL))
                    .forEach(g -> request.put(g, new ListConsumerGroupOffsetsSpec()));
            calls.incrementAndGet();
            Map<String, KafkaFuture<Map<TopicPartition, OffsetAndMetadata>>> futures = fetch.fetch(request);
            for (String group : request.keySet()) {
                Map<TopicPartition, OffsetAndMetadata> offsets = offsets(group, futures.get(group));
                Map<TopicPartition, OffsetAndMetadata> kept = new HashMap<>();
                offsets.forEach((tp, o) -> {
                    if (o != null && wanted.test(tp)) {
                        kept.put(tp, o);
                    }
                });
                if (!kept.isEmpty()) {
                    found.put(group, kept);
                }
            }
        }
        return found;
    }

    private Map<TopicPartition, OffsetAndMetadata> offsets(String group, KafkaFuture<Map<TopicPartition, OffsetAndMetadata>> future)
            throws Exception {
        try {
            Map<TopicPartition, OffsetAndMetadata> m = future.get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
            return m == null ? Map.of() : m;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof GroupIdNotFoundException) {
                return Map.of();
            }
            if (Failures.isTransient(cause)) {
                throw cause instanceof Exception c ? c : e;
            }
            log.warn("cannot read the committed offsets of consumer group {}: {}; leaving it out", group, Failures.describe(cause));
            return Map.of();
        }
    }

    /** listConsumerGroupOffsets calls made so far (each one request per group coordinator). */
    public long calls() {
        return calls.get();
    }
}
