package dev.mirrorv3.quickstart;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.envelope.Compression;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.ValueType;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.FilesystemStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * The parts of a blob sink connector config (the JSON map sent to {@code PUT /connectors/<name>/config}) that
 * the helpers need to find and read its chains: where, which topic, which source cluster, which envelope.
 */
public record BlobSinkSettings(String connector, String topic, String bootstrapServers, Path root, String destinationName,
                        EnvelopeSettings envelope, KeyRing keys) {

    public static BlobSinkSettings load(Path configJson, String connector) throws IOException {
        JsonNode tree = new ObjectMapper().readTree(Files.readString(configJson));
        Map<String, String> c = new HashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = tree.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            c.put(e.getKey(), e.getValue().asText());
        }
        String topic = require(c, "topics", configJson);
        if (topic.contains(",")) {
            throw new IllegalArgumentException(configJson + ": the helpers handle one topic, found topics=" + topic);
        }
        String destination = c.getOrDefault("destination.name", "");
        destination = destination.isEmpty() ? connector : destination.replace("${topic}", topic);
        EnvelopeSettings envelope = new EnvelopeSettings(
                EnvelopeFormat.fromConfig(c.getOrDefault("format", "parquet")),
                Compression.fromConfig(c.getOrDefault("compression", "zstd")),
                ValueType.fromConfig(c.getOrDefault("keys.type", "bytes")),
                ValueType.fromConfig(c.getOrDefault("values.type", "bytes")));
        String keysDir = c.getOrDefault("encryption.keys.dir", "");
        return new BlobSinkSettings(connector, topic, require(c, "source.admin.bootstrap.servers", configJson),
                Path.of(require(c, "filesystem.root", configJson)), destination, envelope,
                keysDir.isBlank() ? KeyRing.empty() : KeyRing.load(Path.of(keysDir)));
    }

    private static String require(Map<String, String> c, String key, Path file) {
        String v = c.get(key);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException(file + " has no " + key);
        }
        return v;
    }

    public FilesystemStore store() {
        return new FilesystemStore(root, destinationName);
    }

    public ChainReader reader() {
        return new ChainReader(store(), envelope, keys);
    }

    public Path chainDir() {
        return root.resolve(destinationName);
    }
}
