package dev.mirrorv3.restore.cli;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.AdminClientConfig;

/**
 * What the command line adds to a cluster's client settings (a connector's own, or --command-config and
 * --bootstrap-servers): its client ids, and the command's --timeout-ms as each request's and each call's timeout.
 */
public final class ClientConfigs {
    /** restore's admin client on the target, unless --command-config names one. */
    static final String RESTORE_ADMIN_ID = "mirror-v3-restore-admin";
    /** status's clients of the connectors' clusters. */
    public static final String STATUS_ID = "mirror-v3-status";

    private ClientConfigs() {
    }

    /** A copy of the settings with the timeout as Kafka's request.timeout.ms and default.api.timeout.ms. */
    public static Map<String, Object> withTimeout(Map<String, Object> client, Duration timeout) {
        Map<String, Object> c = new LinkedHashMap<>(client);
        int ms = (int) Math.min(timeout.toMillis(), Integer.MAX_VALUE);
        c.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, ms);
        c.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, ms);
        return c;
    }
}
