package dev.mirrorv3.connect.source;

import static dev.mirrorv3.connect.source.ChainSourceTestSupport.assertSameRecords;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.consumeAll;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.createTopic;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.errors;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.highWatermark;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.produce;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.sinkConfig;
import static dev.mirrorv3.connect.source.ChainSourceTestSupport.sourceConfig;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.testsupport.ConnectTestCluster;
import dev.mirrorv3.testsupport.s3.S3TestServer;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chain source following one destination of a blob sink that writes two (a filesystem and S3Proxy): the sink's
 * config taken as it is with destination=offsite, the standby equal to the topic, the reads from the S3 destination.
 */
class ChainSourceTeeIT {
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String BUCKET = "backups";
    private static final String S3_ID = "it-id";
    private static final String S3_SECRET = "it-secret";
    private static final StringWriter logs = new StringWriter();

    private static ConnectTestCluster cluster;
    private static S3TestServer s3;

    @TempDir
    static Path root;

    @BeforeAll
    static void start() {
        ChainSourceTestSupport.captureLogs(logs);
        s3 = S3TestServer.start(S3_ID, S3_SECRET);
        s3.createBucket(BUCKET);
        cluster = ConnectTestCluster.start(1);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
        if (s3 != null) {
            s3.close();
        }
    }

    /** The blob sink writing {@code topic} to a filesystem (local) and to S3Proxy (offsite), each under its own name. */
    private static Map<String, String> teeSinkConfig(String topic) {
        Map<String, String> c = sinkConfig(topic, root, "unused", cluster.bootstrapServers());
        c.remove("filesystem.root");
        c.remove("destination.name");
        c.put("destinations", "local,offsite");
        c.put("destinations.local.filesystem.root", root.resolve("local").toString());
        c.put("destinations.local.destination.name", topic + "-local");
        c.put("destinations.offsite.destination.type", "s3");
        c.put("destinations.offsite.destination.name", topic + "-offsite");
        c.put("destinations.offsite.s3.endpoint", s3.endpoint().toString());
        c.put("destinations.offsite.s3.region", "us-east-1");
        c.put("destinations.offsite.s3.bucket", BUCKET);
        c.put("destinations.offsite.s3.prefix", "dr");
        c.put("destinations.offsite.s3.path.style.access", "true");
        for (String role : List.of("write", "read")) {
            c.put("destinations.offsite.s3." + role + ".access.key.id", S3_ID);
            c.put("destinations.offsite.s3." + role + ".secret.access.key", S3_SECRET);
        }
        c.put("destinations.offsite.encryption", "none");
        c.put("destinations.offsite.flush.max.time.ms", "700");
        return c;
    }

    @Test
    void followsTheOffsiteDestinationOfATeeWhileTheSinkWritesBoth() throws Exception {
        String topic = "tee";
        createTopic(cluster.bootstrapServers(), topic, 2);
        createTopic(cluster.bootstrapServers(), "tee-standby", 2);
        Map<String, String> sink = teeSinkConfig(topic);
        cluster.deploy("tee-backup", sink);
        produce(cluster.bootstrapServers(), topic, 2, 1000, 1);

        Map<String, String> source = sourceConfig(topic, root, "unused", "tee-standby", "preserve", cluster.bootstrapServers());
        source.remove("filesystem.root");
        source.remove("destination.name");
        sink.forEach((k, v) -> {
            if (k.startsWith("destinations")) {
                source.put(k, v);
            }
        });
        assertThat(errors(cluster.validate(ChainSourceConnector.class.getName(), source)).get("destination"))
                .as("Connect's validate: a tee without destination").singleElement().asString()
                .contains("several destinations [local, offsite]");

        source.put("destination", "offsite");
        int mark = logs.getBuffer().length();
        cluster.deploy("tee-follow", source);
        produce(cluster.bootstrapServers(), topic, 2, 1000, 2);
        Awaitility.await("the standby holds every record of the topic").atMost(WAIT).pollInterval(Duration.ofMillis(200))
                .until(() -> highWatermark(cluster.bootstrapServers(), "tee-standby", 0) == 2000
                        && highWatermark(cluster.bootstrapServers(), "tee-standby", 1) == 2000);
        assertThat(Files.isDirectory(root.resolve("local").resolve("tee-local").resolve("0"))).as("the sink writes both").isTrue();
        String followed = logs.getBuffer().substring(mark);
        assertThat(followed).as("the task reads the offsite destination's chains")
                .contains("following backup s3://" + BUCKET + "/dr/tee-offsite/0")
                .contains("following backup s3://" + BUCKET + "/dr/tee-offsite/1")
                .doesNotContain("tee-local");
        var expected = consumeAll(cluster.bootstrapServers(), topic);
        var actual = consumeAll(cluster.bootstrapServers(), "tee-standby");
        for (int p = 0; p < 2; p++) {
            assertSameRecords(expected.get(p), actual.get(p), true);
        }
        assertThat(cluster.taskState("tee-follow")).isEqualTo("RUNNING");
        cluster.delete("tee-follow");
        cluster.delete("tee-backup");
    }
}
