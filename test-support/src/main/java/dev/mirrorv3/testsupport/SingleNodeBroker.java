package dev.mirrorv3.testsupport;

import java.util.Map;
import java.util.Properties;

/**
 * The settings every in-process test broker of this module takes: one node, so the internal topics have one replica
 * (consumer groups and transactions work), and groups start without the initial rebalance delay.
 */
final class SingleNodeBroker {
    static final Map<String, String> SETTINGS = Map.of(
            "offsets.topic.replication.factor", "1",
            "transaction.state.log.replication.factor", "1",
            "transaction.state.log.min.isr", "1",
            "group.initial.rebalance.delay.ms", "0");

    private SingleNodeBroker() {
    }

    /** {@link #SETTINGS} with the caller's own on top. */
    static Properties properties(Map<String, String> extra) {
        Properties p = new Properties();
        p.putAll(SETTINGS);
        p.putAll(extra);
        return p;
    }
}
