package dev.mirrorv3.bench;

import java.util.Map;
import java.util.TreeMap;
import javax.management.InstanceNotFoundException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import org.apache.kafka.common.utils.Sanitizer;

/** The blob sink's per-partition {@code destination-offset-verified} gauges (its plugin metrics, through JMX). */
final class VerifiedOffsets {
    private final MBeanServerConnection mbs;
    private final ObjectName pattern;
    private final String topic;

    VerifiedOffsets(MBeanServerConnection mbs, String connector, String topic) throws Exception {
        this.mbs = mbs;
        this.pattern = new ObjectName("kafka.connect:type=plugins,connector=" + Sanitizer.jmxSanitize(connector) + ",*");
        this.topic = Sanitizer.jmxSanitize(topic);
    }

    /** Per partition the metric; a partition closed between the query and the read (rebalance) claims nothing. */
    Map<Integer, Long> read() throws Exception {
        Map<Integer, Long> v = new TreeMap<>();
        for (ObjectName n : mbs.queryNames(pattern, null)) {
            String p = n.getKeyProperty("partition");
            if (p != null && topic.equals(n.getKeyProperty("topic"))) {
                try {
                    v.put(Integer.parseInt(p), ((Number) mbs.getAttribute(n, "destination-offset-verified")).longValue());
                } catch (InstanceNotFoundException e) {
                    // closed since the query: its claim is not read
                }
            }
        }
        return v;
    }
}
