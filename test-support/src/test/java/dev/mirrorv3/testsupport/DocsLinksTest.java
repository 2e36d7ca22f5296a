package dev.mirrorv3.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The repository's own pages: every relative link and anchor resolves, and the README leads to every docs page. */
class DocsLinksTest {
    private static final Path ROOT = Path.of("..");

    @Test
    void everyLinkOfTheReadmeTheDocsAndTheModuleReadmesResolves() {
        List<Path> pages = MarkdownLinks.pages(ROOT);
        assertThat(pages).contains(ROOT.resolve("README.md"), ROOT.resolve("CHANGELOG.md"),
                ROOT.resolve("docs").resolve("design.md"),
                ROOT.resolve("cache-sidecar").resolve("README.md"));
        assertThat(MarkdownLinks.check(pages)).as("broken links (file, line, target)").isEmpty();
    }

    @Test
    void theReadmeLinksEveryDocsPage() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"), StandardCharsets.UTF_8);
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            for (Path page : docs.filter(p -> p.toString().endsWith(".md")).toList()) {
                assertThat(readme).as("README.md links docs/" + page.getFileName()).contains("](docs/" + page.getFileName());
            }
        }
    }
}
