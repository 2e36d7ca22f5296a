package dev.mirrorv3.chain.store;

import dev.mirrorv3.chain.TemporaryFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;

/**
 * {@link FilesystemStore}'s no-overwrite commit: a temporary file in the target's directory, fsynced, hard-linked to the
 * name ({@code link(2)} fails atomically if the name exists), the temporary file deleted and the directory fsynced, every
 * directory level it had to create made durable too.
 */
final class LinkedCommit {
    /** Writes the object's bytes into the temporary file. */
    interface Content {
        void writeTo(FileChannel ch) throws IOException;
    }

    /** Whether the name already holds exactly the object's bytes (a re-issued commit that had landed). */
    interface SameContent {
        boolean at(Path target) throws IOException;
    }

    private final FilesystemStore.DirectorySync directorySync;

    LinkedCommit(FilesystemStore.DirectorySync directorySync) {
        this.directorySync = directorySync;
    }

    void commit(Path dir, String name, Content content, SameContent same, boolean reissued) {
        Path target = dir.resolve(name);
        Path temp = dir.resolve(TemporaryFiles.temporaryNameFor(name));
        try {
            ensureDirectory(dir);
            try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                content.writeTo(ch);
                ch.force(true);
            }
            try {
                Files.createLink(target, temp);
            } catch (FileAlreadyExistsException e) {
                // A re-issue: ours if the failed attempt linked it before failing (temp delete, fsync).
                if (!reissued || !same.at(target)) {
                    throw new ObjectExistsException(target.toString());
                }
            }
            Files.delete(temp);
            directorySync.fsync(dir);
        } catch (IOException e) {
            throw FilesystemStore.transientFailure("write " + target, e);
        } finally {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException ignored) {
                // Left for removeTemporaryFiles at the next open; listing ignores it.
            }
        }
    }

    static void writeAll(FileChannel ch, byte[] data) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(data);
        while (buf.hasRemaining()) {
            ch.write(buf);
        }
    }

    /**
     * Creates the missing levels of {@code dir}, then fsyncs each of them and the parent of the topmost, deepest
     * first: a new directory's entry is durable only once its parent is fsynced, at every level.
     */
    private void ensureDirectory(Path dir) throws IOException {
        Deque<Path> missing = new ArrayDeque<>(); // topmost first
        for (Path p = dir.toAbsolutePath(); p != null && !Files.isDirectory(p); p = p.getParent()) {
            missing.push(p);
        }
        if (missing.isEmpty()) {
            return;
        }
        for (Path p : missing) {
            try {
                Files.createDirectory(p);
            } catch (FileAlreadyExistsException e) {
                if (!Files.isDirectory(p)) {
                    throw e;
                }
                // created meanwhile by another task of this destination: fsynced below all the same
            }
        }
        for (Iterator<Path> deepestFirst = missing.descendingIterator(); deepestFirst.hasNext(); ) {
            directorySync.fsync(deepestFirst.next());
        }
        Path parent = missing.getFirst().getParent();
        if (parent != null) {
            directorySync.fsync(parent);
        }
    }

    static void fsyncDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }
}
