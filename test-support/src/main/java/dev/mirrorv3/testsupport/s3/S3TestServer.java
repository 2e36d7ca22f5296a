package dev.mirrorv3.testsupport.s3;

import com.google.common.jimfs.Configuration;
import com.google.common.jimfs.Jimfs;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Constructor;
import java.net.URI;
import java.nio.file.FileSystem;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.gaul.s3proxy.AccessGrant;
import org.gaul.s3proxy.BlobStores;
import org.gaul.s3proxy.S3ErrorCode;
import org.gaul.s3proxy.S3Proxy;
import org.gaul.s3proxy.S3ProxyException;
import org.gaul.s3proxy.auth.AuthenticationType;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import org.gaul.s3proxy.nio2blob.TransientNio2BlobStore;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CopyObjectResponse;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * A real S3 server in this JVM (S3Proxy 4.1.0 over an in-memory blob store) that checks SigV4 signatures of
 * several identities, each allowed some operations only, as a least-privilege bucket policy would. It can be
 * stopped and started again on the same port with the same objects (an outage), and counts the calls it serves
 * ({@code list} = ListObjectsV2, {@code getBlob} = GetObject, {@code putBlob} = PutObject), also those on the keys under
 * a prefix ({@link #watch}).
 */
public final class S3TestServer implements AutoCloseable {
    /** What an identity may do: the operations of a least-privilege policy. */
    public enum Access {
        /** PutObject only (s3:PutObject); S3Proxy's own existence checks while serving it are not refused. */
        WRITE_ONLY,
        /** ListObjectsV2 and GetObject (s3:ListBucket, s3:GetObject). */
        READ_ONLY,
        /** ListObjectsV2, GetObject, PutObject and DeleteObject: {@code mirror-v3 prune}'s identity (no copy). */
        PRUNE,
        ALL
    }

    /** How PutObject with {@code If-None-Match: *} is answered: as S3 does, or as a store without it does. */
    public enum ConditionalWrites {
        SUPPORTED,
        /** {@code 501 NotImplemented}, as AWS S3 answers a header whose functionality it does not implement. */
        NOT_IMPLEMENTED,
        /** {@code 400 InvalidArgument} naming the header. */
        REFUSED
    }

    private static final Pattern PUT_IN_FLIGHT =
            Pattern.compile("-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$");
    private final BlobStore store;
    private final Map<String, Identity> identities = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> callsUnder = new ConcurrentHashMap<>();
    private volatile ConditionalWrites conditionalWrites = ConditionalWrites.SUPPORTED;
    private volatile boolean deletesRefusedAsLocked;
    private S3Proxy proxy;
    private int port;

    private record Identity(String secret, Access access) {
    }

    private S3TestServer(boolean indexedListing) {
        this.store = indexedListing ? new IndexedListing(largeTransientStore()) : BlobStores.create("transient", new Properties());
    }

    /**
     * S3Proxy's transient store over an in-memory file system of up to 64 GiB in 1 KiB blocks: its own holds 4 GiB in 8 KiB
     * blocks, about 500,000 tiny objects, and answers "out of disk space" past them (seen in the chain-scale bench, whose
     * million-object chains are made of objects of 160 bytes). The constructor that takes the file system is private;
     * the class is kept so that S3Proxy still recognises the store as its transient one (its conditional writes).
     */
    private static BlobStore largeTransientStore() {
        FileSystem fs = Jimfs.newFileSystem(Configuration.unix().toBuilder().setAttributeViews("posix", "user")
                .setWorkingDirectory("/").setMaxSize(64L << 30).setBlockSize(1024).build());
        try {
            Constructor<TransientNio2BlobStore> withFileSystem = TransientNio2BlobStore.class.getDeclaredConstructor(FileSystem.class);
            withFileSystem.setAccessible(true);
            return withFileSystem.newInstance(fs);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("S3Proxy " + TransientNio2BlobStore.class.getPackage().getImplementationVersion()
                    + " has no TransientNio2BlobStore(FileSystem) constructor: see S3TestServer.largeTransientStore", e);
        }
    }

    /** Starts a server on a free port with one identity that may do everything. */
    public static S3TestServer start(String accessKeyId, String secret) {
        return start(accessKeyId, secret, false);
    }

    /**
     * As {@link #start(String, String)}; with {@code indexedListing}, ListObjectsV2 is answered from a sorted index of the
     * keys as S3 answers it, in time that does not grow with the bucket ({@link IndexedListing}), instead of by S3Proxy's
     * store, which walks every key of the bucket for each page.
     */
    public static S3TestServer start(String accessKeyId, String secret, boolean indexedListing) {
        S3TestServer server = new S3TestServer(indexedListing);
        server.addIdentity(accessKeyId, secret, Access.ALL);
        server.startOn(0);
        return server;
    }

    /**
     * As {@link #start}, with an admin identity ({@code admin}, {@code admin-secret-value}) and the least-privilege ones
     * a backup's three users hold: {@code writer}, {@code reader} and {@code pruner}, each with its secret
     * {@code <id>-secret-value}.
     */
    public static S3TestServer startWithLeastPrivilege() {
        S3TestServer server = start("admin", "admin-secret-value");
        server.addIdentity("writer", "writer-secret-value", Access.WRITE_ONLY);
        server.addIdentity("reader", "reader-secret-value", Access.READ_ONLY);
        server.addIdentity("pruner", "pruner-secret-value", Access.PRUNE);
        return server;
    }

    public void addIdentity(String accessKeyId, String secret, Access access) {
        identities.put(accessKeyId, new Identity(secret, access));
    }

    /** From now on, PutObject with {@code If-None-Match} is answered as {@code mode} says (nothing is written). */
    public void conditionalWrites(ConditionalWrites mode) {
        this.conditionalWrites = mode;
    }

    /**
     * From now on (or no longer), every DeleteObject an identity may do is refused with 403 AccessDenied and AWS S3's
     * message for an object under Object Lock (as S3 answers a delete of a locked version, MinIO any delete of one).
     */
    public void refuseDeletesAsLocked(boolean refuse) {
        this.deletesRefusedAsLocked = refuse;
    }

    public void createBucket(String bucket) {
        store.createContainer(bucket);
    }

    /** Puts an object straight into the blob store, without HTTP: fast set-up of large chains. */
    public void putDirect(String bucket, String key, byte[] data) {
        store.putBlob(PutObjectRequest.builder().bucket(bucket).key(key).contentLength((long) data.length).build(),
                new ByteArrayInputStream(data));
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    public int port() {
        return port;
    }

    /** Blob-store calls served so far with this method name ({@code list} = ListObjectsV2, {@code putBlob}, ...). */
    public int calls(String method) {
        AtomicInteger n = calls.get(method);
        return n == null ? 0 : n.get();
    }

    public void resetCalls() {
        calls.clear();
    }

    /**
     * From now on, counts the calls served (any method) on a key, or a listing's prefix, under {@code keyPrefix} (e.g.
     * one connector's objects, {@code <prefix><name>/}); returns the live count.
     */
    public AtomicInteger watch(String keyPrefix) {
        return callsUnder.computeIfAbsent(keyPrefix, k -> new AtomicInteger());
    }

    /** Stops serving (connections are refused) and keeps the objects. */
    public synchronized void stop() {
        if (proxy == null) {
            return;
        }
        try {
            proxy.stop();
        } catch (Exception e) {
            // Jetty reports a TimeoutException when open keep-alive connections outlive the short stop timeout; the
            // connector is closed by then (connections are refused), which is all an outage needs.
        }
        proxy = null;
    }

    /** Serves again on the same port, with the same objects. */
    public synchronized void restart() {
        if (proxy == null) {
            startOn(port);
        }
    }

    private void startOn(int onPort) {
        // The configured identity is never used: the locator below resolves every request's access key id.
        S3Proxy p = S3Proxy.builder()
                .blobStore(store)
                .endpoint(URI.create("http://127.0.0.1:" + onPort))
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, "unused-" + System.nanoTime(), "unused")
                .stopTimeout(100)
                .build();
        p.setBlobStoreLocator((identity, container, blob) -> {
            Identity id = identity == null ? null : identities.get(identity);
            return id == null ? null : new AccessGrant(id.secret(), guarded(id.access()));
        });
        try {
            p.start();
            long deadline = System.currentTimeMillis() + 10_000;
            while (!"STARTED".equals(p.getState())) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("S3Proxy did not start: " + p.getState());
                }
                Thread.sleep(10);
            }
        } catch (Exception e) {
            throw new IllegalStateException("cannot start S3Proxy on port " + onPort, e);
        }
        proxy = p;
        port = p.getPort();
    }

    /**
     * The listing as S3 gives it: S3Proxy's filesystem-like transient store writes a PUT's bytes to {@code <key>-<uuid>}
     * and moves them to the key when complete, and lists that file meanwhile; S3 never lists an object before its PUT
     * completed (a reader listing a chain while the blob sink writes it met such a name as a foreign object).
     */
    private static ListObjectsV2Response withoutPutsInFlight(ListObjectsV2Response r) {
        List<S3Object> shown = r.contents().stream().filter(o -> !PUT_IN_FLIGHT.matcher(o.key()).find()).toList();
        return shown.size() == r.contents().size() ? r
                : r.toBuilder().contents(shown).keyCount(shown.size() + r.commonPrefixes().size()).build();
    }

    /**
     * The blob store as one identity sees it: denied calls fail with 403 AccessDenied; every call is counted. A
     * {@link ForwardingBlobStore}, because S3Proxy looks through those to recognise the backend (and its support
     * of {@code If-None-Match}).
     */
    private BlobStore guarded(Access access) {
        return new ForwardingBlobStore(store) {
            @Override
            public ListObjectsV2Response list(ListObjectsV2Request request) {
                check("list", request.prefix(), access != Access.WRITE_ONLY);
                return withoutPutsInFlight(super.list(request));
            }

            @Override
            public ResponseInputStream<GetObjectResponse> getBlob(GetObjectRequest request) {
                check("getBlob", request.key(), access != Access.WRITE_ONLY);
                return super.getBlob(request);
            }

            @Override
            public PutObjectResponse putBlob(PutObjectRequest request, InputStream input) {
                try {
                    check("putBlob", request.key(), access != Access.READ_ONLY);
                    if (request.ifNoneMatch() != null) {
                        switch (conditionalWrites) {
                            case NOT_IMPLEMENTED -> throw new S3ProxyException(S3ErrorCode.NOT_IMPLEMENTED);
                            case REFUSED -> throw new S3ProxyException(S3ErrorCode.INVALID_ARGUMENT,
                                    "Conditional writes are not supported: If-None-Match");
                            case SUPPORTED -> { }
                        }
                    }
                } catch (S3ProxyException refused) {
                    drain(input);
                    throw refused;
                }
                return super.putBlob(request, input);
            }

            @Override
            public DeleteObjectResponse removeBlob(DeleteObjectRequest request) {
                check("removeBlob", request.key(), access == Access.ALL || access == Access.PRUNE);
                if (deletesRefusedAsLocked) {
                    throw new S3ProxyException(S3ErrorCode.ACCESS_DENIED, "Access Denied because object protected by object lock.");
                }
                return super.removeBlob(request);
            }

            @Override
            public CopyObjectResponse copyBlob(CopyObjectRequest request) {
                check("copyBlob", request.destinationKey(), access == Access.ALL);
                return super.copyBlob(request);
            }
        };
    }

    /**
     * Reads a refused upload's body before the refusal is answered. Answered first, the connection can be closed
     * under a client that is still sending the body, and the SDK then fails with "Error writing request body to
     * server" (an I/O error, retried and finally transient) instead of the refusal the test asserts: seen once in CI.
     */
    private static void drain(InputStream body) {
        try {
            body.transferTo(OutputStream.nullOutputStream());
        } catch (IOException e) {
            // the client went away: the refusal is answered all the same
        }
    }

    private void check(String method, String key, boolean allowed) {
        calls.computeIfAbsent(method, n -> new AtomicInteger()).incrementAndGet();
        callsUnder.forEach((prefix, n) -> {
            if (key != null && key.startsWith(prefix)) {
                n.incrementAndGet();
            }
        });
        if (!allowed) {
            throw new S3ProxyException(S3ErrorCode.ACCESS_DENIED);
        }
    }

    @Override
    public void close() {
        stop();
    }
}
