package dev.mirrorv3.quickstart;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.StoreFactory;
import dev.mirrorv3.kafka.ConfigProviders;
import dev.mirrorv3.kafka.config.DestinationSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * The parts of a blob sink connector config (the JSON map sent to {@code PUT /connectors/<name>/config}, or the REST
 * body form {@code {"name": …, "config": {…}}}) that
 * the helpers need to find and read its chains: which store (filesystem or S3, through chain-core's
 * {@link StoreFactory} as the sink builds it), which topic, which source cluster, which envelope. Config provider
 * references ({@code ${env:…}}, {@code ${file:…}}, {@code ${directory:…}}) are resolved as a worker would.
 */
public record BlobSinkSettings(String connector, String topic, String bootstrapServers, Map<String, String> settings,
                               String destinationName, EnvelopeSettings envelope) {

    public static BlobSinkSettings load(Path configJson, String connector) throws IOException {
        return load(configJson, connector, null);
    }

    /**
     * @param destination which destination of a connector with several (destinations=local,offsite), as
     *     {@code mirror-v3 --destination} names it; null for a connector's one destination
     */
    public static BlobSinkSettings load(Path configJson, String connector, String destination) throws IOException {
        JsonNode tree = new ObjectMapper().readTree(Files.readString(configJson));
        if (tree.path("config").isObject()) {
            tree = tree.get("config"); // the REST body form {"name": …, "config": {…}}, as the quickstart writes it
        }
        Map<String, String> written = new HashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = tree.properties().iterator(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            written.put(e.getKey(), e.getValue().asText());
        }
        Map<String, String> c = ConfigProviders.resolve(written);
        String topic = require(c, "topics", configJson);
        if (topic.contains(",")) {
            throw new IllegalArgumentException(configJson + ": the helpers handle one topic, found topics=" + topic);
        }
        DestinationSettings view;
        try {
            view = DestinationSettings.select(c, destination);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(configJson + ": " + e.getMessage(), e);
        }
        Map<String, String> d = view.settings();
        return new BlobSinkSettings(connector, topic, require(c, "source.admin.bootstrap.servers", configJson), d,
                view.chainName(connector, topic), StoreFactory.envelope(d));
    }

    private static String require(Map<String, String> c, String key, Path file) {
        String v = c.get(key);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException(file + " has no " + key);
        }
        return v;
    }

    /** The backup's store, as the sink opens it; the caller closes it. */
    public Store store() {
        return StoreFactory.open(settings, destinationName);
    }

    /** A reader of the backup's chains in {@code store}, with the connector's keys dir for encrypted objects. */
    public ChainReader reader(Store store) {
        return new ChainReader(store, envelope, ObjectEncryption.fromSettings(settings).keys());
    }

    /** Where the chains are, for messages: {@code /root/name} or {@code s3://bucket/prefix/name}. */
    public String chainDir() {
        try (Store store = store()) {
            String partition0 = store.location(0);
            return partition0.substring(0, partition0.lastIndexOf('/'));
        }
    }
}
