package dev.mirrorv3.restore.cli.bench;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

/**
 * The produce phase of a run, read from the target topic rather than from the producer: a thread lists the topic's end
 * offsets every 20 ms while the run goes on, and the phase is from the first listing that shows a record to the first
 * that shows all of them. The tool and the restore are read the same way, so their produce phases compare; records
 * already there at the first sighting are not counted.
 */
final class ProducePhase implements AutoCloseable {
    private final Admin admin;
    private final Map<TopicPartition, OffsetSpec> request = new HashMap<>();
    private final long records;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile long firstNanos = -1;
    private volatile long firstSeen;
    private volatile long lastNanos = -1;
    private volatile Exception failure;

    ProducePhase(Admin admin, String topic, int partitions, long records) {
        this.admin = admin;
        this.records = records;
        for (int p = 0; p < partitions; p++) {
            request.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        this.thread = new Thread(this::run, "produce-phase-" + topic);
        thread.setDaemon(true);
        thread.start();
    }

    private void run() {
        try {
            while (running && lastNanos < 0) {
                long seen = 0;
                for (var info : admin.listOffsets(request).all().get(30, TimeUnit.SECONDS).values()) {
                    seen += info.offset();
                }
                long now = System.nanoTime();
                if (seen > 0 && firstNanos < 0) {
                    firstNanos = now;
                    firstSeen = seen;
                }
                if (seen >= records) {
                    lastNanos = now;
                }
                Thread.sleep(20);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            failure = e;
        }
    }

    /** Waits (up to 30 s) for the listing that shows every record; then the phase is known. */
    Phase await() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (lastNanos < 0 && failure == null && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        if (failure != null) {
            throw new IllegalStateException("listing the target's end offsets failed", failure);
        }
        if (lastNanos < 0) {
            throw new IllegalStateException("the target never showed all " + records + " records within 30 s of the run's end");
        }
        return new Phase(records - firstSeen, (lastNanos - firstNanos) / 1e9);
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(5000);
    }

    /** The records that arrived during the phase and its seconds. */
    record Phase(long records, double seconds) {
        double rate() {
            return seconds > 0 ? records / seconds : 0;
        }
    }
}
