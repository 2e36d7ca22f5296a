package dev.mirrorv3.chain.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.ChainException;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.read.ChainReader;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.testkit.FourObjectChain;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where a chain may start, as the blob sink opens a partition ({@link ChainReader#head}). */
class ChainStartTest {
    static final String SHORTENED = "starts at offset 100 (00000000000000000100-00000000000000000199.parquet), not at 0 nor at its"
            + " recorded start";

    @TempDir
    Path root;
    FilesystemStore store;

    @BeforeEach
    void chain() {
        store = new FilesystemStore(root, "b");
        FourObjectChain.write(store, "t", null, (byte) 1, records -> new byte[] {1});
    }

    @Test
    void theSinksOpenRefusesAChainShortenedByHand() throws Exception {
        // a chain under the rule (its writer gave it a manifest), not one from before it
        byte[] manifest = ManifestCodec.encode(new Manifest(Manifest.Kind.CHAIN, 0, 0, new ManifestName(0, 399), null,
                java.util.List.of(), ObjectName.plain(300, 399, EnvelopeFormat.PARQUET), java.util.Map.of()));
        store.createBeside(ManifestName.dir(0), new ManifestName(0, 399).fileName(), manifest);
        Files.delete(root.resolve("b/0/00000000000000000000-00000000000000000099.parquet"));
        assertThatThrownBy(() -> new ChainReader(store, EnvelopeSettings.parquetBytes()).head(0))
                .isInstanceOf(ChainException.class).hasMessageContaining(SHORTENED);
    }

    @Test
    void aChainStartingAtItsRecordedStartOrBelowItIsAcceptedAndAboveItRefused() throws Exception {
        ChainReader reader = new ChainReader(store, EnvelopeSettings.parquetBytes());
        Files.delete(root.resolve("b/0/00000000000000000000-00000000000000000099.parquet"));
        ChainStart.record(store, 0, 200);
        ChainStart.record(store, 0, 200); // a second run's record is the same record
        assertThat(ChainStart.recordedByStartRecords(store, 0)).hasValue(200);
        assertThat(reader.head(0).nextOffset()).as("an interrupted prune: below the recorded start").hasValue(400);
        assertThat(reader.listChain(0, OptionalLong.empty()).first()).map(ObjectName::from).hasValue(100L);
        Files.delete(root.resolve("b/0/00000000000000000100-00000000000000000199.parquet"));
        assertThat(reader.head(0).nextOffset()).as("at the recorded start").hasValue(400);
        Files.delete(root.resolve("b/0/00000000000000000200-00000000000000000299.parquet"));
        assertThatThrownBy(() -> reader.head(0)).isInstanceOf(ChainException.class)
                .hasMessageContaining("starts at offset 300 (00000000000000000300-00000000000000000399.parquet), not at 0 nor at"
                        + " its recorded start (200)");
        assertThatThrownBy(() -> reader.listChain(0, OptionalLong.empty())).isInstanceOf(ChainException.class)
                .hasMessageContaining("not at 0 nor at its recorded start (200)");
        assertThat(reader.listChain(0, OptionalLong.of(300)).first()).as("an explicit start").map(ObjectName::from).hasValue(300L);
    }

    /** A chain written by an earlier version: it starts after 0, and has neither a start record nor a manifest. */
    FilesystemStore legacyChain() {
        FilesystemStore legacy = new FilesystemStore(root, "legacy");
        legacy.create(0, ObjectName.plain(100, 199, EnvelopeFormat.PARQUET).fileName(), new byte[] {1});
        legacy.create(0, ObjectName.plain(200, 299, EnvelopeFormat.PARQUET).fileName(), new byte[] {1});
        assertThat(ChainStart.recordedByStartRecords(legacy, 0)).as("premise: no start record").isEmpty();
        assertThat(root.resolve("legacy/_manifest")).as("premise: no manifest").doesNotExist();
        return legacy;
    }

    @Test
    void theSinksOpenAcceptsAChainFromBeforeTheRuleAndRecordsItsStartAtOnce() throws Exception {
        FilesystemStore legacy = legacyChain();
        ChainReader reader = new ChainReader(legacy, EnvelopeSettings.parquetBytes());
        assertThat(reader.head(0).nextOffset()).as("accepted as before").hasValue(300);
        assertThat(ChainStart.recordedByStartRecords(legacy, 0)).as("trusted on first open: recorded").hasValue(100);
        assertThat(reader.head(0).nextOffset()).as("and from then on the rule holds").hasValue(300);
        Files.delete(root.resolve("legacy/0/00000000000000000100-00000000000000000199.parquet"));
        assertThatThrownBy(() -> reader.head(0)).isInstanceOf(ChainException.class)
                .hasMessageContaining("starts at offset 200 (00000000000000000200-00000000000000000299.parquet), not at 0 nor at"
                        + " its recorded start (100)");
    }

    @Test
    void readersThatNeverWriteKeepWhatTheyDidForAChainFromBeforeTheRule() {
        FilesystemStore legacy = legacyChain();
        ChainReader reader = new ChainReader(legacy, EnvelopeSettings.parquetBytes());
        assertThatThrownBy(() -> reader.listChain(0, OptionalLong.empty())).as("restore, the chain source")
                .isInstanceOf(ChainException.class).hasMessageContaining("starts at offset 100 (00000000000000000100-"
                        + "00000000000000000199.parquet), not at 0; if objects before it were removed on purpose, pass --chain-start 100");
        assertThat(reader.listChain(0, OptionalLong.of(100)).first()).map(ObjectName::from).hasValue(100L);
        assertThat(ChainStart.recordedByStartRecords(legacy, 0)).as("a reader records nothing").isEmpty();
    }

    @Test
    void theNewestManifestsStartIsARecordedStart() throws Exception {
        Files.delete(root.resolve("b/0/00000000000000000000-00000000000000000099.parquet"));
        byte[] manifest = ManifestCodec.encode(new Manifest(Manifest.Kind.CHAIN, 0, 100, new ManifestName(100, 399), null,
                java.util.List.of(), ObjectName.plain(300, 399, EnvelopeFormat.PARQUET), java.util.Map.of()));
        store.createBeside(ManifestName.dir(0), new ManifestName(100, 399).fileName(), manifest);
        assertThat(new ChainReader(store, EnvelopeSettings.parquetBytes()).head(0).nextOffset()).hasValue(400);
    }
}
