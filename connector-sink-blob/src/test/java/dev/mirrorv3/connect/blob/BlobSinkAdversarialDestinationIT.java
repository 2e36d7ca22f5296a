package dev.mirrorv3.connect.blob;

import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.assertChainEquals;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.awaitChainNext;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.consumeAll;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.produceVaried;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.readChain;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A destination that someone else has touched, on the filesystem and on S3: each change has the
 * outcome the failure table of docs/operations.md gives it, its partition isolated with an error naming the object (the
 * task stays RUNNING; docs/operations.md, "A failed partition"), or, for our own temporary files, ignore-and-clean.
 */
class BlobSinkAdversarialDestinationIT extends BlobSinkWorkerBase {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String TOPIC = "adversarial";

    @BeforeAll
    static void prepare() {
        cluster.kafka().createTopic(TOPIC, 1);
        produceVaried(cluster.bootstrapServers(), TOPIC, 1, 30, 9);
        // A healthy chain 0-9, 10-19, 20-29 (on the filesystem) that each case copies to its store and then damages.
        cluster.deploy("seed", config(destinations.filesystem()));
        awaitChainNext(cluster, destinations.filesystem().stores(), "seed", PARQUET, Map.of(0, 30L), WAIT);
        cluster.delete("seed");
    }

    private static Map<String, String> config(TestDestination d) {
        Map<String, String> c = d.config(TOPIC, cluster.bootstrapServers());
        c.put("flush.max.records", "10");
        c.put("chain.check.interval.ms", "500");
        return c;
    }

    private static String name(long from, long to) {
        return ObjectName.plain(from, to, EnvelopeFormat.PARQUET).fileName();
    }

    /** A copy of the seed chain in destination {@code d} under the destination name {@code <case>-<store>}. */
    private static String copyOfSeed(TestDestination d, String scenario) {
        String name = scenario + "-" + d.label();
        d.copyChain(destinations.filesystem(), "seed", name);
        return name;
    }

    /** Deploys the connector and returns why it isolated the partition (its committed offset's note); the task runs on. */
    private static String deployAndAwaitFailure(TestDestination d, String name) {
        cluster.deploy(name, config(d));
        String note = cluster.awaitPartitionFailed(name, TOPIC, 0, WAIT);
        assertThat(cluster.taskState(name)).isEqualTo("RUNNING");
        cluster.delete(name);
        return note;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void foreignFile(TestDestination d) {
        String name = copyOfSeed(d, "foreign");
        d.put(name, 0, "notes.txt", BlobSinkTestSupport.utf8("hello"));
        assertThat(deployAndAwaitFailure(d, name)).contains(d.location(name, 0, "notes.txt"), "is not a backup object");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void overlappingObject(TestDestination d) {
        String name = copyOfSeed(d, "overlap");
        d.put(name, 0, name(15, 24), d.read(name, 0, name(10, 19)));
        assertThat(deployAndAwaitFailure(d, name)).contains("overlap in the chain", name(15, 24), "reach 19");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void gap(TestDestination d) {
        String name = copyOfSeed(d, "gap");
        d.delete(name, 0, name(10, 19));
        assertThat(deployAndAwaitFailure(d, name)).contains("gap in the chain", "offsets 10-19 are in no object", name(20, 29));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void truncatedLastObject(TestDestination d) {
        String name = copyOfSeed(d, "truncated");
        byte[] last = d.read(name, 0, name(20, 29));
        d.put(name, 0, name(20, 29), Arrays.copyOf(last, last.length / 2));
        assertThat(deployAndAwaitFailure(d, name)).contains(d.location(name, 0, name(20, 29)), "cannot be read");
    }

    /** Filesystem only: the S3 commit is one PutObject, there is no temporary object to leave behind. */
    @Test
    void leftoverTemporaryFileIsIgnoredAndRemoved() throws Exception {
        TestDestination.Filesystem d = destinations.filesystem();
        String name = copyOfSeed(d, "leftover");
        Path temp = d.dir(name, 0).resolve(name(30, 39) + ".tmp.0b4c0f5e-dead-beef");
        Files.write(temp, new byte[] {1, 2, 3});
        cluster.deploy(name, config(d));
        cluster.awaitRunning(name, WAIT);
        produceVaried(cluster.bootstrapServers(), TOPIC, 1, 10, 10);
        awaitChainNext(cluster, d.stores(), name, PARQUET, Map.of(0, 40L), WAIT);
        assertThat(temp).doesNotExist();
        assertChainEquals(consumeAll(cluster.bootstrapServers(), TOPIC).get(0).subList(0, 40),
                readChain(d.stores(), name, TOPIC, 0, PARQUET).subList(0, 40));
        cluster.delete(name);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void anObjectAtTheNameAboutToBeWrittenIsNeverOverwritten(TestDestination d) {
        // The topic may have grown in other cases; this chain continues from 30 to wherever the topic ends.
        String name = copyOfSeed(d, "squatted");
        long end = consumeAll(cluster.bootstrapServers(), TOPIC).get(0).size();
        cluster.deploy(name, config(d));
        cluster.awaitRunning(name, WAIT);
        awaitChainNext(cluster, d.stores(), name, PARQUET, Map.of(0, end), WAIT);
        long next = BlobSinkTestSupport.chain(d.stores(), name, 0, PARQUET).nextOffset().orElseThrow();
        String squatter = name(next, next + 9);
        byte[] theirs = d.read(name, 0, name(0, 9));
        d.put(name, 0, squatter, theirs);
        produceVaried(cluster.bootstrapServers(), TOPIC, 1, 10, 11);
        String note = cluster.awaitPartitionFailed(name, TOPIC, 0, WAIT);
        assertThat(note).contains(d.location(name, 0, squatter));
        assertThat(d.read(name, 0, squatter)).as("the squatter's object is untouched").isEqualTo(theirs);
        cluster.delete(name);
    }
}
