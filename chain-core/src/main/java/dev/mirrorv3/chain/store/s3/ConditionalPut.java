package dev.mirrorv3.chain.store.s3;

import dev.mirrorv3.chain.bytes.ObjectBytes;
import dev.mirrorv3.chain.store.ObjectExistsException;
import dev.mirrorv3.chain.store.ObjectMissingException;
import dev.mirrorv3.chain.store.StoreException;
import dev.mirrorv3.chain.store.TransientStoreException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ChecksumAlgorithm;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * {@link S3Store}'s commits: one PutObject with {@code If-None-Match: *}, signed with the write identity. A 412 is
 * ours when the existing object holds exactly our bytes (an earlier attempt whose reply was lost), another writer's
 * otherwise ({@link ObjectExistsException}). Every commit, whatever it holds (chain objects, snapshots, everything
 * beside the partitions), carries the CRC32 of its bytes ({@link Crc32}) and the settings' Object Lock retention, if any.
 */
record ConditionalPut(S3Settings settings, S3Client writer, S3Client reader, ReadBack readBack) {
    // S3Store's logger: a commit's log line keeps the category operators know.
    private static final Logger log = LoggerFactory.getLogger(S3Store.class);

    /** The largest object one PutObject takes. */
    static final long MAX_PUT_BYTES = 5L * 1024 * 1024 * 1024;

    /** Reads an existing key back with the read identity ({@link ObjectMissingException} when it is gone). */
    interface ReadBack {
        byte[] read(String key, String where);
    }

    void bytes(String key, String where, byte[] data) {
        object(key, where, ObjectBytes.of(data));
    }

    /**
     * A commit of bytes held in memory: the SDK reads the body from the chunks as it sends it (a new stream for each
     * attempt), never from a joined copy.
     */
    void object(String key, String where, ObjectBytes data) {
        try {
            writer.putObject(request(key, data.size(), Crc32.of(data)),
                    RequestBody.fromContentProvider(data::newInputStream, data.size(), "application/octet-stream"));
        } catch (AwsServiceException e) {
            if (e.statusCode() != 412) {
                throw S3Errors.translateConditionalPut(e, "PutObject " + where, settings.write(), settings.bucket(),
                        describeStore(), settings.objectLock().isPresent());
            }
            // The key exists. Ours, if an earlier attempt of this very commit landed and its outcome was lost (an
            // SDK retry, or the writer re-issuing a commit that failed): the same bytes then.
            byte[] existing;
            try {
                existing = readBack.read(key, where);
            } catch (ObjectMissingException gone) {
                throw new ObjectExistsException(where + " (refused with 412, then gone)");
            }
            if (!MessageDigest.isEqual(sha256(existing), sha256(data))) {
                throw new ObjectExistsException(where);
            }
            log.info("{} already holds exactly this object (an earlier attempt whose reply was lost): committed",
                    where);
        } catch (SdkException e) {
            throw S3Errors.translate(e, "PutObject " + where, settings.write(), settings.bucket());
        }
    }

    /**
     * A snapshot's commit: the SDK streams the body from the local file as it sends it (a snapshot may be far larger
     * than the heap), with {@link #bytes}'s no-overwrite condition ({@code If-None-Match: *}) and its handling of a 412
     * (the object is ours if it holds exactly the file's bytes, compared by streamed digests). One PutObject: S3 takes
     * up to 5 GiB in one; a larger snapshot is refused naming its size (multipart commits are not supported yet).
     */
    void file(String key, String where, Path file) {
        long length;
        try {
            length = Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the local snapshot " + file + " to commit " + where, e);
        }
        if (length > MAX_PUT_BYTES) {
            throw new StoreException("cannot commit " + where + ": it is " + length + " bytes, and one S3"
                    + " PutObject takes at most " + MAX_PUT_BYTES + " bytes (5 GiB); back this topic up as a chain"
                    + " (compaction=none), or split it over more partitions");
        }
        try {
            writer.putObject(request(key, length, Crc32.of(file)), RequestBody.fromFile(file));
        } catch (AwsServiceException e) {
            if (e.statusCode() != 412) {
                throw S3Errors.translateConditionalPut(e, "PutObject " + where, settings.write(), settings.bucket(),
                        describeStore(), settings.objectLock().isPresent());
            }
            byte[] existing;
            try (InputStream in = reader.getObject(r -> r.bucket(settings.bucket()).key(key))) {
                existing = sha256(in);
            } catch (NoSuchKeyException gone) {
                throw new ObjectExistsException(where + " (refused with 412, then gone)");
            } catch (IOException io) {
                throw new TransientStoreException("cannot read " + where + " back after a 412: " + io.getMessage(),
                        io);
            } catch (SdkException read) {
                throw S3Errors.translate(read, "GetObject " + where, settings.read(), settings.bucket());
            }
            byte[] ours;
            try (InputStream in = Files.newInputStream(file)) {
                ours = sha256(in);
            } catch (IOException io) {
                throw new UncheckedIOException("cannot read the local snapshot " + file, io);
            }
            if (!MessageDigest.isEqual(existing, ours)) {
                throw new ObjectExistsException(where);
            }
            log.info("{} already holds exactly this snapshot (an earlier attempt whose reply was lost): committed",
                    where);
        } catch (SdkException e) {
            throw S3Errors.translate(e, "PutObject " + where, settings.write(), settings.bucket());
        }
    }

    /**
     * One commit's PutObject: never over an existing key, with the CRC32 S3 checks (and requires in a bucket with Object
     * Lock) and the retention of the settings, which ends {@code days} after this request.
     */
    private PutObjectRequest request(String key, long length, String crc32) {
        PutObjectRequest.Builder put = PutObjectRequest.builder().bucket(settings.bucket()).key(key).ifNoneMatch("*")
                .contentLength(length).checksumAlgorithm(ChecksumAlgorithm.CRC32).checksumCRC32(crc32);
        settings.objectLock().ifPresent(lock -> put.objectLockMode(lock.mode()).objectLockRetainUntilDate(
                lock.retainUntil(Instant.now())));
        return put.build();
    }

    /** The store for messages: the endpoint's scheme, host and port (no user info), or AWS S3 and the region. */
    private String describeStore() {
        return settings.endpoint()
                .map(u -> "the S3 store at " + u.getScheme() + "://" + u.getHost()
                        + (u.getPort() < 0 ? "" : ":" + u.getPort()))
                .orElse("AWS S3 (region " + settings.region() + ")");
    }

    private static byte[] sha256(InputStream in) throws IOException {
        MessageDigest digest = digest();
        byte[] buf = new byte[64 * 1024];
        for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
            digest.update(buf, 0, n);
        }
        return digest.digest();
    }

    private static byte[] sha256(byte[] data) {
        return digest().digest(data);
    }

    private static byte[] sha256(ObjectBytes data) {
        MessageDigest digest = digest();
        data.update(digest);
        return digest.digest();
    }

    private static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
