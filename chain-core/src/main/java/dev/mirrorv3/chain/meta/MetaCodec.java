package dev.mirrorv3.chain.meta;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON of the metadata snapshots, with a format version. Readers accept fields they do not know (later
 * additions) and refuse a higher format version, which would mean a change they cannot read correctly.
 *
 * <pre>
 * {"format_version":1,"kind":"topic","time_ms":…,"topic":"orders","topic_id":"…","partitions":3,
 *  "replication_factor":3,"configs":{"cleanup.policy":"compact",…}}
 * {"format_version":1,"kind":"groups","time_ms":…,"topic":"orders","topic_id":"…","chain_next_offsets":{"0":1200,…},
 *  "groups":{"billing":{"0":{"offset":1180,"metadata":""},…},…}}
 * </pre>
 *
 * A group snapshot's {@code topic_id} was added without a new format version: a snapshot without it (written before)
 * reads as one of an unknown topic id, and a reader that does not know the field ignores it.
 */
public final class MetaCodec {
    public static final int FORMAT_VERSION = 1;
    static final String TOPIC = "topic";
    static final String GROUPS = "groups";
    private static final ObjectMapper JSON = new ObjectMapper();

    private MetaCodec() {
    }

    public static byte[] encode(TopicSnapshot s) {
        ObjectNode n = header(TOPIC, s.timeMs(), s.topic());
        n.put("topic_id", s.topicId());
        n.put("partitions", s.partitions());
        n.put("replication_factor", s.replicationFactor());
        ObjectNode configs = n.putObject("configs");
        s.configs().forEach(configs::put);
        return write(n);
    }

    public static byte[] encode(GroupSnapshot s) {
        ObjectNode n = header(GROUPS, s.timeMs(), s.topic());
        if (!s.topicId().isEmpty()) {
            n.put("topic_id", s.topicId());
        }
        ObjectNode next = n.putObject("chain_next_offsets");
        s.chainNextOffsets().forEach((p, o) -> next.put(Integer.toString(p), o));
        ObjectNode groups = n.putObject("groups");
        s.groups().forEach((g, offsets) -> {
            ObjectNode group = groups.putObject(g);
            offsets.forEach((p, c) -> group.putObject(Integer.toString(p)).put("offset", c.offset()).put("metadata", c.metadata()));
        });
        return write(n);
    }

    /** @param where the object, for messages */
    public static TopicSnapshot decodeTopic(byte[] json, String where) {
        JsonNode n = read(json, TOPIC, where);
        Map<String, String> configs = new TreeMap<>();
        n.path("configs").properties().forEach(e -> configs.put(e.getKey(), e.getValue().asText()));
        try {
            return new TopicSnapshot(required(n, "time_ms", where).asLong(), required(n, "topic", where).asText(),
                    n.path("topic_id").asText(""), required(n, "partitions", where).asInt(),
                    required(n, "replication_factor", where).asInt(), configs);
        } catch (IllegalArgumentException e) {
            throw new MetaFormatException(where + " is not a valid topic snapshot: " + e.getMessage(), e);
        }
    }

    public static GroupSnapshot decodeGroups(byte[] json, String where) {
        JsonNode n = read(json, GROUPS, where);
        try {
            Map<Integer, Long> next = new TreeMap<>();
            n.path("chain_next_offsets").properties().forEach(e -> next.put(Integer.valueOf(e.getKey()), e.getValue().asLong()));
            Map<String, Map<Integer, GroupSnapshot.CommittedOffset>> groups = new TreeMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = n.path("groups").properties().iterator(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> g = it.next();
                Map<Integer, GroupSnapshot.CommittedOffset> offsets = new TreeMap<>();
                g.getValue().properties().forEach(e -> offsets.put(Integer.valueOf(e.getKey()),
                        new GroupSnapshot.CommittedOffset(e.getValue().path("offset").asLong(-1), e.getValue()
                                .path("metadata").asText(""))));
                groups.put(g.getKey(), offsets);
            }
            return new GroupSnapshot(required(n, "time_ms", where).asLong(), required(n, "topic", where).asText(),
                    n.path("topic_id").asText(""), next, groups);
        } catch (IllegalArgumentException e) {
            throw new MetaFormatException(where + " is not a valid consumer-group snapshot: " + e.getMessage(), e);
        }
    }

    private static ObjectNode header(String kind, long timeMs, String topic) {
        ObjectNode n = JSON.createObjectNode();
        n.put("format_version", FORMAT_VERSION);
        n.put("kind", kind);
        n.put("time_ms", timeMs);
        n.put("topic", topic);
        return n;
    }

    private static byte[] write(ObjectNode n) {
        try {
            return JSON.writeValueAsBytes(n);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode read(byte[] json, String kind, String where) {
        JsonNode n;
        try {
            n = JSON.readTree(json);
        } catch (IOException e) {
            throw new MetaFormatException(where + " is not JSON: " + e.getClass().getSimpleName(), e);
        }
        if (n == null || !n.isObject()) {
            throw new MetaFormatException(where + " is not a JSON object");
        }
        int version = n.path("format_version").asInt(-1);
        if (version < 1) {
            throw new MetaFormatException(where + " has no format_version: not a mirror-v3 metadata snapshot");
        }
        if (version > FORMAT_VERSION) {
            throw new MetaFormatException(where + " has format_version " + version + ", and this mirror-v3 reads up to "
                    + FORMAT_VERSION + ": use a newer mirror-v3");
        }
        if (!kind.equals(n.path("kind").asText())) {
            throw new MetaFormatException(where + " is a '" + n.path("kind").asText() + "' snapshot, not a '" + kind + "' one");
        }
        return n;
    }

    private static JsonNode required(JsonNode n, String field, String where) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            throw new MetaFormatException(where + " lacks the field " + field);
        }
        return v;
    }
}
