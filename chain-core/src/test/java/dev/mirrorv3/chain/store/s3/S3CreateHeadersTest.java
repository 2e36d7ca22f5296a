package dev.mirrorv3.chain.store.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.store.StoreRequests;
import dev.mirrorv3.testsupport.s3.S3TestServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.s3.model.ObjectLockMode;

/**
 * What every create (a chain object, an object beside the partitions, a snapshot streamed from its file) sends, taken
 * as the request leaves the client ({@link ExecutionInterceptor#beforeTransmission}), against S3Proxy: the CRC32 of its
 * bytes as S3 accepts it for a bucket with Object Lock ({@code x-amz-sdk-checksum-algorithm: CRC32} with
 * {@code x-amz-checksum-crc32}) whatever the SDK's own default ({@code AWS_REQUEST_CHECKSUM_CALCULATION=when_required},
 * here its system property, turns the SDK's default off), and the settings' Object Lock retention.
 */
class S3CreateHeadersTest {
    private static final String BUCKET = "checksums";
    private static final String SDK_SETTING = "aws.requestChecksumCalculation";

    static S3TestServer server;
    final RecordedPuts puts = new RecordedPuts();

    @TempDir
    Path dir;

    @BeforeAll
    static void startServer() {
        server = S3TestServer.start("admin", "admin-secret-value");
        server.createBucket(BUCKET);
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @AfterEach
    void clearSdkSetting() {
        System.clearProperty(SDK_SETTING);
    }

    private S3Store store(String prefix) {
        return store(prefix, Optional.empty());
    }

    private S3Store store(String prefix, Optional<NewObjectRetention> retention) {
        S3Identity admin = new S3Identity("write", "admin", "admin-secret-value");
        S3Settings settings = S3Settings.of(Optional.of(server.endpoint()), "us-east-1", BUCKET, prefix, true, admin, admin)
                .withCallTimeout(Duration.ofSeconds(10));
        return new S3Store(retention.map(settings::withObjectLock).orElse(settings), "m", new StoreRequests(), List.of(puts));
    }

    @ParameterizedTest(name = "AWS_REQUEST_CHECKSUM_CALCULATION={0}")
    @ValueSource(strings = {"when_required", "when_supported", ""})
    void everyCreateCarriesTheCrc32OfItsBytesWhateverTheSdkDefault(String sdkSetting) throws Exception {
        if (!sdkSetting.isEmpty()) {
            System.setProperty(SDK_SETTING, sdkSetting);
        }
        List<byte[]> bodies;
        try (S3Store store = store("crc-" + (sdkSetting.isEmpty() ? "default" : sdkSetting))) {
            bodies = RecordedPuts.createOfEachKind(store, dir);
        }
        List<Map<String, List<String>>> sent = puts.sent();
        assertThat(sent).as("one PutObject per create").hasSize(3);
        for (int i = 0; i < 3; i++) {
            Map<String, List<String>> headers = sent.get(i);
            assertThat(headers.get("x-amz-sdk-checksum-algorithm")).as("create %d: %s", i, headers).containsExactly("CRC32");
            assertThat(headers.get("x-amz-checksum-crc32")).as("create %d: %s", i, headers)
                    .containsExactly(RecordedPuts.crc32(bodies.get(i)));
            assertThat(headers).as("no retention of its own without the settings").doesNotContainKeys("x-amz-object-lock-mode",
                    "x-amz-object-lock-retain-until-date");
            assertThat(headers.get("Content-Length")).as("create %d, the body as it is: %s", i, headers)
                    .containsExactly(String.valueOf(bodies.get(i).length));
            assertThat(headers).as("create %d, no aws-chunked body, no trailer: %s", i, headers)
                    .doesNotContainKeys("Content-Encoding", "x-amz-trailer", "x-amz-decoded-content-length");
            assertThat(headers.get("x-amz-content-sha256")).as("create %d: %s", i, headers).noneMatch(v -> v.startsWith("STREAMING-"));
        }
    }

    /**
     * S3Proxy has no Object Lock: it refuses a PutObject asking for a retention with 501, which is then named as the
     * retention's refusal (the settings to remove, the bucket to enable), not as a store without conditional writes.
     * The retention's headers on the wire are S3ObjectLockIT's (S3Mock models Object Lock).
     */
    @Test
    void aStoreWithoutObjectLockRefusingTheRetentionNamesTheSettings() {
        try (S3Store store = store("no-lock", Optional.of(new NewObjectRetention(ObjectLockMode.GOVERNANCE, 30)))) {
            assertThatThrownBy(() -> store.create(0, RecordedPuts.CHAIN_OBJECT, new byte[10]))
                    .isInstanceOf(S3AccessException.class)
                    .hasMessageContaining("refused PutObject s3://checksums/no-lock/m/0/" + RecordedPuts.CHAIN_OBJECT
                            + " with an Object Lock retention (s3.object.lock.mode, s3.object.lock.retain.days) (HTTP 501")
                    .hasMessageContaining("enable it, or remove both settings").hasMessageNotContaining("admin-secret-value");
        }
        assertThat(puts.sent().get(0).get("x-amz-object-lock-mode")).as("the retention was asked for").containsExactly("GOVERNANCE");
    }
}
