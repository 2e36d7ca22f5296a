package dev.mirrorv3.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scaling plot of bench/run-blob-sink-bench --scaling, from the CSV the script writes. */
class ScalingPlotTest {
    private static final String HEADER = String.join(",", ScalingPlot.COLUMNS);

    @TempDir
    Path dir;

    @Test
    void theCsvOfTheScalingRunsBecomesAPngWithBothPanels() throws Exception {
        List<String> lines = new ArrayList<>(List.of(HEADER));
        for (int p : new int[] {1, 8, 32, 100}) {
            for (int size : new int[] {100, 1024, 10240}) {
                double blob = 3_000_000.0 / size / Math.sqrt(p);
                lines.add(p + "," + size + "," + 100_000_000 / size + "," + blob + "," + blob / 2 + ",2.00," + blob * size / 1e6 + ","
                        + blob * size / 2e6 + ",300,268435456");
            }
        }
        Path csv = Files.write(dir.resolve("scaling.csv"), lines);

        ScalingPlot.main(new String[] {csv.toString(), dir.resolve("out/scaling.png").toString()});

        BufferedImage png = ImageIO.read(dir.resolve("out/scaling.png").toFile());
        assertThat(png.getWidth()).isEqualTo(1600);
        assertThat(png.getHeight()).isEqualTo(560);
    }

    @Test
    void aRowThatIsNotFiguresIsNamedByItsLine() throws Exception {
        Path csv = Files.write(dir.resolve("scaling.csv"), List.of(HEADER, "1,100,1000,500,400,1.25,0.05,0.04,200,268435456",
                "8,100,1000,,400,1.25,0.05,0.04,200,268435456"));

        assertThatThrownBy(() -> ScalingPlot.read(csv)).hasMessageContaining("scaling.csv line 3 is not a row of figures");
    }

    @Test
    void aCsvWithoutFiguresIsRefused() throws Exception {
        Path csv = Files.write(dir.resolve("scaling.csv"), List.of(HEADER));

        assertThatThrownBy(() -> ScalingPlot.read(csv)).hasMessageContaining("holds a header but no figures");
    }

    @Test
    void sizesAreWrittenAsTheScriptNamesThem() {
        assertThat(ScalingPlot.size(100)).isEqualTo("100 B");
        assertThat(ScalingPlot.size(1024)).isEqualTo("1 KiB");
        assertThat(ScalingPlot.size(10240)).isEqualTo("10 KiB");
    }
}
