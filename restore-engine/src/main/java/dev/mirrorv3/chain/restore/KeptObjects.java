package dev.mirrorv3.chain.restore;

import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.read.CheckedObject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The objects a verify pass keeps in memory for the produce pass that follows it ({@link BackupVerifier#keeping}), so that
 * the produce pass sends their records as verified instead of reading and decoding each object a second time. An object is
 * kept packed ({@link PackedRecords}: a few arrays, which the collector does not copy record by record). What may be kept
 * is one budget for the whole process (every restore in it, e.g. the topics of {@code --all-topics}): a quarter of the
 * heap by default, or {@value #BUDGET_PROPERTY} bytes; an object that does not fit is not kept, and is read again when
 * produced. An object leaves when the produce pass takes it, and whatever is left when this is closed. Thread-safe:
 * partitions are verified and produced in parallel.
 */
public final class KeptObjects implements AutoCloseable {
    /** A system property: the bytes all kept objects of the process may take (0: keep none). */
    public static final String BUDGET_PROPERTY = "mirrorv3.restore.keep.bytes";
    /** An estimate of a header's own objects on the heap beside its key (as UTF-16 chars) and value bytes. */
    static final long HEADER_OVERHEAD = 64;

    private static final AtomicLong RESERVED = new AtomicLong();
    private static final KeptObjects NONE = new KeptObjects(0);

    private final long limit;
    private final Map<Key, Kept> kept = new ConcurrentHashMap<>();

    private KeptObjects(long limit) {
        this.limit = limit;
    }

    private record Key(int partition, ObjectName name) {
    }

    private record Kept(CheckedObject object, long bytes) {
    }

    /** Keeps nothing: every object is read again when produced. */
    public static KeptObjects none() {
        return NONE;
    }

    /** Keeps objects while the process's budget ({@value #BUDGET_PROPERTY}, default a quarter of the heap) has room. */
    public static KeptObjects inProcessBudget() {
        return upTo(Long.getLong(BUDGET_PROPERTY, Runtime.getRuntime().maxMemory() / 4));
    }

    /** Keeps objects while all kept objects of the process take at most {@code bytes}. */
    static KeptObjects upTo(long bytes) {
        return new KeptObjects(bytes);
    }

    /** An object as read and, when it may be kept, the same object packed and the heap that takes; else null and 0. */
    record Sized(CheckedObject object, CheckedObject packed, long heapBytes) {
    }

    /**
     * The object with its packed form when this keeps objects and the budget has room now; on the reading thread, so that
     * packing is off the checking one.
     */
    Sized sized(CheckedObject o) {
        PackedRecords packed = limit > 0 && RESERVED.get() < limit ? PackedRecords.of(o.records()) : null;
        return packed == null ? new Sized(o, null, 0)
                : new Sized(o, new CheckedObject(o.name(), packed, o.sha256(), o.sizeBytes()), packed.heapBytes());
    }

    /** Keeps the object if the budget has room for it; returns whether it did. */
    boolean offer(int partition, Sized o) {
        if (o.packed() == null || !reserve(o.heapBytes())) {
            return false;
        }
        if (kept.putIfAbsent(new Key(partition, o.object().name()), new Kept(o.packed(), o.heapBytes())) != null) {
            RESERVED.addAndGet(-o.heapBytes());
            return false;
        }
        return true;
    }

    private boolean reserve(long bytes) {
        while (true) {
            long now = RESERVED.get();
            if (now + bytes > limit) {
                return false;
            }
            if (RESERVED.compareAndSet(now, now + bytes)) {
                return true;
            }
        }
    }

    /** The object kept for the partition, which leaves the budget; null when it was not kept. */
    CheckedObject take(int partition, ObjectName name) {
        Kept k = kept.remove(new Key(partition, name));
        if (k == null) {
            return null;
        }
        RESERVED.addAndGet(-k.bytes());
        return k.object();
    }

    /** The bytes all kept objects of the process take now (an estimate). */
    public static long reservedBytes() {
        return RESERVED.get();
    }

    /** Drops what is still kept and gives its room back to the process. */
    @Override
    public void close() {
        for (Key key : kept.keySet()) {
            take(key.partition(), key.name());
        }
    }
}
