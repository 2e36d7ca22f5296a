package dev.mirrorv3.bench.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** bench/goals.txt is the one table of goals: the benches name its goals and state none of their own. */
class GoalsTest {
    private static final Pattern GOAL_ID = Pattern.compile("(?:--ratio|--check|_GOAL=|printf)\\s*\"?([a-z0-9-]+)\\|");
    private static final Pattern OWN_GOAL = Pattern.compile("goal\\s*(>=|<=|≥|≤)\\s*[0-9]");

    @Test
    void theTableHoldsTheDesignsTargets() throws Exception {
        Goals goals = Goals.read(Goals.FILE);

        Map<String, String> ascii = Map.of("blob-vs-discard", ">= 0.8", "blob-vs-file", ">= 1.3", "s3-vs-filesystem", ">= 0.9",
                "encryption-cost", "<= 1.1", "restore-vs-producer", "<= 1.25", "restore-produce-phase", ">= 0.9", "follow-vs-oneshot",
                ">= 0.9", "kafka-sink-vs-mm2", ">= 1.3", "heap-after-gc", "<= 200 MiB", "sidecar-bootstrap", ">= 0.9");
        ascii.forEach((id, goal) -> assertThat(goals.get(id).ascii()).as("goal %s", id).isEqualTo(goal));
        Map<String, String> text = Map.of("sidecar-get-rate", "≥ 50,000 req/s", "sidecar-get-p99", "≤ 2 ms", "sidecar-heap", "≤ 1.3×");
        text.forEach((id, goal) -> assertThat(goals.get(id).text()).as("goal %s", id).isEqualTo(goal));
    }

    @Test
    void everyGoalABenchNamesIsInTheTableAndEveryMeasuredGoalsCommandExists() throws Exception {
        Goals goals = Goals.read(Goals.FILE);
        List<String> named = new ArrayList<>();
        for (Path script : scripts()) {
            Matcher m = GOAL_ID.matcher(Files.readString(script));
            while (m.find()) {
                named.add(m.group(1));
            }
        }

        assertThat(named).contains("blob-vs-discard", "kafka-sink-vs-mm2", "restore-vs-producer", "follow-vs-oneshot", "sidecar-bootstrap",
                "heap-after-gc");
        named.stream().filter(id -> !id.equals("-"))
                .forEach(id -> assertThat(goals.find(id)).as("goal %s in bench/goals.txt", id).isPresent());
        for (Goal g : goals.all()) {
            if (g.measured()) {
                String script = g.command().split(" ")[0];
                assertThat(Path.of("..", script)).as("the command of goal %s", g.id()).isRegularFile();
            }
        }
    }

    @Test
    void noBenchStatesAGoalOfItsOwn() throws Exception {
        for (Path script : scripts()) {
            assertThat(OWN_GOAL.matcher(Files.readString(script)).find()).as("%s states a goal instead of naming one of bench/goals.txt",
                    script).isFalse();
        }
    }

    @Test
    void aLineThatIsNotAGoalIsNamedByItsNumber() {
        assertThatThrownBy(() -> Goals.parse(List.of("# comment", "x | what | against | about 1 | cmd | page"), "goals.txt"))
                .hasMessageContaining("goals.txt line 2: the goal 'about 1' is not '>= N', '<= N' or '= N'");
        assertThatThrownBy(() -> Goals.parse(List.of("x | what | >= 1"), "goals.txt")).hasMessageContaining("goals.txt line 1 has 3"
                + " fields");
        assertThatThrownBy(() -> Goals.parse(List.of("x | a | b | >= 1 | - | -", "x | a | b | >= 2 | - | -"), "goals.txt"))
                .hasMessageContaining("goal x is there twice");
    }

    /** The bench scripts and the drivers they run. */
    private static List<Path> scripts() throws Exception {
        List<Path> out = new ArrayList<>(List.of(Path.of("lib.sh"), Path.of("cache-sidecar", "run")));
        try (Stream<Path> s = Files.list(Path.of("."))) {
            s.filter(p -> p.getFileName().toString().startsWith("run-")).forEach(out::add);
        }
        for (String driver : List.of("../restore-cli/src/test/java/dev/mirrorv3/restore/cli/bench/RestoreBench.java",
                "../connector-source-chain/src/test/java/dev/mirrorv3/connect/source/bench/FollowRestoreBench.java")) {
            out.add(Path.of(driver));
        }
        return out;
    }
}
