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

    private static String line(String variant, String store, int size, int round, double startup, long startLists, long idleLists,
            long idleGets, String flushLists, String flushPuts) {
        boolean metric = variant.equals("change");
        return "RESULT chains " + variant + " " + store + " " + size + " r" + round + " startup_s=" + startup
                + " start_lists_metric=" + (metric ? startLists : -1) + " start_lists_server=" + startLists + " idle_s=20"
                + " idle_lists_metric=" + (metric ? idleLists : -1) + " idle_gets_metric=" + (metric ? idleGets : -1)
                + " idle_lists_server=" + idleLists + " flush_lists_metric=" + (metric ? flushLists : "-1") + " flush_puts_metric="
                + (metric ? flushPuts : "-1") + " flush_lists_server=" + flushLists + " flush_puts_server=" + flushPuts
                + " verify_listing_s=0.5 verify_listing_lists=" + (size / 1000 + 1) + " verify_listing_gets=0 synth_s=1.0";
    }

    @Test
    void printsMediansRatiosFlatnessAndTheHourlyCostFromTheMeasuredRequests() throws Exception {
        Path results = dir.resolve("results.txt");
        Files.write(results, List.of(
                line("baseline-abc", "s3", 1000, 1, 2.0, 2, 10, 0, "2.00", "1.00"),
                line("baseline-abc", "s3", 10000, 1, 4.0, 11, 100, 0, "2.00", "1.00"),
                line("change", "s3", 1000, 1, 2.0, 3, 30, 10, "2.00", "1.00"),
                line("change", "s3", 1000, 2, 4.0, 3, 30, 10, "2.00", "1.00"),
                line("change", "s3", 10000, 1, 2.4, 3, 30, 10, "2.00", "1.00"),
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
        assertThat(text).contains("s3       1000  |    2.00 /    3.00 /  1.50 |", "s3      10000  |    4.00 /    2.40 /  0.60 |");
        // per check: 10 idle checks (20 s at 2 s): main 1.00 and 10.00 LIST, new 3.00
        assertThat(text).contains("|       1.00 /       3.00 |", "|      10.00 /       3.00 |");
        assertThat(text).contains("flat s3 1000 -> 10000: start-up 0.80, LIST at start 1.00, LIST per check 1.00 (goal <= 2 each; main:"
                + " 2.00, 5.50, 10.00)");
        // one flush a minute: main 60 x 2 + 60 checks x 10 = 720 LIST, 60 PUT; new 60 x 2 + 60 x 3 + 1/24 manifests
        assertThat(text).containsPattern("60 +10000 \\|     720     60     0    0.00390 \\|     300     60    60    0.00182");
    }
}
