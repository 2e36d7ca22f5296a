package dev.mirrorv3.chain.read;

import dev.mirrorv3.chain.Chain;
import dev.mirrorv3.chain.ObjectName;
import dev.mirrorv3.chain.crypto.KeyRing;
import dev.mirrorv3.chain.crypto.ObjectEncryption;
import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.EnvelopeCodec;
import dev.mirrorv3.chain.envelope.EnvelopeCodecs;
import dev.mirrorv3.chain.envelope.EnvelopeDecodeException;
import dev.mirrorv3.chain.envelope.EnvelopeSettings;
import dev.mirrorv3.chain.envelope.ObjectAuthenticationException;
import dev.mirrorv3.chain.manifest.ChainHead;
import dev.mirrorv3.chain.manifest.ChainListing;
import dev.mirrorv3.chain.manifest.ChainStart.BeforeTheRule;
import dev.mirrorv3.chain.manifest.Manifest;
import dev.mirrorv3.chain.store.Store;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.OptionalLong;

/**
 * Lists and validates a partition's chain and reads objects back, checking each against its name:
 * records strictly increasing inside {@code <from>-<to>}, the last at {@code to}, right topic and partition.
 * Shared by the blob sink (tail verification), the restore CLI and the chain source connector. Encrypted objects
 * ({@code .k-<keyid>}) are read with the key their name carries; a chain may mix plain and encrypted objects and
 * several key ids, and listing fails if the key ring lacks any of them. Every listing goes through {@link ChainListing}.
 */
public final class ChainReader {
    private final Store store;
    private final EnvelopeSettings settings;
    private final EnvelopeCodec codec;
    private final KeyRing keys;

    /** A reader of plain chains: listing a chain with encrypted objects fails, naming their key ids. */
    public ChainReader(Store store, EnvelopeSettings settings) {
        this(store, settings, KeyRing.empty());
    }

    public ChainReader(Store store, EnvelopeSettings settings, KeyRing keys) {
        this.store = store;
        this.settings = settings;
        this.keys = keys;
        this.codec = EnvelopeCodecs.forSettings(settings, ObjectEncryption.readOnly(keys));
    }

    /**
     * Lists and validates the chain, and requires a key for every key id its objects name.
     *
     * @throws dev.mirrorv3.chain.crypto.MissingKeysException listing the key ids the key ring lacks
     */
    public Chain listChain(int partition, OptionalLong requiredStart) {
        return listChain(partition, requiredStart, BeforeTheRule.REFUSE);
    }

    /** As {@link #listChain(int, OptionalLong)}, doing what {@code beforeTheRule} says with a chain from before the rule. */
    public Chain listChain(int partition, OptionalLong requiredStart, BeforeTheRule beforeTheRule) {
        Chain chain = listNames(partition, requiredStart, beforeTheRule);
        keys.requireKeysFor(chain.location(), chain.objects());
        return chain;
    }

    /** Lists and validates the chain's names without requiring keys (decrypt requires the keys of the objects it reads). */
    public Chain listNames(int partition, OptionalLong requiredStart, BeforeTheRule beforeTheRule) {
        return listing(partition).chain(settings.format(), requiredStart, beforeTheRule);
    }

    /**
     * The chain's end from its newest manifest on ({@link ChainListing#head}), as the blob sink's open reads it (a chain from
     * before the start rule has its start recorded: {@link BeforeTheRule#RECORD}), requiring a key for every key id the chain
     * uses (the newest manifest lists those of the objects it and the manifests before it cover).
     *
     * @throws dev.mirrorv3.chain.crypto.MissingKeysException listing the key ids the key ring lacks
     */
    public ChainHead head(int partition) {
        return head(partition, BeforeTheRule.RECORD);
    }

    /** As {@link #head(int)}, doing what {@code beforeTheRule} says with a chain from before the rule (the sink's open: RECORD). */
    public ChainHead head(int partition, BeforeTheRule beforeTheRule) {
        ChainHead head = listing(partition).head(settings.format(), beforeTheRule);
        keys.requireKeysFor(head.location(), head.keyedObjects());
        return head;
    }

    /**
     * As {@link #head}, for the writer about to continue: the temporary files an earlier writer left are removed in the
     * same listing ({@link ChainListing#writersHead}).
     */
    public ChainHead writersHead(int partition) {
        ChainHead head = listing(partition).writersHead(settings.format());
        keys.requireKeysFor(head.location(), head.keyedObjects());
        return head;
    }

    /** The seam that lists the partition's objects and manifests. */
    public ChainListing listing(int partition) {
        return new ChainListing(store, partition, Manifest.Kind.CHAIN);
    }

    public KeyRing keys() {
        return keys;
    }

    /**
     * Reads one object and checks it.
     *
     * @param topic the source topic the chain must hold
     */
    public CheckedObject read(int partition, ObjectName name, String topic) {
        byte[] bytes = store.read(partition, name.fileName());
        String where = store.location(partition) + "/" + name;
        List<BackupRecord> records;
        try {
            records = codec.decode(bytes, name.keyId(), where);
        } catch (ObjectAuthenticationException e) {
            throw new ObjectCheckException(where + ": authentication failed: wrong key or modified object (key id " + name.keyId()
                    + " from " + keys.source() + "); if the key file " + name.keyId() + " holds the key that wrote it, the object"
                    + " was modified: restore it from a copy");
        } catch (EnvelopeDecodeException e) {
            throw new ObjectCheckException(where + " cannot be read (" + e.getMessage()
                    + "): truncated or not written by this product; move it out of the chain or restore it from a copy");
        }
        check(where, name, records, topic, partition);
        return new CheckedObject(name, records, sha256(bytes), bytes.length);
    }

    static void check(String where, ObjectName name, List<BackupRecord> records, String topic, int partition) {
        if (records.isEmpty()) {
            throw new ObjectCheckException(where + " holds no records; an object always holds its last offset " + name.to());
        }
        long previous = name.from() - 1;
        for (BackupRecord r : records) {
            if (!r.topic().equals(topic) || r.partition() != partition) {
                throw new ObjectCheckException(where + ": record at offset " + r.offset() + " is from " + r.topic() + "/"
                        + r.partition() + ", and this backup is of " + topic + "/" + partition);
            }
            if (r.offset() <= previous) {
                throw new ObjectCheckException(where + ": record offsets are not strictly increasing inside " + name.from()
                        + "-" + name.to() + " (offset " + r.offset() + " after " + previous + "); if this backup was written with"
                        + " compaction=log, its objects are snapshots sorted by key: read it as such (compaction=log in the config)");
            }
            previous = r.offset();
        }
        long last = records.get(records.size() - 1).offset();
        if (last != name.to()) {
            throw new ObjectCheckException(where + ": its last record has offset " + last + ", and its name says " + name.to());
        }
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }
}
