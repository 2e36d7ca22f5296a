package dev.mirrorv3.restore.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.BasicAuthenticator;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --connect-config}: the CLI reads a connector's config from a Connect REST API behind https with a certificate of
 * its own and basic authentication (an in-test HttpsServer; the certificate made with the JDK's keytool).
 */
class ConnectRestAuthTest {
    private static final String USER = "mirror";
    private static final String PASSWORD = "s3cret";

    @TempDir
    Path dir;

    private HttpsServer server;
    private String url;
    private Path truststore;

    @BeforeEach
    void startConnect() throws Exception {
        Path keystore = dir.resolve("server.p12");
        keytool("-genkeypair", "-alias", "connect", "-keyalg", "RSA", "-keysize", "2048", "-dname", "CN=localhost",
                "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-validity", "2", "-storetype", "PKCS12", "-keystore", keystore.toString(),
                "-storepass", "changeit", "-keypass", "changeit");
        Path pem = dir.resolve("server.pem");
        keytool("-exportcert", "-rfc", "-alias", "connect", "-keystore", keystore.toString(), "-storepass", "changeit",
                "-file", pem.toString());
        truststore = dir.resolve("trust.p12");
        keytool("-importcert", "-noprompt", "-alias", "connect", "-file", pem.toString(), "-storetype", "PKCS12",
                "-keystore", truststore.toString(), "-storepass", "trustpass");

        Path root = dir.resolve("backups");
        TestBackups.write(root, "orders-backup", 0, 0, TestBackups.records("orders", 0, 0, 99, o -> true), 50);
        Path config = TestBackups.connectorJson(dir, "orders-backup", "orders", root);
        byte[] stored = new ObjectMapper().writeValueAsBytes(new ObjectMapper().readTree(config.toFile()).get("config"));

        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            ks.load(in, "changeit".toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, "changeit".toCharArray());
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(kmf.getKeyManagers(), null, null);
        server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(ssl));
        HttpHandler configHandler = exchange -> {
            exchange.sendResponseHeaders(200, stored.length);
            exchange.getResponseBody().write(stored);
            exchange.close();
        };
        HttpContext context = server.createContext("/connectors/orders-backup/config", configHandler);
        context.setAuthenticator(new BasicAuthenticator("connect") {
            @Override
            public boolean checkCredentials(String user, String password) {
                return USER.equals(user) && PASSWORD.equals(password);
            }
        });
        server.start();
        url = "https://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterEach
    void stopConnect() {
        server.stop(0);
    }

    @Test
    void restoreReadsTheConfigWithBasicAuthOverHttpsTrustingTheTruststore() throws Exception {
        Path secret = dir.resolve("secret.properties");
        Files.writeString(secret, "password=" + PASSWORD + "\n");
        Path access = properties("connect.properties", "basic.auth.username=" + USER,
                "basic.auth.password=${file:" + secret + ":password}", "ssl.truststore.location=" + truststore,
                "ssl.truststore.password=trustpass", "ssl.truststore.type=PKCS12");
        CliRun r = restore("--connect-config", access.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("(connector orders-backup, destination orders-backup)", "offsets: 0-99");
        assertThat(r.toString()).doesNotContain(PASSWORD);
    }

    @Test
    void eachMissingPieceIsNamedWithWhatToSet() throws Exception {
        CliRun untrusted = restore();
        assertThat(untrusted.exitCode()).as(untrusted.toString()).isEqualTo(ExitCodes.CHECK_FAILED);
        assertThat(untrusted.err()).contains("cannot read connector orders-backup from Kafka Connect at " + url,
                "set ssl.truststore.location in --connect-config");

        Path trustOnly = properties("trust.properties", "ssl.truststore.location=" + truststore, "ssl.truststore.password=trustpass");
        CliRun anonymous = restore("--connect-config", trustOnly.toString());
        assertThat(anonymous.exitCode()).as(anonymous.toString()).isEqualTo(ExitCodes.CHECK_FAILED);
        assertThat(anonymous.err()).contains("answered 401: the REST API wants credentials: set basic.auth.username and"
                + " basic.auth.password in --connect-config");

        Path wrong = properties("wrong.properties", "ssl.truststore.location=" + truststore, "ssl.truststore.password=trustpass",
                "basic.auth.username=" + USER, "basic.auth.password=guess");
        CliRun refused = restore("--connect-config", wrong.toString());
        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(ExitCodes.CHECK_FAILED);
        assertThat(refused.err()).contains("answered 401: check basic.auth.username and basic.auth.password in --connect-config")
                .doesNotContain("guess");

        Path typo = properties("typo.properties", "basic.auth.user=" + USER);
        CliRun unknown = restore("--connect-config", typo.toString());
        assertThat(unknown.exitCode()).as(unknown.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(unknown.err()).contains("--connect-config " + typo + ": unknown setting basic.auth.user");
    }

    private CliRun restore(String... more) {
        List<String> args = new ArrayList<>(List.of("restore", "--connect-url", url, "--connector", "orders-backup", "--offsets",
                "preserve", "--verify-only", "--progress", "none"));
        args.addAll(List.of(more));
        return CliRun.run(args.toArray(String[]::new));
    }

    private Path properties(String name, String... lines) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        return p;
    }

    private static void keytool(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("keytool " + args[0] + ": " + output).isZero();
    }
}
