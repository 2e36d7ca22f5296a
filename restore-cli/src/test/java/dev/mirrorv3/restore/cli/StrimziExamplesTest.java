package dev.mirrorv3.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Secret;
import io.strimzi.api.kafka.model.common.UnknownPropertyPreserving;
import io.strimzi.api.kafka.model.connect.KafkaConnect;
import io.strimzi.api.kafka.model.connector.KafkaConnector;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Strimzi examples are real resources: every document is read with Strimzi's own API model (io.strimzi:api) or
 * fabric8's Kubernetes model, strictly: a field the model does not know fails (Strimzi's classes keep unknown fields
 * aside instead of failing, so the test walks the model and requires that nothing was kept aside).
 */
class StrimziExamplesTest {
    private static final Path EXAMPLES = Path.of("..", "examples", "strimzi");
    private static final Map<String, Class<?>> KINDS = Map.of(
            "KafkaConnect", KafkaConnect.class, "KafkaConnector", KafkaConnector.class,
            "Secret", Secret.class, "ConfigMap", ConfigMap.class);
    private static final Set<String> OUR_CONNECTORS = Set.of("dev.mirrorv3.connect.blob.BlobSinkConnector",
            "dev.mirrorv3.connect.kafka.KafkaSinkConnector", "dev.mirrorv3.connect.source.ChainSourceConnector");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    @Test
    void everyDocumentIsAValidResourceOfItsKind() throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(EXAMPLES)) {
            files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
        assertThat(files).as("Strimzi examples under %s", EXAMPLES).isNotEmpty();
        Set<String> connectorClasses = new TreeSet<>();
        for (Path file : files) {
            for (JsonNode doc : documents(file)) {
                String kind = doc.path("kind").asText();
                Class<?> type = KINDS.get(kind);
                assertThat(type).as("%s: a document of kind '%s'", file.getFileName(), kind).isNotNull();
                Object resource = YAML.treeToValue(doc, type);
                List<String> unknown = new ArrayList<>();
                unknownFields(resource, kind, unknown, new IdentityHashMap<>());
                assertThat(unknown).as("%s: fields the %s model does not know", file.getFileName(), kind).isEmpty();
                if (resource instanceof KafkaConnector c) {
                    connectorClasses.add(c.getSpec().getClassName());
                    assertThat(c.getSpec().getClassName()).as("%s: connector class", file.getFileName()).isIn(OUR_CONNECTORS);
                    assertThat(c.getMetadata().getLabels()).as("%s: the strimzi.io/cluster label that binds it to a KafkaConnect",
                            file.getFileName()).containsKey("strimzi.io/cluster");
                    assertThat(c.getSpec().getConfig()).as("%s: connector config", file.getFileName()).isNotEmpty();
                }
            }
        }
        assertThat(connectorClasses).as("the connectors of the KafkaConnector resources in the examples").isEqualTo(OUR_CONNECTORS);
    }

    /** Each KafkaConnector's config (its class, tasksMax and config map) passes {@code mirror-v3 validate --offline}. */
    @Test
    void everyConnectorConfigPassesTheOfflineValidation(@TempDir Path dir) throws Exception {
        List<Path> configs = new ArrayList<>();
        try (Stream<Path> s = Files.list(EXAMPLES)) {
            for (Path file : s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                for (JsonNode doc : documents(file)) {
                    if (!"KafkaConnector".equals(doc.path("kind").asText())) {
                        continue;
                    }
                    KafkaConnector c = YAML.treeToValue(doc, KafkaConnector.class);
                    Map<String, Object> config = new LinkedHashMap<>();
                    config.put("connector.class", c.getSpec().getClassName());
                    if (c.getSpec().getTasksMax() != null) {
                        config.put("tasks.max", String.valueOf(c.getSpec().getTasksMax()));
                    }
                    c.getSpec().getConfig().forEach((k, v) -> config.put(k, String.valueOf(v)));
                    Path json = dir.resolve(c.getMetadata().getName() + ".json");
                    new ObjectMapper().writeValue(json.toFile(), Map.of("name", c.getMetadata().getName(), "config", config));
                    configs.add(json);
                }
            }
        }
        assertThat(configs).hasSizeGreaterThanOrEqualTo(OUR_CONNECTORS.size());
        try (NoNetwork network = NoNetwork.arm()) {
            for (Path json : configs) {
                CliRun r = CliRun.run("validate", "--offline", "--connector-config", json.toString());
                assertThat(network.attempts()).as("network use by validate --offline " + json).isEmpty();
                assertThat(r.exitCode()).as(json.getFileName() + ": " + r).isZero();
            }
        }
    }

    @Test
    void aFieldTheModelDoesNotKnowIsSeen() throws IOException {
        JsonNode doc = YAML.readTree("""
                apiVersion: kafka.strimzi.io/v1beta2
                kind: KafkaConnector
                metadata: {name: x, labels: {strimzi.io/cluster: c}}
                spec: {class: dev.mirrorv3.connect.blob.BlobSinkConnector, tasksMax: 1, taskMax: 2, config: {topics: t}}
                """);
        List<String> unknown = new ArrayList<>();
        unknownFields(YAML.treeToValue(doc, KafkaConnector.class), "KafkaConnector", unknown, new IdentityHashMap<>());
        assertThat(unknown).containsExactly("KafkaConnector.spec.taskMax");
    }

    private static List<JsonNode> documents(Path file) throws IOException {
        try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(file.toFile())) {
            return it.readAll().stream().filter(n -> n != null && !n.isNull() && !n.isEmpty()).toList();
        }
    }

    /** Walks the model's getters; every UnknownPropertyPreserving object must have kept nothing aside. */
    private static void unknownFields(Object o, String path, List<String> unknown, IdentityHashMap<Object, Boolean> seen) {
        if (o == null || o instanceof String || o instanceof Number || o instanceof Boolean || o instanceof Enum<?>
                || seen.put(o, Boolean.TRUE) != null) {
            return;
        }
        if (o instanceof Collection<?> c) {
            int i = 0;
            for (Object e : c) {
                unknownFields(e, path + "[" + i++ + "]", unknown, seen);
            }
            return;
        }
        if (o instanceof Map<?, ?> m) {
            m.forEach((k, v) -> unknownFields(v, path + "." + k, unknown, seen));
            return;
        }
        String pkg = o.getClass().getPackageName();
        if (!pkg.startsWith("io.strimzi") && !pkg.startsWith("io.fabric8")) {
            return;
        }
        if (o instanceof UnknownPropertyPreserving u && u.getAdditionalProperties() != null) {
            u.getAdditionalProperties().keySet().forEach(k -> unknown.add(path + "." + k));
        }
        if (o instanceof io.fabric8.kubernetes.api.model.KubernetesResource) {
            additionalProperties(o).forEach(k -> unknown.add(path + "." + k));
        }
        for (Method m : o.getClass().getMethods()) {
            String n = m.getName();
            boolean getter = m.getParameterCount() == 0 && !Modifier.isStatic(m.getModifiers())
                    && (n.startsWith("get") || n.startsWith("is")) && !n.equals("getClass") && !n.equals("getAdditionalProperties");
            if (getter) {
                try {
                    String field = Character.toLowerCase(n.charAt(n.startsWith("is") ? 2 : 3)) + n.substring(n.startsWith("is") ? 3 : 4);
                    unknownFields(m.invoke(o), path + "." + field, unknown, seen);
                } catch (ReflectiveOperationException | RuntimeException e) {
                    // a computed getter that does not apply to this object: nothing to walk
                }
            }
        }
    }

    /** fabric8's models keep unknown fields in getAdditionalProperties() too (not through Strimzi's interface). */
    @SuppressWarnings("unchecked")
    private static Set<String> additionalProperties(Object o) {
        try {
            Object props = o.getClass().getMethod("getAdditionalProperties").invoke(o);
            return props instanceof Map<?, ?> m ? (Set<String>) m.keySet() : Set.of();
        } catch (ReflectiveOperationException e) {
            return Set.of();
        }
    }
}
