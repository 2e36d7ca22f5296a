package dev.mirrorv3.chain.store.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mirrorv3.chain.store.StoreException;
import dev.mirrorv3.chain.store.TransientStoreException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** One case per kind of SDK failure: transient (retry with backoff) or fatal, and what the message names. */
class S3ErrorsTest {
    private static final S3Identity WRITE = new S3Identity("write", "AKIDWRITE", "write-secret-value");
    private static final S3Identity READ = new S3Identity("read", "AKIDREAD", "read-secret-value");

    private static StoreException translate(SdkException e, S3Identity who) {
        StoreException s = S3Errors.translate(e, "PutObject s3://bkt/p/n/0/x.parquet", who, "bkt");
        assertThat(s.getMessage()).doesNotContain("secret-value").doesNotContain("AKID");
        return s;
    }

    private static S3Exception service(int status, String code) {
        return (S3Exception) S3Exception.builder().statusCode(status).requestId("req-1")
                .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage("said " + code).build())
                .message("said " + code).build();
    }

    @Test
    void connectionRefusedIsTransient() {
        assertThat(translate(SdkClientException.create("Unable to execute HTTP request",
                new ConnectException("Connection refused")), WRITE))
                .isInstanceOf(TransientStoreException.class).hasMessageContaining("cannot reach S3");
    }

    @Test
    void connectionResetIsTransient() {
        assertThat(translate(SdkClientException.create("Unable to execute HTTP request", new SocketException("Connection reset")), READ))
                .isInstanceOf(TransientStoreException.class);
    }

    @Test
    void socketTimeoutIsTransient() {
        assertThat(translate(SdkClientException.create("read timed out", new SocketTimeoutException("Read timed out")), READ))
                .isInstanceOf(TransientStoreException.class);
    }

    @Test
    void otherIoFailureIsTransient() {
        assertThat(translate(SdkClientException.create("broken", new IOException("Broken pipe")), WRITE))
                .isInstanceOf(TransientStoreException.class);
    }

    @Test
    void apiCallTimeoutsAreTransient() {
        assertThat(translate(ApiCallTimeoutException.create(60_000), WRITE)).isInstanceOf(TransientStoreException.class);
        assertThat(translate(ApiCallAttemptTimeoutException.create(30_000), WRITE)).isInstanceOf(TransientStoreException.class);
    }

    @Test
    void serverErrorsAreTransient() {
        assertThat(translate(service(500, "InternalError"), WRITE)).isInstanceOf(TransientStoreException.class);
        assertThat(translate(service(503, "SlowDown"), WRITE)).isInstanceOf(TransientStoreException.class);
        assertThat(translate(service(502, ""), READ)).isInstanceOf(TransientStoreException.class);
    }

    @Test
    void throttlingIsTransient() {
        assertThat(translate(service(429, "TooManyRequests"), WRITE)).isInstanceOf(TransientStoreException.class);
        assertThat(translate(service(400, "Throttling"), WRITE)).isInstanceOf(TransientStoreException.class);
        assertThat(translate(service(400, "RequestTimeout"), WRITE)).isInstanceOf(TransientStoreException.class);
    }

    @Test
    void conditionalRequestConflictIsRetried() {
        assertThat(translate(service(409, "ConditionalRequestConflict"), WRITE)).isInstanceOf(TransientStoreException.class);
    }

    @Test
    void rejectedCredentialsAreFatalAndNameTheIdentity() {
        StoreException e = translate(service(403, "InvalidAccessKeyId"), WRITE);
        assertThat(e).isInstanceOf(S3AccessException.class).isNotInstanceOf(TransientStoreException.class)
                .hasMessageContaining("the write identity").hasMessageContaining("s3.write.access.key.id")
                .hasMessageContaining("PutObject s3://bkt/p/n/0/x.parquet");
        assertThat(((S3AccessException) e).problem()).isEqualTo(S3AccessException.Problem.CREDENTIALS);
        assertThat(((S3AccessException) translate(service(403, "SignatureDoesNotMatch"), READ)).role()).isEqualTo("read");
    }

    @Test
    void accessDeniedIsFatalAndSaysWhatThePolicyMustAllow() {
        StoreException e = translate(service(403, "AccessDenied"), READ);
        assertThat(e).isInstanceOf(S3AccessException.class).hasMessageContaining("the read identity")
                .hasMessageContaining("s3:ListBucket and s3:GetObject").hasMessageContaining("bkt");
        assertThat(translate(service(403, "AccessDenied"), WRITE)).hasMessageContaining("s3:PutObject");
    }

    @Test
    void missingBucketIsFatal() {
        SdkException missing = NoSuchBucketException.builder().statusCode(404)
                .awsErrorDetails(AwsErrorDetails.builder().errorCode("NoSuchBucket").errorMessage("no").build()).build();
        StoreException e = translate(missing, READ);
        assertThat(e).isInstanceOf(S3AccessException.class).hasMessageContaining("bucket bkt does not exist");
        assertThat(((S3AccessException) e).problem()).isEqualTo(S3AccessException.Problem.NO_BUCKET);
    }

    @Test
    void otherClientErrorsAreFatal() {
        assertThat(translate(service(400, "InvalidArgument"), WRITE)).isNotInstanceOf(TransientStoreException.class)
                .hasMessageContaining("InvalidArgument");
        assertThat(translate(SdkClientException.create("Unable to load region"), WRITE)).isNotInstanceOf(TransientStoreException.class);
    }

    private static StoreException translatePut(SdkException e) {
        return translatePut(e, false);
    }

    private static StoreException translatePut(SdkException e, boolean withRetention) {
        StoreException s = S3Errors.translateConditionalPut(e, "PutObject s3://bkt/p/n/0/x.parquet", WRITE, "bkt",
                "the S3 store at https://s3.example:9000", withRetention);
        assertThat(s.getMessage()).doesNotContain("secret-value").doesNotContain("AKID");
        return s;
    }

    private static S3Exception service(int status, String code, String message) {
        return (S3Exception) S3Exception.builder().statusCode(status).requestId("req-1")
                .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage(message).build()).message(message).build();
    }

    @Test
    void aStoreThatDoesNotImplementIfNoneMatchIsFatalAndNamed() {
        StoreException e = translatePut(service(501, "NotImplemented",
                "A header you provided implies functionality that is not implemented"));
        assertThat(e).isNotInstanceOf(TransientStoreException.class)
                .hasMessageContaining("the S3 store at https://s3.example:9000 does not support conditional writes")
                .hasMessageContaining("PutObject s3://bkt/p/n/0/x.parquet with If-None-Match: *")
                .hasMessageContaining("HTTP 501 NotImplemented").hasMessageContaining("s3.endpoint");
        assertThat(translatePut(service(400, "InvalidArgument", "If-None-Match is not supported")))
                .isNotInstanceOf(TransientStoreException.class).hasMessageContaining("does not support conditional writes");
        assertThat(translatePut(service(400, "NotImplemented", "not implemented")))
                .hasMessageContaining("does not support conditional writes");
    }

    @Test
    void otherPutFailuresAreClassifiedAsAnyOther() {
        assertThat(translatePut(service(503, "SlowDown"))).isInstanceOf(TransientStoreException.class);
        assertThat(translatePut(service(409, "ConditionalRequestConflict", "conditional request conflict")))
                .isInstanceOf(TransientStoreException.class);
        assertThat(translatePut(service(400, "InvalidArgument", "bad content length")))
                .isNotInstanceOf(TransientStoreException.class).hasMessageNotContaining("conditional");
        assertThat(translatePut(service(403, "AccessDenied"))).hasMessageContaining("s3:PutObject");
    }

    /** A PutObject with a retention refused by a bucket without Object Lock, or a store without it, names the settings. */
    @Test
    void aRefusedRetentionNamesTheObjectLockSettings() {
        assertThat(translatePut(service(400, "InvalidRequest", "Bucket is missing Object Lock Configuration"), true))
                .isNotInstanceOf(TransientStoreException.class)
                .hasMessageContaining("refused PutObject s3://bkt/p/n/0/x.parquet with an Object Lock retention")
                .hasMessageContaining("Bucket is missing Object Lock Configuration")
                .hasMessageContaining("s3.object.lock.mode").hasMessageContaining("mirror-v3 validate");
        assertThat(translatePut(service(501, "NotImplemented", "A header you provided implies functionality that is not implemented"),
                true)).hasMessageContaining("with an Object Lock retention").hasMessageContaining("HTTP 501 NotImplemented");
        assertThat(translatePut(service(400, "InvalidRequest", "Bucket is missing Object Lock Configuration"), false))
                .as("without a retention asked for, no word of it").hasMessageNotContaining("s3.object.lock.mode");
        assertThat(translatePut(service(503, "SlowDown"), true)).isInstanceOf(TransientStoreException.class);
    }
}
