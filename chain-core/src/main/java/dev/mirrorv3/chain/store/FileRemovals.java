package dev.mirrorv3.chain.store;

import dev.mirrorv3.chain.TemporaryFiles;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What {@link FilesystemStore} removes from a chain's directories: the temporary files of a writer killed before its
 * commit, and the objects {@code mirror-v3 prune} deletes.
 */
final class FileRemovals {
    private FileRemovals() {
    }

    /** Removes a committed object; its removal is durable once the directory is fsynced. A file already gone is no error. */
    static void delete(Path dir, String name, FilesystemStore.DirectorySync directorySync) {
        Path file = dir.resolve(name);
        try {
            if (Files.deleteIfExists(file)) {
                directorySync.fsync(dir);
            }
        } catch (IOException e) {
            throw FilesystemStore.transientFailure("delete " + file, e);
        }
    }

    /** Removes the temporary files in {@code dir}; returns how many. */
    static int temporaryFiles(Path dir) {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        int removed = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                if (TemporaryFiles.isTemporary(p.getFileName().toString()) && Files.deleteIfExists(p)) {
                    removed++;
                }
            }
        } catch (IOException e) {
            throw FilesystemStore.transientFailure("clean temporary files in " + dir, e);
        }
        return removed;
    }
}
