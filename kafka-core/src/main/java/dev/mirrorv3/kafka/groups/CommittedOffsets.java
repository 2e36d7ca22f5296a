package dev.mirrorv3.kafka.groups;

import dev.mirrorv3.kafka.Failures;
import dev.mirrorv3.kafka.TopicIds;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
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

    /** The id of each of the topics that exists now; a topic that does not exist is absent ({@link TopicIds#readExisting}). */
    interface Ids {
        Map<String, String> read(Collection<String> topics) throws Exception;
    }

    /**
     * The committed offsets on one topic, with the id of the topic they belong to.
     *
     * @param topicId the topic's id, empty when the cluster gives none
     * @param groups each group's committed offsets on the topic's wanted partitions (a group with none there is absent)
     */
    public record TopicOffsets(String topicId, Map<String, Map<TopicPartition, OffsetAndMetadata>> groups) {
    }

    /**
     * What {@link #readByTopic} read.
     *
     * @param offsets the offsets of each topic that could be told to belong to one topic id
     * @param unattributed each other topic, with why its offsets could not
     */
    public record ByTopic(Map<String, TopicOffsets> offsets, Map<String, String> unattributed) {
    }

    private final Admin admin;
    private final Fetch fetch;
    private final Ids ids;
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
        }, topics -> TopicIds.readExisting(admin, topics, timeout), timeout);
    }

    CommittedOffsets(Admin admin, Fetch fetch, Ids ids, Duration timeout) {
        this.admin = admin;
        this.fetch = fetch;
        this.ids = ids;
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

    /**
     * The committed offsets of each group on the partitions of {@code topics} that {@code wanted} accepts, by topic, each
     * topic's with the id of the topic they belong to. A group's offsets are kept by topic name, and a topic deleted and
     * created again under the same name is another topic (the deleted one's offsets go with it; the ones committed since
     * are the new one's), so the topics' ids are read before and after the offsets: a topic that did not exist at either
     * time, or whose id changed in between, is left out with the reason, as its offsets cannot be told to belong to one
     * topic.
     *
     * @throws Exception a transient failure: nothing is returned, try again later
     */
    public ByTopic readByTopic(Collection<String> groups, Collection<String> topics, Predicate<TopicPartition> wanted) throws Exception {
        Map<String, String> before = ids.read(topics);
        Map<String, Map<TopicPartition, OffsetAndMetadata>> read = read(groups, tp -> topics.contains(tp.topic()) && wanted.test(tp));
        Map<String, String> after = ids.read(topics);
        Map<String, Map<String, Map<TopicPartition, OffsetAndMetadata>>> byTopic = new TreeMap<>();
        read.forEach((group, perPartition) -> perPartition.forEach((tp, o) -> byTopic.computeIfAbsent(tp.topic(), t -> new TreeMap<>())
                .computeIfAbsent(group, g -> new HashMap<>()).put(tp, o)));
        Map<String, TopicOffsets> offsets = new TreeMap<>();
        Map<String, String> unattributed = new TreeMap<>();
        for (String topic : new TreeSet<>(topics)) {
            String id = after.get(topic);
            if (id == null || !before.containsKey(topic)) {
                unattributed.put(topic, "topic " + topic + " does not exist (it was deleted)");
            } else if (!id.equals(before.get(topic))) {
                unattributed.put(topic, "topic " + topic + " was deleted and created again while its offsets were read (its id was "
                        + before.get(topic) + ", and is " + id + ")");
            } else {
                offsets.put(topic, new TopicOffsets(id, byTopic.getOrDefault(topic, Map.of())));
            }
        }
        return new ByTopic(offsets, unattributed);
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
