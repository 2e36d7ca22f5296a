package dev.mirrorv3.connect.blob;

import dev.mirrorv3.chain.store.s3.S3Identity;
import dev.mirrorv3.chain.store.s3.S3Settings;
import dev.mirrorv3.testsupport.ConnectorConfigs;
import dev.mirrorv3.testsupport.s3.S3TestServer;
import dev.mirrorv3.testsupport.s3.S3TestServer.Access;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The three users of a blob sink test's S3 server: the test's own hand (admin, may do everything), the connector's
 * write-only identity and its read-only one, as a least-privilege bucket policy allows. Each test class names its own
 * secrets, so that a test that greps logs for them knows which to look for.
 */
record S3TestUsers(String adminId, String adminSecret, String writerId, String writerSecret, String readerId,
                   String readerSecret) {

    /** Starts an in-process S3 server that knows the three users and holds {@code bucket}. */
    S3TestServer start(String bucket) {
        S3TestServer server = S3TestServer.start(adminId, adminSecret);
        server.addIdentity(writerId, writerSecret, Access.WRITE_ONLY);
        server.addIdentity(readerId, readerSecret, Access.READ_ONLY);
        server.createBucket(bucket);
        return server;
    }

    /** The connector's settings of the writer and the reader on {@code server}'s {@code bucket}. */
    Map<String, String> connectorCredentials(S3TestServer server, String bucket) {
        return ConnectorConfigs.s3(server.endpoint().toString(), bucket, writerId, writerSecret, readerId, readerSecret);
    }

    /** An S3 client of the admin, for the test to put, read and list objects behind the connector's back. */
    S3Client adminClient(S3TestServer server) {
        return client(server.endpoint(), adminId, adminSecret);
    }

    /** An S3 client of one identity of the in-process server at {@code endpoint} (path-style, as the server needs). */
    static S3Client client(URI endpoint, String accessKeyId, String secret) {
        return S3Client.builder().endpointOverride(endpoint).region(Region.US_EAST_1).forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKeyId, secret))).build();
    }

    /** Store settings with the admin as reader and writer, for the test to read chains with. */
    S3Settings adminSettings(S3TestServer server, String bucket, String prefix) {
        S3Identity admin = new S3Identity("read", adminId, adminSecret);
        return S3Settings.of(Optional.of(server.endpoint()), "us-east-1", bucket, prefix, true, admin, admin)
                .withCallTimeout(Duration.ofSeconds(10));
    }
}
