package dev.mirrorv3.cache;

import static org.awaitility.Awaitility.await;

import dev.mirrorv3.cache.config.ConfigLoader;
import dev.mirrorv3.testsupport.EmbeddedKafka;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/** One broker per test class; sidecars started from YAML on free ports and stopped after each test. */
abstract class SidecarITSupport {

    static EmbeddedKafka kafka;
    static KafkaProducer<byte[], byte[]> producer;
    private final List<Sidecar> started = new ArrayList<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @BeforeAll
    static void startKafka() {
        kafka = EmbeddedKafka.start();
        producer = kafka.byteProducer();
    }

    @AfterAll
    static void stopKafka() throws Exception {
        if (producer != null) {
            producer.close();
        }
        if (kafka != null) {
            kafka.close();
        }
    }

    @AfterEach
    void stopSidecars() throws Exception {
        for (Sidecar s : started) {
            if (!s.stopped()) {
                s.requestShutdown(0);
                s.awaitExit(Duration.ofSeconds(30));
            }
        }
        started.clear();
        for (AutoCloseable c : closeables) {
            c.close();
        }
        closeables.clear();
    }

    <T extends AutoCloseable> T closeLater(T c) {
        closeables.add(c);
        return c;
    }

    /** Starts a sidecar from YAML; {@code %BOOTSTRAP%} is replaced by the broker's address. */
    Sidecar sidecar(String yaml) {
        Sidecar s = Sidecar.start(ConfigLoader.fromYaml(
                "http: {host: 127.0.0.1, port: 0}\nmetrics: {port: 0}\n" + yaml.replace("%BOOTSTRAP%",
                        kafka.bootstrapServers()), System::getenv));
        started.add(s);
        return s;
    }

    static String cacheYaml(String name, String topic, String extra) {
        return "  " + name + ":\n    bootstrap-servers: %BOOTSTRAP%\n    topic: " + topic + "\n"
                + extra.indent(4);
    }

    static SidecarClient awaitReady(Sidecar s) {
        SidecarClient c = new SidecarClient(s.httpPort());
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                .until(() -> c.status("/q/health/ready") == 200);
        return c;
    }

    static RecordMetadata produce(String topic, Integer partition, String key, String value) {
        return produce(topic, partition, key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                value == null ? null : value.getBytes(StandardCharsets.UTF_8));
    }

    static RecordMetadata produce(String topic, Integer partition, byte[] key, byte[] value) {
        try {
            return producer.send(new ProducerRecord<>(topic, partition, key, value)).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    static void produceAll(List<Future<RecordMetadata>> futures) {
        producer.flush();
        for (Future<RecordMetadata> f : futures) {
            try {
                f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
