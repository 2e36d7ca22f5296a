package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.s3.S3Settings;
import dev.mirrorv3.chain.store.s3.S3Store;
import dev.mirrorv3.testsupport.s3.S3TestServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * One store the blob sink's integration scenarios run against: it fills in a connector config's destination
 * settings and lets a test look at, add, replace and delete objects behind the connector's back, the same way on
 * the filesystem and on S3. The scenarios are written once against this class and run on both
 * ({@link TestDestinations}).
 */
abstract class TestDestination {
    private final String label;

    TestDestination(String label) {
        this.label = label;
    }

    /** {@code filesystem} or {@code s3}: also a suffix that keeps topic and connector names apart per store. */
    String label() {
        return label;
    }

    @Override
    public String toString() {
        return label;
    }

    /** A valid sink config ({@link BlobSinkTestSupport#sinkConfig}) for this destination. */
    abstract Map<String, String> config(String connectorClass, String topic, String bootstrap);

    Map<String, String> config(String topic, String bootstrap) {
        return config(BlobSinkConnector.class.getName(), topic, bootstrap);
    }

    /** The chain store of a destination name, with an identity that may read everything. */
    abstract Store store(String name);

    Function<String, Store> stores() {
        return this::store;
    }

    /** An object's location as the connector's messages name it ({@code /root/name/0/x}, {@code s3://b/p/name/0/x}). */
    String location(String name, int partition, String object) {
        try (Store store = store(name)) {
            return store.location(partition) + "/" + object;
        }
    }

    List<String> list(String name, int partition) {
        try (Store store = store(name)) {
            return store.list(partition);
        }
    }

    byte[] read(String name, int partition, String object) {
        try (Store store = store(name)) {
            return store.read(partition, object);
        }
    }

    /** Writes an object, replacing one of the same name (someone else's hand, not the connector's commit). */
    abstract void put(String name, int partition, String object, byte[] data);

    abstract void delete(String name, int partition, String object);

    /** Copies every object of partition 0 of chain {@code from} (in any destination) to chain {@code to} here. */
    void copyChain(TestDestination source, String from, String to) {
        for (String object : source.list(from, 0)) {
            put(to, 0, object, source.read(from, 0, object));
        }
    }

    /** Files under a root directory. */
    static final class Filesystem extends TestDestination {
        private final Path root;

        Filesystem(Path root) {
            super("filesystem");
            this.root = root;
        }

        @Override
        Map<String, String> config(String connectorClass, String topic, String bootstrap) {
            return BlobSinkTestSupport.sinkConfig(connectorClass, topic, root, bootstrap);
        }

        @Override
        Store store(String name) {
            return new FilesystemStore(root, name);
        }

        Path root() {
            return root;
        }

        Path dir(String name, int partition) {
            return root.resolve(name).resolve(Integer.toString(partition));
        }

        @Override
        void put(String name, int partition, String object, byte[] data) {
            try {
                Files.write(Files.createDirectories(dir(name, partition)).resolve(object), data);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        void delete(String name, int partition, String object) {
            try {
                Files.delete(dir(name, partition).resolve(object));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /**
     * An in-process S3 server (S3Proxy) with a bucket: the connector writes with a write-only identity and reads with
     * a read-only one, as a least-privilege bucket policy allows; the test's own hand has every permission.
     */
    static final class S3 extends TestDestination {
        static final String BUCKET = "backups";
        static final String PREFIX = "kafka";
        private static final S3TestUsers USERS = new S3TestUsers("admin", "admin-secret", "writer",
                "writer-secret", "reader", "reader-secret");

        private final S3TestServer server;
        private final S3Client admin;
        private final S3Settings adminSettings;

        S3() {
            super("s3");
            server = USERS.start(BUCKET);
            admin = USERS.adminClient(server);
            adminSettings = USERS.adminSettings(server, BUCKET, PREFIX);
        }

        @Override
        Map<String, String> config(String connectorClass, String topic, String bootstrap) {
            Map<String, String> c = BlobSinkTestSupport.sinkConfig(connectorClass, topic, Path.of("/unused"), bootstrap);
            c.remove("filesystem.root");
            c.putAll(USERS.connectorCredentials(server, BUCKET));
            c.put("s3.prefix", PREFIX);
            c.put("encryption", "none");
            return c;
        }

        @Override
        Store store(String name) {
            return new S3Store(adminSettings, name);
        }

        private String key(String name, int partition, String object) {
            return PREFIX + "/" + name + "/" + partition + "/" + object;
        }

        @Override
        void put(String name, int partition, String object, byte[] data) {
            admin.putObject(r -> r.bucket(BUCKET).key(key(name, partition, object)), RequestBody.fromBytes(data));
        }

        @Override
        void delete(String name, int partition, String object) {
            admin.deleteObject(r -> r.bucket(BUCKET).key(key(name, partition, object)));
        }

        /** The in-process server's port, for a proxy in front of it. */
        int port() {
            return server.port();
        }

        /** Requests the server answered for {@code method} ({@code list}, {@code getBlob}, {@code putBlob}) so far. */
        int calls(String method) {
            return server.calls(method);
        }

        /** Not {@code close()}: JUnit closes AutoCloseable arguments of a parameterized test after each invocation. */
        void shutdown() {
            admin.close();
            server.close();
        }
    }
}
