package dev.mirrorv3.testsupport.s3;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Adobe's S3Mock (the {@code com.adobe.testing:s3mock} {@code exec} jar, a Spring Boot server) as a process of its own:
 * the S3 server of the tests that need Object Lock, which S3Proxy does not have. It keeps a bucket's Object Lock
 * configuration, answers {@code If-None-Match: *} with 412, checks and keeps an {@code x-amz-checksum-crc32}, and
 * stores the retention {@code PutObjectRetention} sets; it checks no signature. It does not enforce Object Lock: the
 * lock headers of a PutObject are ignored and a locked object can still be overwritten or deleted (that refusal is the
 * server's promise, which only a real S3 keeps).
 *
 * <p>A test class registers one ({@code @RegisterExtension static final S3MockServer S3 = new S3MockServer();}): it
 * starts before the class's first test (about 20 s) on free loopback ports and is stopped after its last. The jar is
 * the one the module's build copied ({@code mirrorv3.s3mock.jar}, set by the parent pom for failsafe), so it comes from
 * Maven Central with the build's other dependencies.
 */
public final class S3MockServer implements AutoCloseable, BeforeAllCallback, AfterAllCallback {
    /** The system property naming the exec jar. */
    public static final String JAR_PROPERTY = "mirrorv3.s3mock.jar";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);

    private Process process;
    private Path root;
    private Path log;
    private int port;
    private Thread shutdownHook;

    @Override
    public void beforeAll(ExtensionContext context) {
        start();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        close();
    }

    /** Starts the server (once per instance) and waits until it answers. */
    public synchronized void start() {
        if (process != null) {
            return;
        }
        Path jar = jar();
        try {
            root = Files.createTempDirectory("s3mock-");
            port = freePort();
            log = Path.of("target", "s3mock-" + port + ".log").toAbsolutePath();
            Files.createDirectories(log.getParent());
            String java = ProcessHandle.current().info().command().orElse("java");
            process = new ProcessBuilder(List.of(java, "-Xmx256m", "-XX:TieredStopAtLevel=1", "-jar", jar.toString(),
                    "--com.adobe.testing.s3mock.httpPort=" + port, "--server.port=" + freePort(),
                    "--server.address=127.0.0.1", "--com.adobe.testing.s3mock.store.root=" + root,
                    "--com.adobe.testing.s3mock.store.retainFilesOnExit=false"))
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start S3Mock from " + jar, e);
        }
        Process started = process;
        shutdownHook = new Thread(started::destroyForcibly, "s3mock-stop");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        awaitAnswer();
    }

    private static Path jar() {
        String configured = System.getProperty(JAR_PROPERTY, "");
        Path jar = Path.of(configured);
        if (configured.isEmpty() || !Files.isRegularFile(jar)) {
            throw new IllegalStateException("no S3Mock jar at '" + configured + "' (system property " + JAR_PROPERTY + "): the"
                    + " module's pom must copy com.adobe.testing:s3mock:exec (the maven-dependency-plugin execution 's3mock' of"
                    + " the parent pom) for its integration tests");
        }
        return jar;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** ListBuckets answers 200 once the server has started; a process that exits first fails with its log's end. */
    private void awaitAnswer() {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("S3Mock exited with " + process.exitValue() + " before answering: " + logTail());
            }
            try {
                HttpURLConnection c = (HttpURLConnection) endpoint().toURL().openConnection();
                c.setConnectTimeout(1000);
                c.setReadTimeout(5000);
                if (c.getResponseCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while S3Mock starts", e);
            }
        }
        close();
        throw new IllegalStateException("S3Mock did not answer within " + START_TIMEOUT.toSeconds() + " s: " + logTail());
    }

    private String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException e) {
            return "(no log at " + log + ")";
        }
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    /**
     * Creates a bucket, with Object Lock enabled or without (one unsigned CreateBucket: S3Mock checks no signature).
     * S3Mock does not turn versioning on with Object Lock, as S3 does; nothing here needs it.
     */
    public void createBucket(String bucket, boolean objectLock) {
        try {
            HttpURLConnection c = (HttpURLConnection) endpoint().resolve("/" + bucket).toURL().openConnection();
            c.setRequestMethod("PUT");
            if (objectLock) {
                c.setRequestProperty("x-amz-bucket-object-lock-enabled", "true");
            }
            int status = c.getResponseCode();
            if (status != 200) {
                throw new IllegalStateException("S3Mock answered " + status + " to creating bucket " + bucket);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create bucket " + bucket + " on S3Mock", e);
        }
    }

    @Override
    public synchronized void close() {
        if (process == null) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException shuttingDown) {
            // the hook runs anyway
        }
        process = null;
        deleteRecursively(root);
    }

    private static void deleteRecursively(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary directory: left for the OS
        }
    }
}
