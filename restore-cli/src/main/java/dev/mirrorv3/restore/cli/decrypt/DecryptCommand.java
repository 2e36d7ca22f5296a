package dev.mirrorv3.restore.cli.decrypt;

import dev.mirrorv3.chain.Chain;
import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.SnapshotChain;
import dev.mirrorv3.chain.envelope.EnvelopeCodec;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.envelope.ParquetCodec;
import dev.mirrorv3.chain.manifest.ChainStart.BeforeTheRule;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.read.CheckedObject;
import dev.mirrorv3.chain.restore.Progress;
import dev.mirrorv3.chain.snapshot.SnapshotReader;
import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.restore.cli.Backup;
import dev.mirrorv3.restore.cli.BackupOptions;
import dev.mirrorv3.restore.cli.ExitCodes;
import dev.mirrorv3.restore.cli.ProgressPrinter;
import dev.mirrorv3.restore.cli.UsageException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code mirror-v3 decrypt}: plain Parquet copies of a backup's objects, for tools without Parquet decryption. */
@Command(name = "decrypt",
        mixinStandardHelpOptions = true,
        description = {"Writes plain Parquet copies of an encrypted backup's objects into a directory, for tools without Parquet"
                + " decryption (or whose decryption fails on parquet-mr's files), e.g. DuckDB.",
                "",
                "The copies are <output>/<partition>/<from>-<to>.parquet; DuckDB: SELECT * FROM read_parquet('<output>/0/*.parquet')."
                + " Each encrypted object"
                + " (<from>-<to>.k-<key id>.parquet) is read with the key its name carries, checked against its name, topic and"
                + " partition, and written again without encryption (same columns, compression and footer); plain objects of the"
                + " chain are copied as they are, so the output is the whole chosen range. A compaction=log backup's snapshots are"
                + " each decrypted (or copied) as they are, streamed through a local file. Existing files are never overwritten."
                + " The copies hold the backup's records in clear text: keep them where the backup's readers may read them, and"
                + " delete them when done."},
        footerHeading = "%nExamples:%n",
        footer = {"  # Every object of every partition, keys from the connector's encryption.keys.dir or --keys-dir",
                "  mirror-v3 decrypt --connector-config orders-backup.json --keys-dir /run/secrets/keys --output /tmp/orders-plain",
                "",
                "  # The objects of partition 3 that hold offsets 1000000 to 1999999",
                "  mirror-v3 decrypt --connector-config orders-backup.json --partition 3 --from 1000000 --to 1999999 --output /tmp/p3",
                "",
                "Exit codes: 0 ok, 1 a check failed (missing key, wrong key or modified object; the message names it), 2 usage."})
public final class DecryptCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    BackupOptions backup;

    @Option(names = "--output", required = true, paramLabel = "DIR",
            description = {"Directory for the copies (created if missing): <DIR>/<partition>/<from>-<to>.parquet.",
                    "e.g. --output /tmp/orders-plain"})
    Path output;

    @Option(names = "--partition", paramLabel = "N", description = "Only this partition; default all of them.")
    Integer partition;

    @Option(names = "--from", paramLabel = "OFFSET", defaultValue = "0",
            description = "Only objects holding offsets at or after this one (default ${DEFAULT-VALUE}).")
    long from;

    @Option(names = "--to", paramLabel = "OFFSET", defaultValue = "9223372036854775807",
            description = "Only objects holding offsets at or before this one (default: to the chain's end).")
    long to;

    @Option(names = "--progress", paramLabel = "auto|bar|plain|none", defaultValue = "auto",
            description = "Progress on stderr: a bar on a terminal (auto), a plain line every 5 s otherwise.")
    ProgressPrinter.Mode progressMode;

    @Override
    public Integer call() {
        if (from > to) {
            throw new ParameterException(spec.commandLine(), "--from " + from + " is after --to " + to);
        }
        PrintWriter out = spec.commandLine().getOut();
        Backup b = backup.load();
        if (b.envelope().format() != EnvelopeFormat.PARQUET) {
            throw new UsageException("connector " + b.connector().name() + " writes " + b.envelope().format().extension()
                    + " objects, which are never encrypted: nothing to decrypt");
        }
        Tally tally = new Tally();
        try (Store store = b.openStore()) {
            List<Integer> partitions = partition != null ? List.of(partition) : store.partitions();
            if (partitions.isEmpty()) {
                throw new ChainException(store.location(0).replaceAll("/0$", "") + " holds no partition directories: no backup of "
                        + b.sourceTopic() + " there (check the root and destination.name)");
            }
            Map<Integer, Long> unknown = new LinkedHashMap<>();
            partitions.forEach(p -> unknown.put(p, -1L));
            Progress progress = new Progress("decrypt", unknown);
            Copies copies = new Copies(store, b, new ChainReader(store, b.envelope(), b.keys()),
                    new SnapshotReader(store, b.envelope(), b.keys()), EnvelopeCodecs.forSettings(b.envelope()), progress, tally);
            try (ProgressPrinter printer = ProgressPrinter.start(progressMode, spec.commandLine().getErr(), progress)) {
                for (int p : partitions) {
                    if (b.snapshots()) { // compaction=log: each snapshot stands alone, there is no contiguous chain to check
                        copies.snapshots(p, from, to, output.resolve(Integer.toString(p)));
                    } else {
                        copies.chain(p, from, to, output.resolve(Integer.toString(p)));
                    }
                }
            }
        }
        out.println("decrypt: " + tally.decrypted + " encrypted objects written plain, " + tally.copied + " plain objects copied ("
                + tally.records + " records decrypted) into " + output);
        out.flush();
        return ExitCodes.OK;
    }

    /** What was written: objects decrypted, objects copied as they are, records decrypted. */
    private static final class Tally {
        private long decrypted;
        private long copied;
        private long records;

        void add(ObjectName o, long records) {
            if (o.encrypted()) {
                decrypted++;
            } else {
                copied++;
            }
            this.records += records;
        }
    }

    /** Writes a partition's plain copies from its store, counting them and adding their records to the progress. */
    private record Copies(Store store, Backup backup, ChainReader reader, SnapshotReader snapshotReader, EnvelopeCodec plain,
            Progress progress, Tally tally) {

        void snapshots(int p, long from, long to, Path dir) {
            SnapshotChain chain = snapshotReader.list(p);
            List<ObjectName> chosen = chain.objects().stream().filter(o -> o.to() >= from && o.from() <= to).toList();
            for (ObjectName o : chosen) {
                Path target = targetOf(dir, o);
                Path tmp = tempFor(dir, target);
                long n = snapshotReader.plainCopy(p, o, backup.sourceTopic(), tmp, Path.of(System.getProperty("java.io.tmpdir")),
                        new ParquetCodec(backup.envelope()));
                move(tmp, target);
                counted(p, o, n);
            }
        }

        void chain(int p, long from, long to, Path dir) {
            Chain chain = reader.listNames(p, OptionalLong.empty(), BeforeTheRule.ACCEPT); // as before the rule
            List<ObjectName> chosen = chain.objects().stream().filter(o -> o.to() >= from && o.from() <= to).toList();
            backup.keys().requireKeysFor(chain.location(), chosen); // every missing key id at once, before writing anything
            for (ObjectName o : chosen) {
                Path target = targetOf(dir, o);
                byte[] bytes;
                long n;
                if (o.encrypted()) {
                    CheckedObject c = reader.read(p, o, backup.sourceTopic());
                    bytes = plain.encode(c.records());
                    n = c.records().size();
                } else {
                    bytes = store.read(p, o.fileName());
                    n = 0;
                }
                write(dir, target, bytes);
                counted(p, o, n);
            }
        }

        private void counted(int p, ObjectName o, long records) {
            tally.add(o, records);
            progress.add(p, records);
        }
    }

    private static Path targetOf(Path dir, ObjectName o) {
        Path target = dir.resolve(ObjectName.plain(o.from(), o.to(), EnvelopeFormat.PARQUET).fileName());
        if (Files.exists(target)) {
            throw new UsageException(target + " exists: decrypt never overwrites; remove it or choose another --output");
        }
        return target;
    }

    /** A name beside the target for the copy while it is written (a snapshot may be large: it goes to disk, not the heap). */
    private static Path tempFor(Path dir, Path target) {
        try {
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, "." + target.getFileName(), ".tmp");
            Files.delete(tmp); // the writers create it themselves
            return tmp;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write into " + dir + ": " + e.getMessage(), e);
        }
    }

    private static void move(Path tmp, Path target) {
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
        }
    }

    private static void write(Path dir, Path target, byte[] bytes) {
        try {
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, "." + target.getFileName(), ".tmp");
            Files.write(tmp, bytes);
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
        }
    }
}
