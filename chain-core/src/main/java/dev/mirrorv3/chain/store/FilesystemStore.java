package dev.mirrorv3.chain.store;

import dev.mirrorv3.chain.bytes.ObjectBytes;
import dev.mirrorv3.chain.store.StoreRequests.Operation;
import dev.mirrorv3.chain.store.StoreRequests.Outcome;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;

/**
 * Chains in a local or mounted filesystem: {@code <root>/<name>/<partition>/<object>}.
 * A commit writes a temporary file in the same directory, fsyncs it, hard-links it to the final name
 * ({@code link(2)} fails atomically if the name exists, unlike a check-then-rename), deletes the temporary
 * file and fsyncs the directory, so a committed object survives a crash and is never overwritten. A re-issued
 * commit that meets exactly its own bytes at the name (the link landed, then the delete or the fsync failed)
 * makes them durable and succeeds. Each operation counts in {@link #requests()} under S3's names: a directory read is a
 * LIST, a file read a GET, a stat a HEAD, a commit a PUT, a removal (an object, a temporary file) a DELETE.
 */
public final class FilesystemStore implements Store {
    /** Makes a directory's entries durable; a seam so that tests can see (or fail) each directory fsync. */
    @FunctionalInterface
    interface DirectorySync {
        void fsync(Path dir) throws IOException;
    }

    private final Path chainRoot;
    private final DirectorySync directorySync;
    private final LinkedCommit commits;
    private final StoreRequests requests;

    /** @param root the {@code filesystem.root} setting; @param name the destination name */
    public FilesystemStore(Path root, String name) {
        this(root, name, new StoreRequests());
    }

    /** @param requests where every operation is counted */
    public FilesystemStore(Path root, String name, StoreRequests requests) {
        this(root, name, LinkedCommit::fsyncDirectory, requests);
    }

    FilesystemStore(Path root, String name, DirectorySync directorySync) {
        this(root, name, directorySync, new StoreRequests());
    }

    private FilesystemStore(Path root, String name, DirectorySync directorySync, StoreRequests requests) {
        this.chainRoot = root.resolve(name);
        this.directorySync = directorySync;
        this.commits = new LinkedCommit(directorySync);
        this.requests = requests;
    }

    @Override
    public StoreRequests requests() {
        return requests;
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
        return DirectoryScan.read(dir, "", Integer.MAX_VALUE, false, requests).names();
    }

    @Override
    public List<String> listFrom(int partition, String startAt, int max) {
        return DirectoryScan.read(partitionDir(partition), startAt, max, false, requests).names();
    }

    /** One directory read: the temporary files are removed as they are met. */
    @Override
    public OpeningListing removeTemporaryFilesAndListFrom(int partition, String startAt, int max) {
        return DirectoryScan.read(partitionDir(partition), startAt, max, true, requests);
    }

    @Override
    public boolean exists(int partition, String name) {
        boolean exists = Files.exists(partitionDir(partition).resolve(name));
        requests.record(Operation.HEAD, exists ? Outcome.OK : Outcome.REFUSED);
        return exists;
    }

    @Override
    public byte[] read(int partition, String name) {
        return readFile(partitionDir(partition).resolve(name));
    }

    private byte[] readFile(Path file) {
        return reading(Operation.GET, file, Files::readAllBytes);
    }

    @Override
    public long size(int partition, String name) {
        return reading(Operation.HEAD, partitionDir(partition).resolve(name), Files::size);
    }

    @Override
    public byte[] readRange(int partition, String name, long offset, int length) {
        return reading(Operation.GET, partitionDir(partition).resolve(name), file -> {
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
        reading(Operation.GET, partitionDir(partition).resolve(name),
                file -> Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING));
    }

    private interface FileRead<T> {
        T from(Path file) throws IOException;
    }

    /** Every read of a committed object: a missing file is {@link ObjectMissingException}, other failures transient. */
    private <T> T reading(Operation operation, Path file, FileRead<T> read) {
        try {
            T result = read.from(file);
            requests.record(operation, Outcome.OK);
            return result;
        } catch (NoSuchFileException e) {
            requests.record(operation, Outcome.REFUSED);
            throw new ObjectMissingException(file.toString());
        } catch (IOException e) {
            requests.record(operation, Outcome.FAILED);
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

    /** Writes the chunks as they are, and a re-issue compares them with the file as it is read: no joined copy. */
    @Override
    public void create(int partition, String name, ObjectBytes data) {
        commitChunks(partitionDir(partition), name, data, false);
    }

    @Override
    public void recommit(int partition, String name, ObjectBytes data) {
        commitChunks(partitionDir(partition), name, data, true);
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
    public List<String> listBesideFrom(String dir, String startAt, int max) {
        return DirectoryScan.read(besideDir(dir), startAt, max, false, requests).names();
    }

    @Override
    public byte[] readBeside(String dir, String name) {
        return readFile(besideDir(dir).resolve(name));
    }

    @Override
    public void createBeside(String dir, String name, byte[] data) {
        commitBytes(besideDir(dir), name, data, false);
    }

    @Override
    public void recommitBeside(String dir, String name, byte[] data) {
        commitBytes(besideDir(dir), name, data, true);
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

    private void commitBytes(Path dir, String name, byte[] data, boolean reissued) {
        commit(dir, name, ch -> LinkedCommit.writeAll(ch, data), target -> Arrays.equals(Files.readAllBytes(target), data), reissued);
    }

    private void commitChunks(Path dir, String name, ObjectBytes data, boolean reissued) {
        commit(dir, name, data::writeTo, target -> {
            try (InputStream in = Files.newInputStream(target)) {
                return Files.size(target) == data.size() && data.contentEquals(in);
            }
        }, reissued);
    }

    private void commit(Path dir, String name, LinkedCommit.Content content, LinkedCommit.SameContent same, boolean reissued) {
        Outcome outcome = Outcome.FAILED;
        try {
            commits.commit(dir, name, content, same, reissued);
            outcome = Outcome.OK;
        } catch (ObjectExistsException e) {
            outcome = Outcome.REFUSED;
            throw e;
        } finally {
            requests.record(Operation.PUT, outcome);
        }
    }

    /** Removes the file and makes its removal durable ({@link FileRemovals#delete}). */
    @Override
    public void delete(int partition, String name) {
        FileRemovals.delete(partitionDir(partition), name, directorySync, requests);
    }

    @Override
    public void deleteBeside(String dir, String name) {
        FileRemovals.delete(besideDir(dir), name, directorySync, requests);
    }

    @Override
    public int removeTemporaryFiles(int partition) {
        return FileRemovals.temporaryFiles(partitionDir(partition), requests);
    }

    @Override
    public int removeTemporaryFilesBeside(String dir) {
        return FileRemovals.temporaryFiles(besideDir(dir), requests);
    }

    @Override
    public List<Integer> partitions() {
        return listDirectory(chainRoot).stream()
                .filter(n -> n.matches("\\d{1,9}") && Files.isDirectory(chainRoot.resolve(n)))
                .map(Integer::valueOf)
                .sorted()
                .toList();
    }

    @Override
    public void close() {
        // nothing to release
    }

    static TransientStoreException transientFailure(String what, IOException e) {
        return new TransientStoreException("cannot " + what + ": " + e, e);
    }
}
