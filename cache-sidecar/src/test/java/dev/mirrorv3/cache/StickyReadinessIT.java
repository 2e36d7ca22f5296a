package dev.mirrorv3.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.mirrorv3.cache.config.ConfigLoader;
import dev.mirrorv3.testsupport.EmbeddedKafka;
import java.time.Duration;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/** Sticky readiness, as kafka-keyvalue has it: once ready, the sidecar stays ready and keeps serving while the broker is gone. */
class StickyReadinessIT {

    @Test
    void check05_readyAndServingSurviveTheBrokerGoingAway() throws Exception {
        EmbeddedKafka kafka = EmbeddedKafka.start();
        Sidecar s = null;
        try {
            kafka.createTopic("sticky", 1);
            try (KafkaProducer<byte[], byte[]> p = kafka.byteProducer()) {
                p.send(new ProducerRecord<>("sticky", "k".getBytes(), "v".getBytes())).get();
            }
            s = Sidecar.start(ConfigLoader.fromYaml("http: {host: 127.0.0.1, port: 0}\nmetrics: {port: -1}\n"
                    + "shutdown: {deadline-ms: 0}\ncaches:\n  s:\n    main: true\n    bootstrap-servers: "
                    + kafka.bootstrapServers() + "\n    topic: sticky\n", System::getenv));
            SidecarClient c = new SidecarClient(s.httpPort());
            await().atMost(Duration.ofSeconds(30)).until(() -> c.status("/q/health/ready") == 200);
            kafka.close();
            kafka = null;
            for (int i = 0; i < 10; i++) {
                assertThat(c.status("/q/health/ready")).isEqualTo(200);
                assertThat(c.status("/q/health/live")).isEqualTo(200);
                assertThat(c.text("/cache/v1/raw/k")).isEqualTo("v");
                Thread.sleep(100);
            }
        } finally {
            if (s != null) {
                s.requestShutdown(0);
                s.awaitExit(Duration.ofSeconds(60));
            }
            if (kafka != null) {
                kafka.close();
            }
        }
    }
}
