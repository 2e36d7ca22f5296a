package dev.mirrorv3.restore.cli.restore;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.meta.MetaSnapshots;
import dev.mirrorv3.chain.meta.TopicSnapshot;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.restore.cli.CliRun;
import dev.mirrorv3.restore.cli.TestBackups;
import dev.mirrorv3.testsupport.KafkaTestBroker;
import dev.mirrorv3.testsupport.TestTopics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A topic that {@code --create-topic} created is deleted again when the restore fails before its first record, also when
 * the failure is the wait for the created topic's metadata (docs/restore-cli.md: restore --create-topic --groups): the
 * broker's authorizer lets restore's admin client create the topic and refuses it the topic's metadata
 * ({@link MetadataDenyingAuthorizer}).
 */
class CreatedTopicCleanupIT {
    @TempDir
    static Path dir;

    private static KafkaTestBroker broker;
    private static String config;

    @BeforeAll
    static void start() throws Exception {
        broker = KafkaTestBroker.start(Map.of("authorizer.class.name", MetadataDenyingAuthorizer.class.getName()));
        Path root = dir.resolve("backups");
        TestBackups.write(root, "orders", 0, 0, TestBackups.records("orders", 0, 0, 99, o -> true), 50);
        new MetaSnapshots(new FilesystemStore(root, "orders"), ObjectEncryption.none()).writeTopic(new TopicSnapshot(
                TestBackups.BASE_TS, "orders", "id", 1, 1, Map.of("retention.ms", "-1")));
        config = TestBackups.connectorJson(dir, "orders", "orders", root).toString();
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    @Test
    void aFailedWaitForTheCreatedTopicsMetadataDeletesTheTopic() throws Exception {
        String topic = MetadataDenyingAuthorizer.PREFIX + "orders";
        int creates = MetadataDenyingAuthorizer.CREATES.get();

        CliRun r = CliRun.run("restore", "--connector-config", config, "--offsets", "preserve", "--progress", "none",
                "--bootstrap-servers", broker.bootstrapServers(), "--topic", topic, "--create-topic", "--timeout-ms", "5000");

        // the fault landed: the broker took restore's CreateTopics, then refused it the topic's metadata
        assertThat(MetadataDenyingAuthorizer.CREATES.get()).as(r.toString()).isGreaterThan(creates);
        assertThat(r.out()).contains("create: " + topic + " with 1 partitions");
        assertThat(MetadataDenyingAuthorizer.REFUSED).as(r.toString()).contains(topic);
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(1);
        // The controller took the deletion when restore printed it; the broker's listing has it a moment later.
        assertThat(TestTopics.awaitGone(broker.admin(), List.of(topic), Duration.ofSeconds(15)))
                .as("topics left on the target 15 s after\n" + r).isEmpty();
        assertThat(r.out()).contains("deleted: " + topic + " (created by this restore, nothing sent)");
        assertThat(r.err()).contains(topic, "was created by this restore and deleted again", "Nothing was sent",
                "TopicAuthorizationException");
    }
}
