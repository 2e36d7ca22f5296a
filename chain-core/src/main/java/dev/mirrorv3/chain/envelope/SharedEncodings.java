package dev.mirrorv3.chain.envelope;

import dev.mirrorv3.chain.bytes.ObjectBytes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.function.UnaryOperator;

/**
 * Objects encoded once for the destinations of a tee (docs/blob-sink.md, "Several destinations") that would encode the
 * same bytes: each record reaches every destination as the same instance, so when destinations with equal
 * {@link EnvelopeSettings} and no encryption cut an object of the same records, the first to encode it leaves its bytes
 * for the others, which take them instead of encoding again. Encoding is deterministic for such destinations (no key,
 * no nonce, no time in the object); an encrypted object never is shared (AES-GCM draws a nonce for each).
 *
 * <p>A destination that asks for an object another is encoding now waits for that encoding rather than encoding the
 * same bytes beside it (both cut at once when neither trails). Bytes wait for the destinations that have not reached
 * them yet (none waits for one that already asked for an object of the partition starting at or after them), oldest
 * dropped first once more than {@code maxWaitingBytes} wait, or once such a destination asks for an object of the same
 * partition that starts after them (it cut elsewhere: it never takes them). A destination that finds nothing encodes
 * itself, as it would alone.
 * Thread-safe: the destinations' flush threads encode concurrently.
 */
public final class SharedEncodings implements AutoCloseable {
    /** One object's bytes, being encoded or waiting for the destinations (by lane) that have not taken them. */
    private static final class Waiting {
        final EnvelopeSettings settings;
        final BackupRecord first;
        final BackupRecord last;
        final int records;
        /** The destinations it is for that have not taken it. */
        final Set<Integer> lanes;
        /** Their bytes, once encoded. */
        final Map<Integer, ObjectBytes> views = new HashMap<>();
        final CountDownLatch encoded = new CountDownLatch(1);
        long size;

        Waiting(EnvelopeSettings settings, List<BackupRecord> records, List<Integer> lanes) {
            this.settings = settings;
            this.first = records.get(0);
            this.last = records.get(records.size() - 1);
            this.records = records.size();
            this.lanes = new HashSet<>(lanes);
        }

        boolean holds(EnvelopeSettings s, List<BackupRecord> r) {
            return settings.equals(s) && records == r.size() && first == r.get(0) && last == r.get(r.size() - 1);
        }

        /** It starts before {@code r} on the same partition and was cut elsewhere than it. */
        boolean passedBy(List<BackupRecord> r) {
            BackupRecord next = r.get(0);
            return first.partition() == next.partition() && first.topic().equals(next.topic()) && first.offset() < next.offset();
        }

        boolean ready() {
            return encoded.getCount() == 0;
        }

        /** {@code lane} will not take it; its bytes, if any, are released. */
        void drop(int lane) {
            lanes.remove(lane);
            ObjectBytes view = views.remove(lane);
            if (view != null) {
                view.release();
            }
        }

        void dropAll() {
            views.values().forEach(ObjectBytes::release);
            views.clear();
            lanes.clear();
            encoded.countDown();
        }
    }

    private final List<EnvelopeSettings> lanes = new ArrayList<>();
    /** Per destination (by lane): per partition, the first offset of the latest object it asked for. */
    private final List<Map<String, Long>> reached = new ArrayList<>();
    private final long maxWaitingBytes;
    /** In the order their encoding started: the oldest is dropped first. */
    private final LinkedHashMap<Long, Waiting> waiting = new LinkedHashMap<>();
    private long nextId;
    private long waitingBytes;
    private long taken;
    private boolean closed;

    /** @param maxWaitingBytes the most encoded bytes kept for destinations that have not taken them */
    public SharedEncodings(long maxWaitingBytes) {
        this.maxWaitingBytes = maxWaitingBytes;
    }

    /**
     * A destination that writes plain objects with {@code settings} joins, before any of them encodes; what it returns
     * gives the codec the destination encodes with: one that takes what another destination with the same settings
     * encoded from the same records, and leaves what it encodes for them (the codec itself if it encrypts).
     */
    public synchronized UnaryOperator<EnvelopeCodec> join(EnvelopeSettings settings) {
        int lane = lanes.size();
        lanes.add(settings);
        reached.add(new HashMap<>());
        return codec -> codec.writeKeyId() != null ? codec : sharing(lane, settings, codec);
    }

    private EnvelopeCodec sharing(int lane, EnvelopeSettings settings, EnvelopeCodec codec) {
        return new EnvelopeCodec() {
            @Override
            public EnvelopeFormat format() {
                return codec.format();
            }

            @Override
            public byte[] encode(List<BackupRecord> records) {
                return codec.encode(records);
            }

            @Override
            public ObjectBytes encodeObject(List<BackupRecord> records) {
                return records.isEmpty() ? codec.encodeObject(records) : SharedEncodings.this.encode(lane, settings, codec, records);
            }

            @Override
            public List<BackupRecord> decode(byte[] data, String objectDescription) {
                return codec.decode(data, objectDescription);
            }

            @Override
            public List<BackupRecord> decode(byte[] data, String keyId, String objectDescription) {
                return codec.decode(data, keyId, objectDescription);
            }

            @Override
            public String writeKeyId() {
                return codec.writeKeyId();
            }
        };
    }

    private ObjectBytes encode(int lane, EnvelopeSettings settings, EnvelopeCodec codec, List<BackupRecord> records) {
        Waiting found;
        Waiting mine = null;
        synchronized (this) {
            found = find(lane, settings, records);
            if (found != null && found.ready()) {
                return take(lane, found);
            }
            if (found == null) {
                mine = start(lane, settings, records);
            }
        }
        if (found != null) { // another destination encodes these records now
            try {
                found.encoded.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // for whoever stops the thread; this encoding goes on as alone
            }
            synchronized (this) {
                if (found.views.containsKey(lane)) {
                    return take(lane, found);
                }
            }
            return codec.encodeObject(records); // its encoding failed, or its bytes were dropped: as alone
        }
        ObjectBytes bytes;
        try {
            bytes = codec.encodeObject(records);
        } catch (RuntimeException | Error e) {
            if (mine != null) {
                synchronized (this) {
                    remove(mine); // the others encode for themselves (and meet the same failure there)
                }
            }
            throw e;
        }
        return mine == null ? bytes : leave(mine, bytes);
    }

    /** What {@code lane} may take or wait for; drops what waits for it that it passed. Records how far it reached. */
    private Waiting find(int lane, EnvelopeSettings settings, List<BackupRecord> records) {
        reached.get(lane).merge(partitionOf(records.get(0)), records.get(0).offset(), Math::max);
        Waiting match = null;
        for (Iterator<Waiting> it = waiting.values().iterator(); it.hasNext();) {
            Waiting w = it.next();
            if (!w.lanes.contains(lane)) {
                continue;
            }
            if (match == null && w.holds(settings, records)) {
                match = w;
            } else if (w.passedBy(records)) {
                w.drop(lane);
                if (w.lanes.isEmpty() && w.ready()) {
                    waitingBytes -= w.size;
                    it.remove();
                }
            }
        }
        return match;
    }

    private ObjectBytes take(int lane, Waiting w) {
        ObjectBytes view = w.views.remove(lane);
        w.lanes.remove(lane);
        if (w.lanes.isEmpty()) {
            remove(w);
        }
        taken++;
        return view;
    }

    /** An encoding of {@code records} by {@code lane} that the others with its settings may wait for, or null if none will. */
    private Waiting start(int lane, EnvelopeSettings settings, List<BackupRecord> records) {
        List<Integer> others = new ArrayList<>();
        String partition = partitionOf(records.get(0));
        for (int i = 0; i < lanes.size(); i++) {
            if (i != lane && settings.equals(lanes.get(i)) && reached.get(i).getOrDefault(partition, -1L) < records.get(0).offset()) {
                others.add(i); // not past these records yet
            }
        }
        if (closed || others.isEmpty()) {
            return null;
        }
        Waiting w = new Waiting(settings, records, others);
        waiting.put(nextId++, w);
        return w;
    }

    /** Leaves the bytes {@code w}'s encoder made for the destinations still to take them; returns the encoder's. */
    private synchronized ObjectBytes leave(Waiting w, ObjectBytes bytes) {
        if (w.lanes.isEmpty() || bytes.size() > maxWaitingBytes || !waiting.containsValue(w)) {
            remove(w);
            return bytes;
        }
        List<ObjectBytes> views = bytes.shareAmong(w.lanes.size() + 1);
        int i = 1;
        for (int lane : w.lanes) {
            w.views.put(lane, views.get(i++));
        }
        w.size = bytes.size();
        waitingBytes += w.size;
        w.encoded.countDown();
        for (Iterator<Waiting> it = waiting.values().iterator(); waitingBytes > maxWaitingBytes && it.hasNext();) {
            Waiting oldest = it.next();
            if (oldest.ready()) {
                waitingBytes -= oldest.size;
                oldest.dropAll();
                it.remove();
            }
        }
        return views.get(0);
    }

    private void remove(Waiting w) {
        if (waiting.values().remove(w)) {
            waitingBytes -= w.size;
        }
        w.dropAll();
    }

    private static String partitionOf(BackupRecord r) {
        return r.partition() + "/" + r.topic();
    }

    /** Objects a destination took instead of encoding them, since the start. */
    public synchronized long taken() {
        return taken;
    }

    /** Encoded bytes waiting now, for tests. */
    synchronized long waitingBytes() {
        return waitingBytes;
    }

    /** Drops every waiting object; later encodings keep nothing. */
    @Override
    public synchronized void close() {
        closed = true;
        waiting.values().forEach(Waiting::dropAll);
        waiting.clear();
        waitingBytes = 0;
    }
}
