package dev.mirrorv3.bench.chains;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChainScaleSummaryTest {
    @TempDir
    Path dir;

    /**
     * A run's line: {@code checkLists} LIST per periodic check, 2 LIST and 1 PUT per flush; a steady window of 20 s (10
     * checks) with 10 flushes, a burst of 10 flushes too quick for a check; {@code steadyGets} GETs in the window.
     */
    private static String line(String variant, String store, int size, int round, double startup, long startLists, long checkLists,
            long steadyGets) {
        boolean metric = variant.equals("change");
        long steadyLists = 10 * 2 + 10 * checkLists;
        return "RESULT chains " + variant + " " + store + " " + size + " r" + round + " startup_s=" + startup
                + " start_lists_metric=" + (metric ? startLists : -1) + " start_lists_server=" + startLists + " steady_s=20.0"
                + " steady_flushes=10 steady_lists_metric=" + (metric ? steadyLists : -1) + " steady_gets_metric="
                + (metric ? steadyGets : -1) + " steady_puts_metric=" + (metric ? 10 : -1) + " steady_lists_server=" + steadyLists
                + " flow_s=0.00 flow_flushes=10 flow_lists_metric=" + (metric ? 20 : -1) + " flow_puts_metric=" + (metric ? 10 : -1)
                + " flow_lists_server=20 flow_puts_server=10 verify_listing_s=0.5 verify_listing_lists=" + (size / 1000 + 1)
                + " verify_listing_gets=0 synth_s=1.0";
    }

    @Test
    void printsMediansRatiosFlatnessAndTheHourlyCostFromTheMeasuredRequests() throws Exception {
        Path results = dir.resolve("results.txt");
        Files.write(results, List.of(
                line("baseline-abc", "s3", 1000, 1, 2.0, 2, 1, 0),
                line("baseline-abc", "s3", 10000, 1, 4.0, 11, 10, 0),
                line("change", "s3", 1000, 1, 2.0, 3, 3, 10),
                line("change", "s3", 1000, 2, 4.0, 3, 3, 10),
                line("change", "s3", 10000, 1, 2.4, 3, 3, 10),
                line("change", "s3-indexed", 1000, 1, 0.2, 3, 3, 10),
                line("change", "s3-indexed", 1000000, 1, 0.3, 3, 3, 10),
                "not a result line"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream previous = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            ChainScaleSummary.main(new String[] {results.toString()});
        } finally {
            System.setOut(previous);
        }
        String text = out.toString(StandardCharsets.UTF_8);
        // change at 1000: median of 2.0 and 4.0 = 3.0, against main's 2.0
        assertThat(text).contains("s3       1000         |    2.00 /    3.00 /  1.50 |",
                "s3      10000         |    4.00 /    2.40 /  0.60 |");
        // per check, told from the flushes of the steady window by the burst: main 1.00 and 10.00 LIST, new 3.00
        assertThat(text).contains("|       1.00 /       3.00 |", "|      10.00 /       3.00 |");
        // LIST per hour in the steady window: new 50 x 180 at both lengths, main 30 x 180 and 120 x 180
        assertThat(text).contains("flat s3 1000 -> 10000: start-up 0.80, LIST at start 1.00, LIST per hour 1.00 (goal listing-flat; main:"
                + " 2.00, 5.50, 4.00)");
        assertThat(text).contains("CHECK listing-flat|1.00|S3Proxy, s3 1000 -> 10000: the largest of start-up 0.80, LIST at start 1.00"
                + " and LIST per hour 1.00 (one flush per 2000 ms)|a run from 1000 to 10000 objects: the goal spans 1,000 to 1,000,000");
        // the store whose listing is indexed as S3's is judged apart, from 1,000 to 1,000,000 objects
        assertThat(text).contains("CHECK listing-flat|1.50|S3Proxy with a listing indexed as S3's, s3-indexed 1000 -> 1000000: the"
                + " largest of start-up 1.50, LIST at start 1.00 and LIST per hour 1.00 (one flush per 2000 ms)|1 round(s): a result"
                + " needs 3");
        // one flush a minute: main 60 x 2 + 60 checks x 10 = 720 LIST, 60 PUT; new 60 x 2 + 60 x 3 + 1/24 manifests
        assertThat(text).containsPattern("60 +s3 10000 \\|     720     60     0    0.00390 \\|     300     60    60    0.00182");
    }
}
