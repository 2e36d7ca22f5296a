package dev.mirrorv3.cache;

import dev.mirrorv3.cache.config.CacheConfig;
import dev.mirrorv3.cache.notify.KeyChange;
import dev.mirrorv3.cache.notify.Notifier;
import dev.mirrorv3.cache.store.KeyGroup;
import dev.mirrorv3.cache.store.KeyValueStore;
import dev.mirrorv3.cache.store.MemoryBudget;
import dev.mirrorv3.cache.store.MemoryBudgetExceededException;
import dev.mirrorv3.cache.store.Utf8Keys;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteBufferDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consume loop of one cache: assigns its partitions (no group membership, so a replica always gets them all),
 * reads them from the low watermark, applies each record to the store, and hands changes to the notifier. Two
 * threads: the consumer thread polls (and commits), the applier thread applies each poll's records in order and
 * publishes the positions reached, so the next fetch overlaps the store's work.
 *
 * <p>Notification eligibility: a change at an offset at or after the partition's notify-from offset
 * ({@link CacheAssignment}: the group's committed offset, or the high or low watermark by {@code offset-reset}).
 */
final class CacheConsumer implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(CacheConsumer.class);
    private static final Duration POLL = Duration.ofMillis(100);

    private final Cache cache;
    private final CacheConfig config;
    private final Notifier notifier;
    private final Consumer<String> fatal;
    private final MemoryBudget budget;
    private final Consumer<String> overBudget;
    private final KafkaConsumer<byte[], ByteBuffer> consumer;
    private final NotifiedOffsetCommits commits;
    private final Map<Integer, Long> notifyFrom = new HashMap<>();
    /** Records per group whose index slots are loaded before any of them is applied ({@link KeyValueStore#prefetch}). */
    private static final int PREFETCH = 16;
    /** The applier thread's group, reused for every {@link #PREFETCH} records. */
    private final KeyGroup group = new KeyGroup(PREFETCH);

    /** One poll's records and the positions and lags the consumer reached with them. */
    private record Batch(ConsumerRecords<byte[], ByteBuffer> records, Map<Integer, Long> positions,
                         Map<Integer, Long> lags) {
    }

    /** Two polls at most between the consumer and the applier: memory stays bounded, fetching goes on. */
    private final BlockingQueue<Batch> batches = new ArrayBlockingQueue<>(2);
    private volatile boolean running = true;
    /** Set when the store is over its budget or the applier failed: the consumer stops reading. */
    private volatile boolean stopReading;
    private volatile Duration drainDeadline = Duration.ZERO;
    private final Thread thread;
    private final Thread applier;

    /**
     * @param overBudget called once with the message when the cache's store would exceed the memory budget; this
     *                   consumer then stops reading
     */
    CacheConsumer(Cache cache, Notifier notifier, Consumer<String> fatal, MemoryBudget budget,
                  Consumer<String> overBudget) {
        this.cache = cache;
        this.config = cache.config();
        this.notifier = notifier;
        this.fatal = fatal;
        this.budget = budget;
        this.overBudget = overBudget;
        this.consumer = new KafkaConsumer<>(ConsumerProperties.forCache(config), new ByteArrayDeserializer(),
                new ByteBufferDeserializer());
        this.commits = new NotifiedOffsetCommits(consumer, config, notifier);
        this.thread = new Thread(this, "cache-" + config.name());
        this.applier = new Thread(this::applyBatches, "cache-" + config.name() + "-apply");
    }

    void start() {
        thread.start();
    }

    /** Stops consuming, lets the notifier flush within the deadline, commits what was notified, closes. */
    void stop(Duration deadline) {
        drainDeadline = deadline;
        running = false;
        try {
            consumer.wakeup();
        } catch (RuntimeException e) {
            // already closed after a failure
        }
    }

    void join(Duration timeout) throws InterruptedException {
        thread.join(Math.max(1, timeout.toMillis()));
    }

    @Override
    public void run() {
        try {
            List<TopicPartition> tps = assign();
            if (tps != null) {
                consume(tps);
            }
        } catch (WakeupException e) {
            // stopping
        } catch (RuntimeException e) {
            if (running) {
                LOG.error("Cache {}: consuming topic {} failed", config.name(), config.topic(), e);
                fatal.accept("cache " + config.name() + " failed: " + e);
            }
        } finally {
            finish();
        }
    }

    private List<TopicPartition> assign() {
        CacheAssignment assignment = CacheAssignment.assign(consumer, config, () -> running);
        if (assignment == null) {
            return null;
        }
        notifyFrom.putAll(assignment.notifyFrom());
        cache.store().presize(assignment.recordsAtStart());
        cache.assigned(assignment.states());
        if (cache.publishOffsets()) {
            becameReady();
        }
        return assignment.partitions();
    }

    private void consume(List<TopicPartition> tps) {
        applier.start();
        while (running && !stopReading) {
            ConsumerRecords<byte[], ByteBuffer> records;
            try {
                records = consumer.poll(POLL);
            } catch (WakeupException e) {
                break;
            }
            // KafkaConsumer is single-threaded: positions are read here, with the poll they belong to.
            Map<Integer, Long> positions = new HashMap<>();
            Map<Integer, Long> lags = new HashMap<>();
            for (TopicPartition tp : tps) {
                positions.put(tp.partition(), consumer.position(tp, Duration.ofSeconds(5)));
                lags.put(tp.partition(), consumer.currentLag(tp).orElse(0L));
            }
            Batch batch = new Batch(records, positions, lags);
            try {
                while (running && !stopReading && !batches.offer(batch, POLL.toMillis(), TimeUnit.MILLISECONDS)) {
                    // the applier is behind: wait for it instead of buffering more (bounded memory)
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            commits.commitIfDue(false);
        }
        // Over the budget or failed in the applier: keep the consumer (and its group) as they are until stopped.
        while (running) {
            sleep(100);
        }
    }

    /**
     * The applier thread: applies each poll's records to the store in order, then publishes the positions the
     * consumer reached with them (readiness, the offsets header) and hands the changes to the notifier. It runs
     * beside the consumer thread so that the next fetch is under way while a batch is applied: the store's work
     * no longer adds to the time of reading the topic.
     */
    private void applyBatches() {
        try {
            while (running && !stopReading) {
                Batch batch = batches.poll(POLL.toMillis(), TimeUnit.MILLISECONDS);
                if (batch != null && !apply(batch)) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            stopReading = true;
            if (running) {
                LOG.error("Cache {}: applying records of topic {} failed", config.name(), config.topic(), e);
                fatal.accept("cache " + config.name() + " failed: " + e);
            }
        }
    }

    /** Returns false when the store is over the memory budget (reading stopped). */
    private boolean apply(Batch batch) {
        List<KeyChange> changes = new ArrayList<>();
        KeyValueStore store = cache.store();
        ConsumerRecords<byte[], ByteBuffer> records = batch.records();
        for (TopicPartition tp : records.partitions()) {
            PartitionState state = cache.partition(tp.partition());
            long notifyFromOffset = notifyFrom.get(tp.partition());
            List<ConsumerRecord<byte[], ByteBuffer>> list = records.records(tp);
            long last = -1;
            for (int from = 0; from < list.size(); from += PREFETCH) {
                int to = Math.min(list.size(), from + PREFETCH);
                group.clear();
                for (int i = from; i < to; i++) {
                    byte[] k = list.get(i).key();
                    group.add(k == null ? null : Utf8Keys.normalize(k)); // null keys are not cached (kkv)
                }
                store.prefetch(group);
                for (int i = from; i < to; i++) {
                    ConsumerRecord<byte[], ByteBuffer> r = list.get(i);
                    byte[] key = group.key(i - from);
                    if (key != null) {
                        KeyValueStore.Change change;
                        try {
                            change = store.apply(group, i - from, r.value());
                        } catch (MemoryBudgetExceededException e) {
                            state.seen(last);
                            stopOverBudget(r);
                            return false;
                        }
                        if (change != KeyValueStore.Change.UNCHANGED && change != KeyValueStore.Change.ABSENT
                                && r.offset() >= notifyFromOffset) {
                            changes.add(new KeyChange(new String(key, StandardCharsets.UTF_8), r.partition(),
                                    r.offset()));
                        }
                    }
                    last = r.offset();
                }
            }
            // Once per batch: a volatile write per record costs a fence each on the hot path.
            state.seen(last);
        }
        batch.positions().forEach((p, pos) -> cache.partition(p).position(pos, batch.lags().get(p)));
        // Header and readiness first, then the notifier: a notified value is already served with its offset.
        if (cache.publishOffsets()) {
            becameReady();
        }
        notifier.append(changes, batch.positions());
        return true;
    }

    private void becameReady() {
        KeyValueStore store = cache.store();
        LOG.info("Cache {}: caught up with topic {} ({} keys, {} bytes of keys and values in a store of {} bytes; "
                + "all caches use {} of the {} bytes of memory.max-bytes); serving", config.name(), config.topic(),
                store.size(), store.bytes(), store.footprint(), budget.usedBytes(), budget.maxBytes());
        notifier.wakeUp();
    }

    /**
     * The record {@code r} does not fit the memory budget: stop reading (so the heap stays where it is, instead of
     * filling up into back-to-back full collections) and report why; the consumer thread idles until the sidecar stops.
     */
    private void stopOverBudget(ConsumerRecord<byte[], ByteBuffer> r) {
        KeyValueStore store = cache.store();
        String message = "cache " + config.name() + " exceeds memory.max-bytes: " + store.size() + " keys, "
                + store.bytes() + " bytes of keys and values in a store of " + store.footprint()
                + " bytes, and all caches together use " + budget.usedBytes() + " of the " + budget.maxBytes()
                + " bytes budget (" + budget.origin() + "); it stopped reading topic " + config.topic()
                + " at partition " + r.partition() + " offset " + r.offset() + " of "
                + cache.partition(r.partition()).assigned().endOffsetAtStart() + ". Give the sidecar a larger heap (-Xmx) "
                + "or memory.max-bytes, or cache a smaller topic";
        stopReading = true;
        cache.memoryExceeded(message);
        overBudget.accept(message);
    }

    private void finish() {
        try {
            stopApplier();
            notifier.drain(drainDeadline);
            if (config.groupId() != null && cache.ready()) {
                try {
                    commits.commitIfDue(true);
                } catch (RuntimeException e) {
                    LOG.warn("Cache {}: final commit for group {} failed: {}", config.name(), config.groupId(),
                            e.toString());
                }
            }
        } finally {
            consumer.close(org.apache.kafka.clients.consumer.CloseOptions.timeout(Duration.ofSeconds(5)));
        }
    }

    /** Stops the applier; batches it did not take are dropped unnotified, so their offsets are never committed. */
    private void stopApplier() {
        stopReading = true;
        if (applier.isAlive()) {
            try {
                applier.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
