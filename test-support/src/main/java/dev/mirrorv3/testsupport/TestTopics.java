package dev.mirrorv3.testsupport;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;

/** Topic creation for the test brokers: one replica, the given topic configs, waiting up to 30 s for it. */
public final class TestTopics {
    private TestTopics() {
    }

    static void create(Admin admin, String name, int partitions, Map<String, String> configs) {
        try {
            admin.createTopics(List.of(new NewTopic(name, partitions, (short) 1).configs(configs))).all().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topic " + name, e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot create topic " + name, e);
        }
    }

    /**
     * Waits until {@code topics}, just created, are in the broker's metadata: a loaded broker can answer the creation
     * before another client (a connector's validation) finds the topic.
     */
    public static void awaitVisible(Admin admin, Collection<String> topics, Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            try {
                admin.describeTopics(topics).allTopicNames().get(wait.toSeconds(), TimeUnit.SECONDS);
                return;
            } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("topics " + topics + " were created but not in the metadata after " + wait, e);
                }
                Thread.sleep(100);
            }
        }
    }

    /**
     * Waits until none of {@code topics} is listed any more: a deletion the controller took is in a broker's listing a
     * moment later. Returns the topics still listed when {@code wait} ran out (empty once they are gone).
     */
    public static Set<String> awaitGone(Admin admin, Collection<String> topics, Duration wait)
            throws InterruptedException, ExecutionException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            Set<String> left = new TreeSet<>(admin.listTopics().names().get());
            left.retainAll(topics);
            if (left.isEmpty() || System.nanoTime() > deadline) {
                return left;
            }
            Thread.sleep(100);
        }
    }
}
