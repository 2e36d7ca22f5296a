package dev.mirrorv3.chain.store;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
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

    @Test
    void readingAMissingObjectNamesIt() {
        FilesystemStore store = new FilesystemStore(root, "m");
        assertThatThrownBy(() -> store.read(0, "x")).isInstanceOf(ObjectMissingException.class)
                .hasMessageContaining(root.resolve("m/0/x").toString());
    }
}
