package dev.mirrorv3.chain.store.s3;

import java.io.ByteArrayInputStream;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.profiles.ProfileFile;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.S3Configuration;

/**
 * The S3 client of one identity: credentials from the settings only (no AWS_* variables, profiles or instance
 * metadata), the settings' call timeout, three attempts, the JDK's HTTP client.
 */
final class S3Clients {
    private S3Clients() {
    }

    /**
     * A client for an identity the settings leave out (a reader's settings without the write identity): every call fails
     * naming the settings to set, none reaches S3; closing it does nothing.
     */
    static S3Client missing(S3Identity identity) {
        return (S3Client) Proxy.newProxyInstance(S3Client.class.getClassLoader(), new Class<?>[] {S3Client.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "close" -> null;
                    case "serviceName" -> S3Client.SERVICE_NAME;
                    case "toString" -> "no S3 client: " + identity + " is not set";
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "equals" -> proxy == args[0];
                    default -> throw new IllegalStateException("this needs " + identity + " of the S3 destination, and "
                            + identity.settings() + " are empty: set them (a config provider keeps the secret out of the"
                            + " file), or use settings that do not need it");
                });
    }

    static S3Client create(S3Settings settings, S3Identity identity, List<ExecutionInterceptor> interceptors) {
        S3ClientBuilder b = S3Client.builder()
                // The JDK's HttpURLConnection: no extra HTTP stack in the plugin; one request at a time per task.
                .httpClientBuilder(UrlConnectionHttpClient.builder()
                        .connectionTimeout(Duration.ofSeconds(5))
                        .socketTimeout(Duration.ofSeconds(30)))
                .region(Region.of(settings.region()))
                .forcePathStyle(settings.pathStyle())
                // A PutObject's body is sent as it is, with its Content-Length: no aws-chunked encoding, and no checksum
                // trailer of the SDK's (ConditionalPut sends the CRC32 as a header). A store that answers once it has
                // read the declared bytes, before the closing chunk and trailer (S3Proxy does), otherwise closes the
                // connection under the client, and every attempt fails with "Error writing request body to server".
                .serviceConfiguration(S3Configuration.builder().chunkedEncodingEnabled(false).build())
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
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
