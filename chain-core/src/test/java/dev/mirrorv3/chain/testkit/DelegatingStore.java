package dev.mirrorv3.chain.testkit;

import dev.mirrorv3.chain.store.Store;
import dev.mirrorv3.chain.store.StoreRequests;
import java.nio.file.Path;
import java.util.List;

/**
 * A store that passes every call to another: the base of the tests' stores that fail, hold or watch some of them (in
 * chain-core's tests and, through its test jar, the connectors' and the restore engine's). Deletes and Object Lock
 * retention keep {@link Store}'s defaults, and so do the commits of chunked bytes (a chain's objects): they go through
 * this store's {@link #create} and {@link #recommit} of a byte array, so that a subclass failing or counting those sees
 * every object; a subclass that wants the chunks overrides them.
 */
public class DelegatingStore implements Store {
    private final Store d;
    private final boolean bulkThroughBytes;

    /** Passes every call on, the whole-object ones ({@link #readTo}, {@link #size}, ...) too. */
    public DelegatingStore(Store d) {
        this(d, false);
    }

    /**
     * With {@code bulkThroughBytes}, {@link #readTo}, {@link #size}, {@link #readRange}, {@link #createFrom},
     * {@link #recommit} and {@link #recommitBeside} go through this store's {@link #read}, {@link #create} and
     * {@link #createBeside} as {@link Store}'s defaults do, so that a subclass failing or counting those sees them too.
     */
    protected DelegatingStore(Store d, boolean bulkThroughBytes) {
        this.d = d;
        this.bulkThroughBytes = bulkThroughBytes;
    }

    private void bulk(Runnable throughBytes, Runnable forwarded) {
        (bulkThroughBytes ? throughBytes : forwarded).run();
    }

    /** The store this one passes calls to. */
    protected final Store delegate() {
        return d;
    }

    @Override
    public StoreRequests requests() {
        return d.requests();
    }

    @Override
    public String location(int partition) {
        return d.location(partition);
    }

    @Override
    public String besideLocation(String dir) {
        return d.besideLocation(dir);
    }

    @Override
    public List<String> listBeside(String dir) {
        return d.listBeside(dir);
    }

    @Override
    public List<String> listBesideFrom(String dir, String startAt, int max) {
        return d.listBesideFrom(dir, startAt, max);
    }

    @Override
    public byte[] readBeside(String dir, String name) {
        return d.readBeside(dir, name);
    }

    @Override
    public void createBeside(String dir, String name, byte[] data) {
        d.createBeside(dir, name, data);
    }

    @Override
    public void recommitBeside(String dir, String name, byte[] data) {
        bulk(() -> Store.super.recommitBeside(dir, name, data), () -> d.recommitBeside(dir, name, data));
    }

    @Override
    public List<String> list(int partition) {
        return d.list(partition);
    }

    @Override
    public List<String> listFrom(int partition, String startAt, int max) {
        return d.listFrom(partition, startAt, max);
    }

    @Override
    public boolean exists(int partition, String name) {
        return d.exists(partition, name);
    }

    @Override
    public byte[] read(int partition, String name) {
        return d.read(partition, name);
    }

    @Override
    public void create(int partition, String name, byte[] data) {
        d.create(partition, name, data);
    }

    @Override
    public void recommit(int partition, String name, byte[] data) {
        bulk(() -> Store.super.recommit(partition, name, data), () -> d.recommit(partition, name, data));
    }

    @Override
    public long size(int partition, String name) {
        return bulkThroughBytes ? Store.super.size(partition, name) : d.size(partition, name);
    }

    @Override
    public byte[] readRange(int partition, String name, long offset, int length) {
        return bulkThroughBytes ? Store.super.readRange(partition, name, offset, length) : d.readRange(partition, name, offset, length);
    }

    @Override
    public void readTo(int partition, String name, Path target) {
        bulk(() -> Store.super.readTo(partition, name, target), () -> d.readTo(partition, name, target));
    }

    @Override
    public void createFrom(int partition, String name, Path file, boolean reissue) {
        bulk(() -> Store.super.createFrom(partition, name, file, reissue), () -> d.createFrom(partition, name, file, reissue));
    }

    @Override
    public int removeTemporaryFilesBeside(String dir) {
        return d.removeTemporaryFilesBeside(dir);
    }

    @Override
    public int removeTemporaryFiles(int partition) {
        return d.removeTemporaryFiles(partition);
    }

    @Override
    public List<Integer> partitions() {
        return d.partitions();
    }

    @Override
    public void close() {
        d.close();
    }
}
