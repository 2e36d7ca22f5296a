package dev.mirrorv3.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bench/run-kafka-sink-bench's connector configs (its --configs mode, which starts nothing): tuned MirrorMaker 2 runs
 * on the Kafka sink's terms, consumer and task count included, not only its producer.
 */
class KafkaSinkBenchConfigTest {
    private static final Path SCRIPT = Path.of("run-kafka-sink-bench").toAbsolutePath(); // surefire runs in bench/
    private static final List<String> CONSUMER = List.of("fetch.min.bytes", "fetch.max.bytes", "max.partition.fetch.bytes",
            "max.poll.records", "receive.buffer.bytes");

    @TempDir
    Path dir;

    @Test
    void tunedMirrorMakerHasTheKafkaSinksConsumerSettingsAndTaskCount() throws Exception {
        Map<String, String> ks = configs(8, "ks");
        Map<String, String> mm2t = configs(8, "mm2t");

        assertThat(mm2t).containsEntry("tasks.max", "8");
        assertThat(ks).containsEntry("tasks.max", "8");
        for (String k : CONSUMER) {
            assertThat(mm2t.get("source.consumer." + k)).as("tuned MirrorMaker 2's source.consumer.%s", k).isNotNull()
                    .isEqualTo(ks.get("consumer.override." + k));
        }
        assertThat(mm2t).containsEntry("source.consumer.max.poll.records", "10000")
                .containsEntry("producer.override.enable.idempotence", "true")
                .containsEntry("producer.override.batch.size", "262144");
    }

    @Test
    void untunedMirrorMakerKeepsItsDefaults() throws Exception {
        Map<String, String> mm2 = configs(8, "mm2");

        assertThat(mm2).containsEntry("tasks.max", "1");
        assertThat(mm2.keySet()).noneMatch(k -> k.startsWith("source.consumer.") || k.startsWith("producer.override.linger"));
        assertThat(configs(1, "mm2t")).containsEntry("tasks.max", "1");
    }

    @SuppressWarnings("unchecked")
    private Map<String, String> configs(int partitions, String name) throws Exception {
        Path out = dir.resolve("p" + partitions);
        Process p = new ProcessBuilder("bash", SCRIPT.toString(), "--configs", String.valueOf(partitions), out.toString())
                .redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("the script finished").isTrue();
        assertThat(p.exitValue()).as("exit status; output: %s", text).isZero();
        return new ObjectMapper().readValue(out.resolve(name + ".json").toFile(), Map.class);
    }
}
