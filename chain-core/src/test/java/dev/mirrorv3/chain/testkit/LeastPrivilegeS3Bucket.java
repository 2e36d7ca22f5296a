package dev.mirrorv3.chain.testkit;

import dev.mirrorv3.chain.store.StoreFactory;
import dev.mirrorv3.testsupport.s3.S3TestServer;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One bucket on an S3Proxy with the least-privilege identities ({@link S3TestServer#startWithLeastPrivilege}), for a test
 * class that registers it ({@code @RegisterExtension static final}): started before its first test, closed after its
 * last; {@link #settings} are a connector's settings for it.
 */
public final class LeastPrivilegeS3Bucket implements BeforeAllCallback, AfterAllCallback {
    private final String bucket;
    private S3TestServer server;

    public LeastPrivilegeS3Bucket(String bucket) {
        this.bucket = bucket;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        server = S3TestServer.startWithLeastPrivilege();
        server.createBucket(bucket);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        server.close();
    }

    public S3TestServer server() {
        return server;
    }

    /**
     * The settings of a destination under {@code prefix} as a map (what {@link StoreFactory} reads) with the three
     * identities, {@code writer}, {@code reader} and {@code pruner}, each with its secret {@code <id>-secret-value}. The
     * map is mutable, so that a test can take an identity away or spoil a secret.
     */
    public Map<String, String> settings(String prefix) {
        Map<String, String> s = new HashMap<>(Map.of(
                StoreFactory.DESTINATION_TYPE, "s3",
                StoreFactory.S3_ENDPOINT, server.endpoint().toString(),
                StoreFactory.S3_REGION, "us-east-1",
                StoreFactory.S3_BUCKET, bucket,
                StoreFactory.S3_PREFIX, prefix,
                StoreFactory.S3_PATH_STYLE, "true"));
        identity(s, StoreFactory.S3_WRITE_ACCESS_KEY_ID, StoreFactory.S3_WRITE_SECRET_ACCESS_KEY, "writer");
        identity(s, StoreFactory.S3_READ_ACCESS_KEY_ID, StoreFactory.S3_READ_SECRET_ACCESS_KEY, "reader");
        identity(s, StoreFactory.S3_PRUNE_ACCESS_KEY_ID, StoreFactory.S3_PRUNE_SECRET_ACCESS_KEY, "pruner");
        return s;
    }

    private static void identity(Map<String, String> settings, String idSetting, String secretSetting, String id) {
        settings.put(idSetting, id);
        settings.put(secretSetting, id + "-secret-value");
    }
}
