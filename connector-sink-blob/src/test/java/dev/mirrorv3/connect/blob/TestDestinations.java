package dev.mirrorv3.connect.blob;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The two stores of a test class, started before its first test and stopped after its last (one S3 server per
 * class, like the cluster). A scenario that applies to both stores is a parameterized test over {@link #all()}:
 *
 * <pre>{@code
 * @RegisterExtension static final TestDestinations destinations = new TestDestinations();
 * static Stream<TestDestination> stores() { return destinations.all(); }
 * @ParameterizedTest(name = "{0}") @MethodSource("stores") void scenario(TestDestination d) { ... }
 * }</pre>
 */
final class TestDestinations implements BeforeAllCallback, AfterAllCallback {
    private Path root;
    private TestDestination.Filesystem filesystem;
    private TestDestination.S3 s3;

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        root = Files.createTempDirectory("blob-sink-it");
        filesystem = new TestDestination.Filesystem(root);
        s3 = new TestDestination.S3();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (s3 != null) {
            s3.shutdown();
        }
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    TestDestination.Filesystem filesystem() {
        return filesystem;
    }

    TestDestination.S3 s3() {
        return s3;
    }

    Stream<TestDestination> all() {
        return Stream.of(filesystem, s3);
    }
}
