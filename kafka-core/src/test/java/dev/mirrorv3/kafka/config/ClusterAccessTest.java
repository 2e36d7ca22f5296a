package dev.mirrorv3.kafka.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.config.Config;
import org.junit.jupiter.api.Test;

/**
 * The one rule of a cluster a connector reaches (source, destination, target): a bootstrap is set, and online the
 * cluster answers within 5 s, with one message naming the cluster, the address, the cause and the settings to check.
 */
class ClusterAccessTest {
    private static final ClusterAccess TARGET = new ClusterAccess("target", "target.admin.bootstrap.servers",
            "producer.override.bootstrap.servers", "target.admin.*", "the task reads the target's high watermark");

    private final Map<String, String> props = new HashMap<>();
    private final Config config = new Config(new ArrayList<>());
    private final AtomicBoolean asked = new AtomicBoolean();
    private final AtomicBoolean ranOwnChecks = new AtomicBoolean();

    private Map<String, List<String>> validate(ClusterAccess cluster, boolean offline) {
        cluster.validate(props, new ConnectorChecks(props, config), offline, () -> {
            asked.set(true);
            return new HashMap<>(Map.of("bootstrap.servers", cluster.bootstrap(props)));
        }, admin -> ranOwnChecks.set(true));
        return ConfigErrors.byName(config);
    }

    @Test
    void noBootstrapIsOneErrorSayingTheFallbackAndWhyEvenOffline() {
        assertThat(validate(TARGET, true)).containsExactly(Map.entry("target.admin.bootstrap.servers",
                List.of("required (or producer.override.bootstrap.servers): the task reads the target's high watermark")));
        assertThat(asked).isFalse();
    }

    @Test
    void withoutAFallbackTheConfigDefReportsAMissingBootstrap() {
        ClusterAccess destination = new ClusterAccess("destination", "destination.bootstrap.servers", null, "destination.*", "");
        assertThat(validate(destination, false)).isEmpty();
        assertThat(asked).isFalse();
    }

    @Test
    void offlineNothingIsContacted() {
        props.put("producer.override.bootstrap.servers", "localhost:1");
        assertThat(TARGET.bootstrap(props)).isEqualTo("localhost:1");
        assertThat(validate(TARGET, true)).isEmpty();
        assertThat(asked).isFalse();
    }

    @Test
    void aClusterThatDoesNotAnswerIsOneErrorOnTheBootstrapAndTheConnectorsOwnChecksDoNotRun() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        props.put("target.admin.bootstrap.servers", "localhost:" + closedPort);
        Map<String, List<String>> errors = validate(TARGET, false);
        assertThat(asked).isTrue();
        assertThat(ranOwnChecks).isFalse();
        assertThat(errors).containsOnlyKeys("target.admin.bootstrap.servers");
        assertThat(errors.get("target.admin.bootstrap.servers")).singleElement().asString()
                .startsWith("cannot reach the target cluster at localhost:" + closedPort + " within 5 s (")
                .endsWith("): check the address and the target.admin.* security settings");
    }

    @Test
    void anAddressTheAdminClientCannotParseIsAnErrorOnTheBootstrapNotAThrownException() {
        props.put("target.admin.bootstrap.servers", "@BOOTSTRAP_SERVERS@");
        Map<String, List<String>> errors = validate(TARGET, false);
        assertThat(ranOwnChecks).isFalse();
        assertThat(errors).containsExactly(Map.entry("target.admin.bootstrap.servers", List.of("cannot build an admin client for the"
                + " target cluster from @BOOTSTRAP_SERVERS@ (Invalid url in bootstrap.servers: @BOOTSTRAP_SERVERS@): set host:port"
                + " pairs, separated by commas")));
    }

    @Test
    void theSourceOfBothSinksFallsBackToTheConsumerOverride() {
        props.put("consumer.override.bootstrap.servers", "src:9092");
        assertThat(ClusterAccess.SOURCE.bootstrap(props)).isEqualTo("src:9092");
        props.put("source.admin.bootstrap.servers", "admin:9092");
        assertThat(ClusterAccess.SOURCE.bootstrap(props)).isEqualTo("admin:9092");
    }
}
