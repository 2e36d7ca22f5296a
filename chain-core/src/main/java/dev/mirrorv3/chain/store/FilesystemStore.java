package dev.mirrorv3.chain.store;

import dev.mirrorv3.chain.TemporaryFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Chains in a local or mounted filesystem: {@code <root>/<name>/<partition>/<object>}.
 * A commit writes a temporary file in the same directory, fsyncs it, hard-links it to the final name
 * ({@code link(2)} fails atomically if the name exists, unlike a check-then-rename), deletes the temporary
 * file and fsyncs the directory, so a committed object survives a crash and is never overwritten. A re-issued
 * commit that meets exactly its own bytes at the name (the link landed, then the delete or the fsync failed)
 * makes them durable and succeeds.
 */
public final class FilesystemStore implements Store {
    /** Makes a directory's entries durable; a seam so that tests can see (or fail) each directory fsync. */
    @FunctionalInterface
    interface DirectorySync {
        void fsync(Path dir) throws IOException;
    }

    private final Path chainRoot;
    private final DirectorySync directorySync;

    /** @param root the {@code filesystem.root} setting; @param name the destination name */
    public FilesystemStore(Path root, String name) {
        this(root, name, FilesystemStore::fsyncDirectory);
    }

    FilesystemStore(Path root, String name, DirectorySync directorySync) {
        this.chainRoot = root.resolve(name);
        this.directorySync = directorySync;
    }

    public Path partitionDir(int partition) {
        return chainRoot.resolve(Integer.toString(partition));
    }

    @Override
    public String location(int partition) {
        return partitionDir(partition).toString();
    }

    @Override
    public List<String> list(int partition) {
        return listDirectory(partitionDir(partition));
    }

    private List<String> listDirectory(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path p : entries) {
                String n = p.getFileName().toString();
                if (!TemporaryFiles.isTemporary(n)) {
                    names.add(n);
                }
            }
        } catch (IOException e) {
            throw transientFailure("list " + dir, e);
        }
        Collections.sort(names);
        return names;
    }

    @Override
    public List<String> listFrom(int partition, String startAt, int max) {
        // A directory has no index: this reads the entries' names (no stat per entry) and keeps the tail.
        List<String> all = list(partition);
        int i = Collections.binarySearch(all, startAt);
        int start = i >= 0 ? i : -i - 1;
        return List.copyOf(all.subList(start, Math.min(all.size(), start + max)));
    }

    @Override
    public boolean exists(int partition, String name) {
        return Files.exists(partitionDir(partition).resolve(name));
    }

    @Override
    public byte[] read(int partition, String name) {
        return readFile(partitionDir(partition).resolve(name));
    }

    private static byte[] readFile(Path file) {
        return reading(file, Files::readAllBytes);
    }

    @Override
    public long size(int partition, String name) {
        return reading(partitionDir(partition).resolve(name), Files::size);
    }

    @Override
    public byte[] readRange(int partition, String name, long offset, int length) {
        return reading(partitionDir(partition).resolve(name), file -> {
            try (FileChannel ch = FileChannel.open(file)) {
                ByteBuffer buf = ByteBuffer.allocate((int) Math.max(0, Math.min(length, ch.size() - offset)));
                while (buf.hasRemaining() && ch.read(buf, offset + buf.position()) >= 0) {
                    // positional reads until the range is full
                }
                return buf.array();
            }
        });
    }

    @Override
    public void readTo(int partition, String name, Path target) {
        reading(partitionDir(partition).resolve(name), file -> Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING));
    }

    private interface FileRead<T> {
        T from(Path file) throws IOException;
    }

    /** Every read of a committed object: a missing file is {@link ObjectMissingException}, other failures transient. */
    private static <T> T reading(Path file, FileRead<T> read) {
        try {
            return read.from(file);
        } catch (NoSuchFileException e) {
            throw new ObjectMissingException(file.toString());
        } catch (IOException e) {
            throw transientFailure("read " + file, e);
        }
    }

    @Override
    public void create(int partition, String name, byte[] data) {
        commitBytes(partitionDir(partition), name, data, false);
    }

    @Override
    public void recommit(int partition, String name, byte[] data) {
        commitBytes(partitionDir(partition), name, data, true);
    }

    /** A directory beside the partition directories, e.g. {@code <root>/<name>/_meta/topic}. */
    public Path besideDir(String dir) {
        return chainRoot.resolve(Store.requireBesideDir(dir));
    }

    @Override
    public String besideLocation(String dir) {
        return besideDir(dir).toString();
    }

    @Override
    public List<String> listBeside(String dir) {
        return listDirectory(besideDir(dir));
    }

    @Override
    public byte[] readBeside(String dir, String name) {
        return readFile(besideDir(dir).resolve(name));
    }

    @Override
    public void createBeside(String dir, String name, byte[] data) {
        commitBytes(besideDir(dir), name, data, false);
    }

    /** Streams the file into the temporary file: a snapshot never passes through the heap whole. */
    @Override
    public void createFrom(int partition, String name, Path file, boolean reissue) {
        commit(partitionDir(partition), name, ch -> {
            try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
                long size = in.size();
                for (long done = 0; done < size;) {
                    done += in.transferTo(done, size - done, ch);
                }
            }
        }, target -> Files.mismatch(target, file) == -1, reissue);
    }

    private interface Content {
        void writeTo(FileChannel ch) throws IOException;
    }

    private interface SameContent {
        boolean at(Path target) throws IOException;
    }

    private void commitBytes(Path dir, String name, byte[] data, boolean reissued) {
        commit(dir, name, ch -> writeAll(ch, data), target -> Arrays.equals(Files.readAllBytes(target), data), reissued);
    }

    private static void writeAll(FileChannel ch, byte[] data) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(data);
        while (buf.hasRemaining()) {
            ch.write(buf);
        }
    }

    private void commit(Path dir, String name, Content content, SameContent same, boolean reissued) {
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
            throw transientFailure("write " + target, e);
        } finally {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException ignored) {
                // Left for removeTemporaryFiles at the next open; listing ignores it.
            }
        }
    }

    /** Removes the file and makes its removal durable ({@link FileRemovals#delete}). */
    @Override
    public void delete(int partition, String name) {
        FileRemovals.delete(partitionDir(partition), name, directorySync);
    }

    @Override
    public void deleteBeside(String dir, String name) {
        FileRemovals.delete(besideDir(dir), name, directorySync);
    }

    @Override
    public int removeTemporaryFiles(int partition) {
        return FileRemovals.temporaryFiles(partitionDir(partition));
    }

    @Override
    public int removeTemporaryFilesBeside(String dir) {
        return FileRemovals.temporaryFiles(besideDir(dir));
    }

    @Override
    public List<Integer> partitions() {
        if (!Files.isDirectory(chainRoot)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(chainRoot)) {
            return entries.filter(Files::isDirectory)
                    .map(p -> p.getFileName().toString())
                    .filter(n -> n.matches("\\d{1,9}"))
                    .map(Integer::valueOf)
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw transientFailure("list " + chainRoot, e);
        } catch (UncheckedIOException e) {
            throw transientFailure("list " + chainRoot, e.getCause());
        }
    }

    @Override
    public void close() {
        // nothing to release
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

    private static void fsyncDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        }
    }

    static TransientStoreException transientFailure(String what, IOException e) {
        return new TransientStoreException("cannot " + what + ": " + e, e);
    }
}
