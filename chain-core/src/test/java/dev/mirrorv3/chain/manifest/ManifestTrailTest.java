package dev.mirrorv3.chain.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mirrorv3.chain.Chain;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.envelope.EnvelopeFormat;
import dev.mirrorv3.chain.store.FilesystemStore;
import dev.mirrorv3.chain.write.ManifestKeeper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tamper evidence a verify pass gets from the manifests: the hash chain, each object against its entry. */
class ManifestTrailTest {
    private static final EnvelopeFormat FORMAT = EnvelopeFormat.PARQUET;

    @TempDir
    Path root;

    private FilesystemStore store;
    private ChainListing listing;

    /** Objects 0-9 and 10-19 in one manifest each (as a writer that closed twice leaves them), then 20-21 after them. */
    @BeforeEach
    void chain() {
        store = new FilesystemStore(root, "m");
        listing = new ChainListing(store, 0, Manifest.Kind.CHAIN);
        for (int round = 0; round < 2; round++) {
            ManifestKeeper keeper = new ManifestKeeper(listing, listing.head(FORMAT), 0, Clock.systemUTC());
            for (long o = round * 10L; o < round * 10L + 10; o++) {
                store.create(0, name(o).fileName(), bytes(o));
                keeper.committed(name(o), bytes(o).length, ManifestCodec.sha256(bytes(o)));
            }
            keeper.writeWaiting();
        }
        store.create(0, name(20).fileName(), bytes(20));
        store.create(0, name(21).fileName(), bytes(21));
    }

    private static ObjectName name(long offset) {
        return ObjectName.plain(offset, offset, FORMAT);
    }

    private static byte[] bytes(long offset) {
        return ("object " + offset).getBytes(StandardCharsets.UTF_8);
    }

    private Path object(long offset) {
        return root.resolve("m/0").resolve(name(offset).fileName());
    }

    private Path manifest(long from, long to) {
        return root.resolve("m/_manifest/0").resolve(new ManifestName(from, to).fileName());
    }

    private Chain listed() {
        return listing.chain(FORMAT, OptionalLong.empty());
    }

    @Test
    void anIntactChainPassesAndSaysWhatWasChecked() {
        ManifestTrail trail = ManifestTrail.read(listing);
        trail.checkListing(listed());
        for (long o = 0; o < 22; o++) {
            trail.checkObject(name(o), ManifestCodec.sha256(bytes(o)), bytes(o).length);
        }
        assertThat(trail.manifests()).hasSize(2);
        assertThat(trail.summary()).isEqualTo("2, hash chain intact, 20 objects with a recorded SHA-256, up to offset 19");
        assertThat(trail.recorded(name(20))).as("after the newest manifest: checked as without manifests").isEmpty();
    }

    @Test
    void anObjectReplacedByOtherBytesUnderItsNameIsNamedWithItsManifest() throws Exception {
        Files.write(object(13), "object 13, changed".getBytes(StandardCharsets.UTF_8));
        byte[] now = Files.readAllBytes(object(13));
        ManifestTrail trail = ManifestTrail.read(listing);
        trail.checkListing(listed());
        assertThatThrownBy(() -> trail.checkObject(name(13), ManifestCodec.sha256(now), now.length))
                .isInstanceOf(ManifestException.class)
                .hasMessageContaining(object(13) + " was changed after it was written: its SHA-256 is " + ManifestCodec.sha256(now))
                .hasMessageContaining("the manifest " + manifest(10, 19) + " recorded " + ManifestCodec.sha256(bytes(13)));
    }

    @Test
    void aManifestNamingAnObjectThatIsGoneIsNamed() throws Exception {
        Files.delete(object(19)); // the last object of a manifest: no gap in the listing shows it
        Files.delete(object(20));
        Files.delete(object(21));
        ManifestTrail trail = ManifestTrail.read(listing);
        assertThatThrownBy(() -> trail.checkListing(listed())).isInstanceOf(ManifestException.class)
                .hasMessageContaining(object(19) + " is gone, and the manifest " + manifest(10, 19) + " records it");
    }

    @Test
    void anObjectThatIsNotTheOneRecordedForItsOffsetsIsNamed() throws Exception {
        Files.delete(object(5));
        Files.delete(object(6));
        ObjectName merged = ObjectName.plain(5, 6, FORMAT); // two objects replaced by one under another name
        Files.write(root.resolve("m/0").resolve(merged.fileName()), new byte[] {1});
        ManifestTrail trail = ManifestTrail.read(listing);
        assertThatThrownBy(() -> trail.checkListing(listed())).isInstanceOf(ManifestException.class)
                .hasMessageContaining(object(5) + " is gone");
        assertThat(trail.recorded(merged)).isEmpty();
    }

    @Test
    void aManifestAlteredBreaksTheHashChainNamingIt() throws Exception {
        Path first = manifest(0, 9);
        String json = Files.readString(first);
        Files.writeString(first, json.replace(ManifestCodec.sha256(bytes(3)), ManifestCodec.sha256(bytes(4))));
        assertThatThrownBy(() -> ManifestTrail.read(listing)).isInstanceOf(ManifestException.class)
                .hasMessageContaining(first + " was changed after it was written: its SHA-256 is ")
                .hasMessageContaining(manifest(10, 19) + ", the manifest after it, recorded ");
        Files.delete(first);
        assertThatThrownBy(() -> ManifestTrail.read(listing)).isInstanceOf(ManifestException.class)
                .hasMessageContaining(manifest(10, 19) + " records " + new ManifestName(0, 9).fileName() + " as the manifest before"
                        + " it, and " + first + " is gone");
    }

    @Test
    void aHeadRemovedOnPurposeIsLeftToTheChainStartCheck() throws Exception {
        for (long o = 0; o < 4; o++) {
            Files.delete(object(o));
        }
        ChainStart.record(listing.store(), 0, 4); // removed on purpose: prune records the start before it deletes
        ManifestTrail.read(listing).checkListing(listed());
        Files.delete(object(7));
        assertThatThrownBy(() -> ManifestTrail.read(listing).checkListing(listing.chain(FORMAT, OptionalLong.empty())))
                .as("the listing sees the gap first").hasMessageContaining("gap in the chain");
    }
}
