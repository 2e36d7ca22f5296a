package dev.mirrorv3.chain.store;

import dev.mirrorv3.chain.TemporaryFiles;
import dev.mirrorv3.chain.store.StoreRequests.Operation;
import dev.mirrorv3.chain.store.StoreRequests.Outcome;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * One read of a {@link FilesystemStore} directory, counted as one LIST. A directory has no index, so a "list from a name"
 * reads every entry's name (no stat per entry) whatever it keeps: only the names kept are sorted, and a writer's open
 * removes the temporary files it meets in the same read instead of reading the directory twice.
 */
final class DirectoryScan {
    private DirectoryScan() {
    }

    /**
     * At most {@code max} names at or after {@code startAt}, sorted, our temporary files left out (and removed when
     * {@code removeTemporary}, each removal a DELETE), with the directory's first name (it was read anyway).
     */
    static OpeningListing read(Path dir, String startAt, int max, boolean removeTemporary, StoreRequests requests) {
        if (!Files.isDirectory(dir)) {
            requests.record(Operation.LIST, Outcome.OK);
            return new OpeningListing(List.of(), 0);
        }
        List<String> names = new ArrayList<>();
        String first = null;
        int removed = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                String n = p.getFileName().toString();
                if (!TemporaryFiles.isTemporary(n)) {
                    first = first == null || n.compareTo(first) < 0 ? n : first;
                    if (max > 0 && n.compareTo(startAt) >= 0) {
                        names.add(n);
                    }
                } else if (removeTemporary && Files.deleteIfExists(p)) {
                    requests.record(Operation.DELETE, Outcome.OK);
                    removed++;
                }
            }
        } catch (IOException e) {
            requests.record(Operation.LIST, Outcome.FAILED);
            throw FilesystemStore.transientFailure("list " + dir, e);
        }
        requests.record(Operation.LIST, Outcome.OK);
        Collections.sort(names);
        return new OpeningListing(names.size() > max ? names.subList(0, max) : names, removed, Optional.ofNullable(first));
    }
}
