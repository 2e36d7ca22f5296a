package dev.mirrorv3.bench.results;

import dev.mirrorv3.testsupport.GeneratedDocs;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The results sections of docs/performance.md and of the component pages are the ones generated from bench/goals.txt
 * and the runs files under bench/results: a figure on a page that is not its runs file's fails here. Regenerate them
 * with {@code mvn -B -ntp -pl bench -am test -Dtest=PerformancePagesTest -Dsurefire.failIfNoSpecifiedTests=false
 * -DupdateReadme=true}.
 */
class PerformancePagesTest {
    static final String REGENERATE = "mvn -B -ntp -pl bench -am test -Dtest=PerformancePagesTest -Dsurefire.failIfNoSpecifiedTests=false"
            + " -DupdateReadme=true";
    private static final Path DOCS = Path.of("..", "docs");
    private static final String GENERATED = " (generated from bench/goals.txt and bench/results/*.jsonl; see bench"
            + " PerformancePagesTest) -->";

    private static ResultsPages pages() throws Exception {
        return ResultsPages.load(Goals.FILE, Path.of("results"), "../bench/results/");
    }

    @Test
    void performancePageHoldsTheGoalsWithTheirCurrentResults() throws Exception {
        GeneratedDocs.checkSection(DOCS.resolve("performance.md"), "<!-- bench-goals:start" + GENERATED, "<!-- bench-goals:end -->",
                pages().goalsTable(Optional.empty()), "goals table", REGENERATE);
    }

    @Test
    void performancePageHoldsTheNewestRunOfEveryCommand() throws Exception {
        GeneratedDocs.checkSection(DOCS.resolve("performance.md"), "<!-- bench-runs:start" + GENERATED, "<!-- bench-runs:end -->",
                pages().commandSections(), "runs per command", REGENERATE);
    }

    @Test
    void performancePageHoldsTheThroughputBesideThePeersPublishedFigures() throws Exception {
        GeneratedDocs.checkSection(DOCS.resolve("performance.md"), "<!-- bench-peers:start (generated from bench/peers.txt and"
                + " bench/results/*.jsonl; see bench PerformancePagesTest) -->", "<!-- bench-peers:end -->",
                pages().peerTable(PeerTable.read(PeerTable.FILE)), "throughput table", REGENERATE);
    }

    @ParameterizedTest
    @ValueSource(strings = {"blob-sink", "kafka-sink", "restore-cli", "chain-source", "cache-sidecar"})
    void componentPageHoldsItsGoalsWithTheirCurrentResults(String page) throws Exception {
        GeneratedDocs.checkSection(DOCS.resolve(page + ".md"), "<!-- bench-goals:" + page + ":start" + GENERATED,
                "<!-- bench-goals:" + page + ":end -->", pages().goalsTable(Optional.of(page)), page + " goals table", REGENERATE);
    }
}
