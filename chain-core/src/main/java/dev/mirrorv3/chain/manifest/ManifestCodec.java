package dev.mirrorv3.chain.manifest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.bytes.ObjectBytes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The JSON of a manifest, with a format version (docs/blob-sink.md, "Chain manifests"). Readers accept fields they do not
 * know (later additions) and refuse a higher format version. The encoding is deterministic: a manifest re-issued after a
 * failed commit has exactly the bytes of its first attempt.
 *
 * <pre>
 * {"format_version":1,"kind":"chain","partition":0,"start":0,"from":0,"to":2999,
 *  "previous":{"name":"…-….json","sha256":"…"},"objects_recorded":true,
 *  "objects":[{"name":"00000000000000000000-00000000000000000999.parquet","size":48213,"sha256":"…"},…],
 *  "last_object":"00000000000000002000-00000000000000002999.parquet","key_ids":{"2026-11":"…k-2026-11.parquet"}}
 * </pre>
 */
public final class ManifestCodec {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HexFormat HEX = HexFormat.of();

    private ManifestCodec() {
    }

    public static byte[] encode(Manifest m) {
        ObjectNode n = JSON.createObjectNode();
        n.put("format_version", Manifest.FORMAT_VERSION);
        n.put("kind", m.kind().label());
        n.put("partition", m.partition());
        n.put("start", m.start());
        n.put("from", m.range().from());
        n.put("to", m.range().to());
        if (m.previous() == null) {
            n.putNull("previous");
        } else {
            n.putObject("previous").put("name", m.previous().name()).put("sha256", m.previous().sha256());
        }
        n.put("objects_recorded", m.recorded());
        ArrayNode objects = n.putArray("objects");
        for (Manifest.Entry e : m.objects()) {
            objects.addObject().put("name", e.name().fileName()).put("size", e.size()).put("sha256", e.sha256());
        }
        n.put("last_object", m.last().fileName());
        ObjectNode keyIds = n.putObject("key_ids");
        new TreeMap<>(m.keyIds()).forEach(keyIds::put);
        try {
            return JSON.writeValueAsBytes(n);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * @param where the manifest, for messages
     * @throws ManifestException naming the manifest when it is not one this version can read
     */
    public static Manifest decode(byte[] json, String where) {
        JsonNode n;
        try {
            n = JSON.readTree(json);
        } catch (IOException e) {
            throw unreadable(where, "not JSON (" + e.getClass().getSimpleName() + ")");
        }
        if (n == null || !n.isObject()) {
            throw unreadable(where, "not a JSON object");
        }
        int version = n.path("format_version").asInt(-1);
        if (version < 1) {
            throw unreadable(where, "no format_version");
        }
        if (version > Manifest.FORMAT_VERSION) {
            throw new ManifestException(where + " has format_version " + version + ", and this mirror-v3 reads up to "
                    + Manifest.FORMAT_VERSION + ": use a newer mirror-v3");
        }
        try {
            return fields(n);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw unreadable(where, e.getMessage());
        }
    }

    private static Manifest fields(JsonNode n) {
        Manifest.Kind kind = Manifest.Kind.of(text(n, "kind"))
                .orElseThrow(() -> new IllegalArgumentException("unknown kind " + n.path("kind")));
        JsonNode prev = n.path("previous");
        Manifest.Link previous = prev.isObject() ? new Manifest.Link(text(prev, "name"), text(prev, "sha256")) : null;
        List<Manifest.Entry> objects = new ArrayList<>();
        if (n.path("objects_recorded").asBoolean(true)) {
            for (JsonNode o : n.path("objects")) {
                objects.add(new Manifest.Entry(object(text(o, "name")), number(o, "size"), text(o, "sha256")));
            }
            if (objects.isEmpty()) {
                throw new IllegalArgumentException("it records no object");
            }
        }
        Map<String, String> keyIds = new TreeMap<>();
        n.path("key_ids").properties().forEach(e -> keyIds.put(e.getKey(), e.getValue().asText()));
        Manifest m = new Manifest(kind, (int) number(n, "partition"), number(n, "start"),
                new ManifestName(number(n, "from"), number(n, "to")), previous, objects,
                object(text(n, "last_object")), keyIds);
        return m;
    }

    private static ObjectName object(String name) {
        return ObjectName.parse(name).orElseThrow(() -> new IllegalArgumentException("'" + name + "' is not an object's name"));
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException("it lacks the text field " + field);
        }
        return v.asText();
    }

    private static long number(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || !v.isIntegralNumber()) {
            throw new IllegalArgumentException("it lacks the number field " + field);
        }
        return v.asLong();
    }

    private static ManifestException unreadable(String where, String why) {
        return new ManifestException(where + " is not a manifest this mirror-v3 can read (" + why + "): it was changed after it"
                + " was written, or not written by mirror-v3; restore it from a copy, or move it out of the manifests' directory"
                + " (the chain's objects are then checked as without manifests)");
    }

    /** The SHA-256 of bytes, lower-case hex: how manifests record objects and each other. */
    public static String sha256(byte[] bytes) {
        try {
            return HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }

    /** The SHA-256 of an object's bytes held in chunks, lower-case hex (as {@link #sha256(byte[])} of them joined). */
    public static String sha256(ObjectBytes bytes) {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            bytes.update(digest);
            return HEX.formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }

    /** The SHA-256 of a file's bytes, lower-case hex, read in blocks (a snapshot may be larger than the heap). */
    public static String sha256(Path file) {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[64 * 1024];
            for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                digest.update(buf, 0, n);
            }
            return HEX.formatHex(digest.digest());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }

    public static String hex(byte[] digest) {
        return HEX.formatHex(digest);
    }
}
