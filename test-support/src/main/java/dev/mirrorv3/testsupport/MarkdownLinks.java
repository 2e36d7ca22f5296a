package dev.mirrorv3.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Checks the relative links of the repository's Markdown pages without a network: every linked file or directory
 * exists, and every {@code #anchor} names a heading of the linked page (or of the page itself) as GitHub derives
 * anchors from headings. Absolute URLs ({@code https:}, {@code mailto:}) are not followed. Only ATX headings
 * ({@code ## Title}) count, which is what the repository's pages use; code fences and code spans are skipped.
 */
public final class MarkdownLinks {
    private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)(?:\\s+#+)?\\s*$");
    private static final Pattern FENCE = Pattern.compile("^ {0,3}(```|~~~)");
    private static final Pattern CODE_SPAN = Pattern.compile("`+[^`]*`+");
    /** {@code [text](target)} and {@code ![alt](target)}; the target may carry a title after a space. */
    private static final Pattern INLINE_LINK = Pattern.compile("\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    /** A reference definition, {@code [name]: target}. */
    private static final Pattern REFERENCE = Pattern.compile("^ {0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(?:\\s.*)?$");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:id|name)=\"([^\"]+)\"");
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");

    /** One link that does not resolve. */
    public record Broken(Path page, int line, String target, String reason) {
        @Override
        public String toString() {
            return page + ":" + line + ": " + target + ": " + reason;
        }
    }

    private MarkdownLinks() {
    }

    /**
     * The pages a reader of the repository meets: README.md, CHANGELOG.md, docs/*.md and every README.md below the root (module
     * and example READMEs), without build output ({@code target}), {@code node_modules} or hidden directories.
     */
    public static List<Path> pages(Path root) {
        Set<Path> pages = new LinkedHashSet<>();
        List<Path> modules = new ArrayList<>();
        pages.add(root.resolve("README.md"));
        if (Files.exists(root.resolve("CHANGELOG.md"))) {
            pages.add(root.resolve("CHANGELOG.md"));
        }
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    return dir.equals(root) || !excluded(dir.getFileName().toString()) ? FileVisitResult.CONTINUE
                            : FileVisitResult.SKIP_SUBTREE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (file.getFileName().toString().equals("README.md") && !file.getParent().equals(root)) {
                        modules.add(file);
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        modules.stream().sorted().forEach(pages::add);
        return List.copyOf(pages);
    }

    /** Every Markdown page below {@code root} (an unpacked archive: no build output to leave out), in path order. */
    public static List<Path> allPages(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.toString().endsWith(".md") && Files.isRegularFile(p)).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean excluded(String directory) {
        return directory.equals("target") || directory.equals("node_modules") || directory.startsWith(".");
    }

    /** Every link of {@code pages} that does not resolve, in page and line order. */
    public static List<Broken> check(List<Path> pages) {
        return check(pages, null);
    }

    /**
     * As {@link #check(List)}, and a link that leaves {@code root} is broken too even if its target exists there
     * (an archive unpacked inside the repository would otherwise resolve {@code ../../src} in the repository).
     */
    public static List<Broken> check(List<Path> pages, Path root) {
        Path inside = root == null ? null : root.toAbsolutePath().normalize();
        Map<Path, Set<String>> anchorsByPage = new HashMap<>();
        List<Broken> broken = new ArrayList<>();
        for (Path page : pages) {
            List<String> lines = read(page);
            List<String[]> links = links(lines);
            for (String[] link : links) {
                String target = link[1];
                if (SCHEME.matcher(target).find()) {
                    continue;
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                String anchor = hash < 0 ? null : target.substring(hash + 1);
                Path linked = file.isEmpty() ? page : page.toAbsolutePath().getParent().resolve(file).normalize();
                int line = Integer.parseInt(link[0]);
                if (inside != null && !linked.toAbsolutePath().normalize().startsWith(inside)) {
                    broken.add(new Broken(page, line, target, "outside " + inside.getFileName()));
                    continue;
                }
                if (!Files.exists(linked)) {
                    broken.add(new Broken(page, line, target, "no such file"));
                    continue;
                }
                if (anchor != null && linked.toString().endsWith(".md") && Files.isRegularFile(linked)) {
                    Set<String> anchors = anchorsByPage.computeIfAbsent(linked.toAbsolutePath().normalize(), p -> anchors(read(p)));
                    if (!anchors.contains(anchor)) {
                        broken.add(new Broken(page, line, target, "no heading with anchor #" + anchor + " in " + linked.getFileName()));
                    }
                }
            }
        }
        return broken;
    }

    /** The links of a page outside code, each as {line number, target}. */
    static List<String[]> links(List<String> lines) {
        List<String[]> links = new ArrayList<>();
        boolean fence = false;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (FENCE.matcher(line).find()) {
                fence = !fence;
                continue;
            }
            if (fence) {
                continue;
            }
            String text = CODE_SPAN.matcher(line).replaceAll("");
            Matcher m = INLINE_LINK.matcher(text);
            while (m.find()) {
                links.add(new String[] {String.valueOf(i + 1), m.group(1)});
            }
            Matcher ref = REFERENCE.matcher(text);
            if (ref.matches()) {
                links.add(new String[] {String.valueOf(i + 1), ref.group(1)});
            }
        }
        return links;
    }

    /** The anchors of a page: its headings' slugs (a repeated slug gets -1, -2, … as GitHub numbers them) and HTML anchors. */
    static Set<String> anchors(List<String> lines) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fence = false;
        for (String line : lines) {
            if (FENCE.matcher(line).find()) {
                fence = !fence;
                continue;
            }
            if (fence) {
                continue;
            }
            Matcher h = HEADING.matcher(line);
            if (h.matches()) {
                String slug = slug(h.group(2));
                int n = seen.merge(slug, 1, Integer::sum) - 1;
                anchors.add(n == 0 ? slug : slug + "-" + n);
            }
            Matcher a = HTML_ANCHOR.matcher(line);
            while (a.find()) {
                anchors.add(a.group(1));
            }
        }
        return anchors;
    }

    /**
     * GitHub's anchor of a heading: its rendered text (links reduced to their text, code and emphasis marks dropped),
     * lower case, every character but letters, digits, marks, '_', '-' and spaces removed, spaces turned into '-'.
     */
    static String slug(String heading) {
        String text = heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replaceAll("<[^>]+>", "")
                .replace("`", "").replace("*", "").strip().toLowerCase(java.util.Locale.ROOT);
        StringBuilder sb = new StringBuilder(text.length());
        text.codePoints().forEach(c -> {
            int type = Character.getType(c);
            boolean mark = type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK
                    || type == Character.COMBINING_SPACING_MARK;
            if (Character.isLetterOrDigit(c) || mark || c == '_' || c == '-') {
                sb.appendCodePoint(c);
            } else if (c == ' ') {
                sb.append('-');
            }
        });
        return sb.toString();
    }

    private static List<String> read(Path page) {
        try {
            return Files.readAllLines(page, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
