package dev.mirrorv3.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * The license the repository declares: LICENSE is the Apache License 2.0's text byte for byte (as apache.org serves
 * LICENSE-2.0.txt and Apache jars carry it in META-INF/LICENSE), NOTICE names the project and its copyright holders,
 * and the parent pom and the README say the same. The notices of bundled jars in NOTICE are BundleContentsIT's.
 */
class LicenseFilesTest {
    private static final Path ROOT = Path.of("..");
    /** SHA-256 of https://www.apache.org/licenses/LICENSE-2.0.txt. */
    private static final String APACHE_2_SHA256 = "cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30";

    @Test
    void licenseIsTheApacheLicense2Text() throws IOException, NoSuchAlgorithmException {
        byte[] license = Files.readAllBytes(ROOT.resolve("LICENSE"));
        assertThat(new String(license, StandardCharsets.UTF_8)).contains("Apache License", "Version 2.0, January 2004",
                "END OF TERMS AND CONDITIONS");
        assertThat(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(license)))
                .as("LICENSE is the Apache License 2.0 unchanged").isEqualTo(APACHE_2_SHA256);
    }

    @Test
    void noticeNamesTheProjectAndItsCopyrightHolders() throws IOException {
        assertThat(Files.readString(ROOT.resolve("NOTICE"), StandardCharsets.UTF_8))
                .startsWith("mirror-v3 for Kafka Connect\nCopyright ")
                .contains("the mirror-v3 for Kafka Connect authors", "Apache License, Version 2.0");
    }

    @Test
    void theParentPomAndTheReadmeDeclareIt() throws IOException {
        assertThat(Files.readString(ROOT.resolve("pom.xml"), StandardCharsets.UTF_8))
                .contains("<licenses>", "<name>Apache-2.0</name>", "<url>https://www.apache.org/licenses/LICENSE-2.0.txt</url>");
        assertThat(Files.readString(ROOT.resolve("README.md"), StandardCharsets.UTF_8))
                .contains("## License", "Apache License 2.0: [LICENSE](LICENSE)", "[NOTICE](NOTICE)");
    }
}
