package dev.mirrorv3.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The NOTICE files of the third-party jars an archive ships, as the section of the repository's NOTICE that lists them:
 * every {@code META-INF/NOTICE*} of every jar in a directory, one block per distinct text (the AWS SDK's forty jars
 * carry one notice), each headed by the jars that carry it. The Apache License 2.0 (section 4d) asks a redistributor
 * to pass these notices on.
 */
public final class BundledNotices {
    private static final int WIDTH = 116;
    private static final String RULE = "-".repeat(72);

    private BundledNotices() {
    }

    /** The section for the jars of {@code libDir} (not below it), in jar name order. */
    public static String section(Path libDir) {
        Map<String, TreeSet<String>> jarsByNotice = new LinkedHashMap<>();
        for (Path jar : jars(libDir)) {
            for (String notice : notices(jar)) {
                jarsByNotice.computeIfAbsent(notice, n -> new TreeSet<>()).add(jar.getFileName().toString());
            }
        }
        List<Map.Entry<String, TreeSet<String>>> blocks = new ArrayList<>(jarsByNotice.entrySet());
        blocks.sort(Map.Entry.comparingByValue((a, b) -> a.first().compareTo(b.first())));
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, TreeSet<String>> block : blocks) {
            sb.append(RULE).append('\n').append(wrapped(String.join(", ", block.getValue()) + ":")).append("\n\n")
                    .append(block.getKey()).append("\n\n");
        }
        return sb.append(RULE).append('\n').toString();
    }

    /** {@code text} broken at spaces into lines of at most {@link #WIDTH} characters. */
    private static String wrapped(String text) {
        StringBuilder sb = new StringBuilder();
        int lineStart = 0;
        for (String word : text.split(" ")) {
            if (sb.length() > lineStart && sb.length() - lineStart + 1 + word.length() > WIDTH) {
                sb.append('\n');
                lineStart = sb.length();
            } else if (sb.length() > lineStart) {
                sb.append(' ');
            }
            sb.append(word);
        }
        return sb.toString();
    }

    private static List<Path> jars(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".jar")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The jar's notices, each with LF line ends, without trailing spaces or blank lines around it. */
    private static List<String> notices(Path jar) {
        List<String> notices = new ArrayList<>();
        try (JarFile jf = new JarFile(jar.toFile())) {
            List<JarEntry> entries = Collections.list(jf.entries());
            entries.sort((a, b) -> a.getName().compareTo(b.getName()));
            for (JarEntry e : entries) {
                if (e.isDirectory() || !e.getName().startsWith("META-INF/NOTICE")) {
                    continue;
                }
                String text = new String(jf.getInputStream(e).readAllBytes(), StandardCharsets.UTF_8);
                String normalised = text.lines().map(String::stripTrailing).reduce((a, b) -> a + "\n" + b).orElse("")
                        .replaceAll("^\n+|\n+$", "");
                if (!normalised.isEmpty() && !notices.contains(normalised)) {
                    notices.add(normalised);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the notices of " + jar, e);
        }
        return notices;
    }
}
