package dev.mirrorv3.chain.store.s3;

import dev.mirrorv3.chain.TemporaryFiles;
import dev.mirrorv3.chain.bytes.ObjectBytes;
import dev.mirrorv3.chain.store.ObjectLockedException;
import dev.mirrorv3.chain.store.ObjectMissingException;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.StoreException;
import dev.mirrorv3.chain.store.StoreRequests;
import java.time.Clock;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Chains in an S3 bucket (AWS S3 or an S3-compatible store): {@code <prefix>/<name>/<partition>/<object>}.
 * A commit is one PutObject with {@code If-None-Match: *}, which the store refuses with 412 if the key exists. A 412
 * may answer our own earlier attempt whose reply was lost (the SDK retried it): the existing object is then read
 * and its SHA-256 compared with ours; the same content is our commit, anything else another writer's object.
 * Stores that ignore the header (VersityGW) overwrite silently; the tail check before each flush is then the guard.
 * Stores that refuse it (501 Not Implemented) fail the task: retrying cannot help.
 *
 * <p>Three identities: PutObject is signed with the write identity, list, get and head with the read identity, and
 * deletes ({@code mirror-v3 prune}) with the prune identity, so a least-privilege bucket policy gives each only what it
 * needs and only the prune identity can delete. Credentials come only from the settings
 * ({@link StaticCredentialsProvider}); no AWS_* variables, profiles or instance metadata are consulted.
 */
public final class S3Store implements Store {
    private final S3Settings settings;
    private final String chainKey;
    private final S3Client writer;
    private final S3Client reader;
    private final ConditionalPut put;
    private final StoreRequests requests;
    private final Optional<RetentionCheckedDelete> deletes;
    private final List<S3Client> clients = new ArrayList<>();

    /** @param name the destination name (the chain directory under the prefix) */
    public S3Store(S3Settings settings, String name) {
        this(settings, name, new StoreRequests(), List.of());
    }

    /** @param requests where every request of both clients is counted */
    public S3Store(S3Settings settings, String name, StoreRequests requests) {
        this(settings, name, requests, List.of());
    }

    /** @param interceptors added to both clients (request counting in tests), after the one that counts into {@code requests} */
    public S3Store(S3Settings settings, String name, StoreRequests requests, List<ExecutionInterceptor> interceptors) {
        this.settings = settings;
        this.chainKey = settings.prefix().isEmpty() ? name : settings.prefix() + "/" + name;
        this.requests = requests;
        List<ExecutionInterceptor> all = new ArrayList<>();
        all.add(new RequestCounting(requests));
        all.addAll(interceptors);
        Map<S3Identity, S3Client> byIdentity = new IdentityHashMap<>(); // one client per identity (prune opens one)
        Function<S3Identity, S3Client> client = id -> byIdentity.computeIfAbsent(id, i -> {
            if (i.isBlank()) {
                return S3Clients.missing(i); // a reader's settings need no write identity: refused when first used
            }
            S3Client c = S3Clients.create(settings, i, all);
            clients.add(c);
            return c;
        });
        this.writer = client.apply(settings.write());
        this.reader = client.apply(settings.read());
        this.put = new ConditionalPut(settings, writer, reader, this::readKey);
        this.deletes = settings.prune().map(p -> new RetentionCheckedDelete(settings, client.apply(p), Clock.systemUTC()));
    }

    @Override
    public StoreRequests requests() {
        return requests;
    }

    private String partitionKey(int partition) {
        return chainKey + "/" + partition + "/";
    }

    private String key(int partition, String name) {
        return partitionKey(partition) + name;
    }

    @Override
    public String location(int partition) {
        return "s3://" + settings.bucket() + "/" + chainKey + "/" + partition;
    }

    @Override
    public List<String> list(int partition) {
        return listUnder(partitionKey(partition), location(partition));
    }

    private List<String> listUnder(String prefix, String where) {
        List<String> names = new ArrayList<>(listFromUnder(prefix, where, "", Integer.MAX_VALUE));
        names.sort(null); // S3 lists in UTF-8 binary order; ours are ASCII, but keep the contract explicit
        return names;
    }

    /**
     * One ListObjectsV2 in the usual case: {@code start-after} the key just before {@code startAt}, at most
     * {@code max} keys (more pages only if foreign keys sort between that key and {@code startAt}).
     */
    @Override
    public List<String> listFrom(int partition, String startAt, int max) {
        return listFromUnder(partitionKey(partition), location(partition), startAt, max);
    }

    private List<String> listFromUnder(String prefix, String where, String startAt, int max) {
        List<String> names = new ArrayList<>();
        String startAfter = startAt.isEmpty() ? null : prefix + predecessor(startAt);
        String token = null;
        do {
            ListObjectsV2Request.Builder req = ListObjectsV2Request.builder().bucket(settings.bucket()).prefix(prefix)
                    .maxKeys(Math.min(max, 1000)); // a page holds at most 1000 keys
            if (token != null) {
                req.continuationToken(token);
            } else if (startAfter != null) {
                req.startAfter(startAfter);
            }
            ListObjectsV2Response page = read("ListObjectsV2 " + where, () -> reader.listObjectsV2(req.build()));
            for (S3Object o : page.contents()) {
                String n = o.key().substring(prefix.length());
                if (n.compareTo(startAt) >= 0 && !TemporaryFiles.isTemporary(n) && names.size() < max) {
                    names.add(n);
                }
            }
            token = names.size() < max && Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
        } while (token != null);
        return names;
    }

    /** A key that sorts just before {@code s}: its last character decremented (start-after is exclusive). */
    static String predecessor(String s) {
        char last = s.charAt(s.length() - 1);
        return last == 0 ? s.substring(0, s.length() - 1) : s.substring(0, s.length() - 1) + (char) (last - 1);
    }

    @Override
    public boolean exists(int partition, String name) {
        try {
            reader.headObject(r -> r.bucket(settings.bucket()).key(key(partition, name)));
            return true;
        } catch (NoSuchKeyException e) {
            return false;
        } catch (AwsServiceException e) {
            if (e.statusCode() == 404 && !"NoSuchBucket".equals(code(e))) {
                return false;
            }
            throw S3Errors.translate(e, "HeadObject " + location(partition) + "/" + name, settings.read(), settings.bucket());
        } catch (SdkException e) {
            throw S3Errors.translate(e, "HeadObject " + location(partition) + "/" + name, settings.read(), settings.bucket());
        }
    }

    @Override
    public byte[] read(int partition, String name) {
        return readKey(key(partition, name), location(partition) + "/" + name);
    }

    private byte[] readKey(String key, String where) {
        try {
            return reader.getObjectAsBytes(r -> r.bucket(settings.bucket()).key(key)).asByteArray();
        } catch (NoSuchKeyException e) {
            throw new ObjectMissingException(where);
        } catch (SdkException e) {
            throw S3Errors.translate(e, "GetObject " + where, settings.read(), settings.bucket());
        }
    }

    @Override
    public long size(int partition, String name) {
        String where = location(partition) + "/" + name;
        try {
            return reader.headObject(r -> r.bucket(settings.bucket()).key(key(partition, name))).contentLength();
        } catch (NoSuchKeyException e) {
            throw new ObjectMissingException(where);
        } catch (AwsServiceException e) {
            if (e.statusCode() == 404) { // a HEAD reply has no body, so no NoSuchKey code
                throw new ObjectMissingException(where);
            }
            throw S3Errors.translate(e, "HeadObject " + where, settings.read(), settings.bucket());
        } catch (SdkException e) {
            throw S3Errors.translate(e, "HeadObject " + where, settings.read(), settings.bucket());
        }
    }

    /** One ranged GetObject (a snapshot's footer, without the rest). */
    @Override
    public byte[] readRange(int partition, String name, long offset, int length) {
        String where = location(partition) + "/" + name;
        if (length <= 0) {
            return new byte[0];
        }
        try {
            return reader.getObjectAsBytes(r -> r.bucket(settings.bucket()).key(key(partition, name))
                    .range("bytes=" + offset + "-" + (offset + length - 1))).asByteArray();
        } catch (NoSuchKeyException e) {
            throw new ObjectMissingException(where);
        } catch (SdkException e) {
            throw S3Errors.translate(e, "GetObject " + where, settings.read(), settings.bucket());
        }
    }

    /** Streams the object to the file (a snapshot never passes through the heap whole). */
    @Override
    public void readTo(int partition, String name, java.nio.file.Path target) {
        String where = location(partition) + "/" + name;
        try {
            java.nio.file.Files.deleteIfExists(target);
            reader.getObject(r -> r.bucket(settings.bucket()).key(key(partition, name)),
                    software.amazon.awssdk.core.sync.ResponseTransformer.toFile(target));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot replace " + target, e);
        } catch (NoSuchKeyException e) {
            throw new ObjectMissingException(where);
        } catch (SdkException e) {
            throw S3Errors.translate(e, "GetObject " + where, settings.read(), settings.bucket());
        }
    }

    @Override
    public void create(int partition, String name, byte[] data) {
        put.bytes(key(partition, name), location(partition) + "/" + name, data);
    }

    /** Uploads from the chunks ({@link ConditionalPut#object}); a re-issue is the same conditional PutObject. */
    @Override
    public void create(int partition, String name, ObjectBytes data) {
        put.object(key(partition, name), location(partition) + "/" + name, data);
    }

    @Override
    public void recommit(int partition, String name, ObjectBytes data) {
        create(partition, name, data);
    }

    private String besideKey(String dir) {
        return chainKey + "/" + Store.requireBesideDir(dir) + "/";
    }

    @Override
    public String besideLocation(String dir) {
        return "s3://" + settings.bucket() + "/" + chainKey + "/" + Store.requireBesideDir(dir);
    }

    @Override
    public List<String> listBeside(String dir) {
        return listUnder(besideKey(dir), besideLocation(dir));
    }

    @Override
    public List<String> listBesideFrom(String dir, String startAt, int max) {
        return listFromUnder(besideKey(dir), besideLocation(dir), startAt, max);
    }

    @Override
    public byte[] readBeside(String dir, String name) {
        return readKey(besideKey(dir) + name, besideLocation(dir) + "/" + name);
    }

    @Override
    public void createBeside(String dir, String name, byte[] data) {
        put.bytes(besideKey(dir) + name, besideLocation(dir) + "/" + name, data);
    }

    /** A snapshot's commit, streamed from the local file ({@link ConditionalPut#file}). */
    @Override
    public void createFrom(int partition, String name, java.nio.file.Path file, boolean reissue) {
        put.file(key(partition, name), location(partition) + "/" + name, file);
    }

    /** A PutObject is atomic: S3 has no temporary objects of ours to remove. */
    @Override
    public int removeTemporaryFiles(int partition) {
        return 0;
    }

    @Override
    public List<Integer> partitions() {
        String prefix = chainKey + "/";
        TreeSet<Integer> partitions = new TreeSet<>();
        String token = null;
        do {
            ListObjectsV2Request.Builder req = ListObjectsV2Request.builder().bucket(settings.bucket()).prefix(prefix).delimiter("/");
            if (token != null) {
                req.continuationToken(token);
            }
            ListObjectsV2Response page = read("ListObjectsV2 s3://" + settings.bucket() + "/" + prefix,
                    () -> reader.listObjectsV2(req.build()));
            for (CommonPrefix p : page.commonPrefixes()) {
                String segment = p.prefix().substring(prefix.length(), p.prefix().length() - 1);
                if (segment.matches("\\d{1,9}")) {
                    partitions.add(Integer.valueOf(segment));
                }
            }
            token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
        } while (token != null);
        return List.copyOf(partitions);
    }

    /**
     * Checks that the read identity can list this destination (one ListObjectsV2 of at most one key): the bucket
     * exists, the endpoint answers, the credentials are accepted. The write identity cannot be checked without
     * writing; its first PutObject reports a problem with the same clarity.
     */
    public void checkReadAccess() {
        read("ListObjectsV2 s3://" + settings.bucket() + "/" + chainKey + "/",
                () -> reader.listObjectsV2(r -> r.bucket(settings.bucket()).prefix(chainKey + "/").maxKeys(1)));
    }

    /** Signed with the prune identity; an object under an Object Lock retention stays ({@link RetentionCheckedDelete}). */
    @Override
    public void delete(int partition, String name) {
        deletes().delete(key(partition, name), location(partition) + "/" + name);
    }

    @Override
    public void deleteBeside(String dir, String name) {
        deletes().delete(besideKey(dir) + name, besideLocation(dir) + "/" + name);
    }

    /** One GetObjectRetention, with the prune identity. */
    @Override
    public Optional<ObjectLockedException> retention(int partition, String name) {
        return deletes().retentionInForce(key(partition, name), location(partition) + "/" + name);
    }

    private RetentionCheckedDelete deletes() {
        return deletes.orElseThrow(() -> new StoreException("deleting from " + settings.describe() + " needs the prune"
                + " identity: set s3.prune.access.key.id and s3.prune.secret.access.key (only mirror-v3 prune deletes)"));
    }

    /** The bucket has Object Lock enabled ({@link BucketObjectLock}: one request with the read identity). */
    public void checkObjectLockEnabled() {
        BucketObjectLock.requireEnabled(settings, reader);
    }

    @Override
    public void close() {
        clients.forEach(S3Client::close);
    }

    private <T> T read(String operation, Supplier<T> call) {
        try {
            return call.get();
        } catch (SdkException e) {
            throw S3Errors.translate(e, operation, settings.read(), settings.bucket());
        }
    }

    private static String code(AwsServiceException e) {
        return e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
    }
}
