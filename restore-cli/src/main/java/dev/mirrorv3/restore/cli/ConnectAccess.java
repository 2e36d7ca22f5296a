package dev.mirrorv3.restore.cli;

import dev.mirrorv3.kafka.ConfigProviders;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.kafka.common.config.ConfigException;

/**
 * How the CLI authenticates to a Kafka Connect REST API and which certificates it trusts there: the properties file of
 * {@code --connect-config} (docs/restore-cli.md: Connect REST authentication), secrets through config providers.
 */
public record ConnectAccess(String username, String password, SSLContext ssl) {
    static final String USERNAME = "basic.auth.username";
    static final String PASSWORD = "basic.auth.password";
    static final String TRUSTSTORE = "ssl.truststore.location";
    static final String TRUSTSTORE_PASSWORD = "ssl.truststore.password";
    static final String TRUSTSTORE_TYPE = "ssl.truststore.type";
    private static final Set<String> KEYS = Set.of(USERNAME, PASSWORD, TRUSTSTORE, TRUSTSTORE_PASSWORD, TRUSTSTORE_TYPE);

    /** The help of {@code --connect-config}, the same in every subcommand that has {@code --connect-url}. */
    static final String OPTION_DESCRIPTION = "How to reach --connect-url: a properties file with " + USERNAME + " and " + PASSWORD
            + " (basic authentication) and " + TRUSTSTORE + ", " + TRUSTSTORE_PASSWORD + " and " + TRUSTSTORE_TYPE + " (the"
            + " certificates an https:// URL is trusted by; default the JVM's); $${env:…}, $${file:…} and $${directory:…} are"
            + " resolved. Default: the environment variable MIRROR_V3_CONNECT_CONFIG.";

    /** No credentials, the JVM's default trust. */
    public static final ConnectAccess NONE = new ConnectAccess(null, null, null);

    /** The access {@code file} describes; null means {@link #NONE}. */
    public static ConnectAccess load(Path file) {
        if (file == null) {
            return NONE;
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file)) {
            p.load(r);
        } catch (IOException e) {
            throw new UsageException("cannot read --connect-config " + file + ": " + e.getMessage(), e);
        }
        Map<String, String> raw = new HashMap<>();
        p.stringPropertyNames().forEach(k -> raw.put(k, p.getProperty(k)));
        for (String k : raw.keySet()) {
            if (!KEYS.contains(k)) {
                throw new UsageException("--connect-config " + file + ": unknown setting " + k + " (known: " + new TreeSet<>(KEYS)
                        + ")");
            }
        }
        Map<String, String> c;
        try {
            c = ConfigProviders.resolve(raw);
        } catch (ConfigException e) {
            throw new UsageException("cannot resolve the config providers in --connect-config " + file + ": " + e.getMessage(), e);
        }
        if (c.containsKey(USERNAME) != c.containsKey(PASSWORD)) {
            throw new UsageException("--connect-config " + file + ": set both " + USERNAME + " and " + PASSWORD + " for basic"
                    + " authentication, or neither");
        }
        return new ConnectAccess(c.get(USERNAME), c.get(PASSWORD), c.containsKey(TRUSTSTORE) ? sslContext(file, c) : null);
    }

    private static SSLContext sslContext(Path file, Map<String, String> c) {
        Path truststore = Path.of(c.get(TRUSTSTORE));
        String password = c.get(TRUSTSTORE_PASSWORD);
        try (InputStream in = Files.newInputStream(truststore)) {
            KeyStore ks = KeyStore.getInstance(c.getOrDefault(TRUSTSTORE_TYPE, KeyStore.getDefaultType()));
            ks.load(in, password == null ? null : password.toCharArray());
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ks);
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(null, tmf.getTrustManagers(), null);
            return ssl;
        } catch (IOException | GeneralSecurityException e) {
            throw new UsageException("--connect-config " + file + ": cannot load the truststore " + TRUSTSTORE + "=" + truststore + ": "
                    + e.getMessage() + " (check " + TRUSTSTORE_PASSWORD + " and " + TRUSTSTORE_TYPE + ")", e);
        }
    }

    public HttpClient client(Duration timeout) {
        HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(timeout);
        if (ssl != null) {
            b.sslContext(ssl);
        }
        return b.build();
    }

    /** The request with the Authorization header of basic authentication, if configured. */
    HttpRequest.Builder authorize(HttpRequest.Builder request) {
        if (username != null) {
            String token = Base64.getEncoder().encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
            request.header("Authorization", "Basic " + token);
        }
        return request;
    }

    @Override
    public String toString() { // never the password
        return "ConnectAccess[username=" + username + ", truststore=" + (ssl != null) + "]";
    }

    /** What to do when Connect refuses a request with {@code status}, or "" if nothing here can help. */
    String hintFor(int status) {
        if (status == 401) {
            return username == null ? ": the REST API wants credentials: set " + USERNAME + " and " + PASSWORD + " in --connect-config"
                    : ": check " + USERNAME + " and " + PASSWORD + " in --connect-config";
        }
        if (status == 403) {
            return ": the user " + username + " may not read connectors there";
        }
        return "";
    }
}
