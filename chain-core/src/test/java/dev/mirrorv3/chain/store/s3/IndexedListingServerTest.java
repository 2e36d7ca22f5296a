package dev.mirrorv3.chain.store.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.testsupport.s3.S3TestServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The benches' S3 server with an indexed listing answers every ListObjectsV2 page as S3Proxy's own store does, over
 * HTTP: the same keys, sizes, ETags and common prefixes, page by page, from a prefix, a start-after key and continuation
 * tokens, after puts, copies, overwrites and deletes.
 */
class IndexedListingServerTest {
    private static final String BUCKET = "backups";
    private static S3TestServer plain;
    private static S3TestServer indexed;
    private static S3Client plainClient;
    private static S3Client indexedClient;

    @BeforeAll
    static void fillBoth() {
        plain = S3TestServer.start("admin", "admin-secret-value");
        indexed = S3TestServer.start("admin", "admin-secret-value", true);
        plainClient = client(plain);
        indexedClient = client(indexed);
        Random random = new Random(42);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            String dir = List.of("", "a/", "a/b/", "a/b/c/", "a-b/", "z/").get(random.nextInt(6));
            keys.add(dir + String.format("%05d-%05d.parquet", random.nextInt(3000), random.nextInt(3000)));
        }
        for (S3Client c : List.of(plainClient, indexedClient)) {
            c.createBucket(b -> b.bucket(BUCKET));
            for (String key : keys) {
                c.putObject(p -> p.bucket(BUCKET).key(key), RequestBody.fromString("bytes of " + key));
            }
            c.putObject(p -> p.bucket(BUCKET).key(keys.get(0)), RequestBody.fromString("overwritten, longer than before"));
            for (int i = 1; i < 60; i += 3) {
                String key = keys.get(i);
                c.deleteObject(d -> d.bucket(BUCKET).key(key));
            }
            c.copyObject(r -> r.sourceBucket(BUCKET).sourceKey(keys.get(2)).destinationBucket(BUCKET).destinationKey("a/copied"));
        }
    }

    @AfterAll
    static void stop() {
        plainClient.close();
        indexedClient.close();
        plain.close();
        indexed.close();
    }

    @ParameterizedTest
    @CsvSource(nullValues = "-", value = {
        "-, -, -, 1000", "-, -, -, 7", "a/, -, -, 1000", "a/, -, -, 13", "a/b/, -, a/b/01000, 5", "a/, /, -, 1000",
        "a/, /, -, 1", "-, /, -, 2", "a/b/, /, a/b/00500-00000.parquet, 3", "z/, -, z/99999, 10", "-, -, a/b/c/, 50",
        "nothing/, -, -, 10", "a, -, -, 9", "a, -, a-a, 4"})
    void everyPageIsTheStoresOwn(String prefix, String delimiter, String startAfter, int maxKeys) {
        List<String> fromPlain = pages(plainClient, prefix, delimiter, startAfter, maxKeys);
        List<String> fromIndex = pages(indexedClient, prefix, delimiter, startAfter, maxKeys);
        assertThat(fromIndex).isEqualTo(fromPlain);
        assertThat(fromPlain).isNotEmpty();
    }

    /** Every page as a line: its objects (key, size, ETag), its common prefixes and whether it says more follow. */
    private static List<String> pages(S3Client c, String prefix, String delimiter, String startAfter, int maxKeys) {
        List<String> pages = new ArrayList<>();
        String token = null;
        do {
            ListObjectsV2Request.Builder r = ListObjectsV2Request.builder().bucket(BUCKET).prefix(prefix).delimiter(delimiter)
                    .startAfter(startAfter).maxKeys(maxKeys).continuationToken(token);
            ListObjectsV2Response page = c.listObjectsV2(r.build());
            StringBuilder line = new StringBuilder();
            for (S3Object o : page.contents()) {
                line.append(o.key()).append(' ').append(o.size()).append(' ').append(o.eTag()).append("; ");
            }
            for (CommonPrefix p : page.commonPrefixes()) {
                line.append("prefix ").append(p.prefix()).append("; ");
            }
            pages.add(line.append("truncated ").append(page.isTruncated()).toString());
            token = page.nextContinuationToken();
            assertThat(pages).as("pages of a listing of 400 keys, %d at a time", maxKeys).hasSizeLessThanOrEqualTo(400 / maxKeys + 2);
        } while (token != null);
        return pages;
    }

    private static S3Client client(S3TestServer server) {
        return S3Client.builder().endpointOverride(server.endpoint()).region(Region.US_EAST_1).forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("admin", "admin-secret-value")))
                .build();
    }
}
