package dev.mirrorv3.cache;

import dev.mirrorv3.cache.config.ConfigException;
import dev.mirrorv3.cache.config.ConfigLoader;
import dev.mirrorv3.cache.config.SidecarConfig;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The {@code cache-sidecar} command. */
@Command(name = "cache-sidecar", mixinStandardHelpOptions = true, version = "cache-sidecar 0.1.0",
        sortOptions = false,
        description = {
            "Serves compacted Kafka topics as key -> latest value over HTTP (/cache/v1, compatible with",
            "Yolean/kafka-keyvalue) and POSTs kkv-v1 update notifications when values change.",
            "",
            "Two ways to configure it:",
            "  --config FILE   a YAML file with one or more named caches (see cache-sidecar/README.md).",
            "  (no --config)   kafka-keyvalue's environment-only mode: one cache, served as main, from",
            "                  KAFKA_BOOTSTRAP, KAFKA_INCOMING_TOPIC, KAFKA_GROUP_ID (required),",
            "                  ONUPDATE_AFTER_OFFSET (latest|earliest), QUARKUS_HTTP_PORT (8080),",
            "                  ON_UPDATE_PATH (/kafka-keyvalue/v1/updates), TARGET_SERVICE_NAME +",
            "                  TARGET_SERVICE_NAMESPACE + TARGET_SERVICE_PORT (a headless Service, resolved",
            "                  by DNS), TARGET_STATIC_HOST (+ TARGET_STATIC_PORT), DISPATCHER_RETRY_TIMES,",
            "                  DISPATCHER_RETRY_BACKOFF_SECONDS, MP_MESSAGING_INCOMING_TOPIC_<KAFKA_PROP>,",
            "                  MIRROR_V3_METRICS_PORT (9090)."
        },
        footer = {
            "",
            "Endpoints: GET /cache/v1[/{cache}]/raw/{key} | /keys | /values | /offset/{topic}/{partition},",
            "/q/health/ready, /q/health/live, /q/metrics, /openapi.json, /openapi.yaml, /docs,",
            "POST /_admin/v1/shutdown[/{exitcode}]; Prometheus /metrics on the metrics port.",
            "Exit codes: 0 stopped, 1 a cache failed or exceeded memory.max-bytes, the JVM spent more",
            "than half of 30 s in GC, or a notification failed, 2 invalid configuration, or the code",
            "given to /_admin/v1/shutdown/{exitcode}.",
            "Memory: memory.max-bytes (default 70% of the old generation, or of 2/3 of the heap with G1)",
            "bounds the caches' stores;",
            "MIRROR_V3_MEMORY_MAX_BYTES and MIRROR_V3_MEMORY_EXCEEDED_EXIT_AFTER_MS in environment mode."
        })
public final class Main implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(Main.class);
    static final int CONFIG_ERROR = 2;

    @Option(names = "--config", paramLabel = "FILE", description = "YAML config file. Without it, the "
            + "kafka-keyvalue environment variables configure one cache.")
    Path config;

    @Option(names = "--check", description = "Validate the configuration, print it summarised, and exit.")
    boolean check;

    private final Map<String, String> env;

    Main(Map<String, String> env) {
        this.env = env;
    }

    public static void main(String[] args) {
        int code = new CommandLine(new Main(System.getenv())).execute(args);
        System.exit(code);
    }

    @Override
    public Integer call() {
        SidecarConfig cfg;
        try {
            cfg = config != null ? ConfigLoader.fromYaml(config, env::get) : ConfigLoader.fromKkvEnvironment(env);
        } catch (ConfigException e) {
            System.err.println("cache-sidecar: " + e.getMessage());
            if (config == null) {
                System.err.println("(no --config FILE given, so the kafka-keyvalue environment mode was used; "
                        + "see --help)");
            }
            return CONFIG_ERROR;
        }
        if (check) {
            cfg.caches().forEach(c -> System.out.println("cache " + c.name() + (c.main() ? " (main)" : "")
                    + ": topic " + c.topic() + " at " + c.bootstrapServers()
                    + (c.notifications().hasTargets() ? ", notify " + java.util.stream.Stream.concat(
                            c.notifications().targets().stream(), c.notifications().staticTargets().stream())
                            .map(dev.mirrorv3.cache.notify.Notifier::redact).toList() : "")));
            System.out.println("configuration OK");
            return 0;
        }
        Sidecar sidecar;
        try {
            sidecar = Sidecar.start(cfg);
        } catch (IllegalStateException e) {
            LOG.error("{}", e.getMessage());
            return 1;
        }
        Thread hook = new Thread(() -> {
            sidecar.requestShutdown(0);
            sidecar.awaitExit();
        }, "sigterm");
        Runtime.getRuntime().addShutdownHook(hook);
        int code = sidecar.awaitExit();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // already shutting down
        }
        return code;
    }
}
