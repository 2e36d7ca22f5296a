package dev.mirrorv3.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The modules the import rules name (docs/architecture.md, "What each module may import"). A class belongs to the
 * module it was compiled in, read from where its class file lies ({@code <module>/target/classes} or the module's jar),
 * not from its package: restore-engine's {@code dev.mirrorv3.chain.restore} sits under chain-core's packages.
 */
enum Modules {
    CHAIN_CORE("chain-core"),
    KAFKA_CORE("kafka-core"),
    KAFKA_SUPPORT("kafka-support"),
    RESTORE_ENGINE("restore-engine"),
    CONFIG_DOCS("config-docs"),
    TEST_SUPPORT("test-support"),
    CONNECTOR_SINK_BLOB("connector-sink-blob"),
    CONNECTOR_SOURCE_CHAIN("connector-source-chain"),
    CONNECTOR_SINK_KAFKA("connector-sink-kafka"),
    TRANSFORMS("transforms"),
    QUICKSTART_TOOLS("quickstart-tools"),
    BENCH("bench"),
    CACHE_SIDECAR("cache-sidecar"),
    RESTORE_CLI("restore-cli");

    /** The Connect plugins: each is its own plugin, so none may import another's main code. */
    static final Modules[] CONNECTORS = {CONNECTOR_SINK_BLOB, CONNECTOR_SOURCE_CHAIN, CONNECTOR_SINK_KAFKA, TRANSFORMS};

    // <module>/target/classes/... or <module>/target/<module>-<version>.jar!/... (Maven's reactor hands out either)
    private static final Pattern BUILD_OUTPUT = Pattern.compile("/([a-z-]+)/target/(classes/|[a-z-]+-[0-9][^/]*\\.jar!/)");

    final String dir;

    Modules(String dir) {
        this.dir = dir;
    }

    /** The classes compiled in this module. */
    DescribedPredicate<JavaClass> classes() {
        return DescribedPredicate.describe("are in " + dir, c -> dir.equals(moduleDir(c)));
    }

    /** The classes compiled in any other module. */
    DescribedPredicate<JavaClass> outside() {
        return DescribedPredicate.describe("are outside " + dir, c -> !dir.equals(moduleDir(c)));
    }

    /** The classes compiled in any of these modules. */
    static DescribedPredicate<JavaClass> classesOf(Modules... modules) {
        List<String> dirs = Arrays.stream(modules).map(m -> m.dir).toList();
        String names = String.join(", ", dirs.subList(0, dirs.size() - 1)) + (dirs.size() > 1 ? " or " : "") + dirs.get(dirs.size() - 1);
        return DescribedPredicate.describe("are in " + names,
                c -> Arrays.stream(modules).anyMatch(m -> m.dir.equals(moduleDir(c))));
    }

    /** The module directory a class was read from; empty for a class of a library or of no known build output. */
    static String moduleDir(JavaClass c) {
        return c.getSource().map(s -> {
            Matcher m = BUILD_OUTPUT.matcher(s.getUri().toString());
            return m.find() ? m.group(1) : "";
        }).orElse("");
    }
}
