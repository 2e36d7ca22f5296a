package dev.mirrorv3.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's prerequisites name every tool ./test checks for (its TOOLS list), root for the torture scenario that
 * mounts a tmpfs, and how long the suite takes: what a new operator needs before the first run.
 */
class ReadmePrerequisitesTest {
    private static final Path ROOT = Path.of("..");
    /** An entry of ./test's TOOLS array: {@code "jq:./torture"}. */
    private static final Pattern TOOL = Pattern.compile("(?m)^\\s+\"([a-z0-9]+):[^\"]*\"$");
    /** Java and Maven, which the README names as "Java 17" and "Maven 3.8+". */
    private static final List<String> NAMED_BY_PRODUCT = List.of("java", "mvn");

    @Test
    void theReadmeNamesEveryToolOfTheTestScriptRootAndTheSuitesDuration() throws IOException {
        String test = read("test");
        int from = test.indexOf("\nTOOLS=(\n");
        assertThat(from).as("./test has a TOOLS=( ... ) list").isNotNegative();
        String tools = test.substring(from, test.indexOf("\n)\n", from));
        List<String> named = new ArrayList<>();
        Matcher m = TOOL.matcher(tools);
        while (m.find()) {
            named.add(m.group(1));
        }
        assertThat(named).as("./test's TOOLS").contains("jq", "curl", "ss", "promtool", "node");
        String readme = read("README.md");
        int start = readme.indexOf("\n## The two commands\n");
        assertThat(start).as("README.md has 'The two commands'").isNotNegative();
        String section = readme.substring(start, readme.indexOf("\n## ", start + 1));
        for (String tool : named) {
            if (!NAMED_BY_PRODUCT.contains(tool)) {
                assertThat(section).as("README.md's prerequisites name ./test's tool " + tool).contains("`" + tool + "`");
            }
        }
        assertThat(section).contains("Java 17", "Maven 3.8+");
        assertThat(read("torture")).as("./torture's disk-full scenario needs root").contains("needs root");
        assertThat(section).as("README.md says ./torture's disk-full scenario needs root").contains("root", "disk-full");
        assertThat(section).as("README.md says how long ./test takes").containsPattern("takes about \\d+");
    }

    private static String read(String path) throws IOException {
        return Files.readString(ROOT.resolve(path), StandardCharsets.UTF_8);
    }
}
