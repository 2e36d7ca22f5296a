package dev.mirrorv3.testsupport.s3;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import org.gaul.s3proxy.blobstore.domain.MultipartUpload;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadRequest;
import software.amazon.awssdk.services.s3.model.CompleteMultipartUploadResponse;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.CopyObjectResponse;
import software.amazon.awssdk.services.s3.model.DeleteObjectRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectResponse;
import software.amazon.awssdk.services.s3.model.DeleteObjectsRequest;
import software.amazon.awssdk.services.s3.model.DeleteObjectsResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectRequest;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.ObjectStorageClass;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * S3Proxy's store with a sorted index of each bucket's keys that answers ListObjectsV2 the way S3 does: from the prefix,
 * start-after key or continuation token on, in time that does not grow with the bucket. S3Proxy's own stores walk every
 * key of a bucket for each listing (the 104 pages of a 100,000-object chain took 56 s in the chain-scale bench), which
 * would measure the server and not the client in a bench of long chains. Every other call goes to the store below;
 * the index follows the writes and deletes that succeed there, so both always hold the same keys.
 */
final class IndexedListing extends ForwardingBlobStore {
    private static final int MAX_KEYS = 1000;
    private final Map<String, NavigableMap<String, S3Object>> buckets = new ConcurrentHashMap<>();

    IndexedListing(BlobStore delegate) {
        super(delegate);
    }

    @Override
    public PutObjectResponse putBlob(PutObjectRequest request, InputStream input) {
        return indexed(super.putBlob(request, input), request.bucket(), request.key());
    }

    @Override
    public CopyObjectResponse copyBlob(CopyObjectRequest request) {
        return indexed(super.copyBlob(request), request.destinationBucket(), request.destinationKey());
    }

    @Override
    public CompleteMultipartUploadResponse completeMultipartUpload(MultipartUpload upload, CompleteMultipartUploadRequest request) {
        return indexed(super.completeMultipartUpload(upload, request), request.bucket(), request.key());
    }

    @Override
    public DeleteObjectResponse removeBlob(DeleteObjectRequest request) {
        DeleteObjectResponse response = super.removeBlob(request);
        keys(request.bucket()).remove(request.key());
        return response;
    }

    @Override
    public DeleteObjectsResponse removeBlobs(DeleteObjectsRequest request) {
        DeleteObjectsResponse response = super.removeBlobs(request);
        response.deleted().forEach(d -> keys(request.bucket()).remove(d.key()));
        return response;
    }

    @Override
    public void deleteBucket(String bucket) {
        super.deleteBucket(bucket);
        buckets.remove(bucket);
    }

    @Override
    public ListObjectsV2Response list(ListObjectsV2Request request) {
        NavigableMap<String, S3Object> keys = buckets.get(request.bucket());
        if (keys == null) {
            return super.list(request); // no object written yet: the store answers (an empty listing, or no such bucket)
        }
        String prefix = request.prefix() == null ? "" : request.prefix();
        String delimiter = request.delimiter() == null || request.delimiter().isEmpty() ? null : request.delimiter();
        int max = request.maxKeys() == null ? MAX_KEYS : Math.min(request.maxKeys(), MAX_KEYS);
        NavigableMap<String, S3Object> from = start(keys, prefix, delimiter, request);
        List<S3Object> contents = new ArrayList<>();
        List<CommonPrefix> prefixes = new ArrayList<>();
        String last = null;
        boolean truncated = false;
        while (!from.isEmpty()) {
            String key = from.firstKey();
            if (!key.startsWith(prefix)) {
                break;
            }
            if (contents.size() + prefixes.size() == max) {
                truncated = true;
                break;
            }
            int cut = delimiter == null ? -1 : key.indexOf(delimiter, prefix.length());
            if (cut >= 0) {
                String common = key.substring(0, cut + delimiter.length());
                prefixes.add(CommonPrefix.builder().prefix(common).build());
                last = common;
                from = keys.tailMap(successor(common), true); // past every key the common prefix rolls up
            } else {
                contents.add(from.firstEntry().getValue());
                last = key;
                from = from.tailMap(key, false);
            }
        }
        return ListObjectsV2Response.builder().name(request.bucket()).prefix(request.prefix()).delimiter(request.delimiter())
                .maxKeys(max).keyCount(contents.size() + prefixes.size()).isTruncated(truncated).contents(contents)
                .commonPrefixes(prefixes).continuationToken(request.continuationToken()).startAfter(request.startAfter())
                .nextContinuationToken(truncated ? encode(last) : null).encodingType(request.encodingType()).build();
    }

    /** The keys a page starts with: after the continuation token (or the start-after key), within the prefix. */
    private static NavigableMap<String, S3Object> start(NavigableMap<String, S3Object> keys, String prefix, String delimiter,
            ListObjectsV2Request request) {
        String after = request.continuationToken() != null ? decode(request.continuationToken()) : request.startAfter();
        if (after == null || after.compareTo(prefix) < 0) {
            return keys.tailMap(prefix, true);
        }
        if (request.continuationToken() != null && delimiter != null && after.endsWith(delimiter)
                && after.indexOf(delimiter, prefix.length()) == after.length() - delimiter.length()) {
            return keys.tailMap(successor(after), true); // the last page ended with this common prefix
        }
        return keys.tailMap(after, false);
    }

    /** {@code response}, after the key it wrote is in the index with the store's own size, ETag and time. */
    private <T> T indexed(T response, String bucket, String key) {
        HeadObjectResponse head = delegate().blobMetadata(HeadObjectRequest.builder().bucket(bucket).key(key).build());
        keys(bucket).put(key, S3Object.builder().key(key).size(head.contentLength()).eTag(head.eTag())
                .lastModified(head.lastModified()).storageClass(ObjectStorageClass.STANDARD).build());
        return response;
    }

    private NavigableMap<String, S3Object> keys(String bucket) {
        return buckets.computeIfAbsent(bucket, b -> new ConcurrentSkipListMap<>());
    }

    /** The least string after every string that starts with {@code s}. */
    private static String successor(String s) {
        return s.substring(0, s.length() - 1) + (char) (s.charAt(s.length() - 1) + 1);
    }

    private static String encode(String key) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(key.getBytes(StandardCharsets.UTF_8));
    }

    private static String decode(String token) {
        return new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
    }
}
