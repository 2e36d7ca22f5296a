package dev.mirrorv3.chain.store;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FilesystemStoreTest {
    @TempDir
    Path root;

    @Test
    void createsAtomicallyAndNeverOverwrites() throws Exception {
        FilesystemStore store = new FilesystemStore(root, "m");
        store.create(0, "a", "one".getBytes(UTF_8));
        assertThat(store.read(0, "a")).isEqualTo("one".getBytes(UTF_8));
        assertThatThrownBy(() -> store.create(0, "a", "two".getBytes(UTF_8)))
                .isInstanceOf(ObjectExistsException.class)
                .hasMessageContaining("another writer created " + root.resolve("m/0/a"));
        assertThat(store.read(0, "a")).isEqualTo("one".getBytes(UTF_8));
        try (var files = Files.list(root.resolve("m/0"))) {
            assertThat(files).hasSize(1); // no temporary file left behind
        }
    }

    @Test
    void listsSortedWithoutTemporaryFilesAndCleansThem() throws Exception {
        FilesystemStore store = new FilesystemStore(root, "m");
        store.create(3, "b", new byte[0]);
        store.create(3, "a", new byte[0]);
        Files.write(root.resolve("m/3/c.tmp.123"), new byte[1]);
        assertThat(store.list(3)).containsExactly("a", "b");
        assertThat(store.listFrom(3, "a0", 5)).containsExactly("b");
        assertThat(store.listFrom(3, "a", 1)).containsExactly("a");
        assertThat(store.removeTemporaryFiles(3)).isEqualTo(1);
        assertThat(store.partitions()).containsExactly(3);
        assertThat(store.list(7)).isEmpty();
    }

    /** A writer's open: the temporary files removed and the names from a name on, in one directory read (one LIST). */
    @Test
    void aWritersOpenRemovesTemporaryFilesAndListsInOneDirectoryRead() throws Exception {
        StoreRequests requests = new StoreRequests();
        FilesystemStore store = new FilesystemStore(root, "m", requests);
        for (String n : List.of("c", "a", "d", "b")) {
            store.create(2, n, new byte[0]);
        }
        Files.write(root.resolve("m/2").resolve(dev.mirrorv3.chain.TemporaryFiles.temporaryNameFor("e")), new byte[1]);
        long lists = requests.count(StoreRequests.Operation.LIST);

        OpeningListing opened = store.removeTemporaryFilesAndListFrom(2, "b", 2);

        assertThat(opened.names()).containsExactly("b", "c");
        assertThat(opened.temporaryFilesRemoved()).isEqualTo(1);
        assertThat(requests.count(StoreRequests.Operation.LIST) - lists).isEqualTo(1);
        assertThat(requests.count(StoreRequests.Operation.DELETE)).isEqualTo(1);
        try (var files = Files.list(root.resolve("m/2"))) {
            assertThat(files.map(f -> f.getFileName().toString())).containsExactlyInAnyOrder("a", "b", "c", "d");
        }
        assertThat(store.removeTemporaryFilesAndListFrom(9, "", Integer.MAX_VALUE)).isEqualTo(new OpeningListing(List.of(), 0));
    }

    @Test
    void readingAMissingObjectNamesIt() {
        FilesystemStore store = new FilesystemStore(root, "m");
        assertThatThrownBy(() -> store.read(0, "x")).isInstanceOf(ObjectMissingException.class)
                .hasMessageContaining(root.resolve("m/0/x").toString());
    }

    @Test
    void everyCreatedDirectoryAndItsParentAreFsynced() {
        List<Path> fsynced = new ArrayList<>();
        Path base = root.resolve("backups"); // filesystem.root itself does not exist yet either
        FilesystemStore store = new FilesystemStore(base, "m", fsynced::add);
        store.create(4, "a", new byte[] {1});
        // A crash must not lose backups/, backups/m/ or backups/m/4/ once "a" is reported durable.
        assertThat(fsynced).contains(root, base, base.resolve("m"), base.resolve("m/4"));

        fsynced.clear();
        store.create(5, "a", new byte[] {1});
        assertThat(fsynced).as("only the new partition directory and its parent").containsExactlyInAnyOrder(
                base.resolve("m"), base.resolve("m/5"), base.resolve("m/5"));
    }

    @Test
    void aCommitReissuedAfterItsLinkLandedCompletesIt() {
        // The link lands, then the directory fsync fails: the commit is reported failed although the name is taken.
        AtomicBoolean failOnce = new AtomicBoolean(true);
        List<Path> fsynced = new ArrayList<>();
        FilesystemStore store = new FilesystemStore(root, "m", dir -> {
            if (Files.exists(dir.resolve("a")) && failOnce.getAndSet(false)) {
                throw new IOException("EIO on fsync");
            }
            fsynced.add(dir);
        });
        assertThatThrownBy(() -> store.create(0, "a", "one".getBytes(UTF_8))).isInstanceOf(TransientStoreException.class);
        assertThat(store.list(0)).containsExactly("a");

        fsynced.clear();
        store.recommit(0, "a", "one".getBytes(UTF_8)); // the same bytes: our own commit, made durable now
        assertThat(fsynced).as("the directory is fsynced by the retry").contains(root.resolve("m/0"));
        assertThat(store.read(0, "a")).isEqualTo("one".getBytes(UTF_8));
        assertThatThrownBy(() -> store.recommit(0, "a", "two".getBytes(UTF_8))).isInstanceOf(ObjectExistsException.class);
        assertThatThrownBy(() -> store.create(0, "a", "one".getBytes(UTF_8))).as("a first attempt never meets its own object")
                .isInstanceOf(ObjectExistsException.class);
        assertThat(store.list(0)).containsExactly("a");
    }

    /** prune's delete: the file goes and its removal is made durable; a second delete of it is no error. */
    @Test
    void aDeleteRemovesTheObjectDurablyAndIsIdempotent() {
        List<Path> fsynced = new ArrayList<>();
        FilesystemStore store = new FilesystemStore(root, "m", fsynced::add);
        store.create(0, "a", "one".getBytes(UTF_8));
        store.create(0, "b", "two".getBytes(UTF_8));
        store.createBeside("_meta/topic", "t1.json", "{}".getBytes(UTF_8));
        fsynced.clear();

        store.delete(0, "a");
        store.deleteBeside("_meta/topic", "t1.json");
        assertThat(store.list(0)).containsExactly("b");
        assertThat(store.listBeside("_meta/topic")).isEmpty();
        assertThat(fsynced).as("each removal made durable").containsExactly(root.resolve("m/0"), root.resolve("m/_meta/topic"));

        fsynced.clear();
        store.delete(0, "a"); // a second run after an interrupted one
        store.delete(7, "never-there");
        assertThat(fsynced).as("nothing removed, nothing to make durable").isEmpty();
        assertThatThrownBy(() -> store.deleteBeside("../escape", "x")).isInstanceOf(IllegalArgumentException.class);
    }

    /** The store request metric counts removals as S3's DELETE: an object (prune's) and a temporary file alike. */
    @Test
    void everyRemovalCountsAsADelete() throws IOException {
        StoreRequests requests = new StoreRequests();
        FilesystemStore store = new FilesystemStore(root, "m", requests);
        store.create(0, "a", "one".getBytes(UTF_8));
        store.createBeside("_meta/topic", "t1.json", "{}".getBytes(UTF_8));
        Files.writeString(root.resolve("m/0").resolve(dev.mirrorv3.chain.TemporaryFiles.temporaryNameFor("b")), "half");

        store.delete(0, "a");
        store.deleteBeside("_meta/topic", "t1.json");
        store.delete(0, "a"); // gone already: as S3's DeleteObject of a missing key, done
        assertThat(store.removeTemporaryFiles(0)).isEqualTo(1);

        assertThat(requests.count(StoreRequests.Operation.DELETE, StoreRequests.Outcome.OK)).isEqualTo(4);
        assertThat(requests.count(StoreRequests.Operation.DELETE)).isEqualTo(4);
        assertThat(requests.count(StoreRequests.Operation.PUT, StoreRequests.Outcome.OK)).isEqualTo(2);
    }
}
