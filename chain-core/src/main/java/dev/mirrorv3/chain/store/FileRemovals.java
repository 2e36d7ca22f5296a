package dev.mirrorv3.chain.store;

import dev.mirrorv3.chain.store.StoreRequests.Operation;
import dev.mirrorv3.chain.store.StoreRequests.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What {@link FilesystemStore} removes from a chain's directories: the temporary files of a writer killed before its
 * commit, and the objects {@code mirror-v3 prune} deletes. Each removal counts as a DELETE in the store's requests, the
 * directory read that finds temporary files as a LIST.
 */
final class FileRemovals {
    private FileRemovals() {
    }

    /**
     * Removes a committed object; its removal is durable once the directory is fsynced. A file already gone is no error
     * (as S3's DeleteObject of a missing key, it counts as a DELETE that succeeded).
     */
    static void delete(Path dir, String name, FilesystemStore.DirectorySync directorySync, StoreRequests requests) {
        Path file = dir.resolve(name);
        try {
            if (Files.deleteIfExists(file)) {
                directorySync.fsync(dir);
            }
        } catch (IOException e) {
            requests.record(Operation.DELETE, Outcome.FAILED);
            throw FilesystemStore.transientFailure("delete " + file, e);
        }
        requests.record(Operation.DELETE, Outcome.OK);
    }

    /** Removes the temporary files in {@code dir}; returns how many (one directory read, keeping no name). */
    static int temporaryFiles(Path dir, StoreRequests requests) {
        return DirectoryScan.read(dir, "", 0, true, requests).temporaryFilesRemoved();
    }
}
