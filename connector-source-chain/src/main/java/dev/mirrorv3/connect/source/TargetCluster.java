package dev.mirrorv3.connect.source;

import dev.mirrorv3.kafka.config.ClusterAccess;
import dev.mirrorv3.kafka.config.ConfigFragment;
import dev.mirrorv3.kafka.config.ConnectorConfigFragment;
import dev.mirrorv3.kafka.config.Setting;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * The chain source's target cluster settings: target.admin.bootstrap.servers and the other target.admin.* client
 * settings, admin.timeout.ms and its former name target.admin.timeout.ms; how they reach the target's clients and how
 * validate() checks the cluster ({@link #ACCESS}).
 */
final class TargetCluster {
    static final String TARGET_ADMIN_PREFIX = "target.admin.";
    static final String TARGET_ADMIN_BOOTSTRAP = TARGET_ADMIN_PREFIX + "bootstrap.servers";
    static final String TARGET_ADMIN_BOOTSTRAP_DOC = """
            Bootstrap servers of the target cluster, for the admin client and consumer that \
            read the target's high watermark and last record. Empty means producer.override.bootstrap.servers. Other client \
            settings (security) go under the same 'target.admin.' prefix, e.g. target.admin.security.protocol; feed secrets \
            through config providers.""";
    /** The target cluster: its client takes the target.admin.* settings, its bootstrap falls back to the producer's. */
    static final ClusterAccess ACCESS = new ClusterAccess("target", TARGET_ADMIN_BOOTSTRAP, "producer.override.bootstrap.servers",
            TARGET_ADMIN_PREFIX + "*", "the task reads the target's high watermark, its position, and the target's last record,"
            + " to resume exactly there");

    /** The former name of admin.timeout.ms. */
    static final String DEPRECATED_ADMIN_TIMEOUT_MS = "target.admin.timeout.ms";
    static final String ADMIN_TIMEOUT_MS_DOC = "Timeout of one query to the target cluster; a timeout is a transient failure.";

    private TargetCluster() {
    }

    /** The target's bootstrap, admin.timeout.ms and its former name, in {@code group}. */
    static ConfigFragment fragment(String group) {
        List<ConfigFragment> parts = List.of(ConfigFragment.settings(group, Setting.of(TARGET_ADMIN_BOOTSTRAP, Type.STRING, "",
                        Importance.HIGH, Width.LONG, "Target bootstrap servers", TARGET_ADMIN_BOOTSTRAP_DOC)),
                ConnectorConfigFragment.adminTimeout(group, ADMIN_TIMEOUT_MS_DOC),
                ConnectorConfigFragment.deprecatedAdminTimeout(DEPRECATED_ADMIN_TIMEOUT_MS, group));
        return table -> parts.forEach(p -> p.define(table));
    }

    /** Target cluster client settings: everything under target.admin., bootstrap defaulting to the producer override. */
    static Map<String, Object> clientConfig(AbstractConfig config) {
        Map<String, Object> c = new HashMap<>(config.originalsWithPrefix(TARGET_ADMIN_PREFIX));
        c.remove("timeout.ms"); // target.admin.timeout.ms, the former name of admin.timeout.ms, is not a client setting
        c.put("bootstrap.servers", ACCESS.bootstrap(config.originalsStrings()));
        return c;
    }
}
