package dev.mirrorv3.chain.restore;

import dev.mirrorv3.chain.Chain;
import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.RecordTypeCheck;
import dev.mirrorv3.chain.manifest.ChainStart;
import dev.mirrorv3.chain.manifest.ManifestTrail;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.read.CheckedObject;
import dev.mirrorv3.chain.store.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;
import java.util.function.ToLongFunction;

/**
 * The verify pass of a restore (docs/restore-cli.md): lists and validates a partition's chain from a required start,
 * follows its manifests' hash chain and checks the listing against them, reads every object (manifests and objects
 * several at once, {@link #readingAhead}) and checks it against its name, topic and partition and against the SHA-256 its manifest
 * recorded ({@link ManifestTrail}), and records each object's SHA-256, records and holes; it may keep the objects for
 * the produce pass ({@link #keeping}). Connect-free, shared by the restore CLI and the chain source connector.
 */
public final class BackupVerifier {
    private final Store store;
    private final ChainReader reader;
    private final EnvelopeSettings settings;
    private final String topic;
    private final int readAhead;
    private final KeptObjects kept;

    public BackupVerifier(Store store, EnvelopeSettings settings, String topic) {
        this(store, settings, topic, KeyRing.empty());
    }

    /** @param keys the keys of the chain's encrypted objects (each read with the key id its name carries) */
    public BackupVerifier(Store store, EnvelopeSettings settings, String topic, KeyRing keys) {
        this(store, settings, topic, new ChainReader(store, settings, keys), Runtime.getRuntime().availableProcessors(),
                KeptObjects.none());
    }

    private BackupVerifier(Store store, EnvelopeSettings settings, String topic, ChainReader reader, int readAhead, KeptObjects kept) {
        this.store = store;
        this.settings = settings;
        this.reader = reader;
        this.topic = topic;
        this.readAhead = readAhead;
        this.kept = kept;
    }

    /**
     * This verifier reading up to {@code objects} objects of a partition ahead of the one being checked, in parallel
     * ({@link ReadAhead}); by default as many as the machine has cores. A caller verifying several partitions at once
     * divides the cores among them: memory holds up to {@code objects} + 1 objects per partition being verified.
     */
    public BackupVerifier readingAhead(int objects) {
        return new BackupVerifier(store, settings, topic, reader, objects, kept);
    }

    /**
     * This verifier keeping the objects it verified in {@code kept}, as far as its budget goes: {@link #reread} then hands
     * them out as verified instead of reading them again. By default it keeps none.
     */
    public BackupVerifier keeping(KeptObjects kept) {
        return new BackupVerifier(store, settings, topic, reader, readAhead, kept);
    }

    public String topic() {
        return topic;
    }

    /**
     * @param chainStart where the chain must start ({@code --chain-start})
     * @param recordSize the size a record takes in the target (a Kafka batch of one); the largest is kept
     * @param recordsRead called after each object with the records it held (progress)
     * @throws ChainException naming the object and the problem
     * @throws dev.mirrorv3.chain.envelope.ValueTypeException if a key or value does not fit keys.type/values.type
     */
    public VerifiedPartition verify(int partition, long chainStart, ToLongFunction<BackupRecord> recordSize, LongConsumer recordsRead) {
        return verify(partition, chainStart, CutFinder.none(), recordSize, recordsRead);
    }

    /**
     * The verify pass up to a cut: the objects after it are not read, the records after it not counted, and the result
     * holds the prefix (objects with a restored record, {@link VerifiedPartition#lastOffset()} the cut) and its digest.
     *
     * @param cut the partition's cut ({@link RestoreCut#finder}), or {@link CutFinder#none()}
     * @throws ChainException when nothing is before the cut, or an offset cut is past the chain's end
     */
    public VerifiedPartition verify(int partition, long chainStart, CutFinder cut, ToLongFunction<BackupRecord> recordSize,
            LongConsumer recordsRead) {
        VerifyPass pass = new VerifyPass(cut, new RecordTypeCheck(settings), recordSize);
        Chain chain = reader.listChain(partition, ChainStart.required(chainStart));
        String location = store.location(partition);
        if (chain.isEmpty()) {
            throw new ChainException(location + ": the directory holds no backup objects");
        }
        ManifestTrail manifests = ManifestTrail.read(reader.listing(partition), Math.max(1, readAhead));
        manifests.checkListing(chain);
        List<VerifiedObject> objects = new ArrayList<>(chain.objects().size());
        try (ReadAhead<ObjectName, KeptObjects.Sized> reads = new ReadAhead<>(chain.objects(),
                name -> kept.sized(reader.read(partition, name, topic)), readAhead, "mirror-v3-verify-" + partition)) {
            for (ObjectName name : chain.objects()) {
                if (cut.reached()) {
                    break; // records after the cut are never checked (an object read ahead past it is dropped)
                }
                KeptObjects.Sized read = reads.next();
                CheckedObject o = read.object();
                manifests.checkObject(name, o.sha256(), o.sizeBytes());
                VerifiedObject verified = pass.add(name, o);
                recordsRead.accept(o.records().size());
                if (verified == null) {
                    break;
                }
                objects.add(verified);
                kept.offer(partition, read);
            }
        }
        if (objects.isEmpty()) {
            throw new ChainException(location + ": nothing to restore " + cut.requested() + ": the chain's first record (offset "
                    + cut.firstExcludedOffset() + (cut.firstExcludedTimestampMs() == null ? "" : ", timestamp "
                    + java.time.Instant.ofEpochMilli(cut.firstExcludedTimestampMs())) + ") is already after it; pick a later cut");
        }
        if (cut.untilOffset() != null && !cut.reached()) {
            long end = chain.last().orElseThrow().to();
            throw new ChainException(location + ": --until-offset " + partition + ":" + cut.untilOffset() + " is past the chain's end,"
                    + " offset " + end + " (the newest backed-up record): give at most " + partition + ":" + end
                    + ", or leave the partition's offset out to restore everything");
        }
        long firstHole = objects.stream().mapToLong(VerifiedObject::firstHole).filter(h -> h >= 0).findFirst().orElse(-1);
        return new VerifiedPartition(location, topic, partition, objects, firstHole, pass.stats(), pass.partitionCut(),
                manifests.summary());
    }

    /**
     * The object for the produce pass: as the verify pass read it when it was kept ({@link #keeping}; it is then no longer
     * kept), else read again, requiring the bytes the verify pass read.
     *
     * @throws ChainException if the object changed since the verify pass
     */
    public CheckedObject reread(int partition, VerifiedObject verified) {
        CheckedObject kept = this.kept.take(partition, verified.name());
        if (kept != null) {
            return kept;
        }
        CheckedObject o = reader.read(partition, verified.name(), topic);
        if (!java.util.Arrays.equals(o.sha256(), verified.sha256())) {
            throw new ChainException(store.location(partition) + "/" + verified.name() + " changed since the verify pass read it ("
                    + verified.sizeBytes() + " bytes then, " + o.sizeBytes() + " now): another writer or a manual change"
                    + " on the backup; find out what changed it before restoring again");
        }
        return o;
    }
}
