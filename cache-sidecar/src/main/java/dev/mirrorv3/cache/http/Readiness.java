package dev.mirrorv3.cache.http;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mirrorv3.cache.Cache;
import dev.mirrorv3.cache.PartitionState;
import java.util.List;

/**
 * The readiness JSON of cache-sidecar/README.md (Readiness): {@code {"ready":"ready|warming","mirrors":[…],"unhealthy":[]}}, with one
 * {@code mirrors} element per cache partition (mirror-v3 pinned each mirror to one partition; a cache here may read
 * several, and each element keeps mirror-v3's shape, {@code name} being the cache).
 */
public final class Readiness {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Status and reason of a cache that stopped reading at its memory budget. */
    static final String MEMORY_EXCEEDED = "memory_budget_exceeded";
    /** Reason of every cache while the sidecar spends most of its time collecting garbage (GcTimeWatchdog). */
    static final String GC_OVERLOADED = "gc_time_exceeded";

    private Readiness() {
    }

    public static boolean allReady(List<Cache> caches) {
        for (Cache c : caches) {
            if (!c.ready()) {
                return false;
            }
        }
        return true;
    }

    /** @param gcOverloaded why the whole sidecar is unready (its GC-time watchdog tripped), or null */
    public static byte[] body(List<Cache> caches, String gcOverloaded) {
        ObjectNode root = JSON.createObjectNode();
        root.put("ready", gcOverloaded != null ? "unhealthy" : allReady(caches) ? "ready" : "warming");
        ArrayNode mirrors = root.putArray("mirrors");
        for (Cache c : caches) {
            if (c.partitions().isEmpty()) {
                ObjectNode m = mirrors.addObject();
                m.put("name", c.name());
                m.put("gates_readiness", true);
                m.put("caught_up", false);
                m.put("status", "source_unassigned");
                ObjectNode src = m.putObject("source");
                src.put("topic", c.topic());
                src.put("assigned", false);
            }
            for (PartitionState p : c.partitions()) {
                ObjectNode m = mirrors.addObject();
                m.put("name", c.name());
                m.put("gates_readiness", true);
                m.put("caught_up", c.ready() || p.caughtUp());
                m.put("status", c.memoryExceeded() != null ? MEMORY_EXCEEDED
                        : !c.ready() ? "warming" : p.lag() > 0 ? "lag_behind_source" : "ready");
                ObjectNode src = m.putObject("source");
                src.put("topic", c.topic());
                src.put("partition", p.partition());
                src.put("assigned", true);
                src.put("end_offset", p.assigned().endOffsetAtStart() - 1);
                src.put("last_applied_offset", p.lastSeenOffset());
                src.put("lag", c.ready() ? p.lag() : Math.max(0, p.assigned().endOffsetAtStart() - p.position()));
            }
        }
        ArrayNode unhealthy = root.putArray("unhealthy");
        for (Cache c : caches) {
            String exceeded = c.memoryExceeded();
            if (exceeded != null) {
                ObjectNode u = unhealthy.addObject();
                u.put("name", c.name());
                u.put("reason", MEMORY_EXCEEDED);
                u.put("message", exceeded);
            }
            if (gcOverloaded != null) {
                ObjectNode u = unhealthy.addObject();
                u.put("name", c.name());
                u.put("reason", GC_OVERLOADED);
                u.put("message", gcOverloaded);
            }
        }
        try {
            return JSON.writeValueAsBytes(root);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
