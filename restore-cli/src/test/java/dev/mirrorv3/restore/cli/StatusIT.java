package dev.mirrorv3.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mirrorv3.testsupport.KafkaTestBroker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code status}: table, JSON and the exit code when a row cannot be read. */
class StatusIT {
    private static KafkaTestBroker broker;

    @TempDir
    static Path dir;

    private static String config;

    @BeforeAll
    static void start() throws Exception {
        broker = KafkaTestBroker.start();
        broker.createTopic("events", 2, Map.of());
        try (KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(Map.of("bootstrap.servers", broker.bootstrapServers(),
                "key.serializer", ByteArraySerializer.class, "value.serializer", ByteArraySerializer.class))) {
            for (int i = 0; i < 700; i++) {
                p.send(new ProducerRecord<>("events", 0, null, new byte[] {1}));
            }
            for (int i = 0; i < 10; i++) {
                p.send(new ProducerRecord<>("events", 1, null, new byte[] {1}));
            }
        }
        Path root = dir.resolve("backups");
        TestBackups.write(root, "events-backup", 0, 0, TestBackups.records("events", 0, 0, 499, o -> true), 250);
        config = TestBackups.connectorJson(dir, "events-backup", "events", root).toString();
    }

    @AfterAll
    static void stop() {
        broker.close();
    }

    @Test
    void tableAndJsonShowHighWatermarkNextOffsetAndLag() throws Exception {
        CliRun table = CliRun.run("status", "--connector-config", config, "--bootstrap-servers", broker.bootstrapServers());
        assertThat(table.exitCode()).as(table.toString()).isZero();
        assertThat(table.out()).isEqualTo(
                "CONNECTOR      TOPIC   PARTITION  SOURCE_HWM  BACKUP_NEXT  LAG  ERROR\n"
                        + "events-backup  events          0         700          500  200\n"
                        + "events-backup  events          1          10            0   10\n");
        CliRun json = CliRun.run("status", "--connector-config", config, "--bootstrap-servers", broker.bootstrapServers(), "--format", "json");
        assertThat(json.exitCode()).as(json.toString()).isZero();
        JsonNode rows = new ObjectMapper().readTree(json.out());
        assertThat(rows.size()).isEqualTo(2);
        assertThat(rows.get(0).get("source_high_watermark").asLong()).isEqualTo(700);
        assertThat(rows.get(0).get("backup_next_offset").asLong()).isEqualTo(500);
        assertThat(rows.get(0).get("lag").asLong()).isEqualTo(200);
        assertThat(rows.get(1).get("lag").asLong()).isEqualTo(10);
        assertThat(rows.get(1).get("error").isNull()).isTrue();
    }

    @Test
    void anUnreachableBrokerOrACorruptChainFailsItsRow() throws Exception {
        CliRun down = CliRun.run("status", "--connector-config", config, "--bootstrap-servers", "localhost:1", "--timeout-ms", "1500");
        assertThat(down.exitCode()).as(down.toString()).isEqualTo(1);
        assertThat(down.out()).contains("events-backup", "source cluster localhost:1");

        Path foreign = dir.resolve("backups/events-backup/1/notes.txt");
        Files.createDirectories(foreign.getParent());
        Files.writeString(foreign, "hello");
        try {
            CliRun corrupt = CliRun.run("status", "--connector-config", config, "--bootstrap-servers", broker.bootstrapServers(),
                    "--format", "json");
            assertThat(corrupt.exitCode()).as(corrupt.toString()).isEqualTo(1);
            JsonNode rows = new ObjectMapper().readTree(corrupt.out());
            assertThat(rows.get(0).get("error").isNull()).isTrue();
            assertThat(rows.get(1).get("error").asText()).contains("notes.txt is not a backup object");
        } finally {
            Files.delete(foreign);
        }
    }
}
