package dev.mirrorv3.bundle;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mirrorv3.testsupport.Archives;
import dev.mirrorv3.testsupport.BundledNotices;
import dev.mirrorv3.testsupport.GeneratedDocs;
import dev.mirrorv3.testsupport.MarkdownLinks;
import java.io.IOException;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.apache.kafka.connect.runtime.isolation.PluginUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built bundle, a component archive (see {@link #isAComponentArchiveWhoseJarsConnectFindsInLib}): in lib/ only our
 * jars and their dependencies (nothing the worker provides), a META-INF/services entry for every plugin class, which
 * Connect's service_load discovery needs, a manifest.json that lists them; the license files: LICENSE, and NOTICE with
 * the notices of every jar shipped (the section between the markers is generated from the jars); and the documentation
 * as in the repository, checked on the unpacked zip: every relative link of every page resolves inside the archive.
 */
class BundleContentsIT {
    private static final List<String> PLUGIN_TYPES = List.of(
            "org.apache.kafka.connect.sink.SinkConnector",
            "org.apache.kafka.connect.source.SourceConnector",
            "org.apache.kafka.connect.transforms.Transformation",
            "org.apache.kafka.connect.transforms.predicates.Predicate",
            "org.apache.kafka.connect.storage.Converter",
            "org.apache.kafka.connect.storage.HeaderConverter",
            "org.apache.kafka.common.config.provider.ConfigProvider");

    private static final Map<String, String> CONNECTOR_TYPES = Map.of("sink", "org.apache.kafka.connect.sink.SinkConnector",
            "source", "org.apache.kafka.connect.source.SourceConnector");
    private static final Path REPO_NOTICE = Path.of("..", "NOTICE");
    private static final String NOTICES_START = "==== begin: notices of the plugin archive's jars ====";
    private static final String NOTICES_END = "==== end: notices of the plugin archive's jars ====";

    private final Path dir = Path.of(System.getProperty("bundle.dir"));

    @TempDir
    Path unpacked;

    private List<Path> jars() throws IOException {
        try (Stream<Path> files = Files.list(dir.resolve("lib"))) {
            return files.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
        }
    }

    @Test
    void holdsOurJarsAndNothingTheWorkerProvides() throws IOException {
        List<String> names = jars().stream().map(p -> p.getFileName().toString()).toList();
        assertThat(names).anyMatch(n -> n.startsWith("connector-sink-blob-"));
        assertThat(names).anyMatch(n -> n.startsWith("connector-source-chain-"));
        assertThat(names).anyMatch(n -> n.startsWith("connector-sink-kafka-"));
        assertThat(names).anyMatch(n -> n.startsWith("chain-core-"));
        assertThat(names).anyMatch(n -> n.startsWith("transforms-"));
        assertThat(names).noneMatch(n -> n.startsWith("connect-api") || n.startsWith("kafka-clients")
                || n.startsWith("slf4j-api") || n.startsWith("jackson-core") || n.startsWith("jackson-databind"));
        assertThat(Path.of(System.getProperty("bundle.zip"))).exists();
    }

    @Test
    void shipsTheLicenseAndANoticeWithTheNoticesOfEveryJarItShips() throws IOException {
        GeneratedDocs.checkSection(REPO_NOTICE, NOTICES_START, NOTICES_END, BundledNotices.section(dir.resolve("lib")),
                "bundled jars' notices");
        Path root = unzip();
        assertThat(root.resolve("doc/LICENSE")).hasSameTextualContentAs(Path.of("..", "LICENSE"));
        if (!GeneratedDocs.updatingDocs()) {
            assertThat(root.resolve("doc/NOTICE")).as("NOTICE in the zip").exists().hasSameTextualContentAs(REPO_NOTICE);
        }
    }

    @Test
    void everyRelativeLinkOfEveryPageInTheZipResolvesInsideIt() throws IOException {
        Path root = unzip();
        List<Path> pages = MarkdownLinks.allPages(root);
        assertThat(pages).as("pages in the zip").contains(root.resolve("doc/README.md"), root.resolve("doc/CHANGELOG.md"),
                root.resolve("doc/docs/operations.md"), root.resolve("doc/examples/dual-write/README.md"));
        assertThat(MarkdownLinks.check(pages, root)).as("broken links in the zip (page:line: target: reason)").isEmpty();
    }

    @Test
    void holdsTheFilesTheDocsSendOperatorsTo() throws IOException {
        Path root = unzip();
        for (String file : List.of("config/jmx-exporter.yaml", "config/prometheus-rules.yaml", "config/grafana-dashboard.json",
                "config/schemas/blob-sink-connector.schema.json", "examples/blob-sink-s3.json", "docs/img/blob-sink-scaling.png")) {
            assertThat(root.resolve("doc").resolve(file)).as("doc/" + file + " in the zip").isRegularFile();
        }
        assertThat(root.resolve("etc/blob-sink-s3.json")).isRegularFile();
        assertThat(root.resolve("etc/jmx-exporter.yaml")).isRegularFile();
        assertThat(root.resolve("assets/blob-sink-scaling.png")).isRegularFile();
    }

    /**
     * A component archive (manifest.json, lib/, etc/, doc/, assets/) that a worker still loads as one plugin from its
     * directory: Connect's own scan of a plugin location finds exactly the jars of lib/.
     */
    @Test
    void isAComponentArchiveWhoseJarsConnectFindsInLib() throws IOException {
        Path root = unzip();
        for (String part : List.of("manifest.json", "lib", "etc", "doc", "assets")) {
            assertThat(root.resolve(part)).as(part + " in the zip").exists();
        }
        List<String> found = PluginUtils.pluginUrls(root).stream().map(p -> root.relativize(p).toString()).sorted().toList();
        List<String> lib = jars().stream().map(p -> "lib/" + p.getFileName()).sorted().toList();
        assertThat(found).as("jars Connect puts on the plugin's class loader").isNotEmpty().isEqualTo(lib);
    }

    @Test
    void theManifestNamesTheComponentItsPluginsItsLicenseAndItsRequirements() throws Exception {
        JsonNode manifest = new ObjectMapper().readTree(unzip().resolve("manifest.json").toFile());
        assertThat(manifest.path("name").asText()).isEqualTo("mirror-v3-connect");
        assertThat(manifest.path("version").asText()).isEqualTo(System.getProperty("bundle.version"));
        assertThat(manifest.path("license").path(0).path("name").asText()).isEqualTo("Apache License 2.0");
        assertThat(manifest.path("requirements").toString()).contains("Java 17", "Kafka Connect " + System.getProperty("kafka.version"));
        List<String> listed = new ArrayList<>();
        manifest.path("connectors").forEach(c -> listed.add(CONNECTOR_TYPES.get(c.path("type").asText()) + ":"
                + c.path("class").asText()));
        manifest.path("transforms").forEach(t -> listed.add("org.apache.kafka.connect.transforms.Transformation:"
                + t.path("class").asText()));
        assertThat(listed).as("the manifest's connectors and transforms").containsExactlyInAnyOrderElementsOf(pluginClasses());
    }

    /** The zip unpacked into a temporary directory; returns the directory it holds (the bundle's name). */
    private Path unzip() throws IOException {
        return Archives.unzip(Path.of(System.getProperty("bundle.zip")), unpacked).resolve(dir.getFileName());
    }

    @Test
    void everyPluginClassHasAServicesEntry() throws Exception {
        Set<String> declared = new HashSet<>();
        for (Path jar : jars().stream().filter(p -> isOurs(p.getFileName().toString())).toList()) {
            try (JarFile jf = new JarFile(jar.toFile())) {
                for (String type : PLUGIN_TYPES) {
                    JarEntry e = jf.getJarEntry("META-INF/services/" + type);
                    if (e != null) {
                        new String(jf.getInputStream(e).readAllBytes(), StandardCharsets.UTF_8).lines()
                                .map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("#"))
                                .forEach(c -> declared.add(type + ":" + c));
                    }
                }
            }
        }
        List<String> pluginClasses = pluginClasses();
        assertThat(pluginClasses).as("plugin classes found in the bundle").isNotEmpty()
                .contains("org.apache.kafka.connect.sink.SinkConnector:dev.mirrorv3.connect.blob.BlobSinkConnector",
                        "org.apache.kafka.connect.sink.SinkConnector:dev.mirrorv3.connect.kafka.KafkaSinkConnector");
        assertThat(declared).as("META-INF/services entries").containsAll(pluginClasses);
    }

    /** Every public, concrete class of our jars that implements a plugin type, as "type:class". */
    private List<String> pluginClasses() throws Exception {
        List<String> pluginClasses = new ArrayList<>();
        List<URL> urls = new ArrayList<>();
        for (Path p : jars()) {
            urls.add(p.toUri().toURL());
        }
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]), getClass().getClassLoader())) {
            for (Path jar : jars().stream().filter(p -> isOurs(p.getFileName().toString())).toList()) {
                try (JarFile jf = new JarFile(jar.toFile())) {
                    for (JarEntry entry : Collections.list(jf.entries())) {
                        String n = entry.getName();
                        // nested plugins (ValidateFormat$Key) count; anonymous classes do not
                        if (!n.startsWith("dev/mirrorv3/") || !n.endsWith(".class") || n.matches(".*\\$\\d.*")) {
                            continue;
                        }
                        Class<?> c = Class.forName(n.replace('/', '.').replace(".class", ""), false, loader);
                        if (Modifier.isAbstract(c.getModifiers()) || !Modifier.isPublic(c.getModifiers())) {
                            continue;
                        }
                        for (String type : PLUGIN_TYPES) {
                            if (loader.loadClass(type).isAssignableFrom(c)) {
                                pluginClasses.add(type + ":" + c.getName());
                            }
                        }
                    }
                }
            }
        }
        return pluginClasses;
    }

    private static boolean isOurs(String jarName) {
        return Stream.of("connector-", "chain-core-", "kafka-core-", "kafka-support-", "restore-engine-", "transforms-")
                .anyMatch(jarName::startsWith);
    }
}
