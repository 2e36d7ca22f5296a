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
 * chain objects are. Restore needs the newest (with a cut, the newest at or before it), which may be old (a snapshot is
 * written on change): never remove them by age; {@code mirror-v3 prune} removes only those older than the one a restore
 * at its cut takes ({@code MetaPruner}; docs/operations.md, "Retention").
 */
public final class MetaSnapshots {
    public static final String TOPIC_DIR = "_meta/topic";
    public static final String GROUPS_DIR = "_meta/groups";

    /** A snapshot read back, with where it was read from (restore says which one it used). */
    public record Stored<T>(String location, MetaName name, T snapshot) {
    }

    /**
     * The group snapshot a restore of this backup takes ({@link #groupsOfBackup}).
     *
     * @param backupTopicId the id of the topic the backup holds (its newest topic snapshot's), empty when it recorded none
     * @param chosen the newest snapshot of that topic the rule accepts, if any
     * @param skipped the snapshots newer than the chosen one that the rule accepts but that are of another topic id
     *     (the topic was deleted and created again), newest first
     */
    public record GroupChoice(String backupTopicId, Optional<Stored<GroupSnapshot>> chosen, List<Stored<GroupSnapshot>> skipped) {
        public GroupChoice {
            skipped = List.copyOf(skipped);
        }
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
     * The newest group snapshot whose time and content the rule accepts and whose offsets belong to the topic this
     * backup holds: the topic id of the newest topic snapshot, which the blob sink records before it writes and never
     * replaces while the backup holds records (docs/design.md, rules 4 and 6). A snapshot of another topic id is passed
     * over (its positions are another topic's of the same name); one that records no id (written before ids were
     * recorded), or any when the backup recorded no id, is taken as the backup's.
     */
    public GroupChoice groupsOfBackup(LongPredicate time, Predicate<GroupSnapshot> accept) {
        String backupId = newestTopic().map(t -> t.snapshot().topicId()).orElse("");
        List<Stored<GroupSnapshot>> skipped = new java.util.ArrayList<>();
        List<MetaName> names = names(GROUPS_DIR);
        for (int i = names.size() - 1; i >= 0; i--) {
            MetaName name = names.get(i);
            if (time.test(name.timeMs())) {
                String where = store.besideLocation(GROUPS_DIR) + "/" + name.fileName();
                GroupSnapshot s = MetaCodec.decodeGroups(plain(GROUPS_DIR, name, where), where);
                if (!accept.test(s)) {
                    continue;
                }
                Stored<GroupSnapshot> stored = new Stored<>(where, name, s);
                if (backupId.isEmpty() || s.topicId().isEmpty() || s.topicId().equals(backupId)) {
                    return new GroupChoice(backupId, Optional.of(stored), skipped);
                }
                skipped.add(stored);
            }
        }
        return new GroupChoice(backupId, Optional.empty(), skipped);
    }

    /**
     * The newest topic snapshot, read again only when the newest name differs from {@code known}'s: a writer's look at
     * the store every pass costs a listing.
     *
     * @param known what the caller read last time, or null
     */
    public Optional<Stored<TopicSnapshot>> newestTopic(Stored<TopicSnapshot> known) {
        return newestUnlessKnown(TOPIC_DIR, known, MetaCodec::decodeTopic);
    }

    /** As {@link #newestTopic(Stored)}, for consumer-group snapshots. */
    public Optional<Stored<GroupSnapshot>> newestGroups(Stored<GroupSnapshot> known) {
        return newestUnlessKnown(GROUPS_DIR, known, MetaCodec::decodeGroups);
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

    private <T> Optional<Stored<T>> newestUnlessKnown(String dir, Stored<T> known, BiFunction<byte[], String, T> decode) {
        List<MetaName> names = names(dir);
        if (known != null && !names.isEmpty() && names.get(names.size() - 1).equals(known.name())) {
            return Optional.of(known);
        }
        return newest(names, dir, t -> true, decode);
    }

    private <T> Optional<Stored<T>> newest(String dir, LongPredicate time, BiFunction<byte[], String, T> decode) {
        return newest(names(dir), dir, time, decode);
    }

    private <T> Optional<Stored<T>> newest(List<MetaName> names, String dir, LongPredicate time, BiFunction<byte[], String, T> decode) {
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
