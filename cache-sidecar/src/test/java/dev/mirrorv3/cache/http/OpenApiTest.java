package dev.mirrorv3.cache.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The committed {@code config/openapi.json} is what the server generates. After changing the API, regenerate it
 * with {@code mvn -pl cache-sidecar test -Dtest=OpenApiTest -Dopenapi.update=true}.
 */
class OpenApiTest {

    private static final Path COMMITTED = Path.of("config/openapi.json");

    @Test
    void committedCopyMatchesGeneratedSpec() throws Exception {
        String generated = new String(OpenApi.json(), java.nio.charset.StandardCharsets.UTF_8);
        if (Boolean.getBoolean("openapi.update")) {
            Files.writeString(COMMITTED, generated);
        }
        assertThat(Files.readString(COMMITTED))
                .as("config/openapi.json is stale; regenerate with -Dopenapi.update=true (see javadoc)")
                .isEqualTo(generated);
        assertThat(OpenApi.spec().get("openapi").asText()).isEqualTo("3.1.0");
        assertThat(OpenApi.spec().get("paths").has("/cache/v1/{cache}/raw/{key}")).isTrue();
        assertThat(OpenApi.spec().get("paths").has("/cache/v1/raw/{key}")).isTrue();
    }
}
