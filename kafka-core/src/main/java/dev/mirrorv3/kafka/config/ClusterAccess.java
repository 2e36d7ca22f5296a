package dev.mirrorv3.kafka.config;

import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.common.KafkaException;

/**
 * A Kafka cluster a connector reaches with an admin client built from its own settings: the source of both sinks
 * ({@code source.admin.*}), the Kafka sink's destination ({@code destination.*}), the chain source's target
 * ({@code target.admin.*}). Its rules, checked by validate() and {@code mirror-v3 validate}: a bootstrap is set (the
 * setting, or the worker override it falls back to), and, online only, the cluster answers within 5 s. One message for
 * all three: "cannot reach the &lt;role&gt; cluster at &lt;bootstrap&gt; within 5 s (&lt;why&gt;): check the address
 * and the &lt;settings&gt; security settings", on the bootstrap setting.
 *
 * @param role the cluster's name in messages: source, destination, target
 * @param bootstrapKey the setting that holds its bootstrap servers; errors go there
 * @param fallbackKey the setting read when {@code bootstrapKey} is empty; null when the ConfigDef requires the bootstrap
 * @param settings the settings its client is built from, named in messages, e.g. {@code source.admin.*}
 * @param neededFor why the connector needs the cluster, said when no bootstrap is set
 */
public record ClusterAccess(String role, String bootstrapKey, String fallbackKey, String settings, String neededFor) {
    /** How long validate() waits for a cluster to answer. */
    public static final int REACH_TIMEOUT_MS = 5000;

    /** The source cluster of both sinks. */
    public static final ClusterAccess SOURCE = new ClusterAccess("source", ConnectorConfigFragment.SOURCE_ADMIN_BOOTSTRAP,
            "consumer.override.bootstrap.servers", ConnectorConfigFragment.SOURCE_ADMIN_PREFIX + "*", "the sink reads the source's"
            + " log-start offsets and high watermarks to detect a lost position or a destination ahead of the source");

    /** Its bootstrap servers in {@code props}: {@code bootstrapKey}, else {@code fallbackKey}; empty when neither is set. */
    public String bootstrap(Map<String, String> props) {
        String bootstrap = props.getOrDefault(bootstrapKey, "");
        if (bootstrap.isBlank() && fallbackKey != null) {
            bootstrap = props.getOrDefault(fallbackKey, "");
        }
        return bootstrap.trim();
    }

    /** {@link #validate(Map, ConnectorChecks, boolean, Supplier, Consumer)} with no check of the connector's own. */
    public void validate(Map<String, String> props, ConnectorChecks checks, boolean offline, Supplier<Map<String, Object>> adminConfig) {
        validate(props, checks, offline, adminConfig, admin -> { });
    }

    /**
     * The rules: a bootstrap is set (an error when neither the setting nor its fallback is; without a fallback the
     * ConfigDef reports it) and, unless {@code offline}, the cluster answers an admin client built from
     * {@code adminConfig} within 5 s. Then {@code andThen} runs with that client, for the connector's own checks on the
     * cluster (its topics).
     *
     * @param adminConfig the admin client settings of the parsed config; null when it does not parse (its single-field
     *     errors are reported already); not called offline
     */
    public void validate(Map<String, String> props, ConnectorChecks checks, boolean offline, Supplier<Map<String, Object>> adminConfig,
                         Consumer<Admin> andThen) {
        String bootstrap = bootstrap(props);
        if (bootstrap.isEmpty()) {
            if (fallbackKey != null) {
                checks.error(bootstrapKey, "required (or " + fallbackKey + "): " + neededFor);
            }
            return;
        }
        if (offline) {
            return;
        }
        Map<String, Object> config = adminConfig.get();
        if (config == null) {
            return;
        }
        Admin created;
        try {
            created = Admin.create(withShortTimeouts(config));
        } catch (KafkaException e) {
            // Admin.create parses the bootstrap servers: an unusable address is this setting's error, not the whole call's
            checks.error(bootstrapKey, "cannot build an admin client for the " + role + " cluster from " + bootstrap + " ("
                    + ReachFailure.describe(e) + "): set host:port pairs, separated by commas");
            return;
        }
        try (Admin admin = created) {
            try {
                admin.describeCluster(new DescribeClusterOptions().timeoutMs(REACH_TIMEOUT_MS)).clusterId()
                        .get(REACH_TIMEOUT_MS + 1000, TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                unreachable(checks, bootstrap, e);
                return;
            }
            andThen.accept(admin);
        }
    }

    /** The one message of a cluster that did not answer, on {@code bootstrapKey}. */
    public void unreachable(ConnectorChecks checks, String bootstrap, Throwable cause) {
        checks.error(bootstrapKey, "cannot reach the " + role + " cluster at " + bootstrap + " within " + REACH_TIMEOUT_MS / 1000
                + " s (" + ReachFailure.describe(cause) + "): check the address and the " + settings + " security settings");
    }

    /** {@code adminConfig} with request and API timeouts of {@link #REACH_TIMEOUT_MS}, so a validate() call stays short. */
    static Map<String, Object> withShortTimeouts(Map<String, Object> adminConfig) {
        adminConfig.put("request.timeout.ms", REACH_TIMEOUT_MS);
        adminConfig.put("default.api.timeout.ms", REACH_TIMEOUT_MS);
        return adminConfig;
    }
}
