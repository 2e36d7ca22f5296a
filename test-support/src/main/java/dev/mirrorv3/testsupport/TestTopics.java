package dev.mirrorv3.testsupport;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;

/** Topic creation for the test brokers: one replica, the given topic configs, waiting up to 30 s for it. */
final class TestTopics {
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
}
