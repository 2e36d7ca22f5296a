package dev.mirrorv3.bench;

import dev.mirrorv3.quickstart.Usage;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The PNG of {@code bench/run-blob-sink-bench --scaling}: from its CSV (one row per partitions x value size, the
 * medians of the rounds), two panels side by side, records/s (log scale: 100 B and 10 KiB values differ a hundredfold)
 * and MB/s of values, against the number of partitions (log scale: 1, 8, 32, 100), one line per connector x value size.
 *
 * <p>Usage: {@code ScalingPlot <scaling.csv> <out.png> [title]}
 */
public final class ScalingPlot {
    static final List<String> COLUMNS = List.of("partitions", "value_bytes", "records", "blob_records_per_s",
            "file_records_per_s", "ratio", "blob_mb_per_s", "file_mb_per_s", "blob_heap_after_gc_mib", "buffer_max_bytes");

    private static final Color[] PALETTE = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0x9467bd)};

    private ScalingPlot() {
    }

    public static void main(String[] args) throws IOException {
        Usage.atLeast(args, 2, "ScalingPlot <scaling.csv> <out.png> [title]");
        List<Row> rows = read(Path.of(args[0]));
        write(rows, Path.of(args[1]), args.length > 2 ? args[2] : "blob sink vs FileStreamSink");
        System.out.println("wrote " + args[1]);
    }

    /** One line of the CSV. */
    record Row(int partitions, int valueBytes, double blobRate, double fileRate, double blobMbs, double fileMbs) {
    }

    /** Reads the CSV written by the script; a missing column or a figure that is not a number stops with its line. */
    static List<Row> read(Path csv) throws IOException {
        List<String> lines = Files.readAllLines(csv);
        if (lines.isEmpty()) {
            throw new IllegalArgumentException(csv + " is empty: the scaling runs wrote no figures");
        }
        List<String> header = Arrays.asList(lines.get(0).split(","));
        for (String c : List.of("partitions", "value_bytes", "blob_records_per_s", "file_records_per_s", "blob_mb_per_s",
                "file_mb_per_s")) {
            if (!header.contains(c)) {
                throw new IllegalArgumentException(csv + ": column " + c + " is missing from the header " + header);
            }
        }
        List<Row> rows = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            String[] f = lines.get(i).split(",");
            try {
                rows.add(new Row(Integer.parseInt(f[header.indexOf("partitions")]), Integer.parseInt(f[header.indexOf("value_bytes")]),
                        number(f, header, "blob_records_per_s"), number(f, header, "file_records_per_s"),
                        number(f, header, "blob_mb_per_s"), number(f, header, "file_mb_per_s")));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(csv + " line " + (i + 1) + " is not a row of figures (" + e.getMessage() + "): "
                        + lines.get(i), e);
            }
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(csv + " holds a header but no figures");
        }
        return rows;
    }

    private static double number(String[] fields, List<String> header, String column) {
        return Double.parseDouble(fields[header.indexOf(column)]);
    }

    static void write(List<Row> rows, Path png, String title) throws IOException {
        XYChart rates = chart(title + ": records/s", "records/s (log scale)", true);
        XYChart bytes = chart(title + ": MB/s of values", "MB/s (10^6 bytes of values)", false);
        Map<Integer, List<Row>> bySize = new TreeMap<>();
        for (Row r : rows) {
            bySize.computeIfAbsent(r.valueBytes(), k -> new ArrayList<>()).add(r);
        }
        int colour = 0;
        for (Map.Entry<Integer, List<Row>> e : bySize.entrySet()) {
            // one colour per value size; the blob sink solid, FileStreamSink dashed
            Color c = PALETTE[colour++ % PALETTE.length];
            List<Row> rs = new ArrayList<>(e.getValue());
            rs.sort((a, b) -> Integer.compare(a.partitions(), b.partitions()));
            String size = size(e.getKey());
            double[] partitions = rs.stream().mapToDouble(Row::partitions).toArray();
            line(rates, "blob sink, " + size, partitions, rs.stream().mapToDouble(Row::blobRate).toArray(), c, false);
            line(rates, "FileStreamSink, " + size, partitions, rs.stream().mapToDouble(Row::fileRate).toArray(), c, true);
            line(bytes, "blob sink, " + size, partitions, rs.stream().mapToDouble(Row::blobMbs).toArray(), c, false);
            line(bytes, "FileStreamSink, " + size, partitions, rs.stream().mapToDouble(Row::fileMbs).toArray(), c, true);
        }
        Files.createDirectories(png.toAbsolutePath().getParent());
        BitmapEncoder.saveBitmap(List.of(rates, bytes), 1, 2, png.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    private static XYChart chart(String title, String yTitle, boolean logY) {
        XYChart c = new XYChartBuilder().width(800).height(560).title(title).xAxisTitle("partitions (log scale)")
                .yAxisTitle(yTitle).build();
        // A log scale needs positive values: a run that wrote nothing would have failed the benchmark before the plot.
        c.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(logY).setLegendPosition(
                org.knowm.xchart.style.Styler.LegendPosition.OutsideS).setMarkerSize(7);
        return c;
    }

    private static void line(XYChart chart, String name, double[] x, double[] y, Color colour, boolean dashed) {
        XYSeries s = chart.addSeries(name, x, y);
        s.setLineColor(colour);
        s.setMarkerColor(colour);
        s.setMarker(dashed ? SeriesMarkers.DIAMOND : SeriesMarkers.CIRCLE);
        if (dashed) {
            s.setLineStyle(org.knowm.xchart.style.lines.SeriesLines.DASH_DASH);
        }
    }

    static String size(int bytes) {
        return bytes % 1024 == 0 ? bytes / 1024 + " KiB" : bytes + " B";
    }
}
