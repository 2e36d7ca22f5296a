package dev.mirrorv3.connect.blob;

import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.assertChainEquals;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.awaitChainNext;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.consumeAll;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.produceVaried;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.readChain;
import static dev.mirrorv3.connect.blob.BlobSinkTestSupport.sinkConfig;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.testsupport.ConnectTestCluster;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A destination that someone else has touched (issue test 4): each change has the outcome SPEC §3–4 gives it,
 * an error naming the object, or, for our own temporary files, ignore-and-clean.
 */
class BlobSinkAdversarialDestinationIT {
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final EnvelopeSettings PARQUET = EnvelopeSettings.parquetBytes();
    private static final String TOPIC = "adversarial";

    @RegisterExtension
    static final ConnectTestCluster cluster = ConnectTestCluster.perClass(1);

    @TempDir
    static Path root;

    @BeforeAll
    static void prepare() {
        cluster.kafka().createTopic(TOPIC, 1);
        produceVaried(cluster.bootstrapServers(), TOPIC, 1, 30, 9);
        // A healthy chain 0-9, 10-19, 20-29 that each case copies and then damages.
        cluster.deploy("seed", config());
        awaitChainNext(cluster, root, "seed", PARQUET, Map.of(0, 30L), WAIT);
        cluster.delete("seed");
    }

    private static Map<String, String> config() {
        Map<String, String> c = sinkConfig(TOPIC, root, cluster.bootstrapServers());
        c.put("flush.max.records", "10");
        c.put("chain.check.interval.ms", "500");
        return c;
    }

    private static String name(long from, long to) {
        return ObjectName.plain(from, to, EnvelopeFormat.PARQUET).fileName();
    }

    /** A copy of the seed chain under the destination name {@code name}. */
    private static Path copyOfSeed(String name) throws IOException {
        Path dir = Files.createDirectories(root.resolve(name).resolve("0"));
        try (Stream<Path> files = Files.list(root.resolve("seed/0"))) {
            for (Path f : files.toList()) {
                Files.copy(f, dir.resolve(f.getFileName()));
            }
        }
        return dir;
    }

    private static String deployAndAwaitFailure(String name) {
        cluster.deploy(name, config());
        String trace = cluster.awaitTaskFailure(name, WAIT);
        cluster.delete(name);
        return trace;
    }

    @Test
    void foreignFile() throws Exception {
        Path dir = copyOfSeed("foreign");
        Files.writeString(dir.resolve("notes.txt"), "hello");
        assertThat(deployAndAwaitFailure("foreign")).contains(dir.resolve("notes.txt").toString(), "is not a backup object");
    }

    @Test
    void overlappingObject() throws Exception {
        Path dir = copyOfSeed("overlap");
        Files.copy(dir.resolve(name(10, 19)), dir.resolve(name(15, 24)));
        assertThat(deployAndAwaitFailure("overlap")).contains("overlap in the chain", name(15, 24), "reach 19");
    }

    @Test
    void gap() throws Exception {
        Path dir = copyOfSeed("gap");
        Files.delete(dir.resolve(name(10, 19)));
        assertThat(deployAndAwaitFailure("gap")).contains("gap in the chain", "offsets 10-19 are in no object", name(20, 29));
    }

    @Test
    void truncatedLastObject() throws Exception {
        Path dir = copyOfSeed("truncated");
        Path last = dir.resolve(name(20, 29));
        try (FileChannel ch = FileChannel.open(last, StandardOpenOption.WRITE)) {
            ch.truncate(ch.size() / 2);
        }
        assertThat(deployAndAwaitFailure("truncated")).contains(last.toString(), "cannot be read");
    }

    @Test
    void leftoverTemporaryFileIsIgnoredAndRemoved() throws Exception {
        Path dir = copyOfSeed("leftover");
        Path temp = dir.resolve(name(30, 39) + ".tmp.0b4c0f5e-dead-beef");
        Files.write(temp, new byte[] {1, 2, 3});
        cluster.deploy("leftover", config());
        cluster.awaitRunning("leftover", WAIT);
        produceVaried(cluster.bootstrapServers(), TOPIC, 1, 10, 10);
        awaitChainNext(cluster, root, "leftover", PARQUET, Map.of(0, 40L), WAIT);
        assertThat(temp).doesNotExist();
        assertChainEquals(consumeAll(cluster.bootstrapServers(), TOPIC).get(0).subList(0, 40),
                readChain(root, "leftover", TOPIC, 0, PARQUET).subList(0, 40));
        cluster.delete("leftover");
    }

    @Test
    void anObjectAtTheNameAboutToBeWrittenIsNeverOverwritten() throws Exception {
        // Runs after the other cases have added records 30-39; this chain continues at offset 30 or 40.
        Path dir = copyOfSeed("squatted");
        long end = consumeAll(cluster.bootstrapServers(), TOPIC).get(0).size();
        cluster.deploy("squatted", config());
        cluster.awaitRunning("squatted", WAIT);
        awaitChainNext(cluster, root, "squatted", PARQUET, Map.of(0, end), WAIT);
        long next = BlobSinkTestSupport.chain(root, "squatted", 0, PARQUET).nextOffset().orElseThrow();
        Path squatter = dir.resolve(name(next, next + 9));
        Files.copy(dir.resolve(name(0, 9)), squatter);
        byte[] before = Files.readAllBytes(squatter);
        produceVaried(cluster.bootstrapServers(), TOPIC, 1, 10, 11);
        String trace = cluster.awaitTaskFailure("squatted", WAIT);
        assertThat(trace).contains(squatter.toString());
        assertThat(Files.readAllBytes(squatter)).as("the squatter's object is untouched").isEqualTo(before);
        cluster.delete("squatted");
    }
}
