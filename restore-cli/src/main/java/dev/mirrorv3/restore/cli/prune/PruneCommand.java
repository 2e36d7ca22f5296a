package dev.mirrorv3.restore.cli.prune;

import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.prune.ChainPruner;
import dev.mirrorv3.chain.prune.MetaPrune;
import dev.mirrorv3.chain.prune.MetaPruner;
import dev.mirrorv3.chain.prune.PartitionPrune;
import dev.mirrorv3.chain.prune.SnapshotPruner;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.snapshot.SnapshotReader;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.restore.cli.Backup;
import dev.mirrorv3.restore.cli.BackupOptions;
import dev.mirrorv3.restore.cli.ExitCodes;
import dev.mirrorv3.restore.cli.UsageException;
import dev.mirrorv3.restore.cli.report.AtomicFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.IntFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code mirror-v3 prune}: removes a backup's oldest objects by a retention on their records (docs/restore-cli.md, "prune"). */
@Command(name = "prune",
        mixinStandardHelpOptions = true,
        description = {"Removes whole objects from the head of each partition's chain, oldest first, by a retention on the"
                + " records: an object goes when its newest record's timestamp is older than --keep (or --before) and every"
                + " object before it went too. The newest object of a chain always stays. The chain's new start is recorded"
                + " first (_start/<partition>/), then the objects are deleted, so a run stopped at any point leaves a chain"
                + " every reader accepts, and the next run finishes it. An object under an S3 Object Lock retention is left"
                + " and reported, with the objects after it. Uses the prune identity (s3.prune.access.key.id) on S3.",
                "The _meta/ topic and consumer-group snapshots older than the one a point-in-time restore at the cut takes go"
                + " too (a snapshot's time is its name's); the newest of each kind always stays. Of a compaction=log backup,"
                + " the snapshots older than the one restore --until-timestamp at the cut takes go; the newest always stays."
                + " --partition N prunes one chain and leaves _meta/."},
        footerHeading = "%nExamples:%n",
        footer = {"  # What 30 days of retention would remove, with sizes",
                "  mirror-v3 prune --connector-config orders-backup.json --keep 30d --dry-run",
                "",
                "  # Remove it, with a JSON summary and metrics for the node exporter's textfile collector",
                "  mirror-v3 prune --connector-config orders-backup.json --keep 30d --report prune.json --metrics-file prune.prom",
                "",
                "Exit codes: 0 done (objects under a retention are reported, not an error), 1 a chain was refused (the message"
                        + " names it), 2 usage. The --report file is described by config/schemas/prune-report.schema.json."})
public final class PruneCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    BackupOptions backup;

    @Option(names = "--keep", paramLabel = "DURATION",
            description = {"Keep the records of this last span: 30d, 12h, 90m, or ISO-8601 (P30D).", "e.g. --keep 30d"})
    String keep;

    @Option(names = "--before", paramLabel = "TIME",
            description = {"Remove objects whose newest record is older than this instant (UTC).", "e.g. --before 2026-01-01T00:00:00Z"})
    Instant before;

    @Option(names = "--dry-run", description = "List what would be removed, with sizes; remove and record nothing.")
    boolean dryRun;

    @Option(names = "--partition", paramLabel = "N",
            description = "Only this partition's chain (_meta/ is left); default every partition and _meta/.")
    Integer partition;

    @Option(names = "--report", paramLabel = "FILE", description = "Write a JSON summary of the run here.")
    Path report;

    @Option(names = "--metrics-file", paramLabel = "FILE",
            description = "Write the run's removed and kept objects and bytes here (Prometheus text format).")
    Path metricsFile;

    @Override
    public Integer call() throws IOException {
        Instant cut = cut();
        Backup b = backup.load();
        PrintWriter out = spec.commandLine().getOut();
        List<PartitionPrune> results = new ArrayList<>();
        MetaPrune meta = null;
        try (Store store = b.openStoreForPrune()) {
            IntFunction<PartitionPrune> pruner = pruner(b, store, cut);
            for (int p : partition != null ? List.of(partition) : store.partitions()) {
                PartitionPrune r = pruner.apply(p);
                results.add(r);
                r.removed().forEach(o -> out.println((dryRun ? "would remove " : "removed ") + store.location(p) + "/" + o.name()
                        + " (" + o.bytes() + " bytes)"));
                r.locked().forEach(l -> out.println("left " + l.reason()));
            }
            if (partition == null) { // the backup's metadata is the whole backup's: --partition leaves it
                MetaPruner metaPruner = new MetaPruner(store, ObjectEncryption.readOnly(b.keys()));
                meta = metaPruner.prune(cut, dryRun);
                meta.removed().forEach(o -> out.println((dryRun ? "would remove " : "removed ") + metaPruner.location(o.dir()) + "/"
                        + o.name() + " (" + o.bytes() + " bytes)"));
                meta.locked().forEach(l -> out.println("left " + l.reason()));
            }
        }
        out.println(summary(b, cut, results, meta));
        out.flush();
        if (report != null) {
            AtomicFiles.write(report, PruneReport.json(b.connector().name(), b.sourceTopic(), b.snapshots() ? "snapshots" : "chain",
                    dryRun, cut, results, meta));
        }
        if (metricsFile != null) {
            AtomicFiles.write(metricsFile, PruneMetrics.text(b.connector().name(), b.sourceTopic(), dryRun, results, meta));
        }
        return ExitCodes.OK;
    }

    /** A chain's objects from its head, or a compaction=log partition's snapshots older than the one a restore at the cut takes. */
    private IntFunction<PartitionPrune> pruner(Backup b, Store store, Instant cut) {
        if (b.snapshots()) {
            SnapshotPruner snapshots = new SnapshotPruner(store, new SnapshotReader(store, b.envelope(), b.keys()));
            return p -> snapshots.prune(p, cut, dryRun);
        }
        ChainPruner chains = new ChainPruner(store, new ChainReader(store, b.envelope(), b.keys()), b.sourceTopic());
        return p -> chains.prune(p, cut, dryRun);
    }

    private String summary(Backup b, Instant cut, List<PartitionPrune> results, MetaPrune meta) {
        long removed = results.stream().mapToLong(r -> r.removed().size()).sum();
        long bytes = results.stream().mapToLong(PartitionPrune::removedBytes).sum();
        long locked = results.stream().mapToLong(r -> r.locked().size()).sum() + (meta == null ? 0 : meta.locked().size());
        return "prune" + (dryRun ? " (dry run)" : "") + ": " + removed + (b.snapshots() ? " snapshots" : " objects") + " (" + bytes
                + " bytes) " + (dryRun ? "would be " : "") + "removed from " + results.size() + " partitions, "
                + (b.snapshots() ? "older than the one a restore at " + cut + " takes" : "objects older than " + cut) + "; "
                + (meta == null ? "_meta/ left (--partition)" : "_meta/: " + meta.removed().size() + " snapshots (" + meta.removedBytes()
                        + " bytes) " + (dryRun ? "would be " : "") + "removed, " + meta.kept() + " kept")
                + "; " + locked + " under a retention left";
    }

    private Instant cut() {
        if ((keep == null) == (before == null)) {
            throw new UsageException("give exactly one of --keep DURATION and --before TIME");
        }
        return before != null ? before : Instant.now().minus(duration(keep));
    }

    static Duration duration(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        try {
            if (t.startsWith("p")) {
                return Duration.parse(t.toUpperCase(Locale.ROOT));
            }
            long n = Long.parseLong(t.substring(0, t.length() - 1));
            return switch (t.charAt(t.length() - 1)) {
                case 'd' -> Duration.ofDays(n);
                case 'h' -> Duration.ofHours(n);
                case 'm' -> Duration.ofMinutes(n);
                default -> throw new NumberFormatException();
            };
        } catch (RuntimeException e) {
            throw new UsageException("--keep " + text + " is not a duration: use 30d, 12h, 90m or ISO-8601 such as P30D");
        }
    }
}
