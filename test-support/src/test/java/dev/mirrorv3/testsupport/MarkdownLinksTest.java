package dev.mirrorv3.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The link check itself: GitHub's anchors, and a doctored set of pages whose broken links it must report. */
class MarkdownLinksTest {
    @TempDir
    Path root;

    @Test
    void slugsAreGitHubs() {
        assertThat(MarkdownLinks.slug("Try it locally: `./quickstart --destination s3`"))
                .isEqualTo("try-it-locally-quickstart---destination-s3");
        assertThat(MarkdownLinks.slug("Encryption at rest (Parquet modular encryption)"))
                .isEqualTo("encryption-at-rest-parquet-modular-encryption");
        assertThat(MarkdownLinks.slug("`restore --offsets preserve|renumber`: into an existing, empty topic"))
                .isEqualTo("restore---offsets-preserverenumber-into-an-existing-empty-topic");
        assertThat(MarkdownLinks.slug("`dev.mirrorv3.connect.transforms.ValidateFormat$Key / $Value`"))
                .isEqualTo("devmirrorv3connecttransformsvalidateformatkey--value");
        assertThat(MarkdownLinks.slug("Cache **sidecar** and [its README](x.md) → über_all"))
                .isEqualTo("cache-sidecar-and-its-readme--über_all");
    }

    @Test
    void repeatedHeadingsAreNumberedAndFencedOnesDoNotCount() {
        List<String> page = List.of("# Title", "#### Destination", "```bash", "# a comment, not a heading", "```", "#### Destination",
                "<a id=\"custom\"></a>");
        assertThat(MarkdownLinks.anchors(page)).containsExactly("title", "destination", "destination-1", "custom");
    }

    @Test
    void aDoctoredPageFailsOnEveryBrokenLinkAndOnNothingElse() throws Exception {
        write("README.md", """
                # Front

                [ok page](docs/a.md), [ok anchor](docs/a.md#second-part), [ok dir](docs/), [self](#front)
                [missing page](docs/missing.md) and [missing anchor](docs/a.md#no-such-part)
                [external](https://example.com/x#y) and `[in code](docs/nothing.md)`

                ```
                [in a fence](docs/nothing.md)
                ```
                [ref]: docs/gone.md
                """);
        write("docs/a.md", """
                # A

                ## Second part

                [up](../README.md#front), [bad self](#third-part), [repeated](#a-1)
                """);
        write("mod/README.md", "[module link](../docs/a.md#a) [broken](src/Main.java)\n");

        List<Path> pages = MarkdownLinks.pages(root);
        assertThat(pages).containsExactly(root.resolve("README.md"), root.resolve("docs/a.md"), root.resolve("mod/README.md"));
        List<String> broken = MarkdownLinks.check(pages).stream()
                .map(b -> root.relativize(b.page()) + ":" + b.line() + " " + b.target()).toList();
        assertThat(broken).containsExactly(
                "README.md:4 docs/missing.md",
                "README.md:4 docs/a.md#no-such-part",
                "README.md:10 docs/gone.md",
                "docs/a.md:5 #third-part",
                "docs/a.md:5 #a-1",
                "mod/README.md:1 src/Main.java");
    }

    @Test
    void buildOutputAndHiddenDirectoriesAreNotPages() throws Exception {
        write("README.md", "# R\n");
        write("docs/a.md", "# A\n");
        write("mod/target/classes/README.md", "[broken](nowhere.md)\n");
        write("mod/node_modules/x/README.md", "[broken](nowhere.md)\n");
        write(".git/README.md", "[broken](nowhere.md)\n");
        assertThat(MarkdownLinks.pages(root)).containsExactly(root.resolve("README.md"), root.resolve("docs/a.md"));
    }

    @Test
    void inAnArchiveEveryPageCountsAndALinkLeavingItIsBrokenEvenIfItsTargetExists() throws Exception {
        write("src/Main.java", "class Main {}\n");
        write("archive/README.md", "[shipped](doc/a.md) [source](../src/Main.java)\n");
        write("archive/doc/a.md", "# A\n[up](../README.md)\n");
        Path archive = root.resolve("archive");
        List<Path> pages = MarkdownLinks.allPages(archive);
        assertThat(pages).containsExactly(archive.resolve("README.md"), archive.resolve("doc/a.md"));
        assertThat(MarkdownLinks.check(pages)).isEmpty();
        assertThat(MarkdownLinks.check(pages, archive)).extracting(b -> b.target() + ": " + b.reason())
                .containsExactly("../src/Main.java: outside archive");
    }

    private void write(String path, String text) throws Exception {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
