package dev.mirrorv3.chain.store.s3;

import java.io.ByteArrayInputStream;
import java.time.Duration;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;

/**
 * The S3 client of one identity: credentials from the settings only (no AWS_* variables, profiles or instance
 * metadata), the settings' call timeout, three attempts, the JDK's HTTP client.
 */
final class S3Clients {
    private S3Clients() {
    }

    static S3Client create(S3Settings settings, S3Identity identity, List<ExecutionInterceptor> interceptors) {
        S3ClientBuilder b = S3Client.builder()
                // The JDK's HttpURLConnection: no extra HTTP stack in the plugin; one request at a time per task.
                .httpClientBuilder(UrlConnectionHttpClient.builder()
                        .connectionTimeout(Duration.ofSeconds(5))
                        .socketTimeout(Duration.ofSeconds(30)))
                .region(Region.of(settings.region()))
                .forcePathStyle(settings.pathStyle())
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(identity.accessKeyId(), identity.secretAccessKey())))
                .overrideConfiguration(o -> {
                    o.apiCallTimeout(settings.callTimeout());
                    o.apiCallAttemptTimeout(settings.callTimeout().dividedBy(2));
                    // An empty profile: no ~/.aws/config or AWS_CONFIG_FILE decides anything for this client.
                    o.defaultProfileFile(ProfileFile.builder().content(new ByteArrayInputStream(new byte[0]))
                            .type(ProfileFile.Type.CONFIGURATION).build());
                    o.defaultProfileName("default");
                    o.retryStrategy(r -> r.maxAttempts(3));
                    interceptors.forEach(o::addExecutionInterceptor);
                });
        settings.endpoint().ifPresent(b::endpointOverride);
        return b.build();
    }
}
