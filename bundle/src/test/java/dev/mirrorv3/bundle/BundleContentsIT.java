package dev.mirrorv3.bundle;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.Enumeration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The built bundle: only our jars and their dependencies (nothing the worker provides), a META-INF/services entry for
 * every plugin class, which Connect's service_load discovery needs, and the license files: LICENSE, and NOTICE with
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

    private static final Path REPO_NOTICE = Path.of("..", "NOTICE");
    private static final String NOTICES_START = "==== begin: notices of the plugin archive's jars ====";
    private static final String NOTICES_END = "==== end: notices of the plugin archive's jars ====";

    private final Path dir = Path.of(System.getProperty("bundle.dir"));

    @TempDir
    Path unpacked;

    private List<Path> jars() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
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
        GeneratedDocs.checkSection(REPO_NOTICE, NOTICES_START, NOTICES_END, BundledNotices.section(dir),
                "bundled jars' notices");
        Path root = unzip();
        assertThat(root.resolve("LICENSE")).hasSameTextualContentAs(Path.of("..", "LICENSE"));
        if (!GeneratedDocs.updatingDocs()) {
            assertThat(root.resolve("NOTICE")).as("NOTICE in the zip").exists().hasSameTextualContentAs(REPO_NOTICE);
        }
    }

    @Test
    void everyRelativeLinkOfEveryPageInTheZipResolvesInsideIt() throws IOException {
        Path root = unzip();
        List<Path> pages = MarkdownLinks.allPages(root);
        assertThat(pages).as("pages in the zip").contains(root.resolve("README.md"), root.resolve("docs/operations.md"),
                root.resolve("examples/dual-write/README.md"));
        assertThat(MarkdownLinks.check(pages, root)).as("broken links in the zip (page:line: target: reason)").isEmpty();
    }

    @Test
    void holdsTheFilesTheDocsSendOperatorsTo() throws IOException {
        Path root = unzip();
        for (String file : List.of("config/jmx-exporter.yaml", "config/prometheus-rules.yaml", "config/grafana-dashboard.json",
                "config/schemas/blob-sink-connector.schema.json", "examples/blob-sink-s3.json", "docs/img/blob-sink-scaling.png")) {
            assertThat(root.resolve(file)).as(file + " in the zip").isRegularFile();
        }
    }

    /** The zip unpacked into a temporary directory; returns the directory it holds (the bundle's name). */
    private Path unzip() throws IOException {
        return Archives.unzip(Path.of(System.getProperty("bundle.zip")), unpacked).resolve(dir.getFileName());
    }

    @Test
    void everyPluginClassHasAServicesEntry() throws Exception {
        List<Path> ours = jars().stream().filter(p -> isOurs(p.getFileName().toString())).toList();
        Set<String> declared = new HashSet<>();
        List<String> pluginClasses = new ArrayList<>();
        List<URL> urls = new ArrayList<>();
        for (Path p : jars()) {
            urls.add(p.toUri().toURL());
        }
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(new URL[0]), getClass().getClassLoader())) {
            for (Path jar : ours) {
                try (JarFile jf = new JarFile(jar.toFile())) {
                    for (String type : PLUGIN_TYPES) {
                        JarEntry e = jf.getJarEntry("META-INF/services/" + type);
                        if (e != null) {
                            new String(jf.getInputStream(e).readAllBytes(), StandardCharsets.UTF_8).lines()
                                    .map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("#"))
                                    .forEach(c -> declared.add(type + ":" + c));
                        }
                    }
                    Enumeration<JarEntry> entries = jf.entries();
                    while (entries.hasMoreElements()) {
                        String n = entries.nextElement().getName();
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
        assertThat(pluginClasses).as("plugin classes found in the bundle").isNotEmpty()
                .contains("org.apache.kafka.connect.sink.SinkConnector:dev.mirrorv3.connect.blob.BlobSinkConnector",
                        "org.apache.kafka.connect.sink.SinkConnector:dev.mirrorv3.connect.kafka.KafkaSinkConnector");
        assertThat(declared).as("META-INF/services entries").containsAll(pluginClasses);
    }

    private static boolean isOurs(String jarName) {
        return jarName.startsWith("connector-") || jarName.startsWith("chain-core-") || jarName.startsWith("kafka-support-")
                || jarName.startsWith("transforms-");
    }
}
