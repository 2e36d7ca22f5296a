package dev.mirrorv3.connect.blob;

import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.awaitChainNext;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.chain;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.createTopicWithRecords;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.produceVaried;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.sinkConfig;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.RecordHeader;
import dev.mirrorv3.testsupport.ConnectorConfigs;
import dev.mirrorv3.testsupport.FastRecreation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.runtime.rest.entities.ConfigInfos;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Lost positions, a destination ahead of its source, a re-created source topic (on the filesystem and on S3), and
 * validate()'s refusals. Each condition is the partition's: it is isolated, named in its committed offset (what
 * mirror-v3 status shows), and nothing is written (BlobSinkIsolationIT: the other partitions go on).
 */
class BlobSinkPositionIT extends BlobSinkWorkerBase {
    private static final Duration WAIT = Duration.ofSeconds(60);

    private static void deleteRecordsBefore(String topic, long offset) throws Exception {
        try (Admin admin = cluster.kafka().createAdminClient()) {
            admin.deleteRecords(Map.of(new TopicPartition(topic, 0), RecordsToDelete.beforeOffset(offset))).all().get();
        }
    }

    /**
     * Creates a topic of one partition with {@code records} varied records, deploys the connector on it and waits until
     * its chain holds them all; returns the connector's config, to deploy it again.
     */
    private static Map<String, String> backUpOnePartition(TestDestination d, String topic, int records) {
        createTopicWithRecords(cluster, topic, 1, records, 1);
        Map<String, String> config = d.config(topic, cluster.bootstrapServers());
        cluster.deploy(topic, config);
        awaitChainNext(cluster, d.stores(), topic, PARQUET, Map.of(0, (long) records), WAIT);
        return config;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void lostPositionOfAStoppedConnectorIsolatesThePartition(TestDestination d) throws Exception {
        String topic = "lost-" + d;
        Map<String, String> config = backUpOnePartition(d, topic, 100);
        cluster.delete(topic);

        produceVaried(cluster.bootstrapServers(), topic, 1, 100, 2);
        deleteRecordsBefore(topic, 150);
        cluster.deploy(topic, config);
        String note = cluster.awaitPartitionFailed(topic, topic, 0, WAIT);
        assertThat(note).contains("lost position for " + topic + "-0", "ends at next offset 100", "now starts at 150",
                "removed offsets 100-149", "set destination.name to a new name");
        assertThat(chain(d.stores(), topic, 0, PARQUET).nextOffset()).as("no silent jump: nothing written").hasValue(100);
        cluster.delete(topic);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void retentionOvertakingAPausedConnectorIsNeverASilentJump(TestDestination d) throws Exception {
        String topic = "overtaken-" + d;
        backUpOnePartition(d, topic, 50);
        cluster.connect().pauseConnector(topic);
        Thread.sleep(2000);
        produceVaried(cluster.bootstrapServers(), topic, 1, 50, 2);
        deleteRecordsBefore(topic, 90);
        cluster.connect().resumeConnector(topic);
        // The consumer finds its position out of range (auto.offset.reset=none) and Connect fails the task (its own
        // failure, in its poll); the restarted task then names the lost range and isolates the partition. Either way:
        // never a silent jump.
        String trace = cluster.awaitTaskFailure(topic, WAIT);
        assertThat(trace).containsAnyOf("out of range", "OffsetOutOfRange", "lost position");
        cluster.connect().restartTask(topic, 0);
        // The worker's status store may show the failure from before the restart for a moment (it is read back from
        // the status topic): that one is waited out.
        String afterRestart = cluster.awaitPartitionFailed(topic, topic, 0, WAIT, true);
        assertThat(afterRestart).contains("lost position for " + topic + "-0", "ends at next offset 50", "now starts at 90");
        assertThat(chain(d.stores(), topic, 0, PARQUET).nextOffset()).hasValue(50);
        cluster.delete(topic);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void aRecreatedTopicBehindItsBackupIsRefused(TestDestination d) {
        String topic = "recreated-" + d;
        Map<String, String> config = backUpOnePartition(d, topic, 100);
        cluster.delete(topic);
        cluster.kafka().deleteTopic(topic);
        createTopicWithRecords(cluster, topic, 1, 10, 2);
        cluster.deploy(topic, config);
        String note = cluster.awaitPartitionFailed(topic, topic, 0, WAIT);
        // The topic id tells first (PositionRule.checkIdentity); offsets alone would say "the destination is ahead".
        assertThat(note).contains("source topic " + topic + " was deleted and created again", "(next offset 100) holds a copy");
        cluster.delete(topic);
    }

    /**
     * A topic deleted and created again under the same name, whose new log has grown past the backup's end: offsets
     * cannot show it (the next offset lies inside the new log), the topic id does. The connector is stopped and resumed
     * around the re-creation, as an operator's restart does; nothing of the new topic may reach the old chain.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void aTopicRecreatedPastTheBackupsEndIsRefusedByItsId(TestDestination d) {
        String topic = "recreated-longer-" + d;
        backUpOnePartition(d, topic, 100);
        cluster.stop(topic, WAIT);
        cluster.kafka().deleteTopic(topic);
        createTopicWithRecords(cluster, topic, 1, 300, 2);
        cluster.connect().resumeConnector(topic);
        String note = cluster.awaitPartitionFailed(topic, topic, 0, WAIT);
        assertThat(chain(d.stores(), topic, 0, PARQUET).nextOffset()).as("nothing of the new topic is written").hasValue(100);
        assertThat(note).contains("source topic " + topic + " was deleted and created again",
                "(next offset 100) holds a copy of the topic with id", "new destination.name", "Nothing of the new topic was written");
        cluster.delete(topic);
    }

    /**
     * The operator's sequence with the connector running: the topic deleted, created again and filled past the backup's
     * end. The task's consumer may fail first in Connect's rebalance (the group's offsets went with the topic:
     * NoOffsetForPartitionException); the partition watch sees the new topic id and restarts the task, whose open()
     * names the re-created topic and isolates its partitions. Filesystem only: the store plays no part in how the
     * re-creation is noticed.
     */
    @Test
    void aTopicRecreatedUnderARunningConnectorIsolatesItsPartitionsNamingIt() throws Exception {
        TestDestination d = destinations.filesystem();
        String topic = "recreated-running";
        createTopicWithRecords(cluster, topic, 3, 100, 1);
        Map<String, String> config = d.config(topic, cluster.bootstrapServers());
        config.put("partitions.watch.interval.ms", "1000");
        cluster.deploy(topic, config);
        awaitChainNext(cluster, d.stores(), topic, PARQUET, Map.of(0, 100L, 1, 100L, 2, 100L), WAIT);
        cluster.kafka().deleteTopic(topic);
        Thread.sleep(3000); // an operator's pause: the task's consumer sees the topic gone
        createTopicWithRecords(cluster, topic, 3, 300, 2);
        for (int p = 0; p < 3; p++) {
            assertThat(cluster.awaitPartitionFailed(topic, topic, p, WAIT, true)).contains("source topic " + topic
                    + " was deleted and created again", "new destination.name");
        }
        for (int p = 0; p < 3; p++) {
            assertThat(chain(d.stores(), topic, p, PARQUET).nextOffset()).as("partition %d: nothing of the new topic", p).hasValue(100);
        }
        cluster.delete(topic);
    }

    /**
     * The topic deleted and created again within a second under a running task while records flow, the new topic at
     * once longer than the old one. The task is in a slow put() meanwhile (held by the test), so its consumer fetches
     * nothing between the two topics and keeps its positions (no rebalance: the partition count is unchanged): its next
     * fetches return the new topic's records as the old one's next. Not one of them may reach the old chain. The
     * partition watch, which would restart the task on its own timer, looks only every 10 minutes here: the task's own
     * check before an object's commit is what is tested. The re-created topic is the condition of each of its
     * partitions: both are isolated, the task stays RUNNING. Filesystem only: the store plays no part in it.
     */
    @Test
    void aTopicRecreatedWithinASecondUnderARunningTaskNeverReachesTheChain() throws Exception {
        TestDestination d = destinations.filesystem();
        String topic = "recreated-fast";
        int partitions = 2;
        cluster.kafka().createTopic(topic, partitions);
        Faults faults = Faults.forDestination(topic);
        CountDownLatch release = new CountDownLatch(1);
        try (Admin source = cluster.kafka().createAdminClient();
             FastRecreation feed = FastRecreation.start(cluster.bootstrapServers(), source, topic, partitions, 200)) {
            Map<String, String> config = d.config(topic, cluster.bootstrapServers());
            config.put("connector.class", FaultInjectingBlobSinkConnector.class.getName());
            config.put("partitions.watch.interval.ms", "600000");
            config.put("flush.max.time.ms", "300");
            cluster.deploy(topic, config);
            awaitChainNext(cluster, d.stores(), topic, PARQUET, Map.of(0, 100L, 1, 100L), WAIT);
            faults.holdNextPut.set(release);
            assertThat(faults.putHeld.await(30, TimeUnit.SECONDS)).as("premise: a put() with records is held").isTrue();
            FastRecreation.Recreated r = feed.recreate(1000);
            release.countDown();
            FastRecreation.assertFast(r);

            Awaitility.await("the partitions of " + topic + " isolated, the task failed or the chain past the old topic's end")
                    .atMost(WAIT).pollInterval(Duration.ofMillis(200)).ignoreExceptions().until(() -> cluster.failureTrace(topic) != null
                            || cluster.partitionFailedGauge(topic, topic, 0) == 1 && cluster.partitionFailedGauge(topic, topic, 1) == 1
                            || chain(d.stores(), topic, 0, PARQUET).nextOffset().orElse(0) > r.oldEnd().get(0)
                            || chain(d.stores(), topic, 1, PARQUET).nextOffset().orElse(0) > r.oldEnd().get(1));
            for (int p = 0; p < partitions; p++) {
                List<BackupRecord> chain = BlobSinkTestSupport.readChain(d.stores(), topic, topic, p, PARQUET);
                assertThat(chain).as("premise: partition %d was backed up while records flowed", p).isNotEmpty();
                for (BackupRecord b : chain) {
                    String at = "backup of " + topic + "-" + p + " offset " + b.offset();
                    assertThat(b.headers()).as(at + ": a record of the old topic")
                            .contains(new RecordHeader(FastRecreation.HEADER, "old".getBytes(StandardCharsets.UTF_8)));
                    feed.assertOldRecord(at, p, b.offset(), b.key(), b.value());
                }
            }
            FastRecreation.assertPartitionsIsolated(cluster, topic, partitions, r, WAIT);
        } finally {
            release.countDown();
        }
        cluster.delete(topic);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void anEmptyChainStartsAtTheLogStartOffset(TestDestination d) throws Exception {
        String topic = "starts-later-" + d;
        createTopicWithRecords(cluster, topic, 1, 100, 1);
        deleteRecordsBefore(topic, 40);
        cluster.deploy(topic, d.config(topic, cluster.bootstrapServers()));
        awaitChainNext(cluster, d.stores(), topic, PARQUET, Map.of(0, 100L), WAIT);
        assertThat(chain(d.stores(), topic, 0, PARQUET).objects().get(0).from()).isEqualTo(40);
        cluster.delete(topic);
    }

    /** Connector-level settings, the same for every store (S3's own settings: {@code BlobSinkS3IT}). */
    @Test
    void validateRefusesUnsafeConfigsPerField() {
        Map<String, String> config = new HashMap<>(sinkConfig("a,b", Path.of("relative/dir"), "localhost:1"));
        ConnectorConfigs.with(config, "consumer.override.auto.offset.reset", null, "header.converter", null,
                "consumer.override.isolation.level", "read_uncommitted", "errors.tolerance", "all",
                "value.converter", "org.apache.kafka.connect.storage.StringConverter",
                "transforms", "x", "transforms.x.type", "org.apache.kafka.connect.transforms.InsertHeader");
        ConfigInfos infos = cluster.validate(BlobSinkConnector.class.getName(), config);
        Map<String, String> errors = errorsByField(infos);
        assertThat(errors.get("consumer.override.auto.offset.reset")).contains("set consumer.override.auto.offset.reset=none",
                "silently jump");
        assertThat(errors.get("consumer.override.isolation.level")).contains("read_committed", "found read_uncommitted");
        assertThat(errors.get("errors.tolerance")).contains("errors.tolerance=all would skip records");
        assertThat(errors.get("value.converter")).contains("ByteArrayConverter", "found org.apache.kafka.connect.storage.StringConverter");
        assertThat(errors.get("header.converter")).contains("header.converter=org.apache.kafka.connect.converters.ByteArrayConverter");
        assertThat(errors.get("transforms")).contains("no transform may run in front of the blob sink");
        assertThat(errors.get("topics")).contains("${topic}");
        assertThat(errors.get("filesystem.root")).contains("must be an absolute path");
        assertThat(errors.get("source.admin.bootstrap.servers")).contains("cannot reach the source cluster at localhost:1");
        assertThat(errors).doesNotContainKey("format");

        Map<String, String> good = destinations.filesystem().config("good", cluster.bootstrapServers());
        good.put("name", "good");
        assertThat(errorsByField(cluster.validate(BlobSinkConnector.class.getName(), good))).isEmpty();
        Map<String, String> badValue = new HashMap<>(good);
        badValue.put("format", "csv");
        badValue.put("flush.max.records", "0");
        assertThat(errorsByField(cluster.validate(BlobSinkConnector.class.getName(), badValue)))
                .containsKeys("format", "flush.max.records");
    }

    private static Map<String, String> errorsByField(ConfigInfos infos) {
        return infos.configs().stream()
                .filter(i -> i.configValue() != null && !i.configValue().errors().isEmpty())
                .collect(Collectors.toMap(i -> i.configValue().name(), i -> String.join(" | ", i.configValue().errors()),
                        (a, b) -> a + " | " + b));
    }

}
