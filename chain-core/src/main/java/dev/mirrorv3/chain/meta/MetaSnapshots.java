package dev.mirrorv3.chain.meta;

import dev.mirrorv3.chain.crypto.MissingKeysException;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.store.Store;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.LongPredicate;
import java.util.function.Predicate;

/**
 * A backup's metadata snapshots beside its partition directories: {@code _meta/topic/} (the topic's partitions,
 * replication factor, id and non-default configs) and {@code _meta/groups/} (consumer-group committed offsets).
 * Objects are named by their time ({@link MetaName}), committed with the chain objects' no-overwrite commit (a killed
 * writer leaves at most a temporary file, which listing ignores), and encrypted with the chain's key ring when new
 * chain objects are. Old snapshots may be removed (a bucket lifecycle rule): restore needs the newest only.
 */
public final class MetaSnapshots {
    public static final String TOPIC_DIR = "_meta/topic";
    public static final String GROUPS_DIR = "_meta/groups";

    /** A snapshot read back, with where it was read from (restore says which one it used). */
    public record Stored<T>(String location, MetaName name, T snapshot) {
    }

    private final Store store;
    private final ObjectEncryption encryption;

    public MetaSnapshots(Store store, ObjectEncryption encryption) {
        this.store = Objects.requireNonNull(store, "store");
        this.encryption = Objects.requireNonNull(encryption, "encryption");
    }

    /**
     * Commits a topic snapshot named by its time.
     *
     * @throws dev.mirrorv3.chain.store.ObjectExistsException if a snapshot of that very millisecond exists
     */
    public MetaName writeTopic(TopicSnapshot s) {
        return write(TOPIC_DIR, s.timeMs(), MetaCodec.encode(s));
    }

    /** As {@link #writeTopic}, for consumer-group offsets. */
    public MetaName writeGroups(GroupSnapshot s) {
        return write(GROUPS_DIR, s.timeMs(), MetaCodec.encode(s));
    }

    public List<MetaName> topicNames() {
        return names(TOPIC_DIR);
    }

    public List<MetaName> groupNames() {
        return names(GROUPS_DIR);
    }

    public Optional<Stored<TopicSnapshot>> newestTopic() {
        return newest(TOPIC_DIR, t -> true, MetaCodec::decodeTopic);
    }

    /** The newest topic snapshot taken at or before {@code timeMs} (a point-in-time restore's cut). */
    public Optional<Stored<TopicSnapshot>> newestTopicAtOrBefore(long timeMs) {
        return newest(TOPIC_DIR, t -> t <= timeMs, MetaCodec::decodeTopic);
    }

    public Optional<Stored<GroupSnapshot>> newestGroups() {
        return newest(GROUPS_DIR, t -> true, MetaCodec::decodeGroups);
    }

    public Optional<Stored<GroupSnapshot>> newestGroupsAtOrBefore(long timeMs) {
        return newest(GROUPS_DIR, t -> t <= timeMs, MetaCodec::decodeGroups);
    }

    /**
     * The newest group snapshot whose time and content the rule accepts (a point-in-time restore's cut): names are
     * filtered by time first, then snapshots are read newest first until one is accepted.
     */
    public Optional<Stored<GroupSnapshot>> newestGroups(LongPredicate time, Predicate<GroupSnapshot> accept) {
        List<MetaName> names = names(GROUPS_DIR);
        for (int i = names.size() - 1; i >= 0; i--) {
            MetaName name = names.get(i);
            if (time.test(name.timeMs())) {
                String where = store.besideLocation(GROUPS_DIR) + "/" + name.fileName();
                GroupSnapshot s = MetaCodec.decodeGroups(plain(GROUPS_DIR, name, where), where);
                if (accept.test(s)) {
                    return Optional.of(new Stored<>(where, name, s));
                }
            }
        }
        return Optional.empty();
    }

    /**
     * Removes the temporary files a writer killed before its commit left in both snapshot directories (the snapshot
     * writer does so when it starts; every reader ignores them anyway); returns how many.
     */
    public int removeTemporaryFiles() {
        return store.removeTemporaryFilesBeside(TOPIC_DIR) + store.removeTemporaryFilesBeside(GROUPS_DIR);
    }

    /** Where the snapshots of a kind live ({@link #TOPIC_DIR} or {@link #GROUPS_DIR}), for messages. */
    public String location(String dir) {
        return store.besideLocation(dir);
    }

    private MetaName write(String dir, long timeMs, byte[] json) {
        MetaName name = new MetaName(timeMs, encryption.writeKeyId());
        byte[] data = name.encrypted() ? MetaEncryption.seal(encryption.writeKey(), aad(dir, name), json) : json;
        store.createBeside(dir, name.fileName(), data);
        return name;
    }

    private List<MetaName> names(String dir) {
        return store.listBeside(dir).stream().map(MetaName::parse).flatMap(Optional::stream).sorted().toList();
    }

    private <T> Optional<Stored<T>> newest(String dir, LongPredicate time, BiFunction<byte[], String, T> decode) {
        List<MetaName> names = names(dir);
        for (int i = names.size() - 1; i >= 0; i--) {
            MetaName name = names.get(i);
            if (time.test(name.timeMs())) {
                String where = store.besideLocation(dir) + "/" + name.fileName();
                return Optional.of(new Stored<>(where, name, decode.apply(plain(dir, name, where), where)));
            }
        }
        return Optional.empty();
    }

    private byte[] plain(String dir, MetaName name, String where) {
        byte[] data = store.readBeside(dir, name.fileName());
        if (!name.encrypted()) {
            return data;
        }
        byte[] key = encryption.keys().key(name.keyId())
                .orElseThrow(() -> MissingKeysException.ofObject(where, name.keyId(), encryption.keys().source()));
        return MetaEncryption.open(key, aad(dir, name), data, where);
    }

    private static String aad(String dir, MetaName name) {
        return dir + "/" + name.fileName();
    }
}
