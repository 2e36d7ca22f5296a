package dev.mirrorv3.restore.cli;

import dev.mirrorv3.chain.restore.Progress;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Shows a {@link Progress} on stderr: on a terminal a bar per partition and in total (records, records/s, ETA),
 * redrawn in place; otherwise a plain line every few seconds.
 */
public final class ProgressPrinter implements AutoCloseable {
    public enum Mode { AUTO, BAR, PLAIN, NONE }

    private final PrintWriter err;
    private final Progress progress;
    private final boolean bar;
    private final ScheduledExecutorService timer;
    private int linesDrawn;

    private ProgressPrinter(PrintWriter err, Progress progress, boolean bar, long periodMs) {
        this.err = err;
        this.progress = progress;
        this.bar = bar;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "mirror-v3-progress");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(this::print, periodMs, periodMs, TimeUnit.MILLISECONDS);
    }

    public static ProgressPrinter start(Mode mode, PrintWriter err, Progress progress) {
        boolean terminal = System.console() != null;
        return switch (mode) {
            case NONE -> new ProgressPrinter(err, progress, false, Long.MAX_VALUE / 4);
            case BAR -> new ProgressPrinter(err, progress, true, 250);
            case PLAIN -> new ProgressPrinter(err, progress, false, 5000);
            case AUTO -> new ProgressPrinter(err, progress, terminal, terminal ? 250 : 5000);
        };
    }

    private synchronized void print() {
        if (bar) {
            drawBars();
        } else {
            err.println(line("total", progress.doneTotal(), progress.total()));
            err.flush();
        }
    }

    private void drawBars() {
        StringBuilder sb = new StringBuilder();
        if (linesDrawn > 0) {
            sb.append("\033[").append(linesDrawn).append('A');
        }
        int lines = 0;
        if (progress.totals().size() > 1) {
            for (Map.Entry<Integer, Long> e : progress.totals().entrySet()) {
                sb.append("\r\033[K").append(barLine("p" + e.getKey(), progress.done(e.getKey()), e.getValue())).append('\n');
                lines++;
            }
        }
        sb.append("\r\033[K").append(barLine("total", progress.doneTotal(), progress.total())).append('\n');
        lines++;
        linesDrawn = lines;
        err.print(sb);
        err.flush();
    }

    private String barLine(String label, long done, long total) {
        int width = 30;
        int filled = total > 0 ? (int) Math.min(width, done * width / total) : 0;
        return "[" + "#".repeat(filled) + "-".repeat(width - filled) + "] " + line(label, done, total);
    }

    private String line(String label, long done, long total) {
        double seconds = Math.max(1e-3, progress.elapsedNanos() / 1e9);
        long rate = (long) (done / seconds);
        StringBuilder sb = new StringBuilder(progress.phase()).append(' ').append(label).append(": ").append(done);
        if (total >= 0) {
            sb.append('/').append(total).append(" records");
            if (total > 0) {
                sb.append(" (").append(done * 100 / total).append("%)");
            }
        } else {
            sb.append(" records");
        }
        sb.append(", ").append(rate).append(" records/s");
        if (total > 0 && rate > 0 && done < total) {
            sb.append(", ETA ").append((total - done) / rate + 1).append(" s");
        }
        return sb.toString();
    }

    @Override
    public synchronized void close() {
        timer.shutdownNow();
        if (bar) {
            drawBars();
        }
    }
}
