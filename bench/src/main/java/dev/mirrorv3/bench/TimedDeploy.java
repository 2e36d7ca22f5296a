package dev.mirrorv3.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mirrorv3.quickstart.ConnectorStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * One timed connector run of the benches (CopyRun, SinkRun): the clock starts at the deploy (PUT
 * /connectors/name/config) and the run polls a {@link Done} until it says done, the connector or its task has FAILED
 * (the Connect REST status, checked once a second) or the timeout passes.
 */
final class TimedDeploy {
    private final String label;
    private final String connectUrl;
    private final String json;
    private final Map<String, Object> config;
    private final long timeoutNanos;
    private long start;

    @SuppressWarnings("unchecked")
    TimedDeploy(String label, String connectUrl, Path configFile, long timeoutSeconds) throws Exception {
        this.label = label;
        this.connectUrl = connectUrl;
        this.json = Files.readString(configFile);
        this.config = new ObjectMapper().readValue(json, Map.class);
        this.timeoutNanos = timeoutSeconds * 1_000_000_000L;
    }

    /** The connector's name, from its config file. */
    String name() {
        return (String) config.get("name");
    }

    /** A setting of the connector's config file. */
    Object setting(String key) {
        return config.get(key);
    }

    void deploy() throws Exception {
        start = System.nanoTime();
        ConnectRest.put(connectUrl, name(), json);
    }

    /**
     * Polls every {@code pollMillis} until {@code check} says done (true), or the connector has FAILED (said on standard
     * error) or the timeout has passed (false).
     */
    boolean awaitDone(Done check, long pollMillis) throws Exception {
        long lastStatusCheck = start;
        while (System.nanoTime() - start < timeoutNanos) {
            if (check.done()) {
                return true;
            }
            if (System.nanoTime() - lastStatusCheck > 1_000_000_000L) {
                lastStatusCheck = System.nanoTime();
                Optional<String> failed = ConnectorStatus.failure(connectUrl, name());
                if (failed.isPresent()) {
                    System.err.println(label + ": " + failed.get());
                    return false;
                }
            }
            Thread.sleep(pollMillis);
        }
        return false;
    }

    /** Seconds since the deploy. */
    double seconds() {
        return (System.nanoTime() - start) / 1e9;
    }

    void delete() throws Exception {
        ConnectRest.delete(connectUrl, name());
    }
}
