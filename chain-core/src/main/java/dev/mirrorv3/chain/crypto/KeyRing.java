package dev.mirrorv3.chain.crypto;

import dev.mirrorv3.chain.ObjectName;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The keys of a keys dir (docs/blob-sink.md, Encryption at rest): one file per key, file name = key id ({@code [a-z0-9][a-z0-9-]{0,31}}),
 * content = standard base64 of 32 random bytes, surrounding whitespace trimmed; entries whose name starts with a dot are skipped
 * (a Kubernetes Secret volume's {@code ..data} links). Anything else is an error naming the file, never its content.
 * Keys are handed out as copies, and {@link #toString()} shows ids only.
 */
public final class KeyRing {
    public static final int KEY_BYTES = 32;

    private final String source;
    private final Map<String, byte[]> keys;

    private KeyRing(String source, Map<String, byte[]> keys) {
        this.source = source;
        this.keys = Collections.unmodifiableMap(new TreeMap<>(keys));
    }

    /** No keys: reads plain objects only. {@code source} says why, for the message of a chain that needs keys. */
    public static KeyRing empty(String source) {
        return new KeyRing(source, Map.of());
    }

    public static KeyRing empty() {
        return empty("no keys dir (encryption.keys.dir) is configured");
    }

    /** Keys given directly (tests, benchmarks). */
    public static KeyRing of(String source, Map<String, byte[]> keys) {
        Map<String, byte[]> copy = new TreeMap<>();
        keys.forEach((id, key) -> {
            if (!ObjectName.isValidKeyId(id)) {
                throw new KeysDirException("invalid key id '" + id + "' in " + source + ": use [a-z0-9][a-z0-9-]{0,31}");
            }
            if (key.length != KEY_BYTES) {
                throw new KeysDirException("key " + id + " in " + source + " is " + key.length + " bytes, not " + KEY_BYTES);
            }
            copy.put(id, key.clone());
        });
        return new KeyRing(source, copy);
    }

    /**
     * Loads every key file of a directory.
     *
     * @throws KeysDirException naming the directory or the file that is wrong
     */
    public static KeyRing load(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new KeysDirException("keys dir " + dir + " does not exist or is not a directory");
        }
        List<Path> entries;
        try (Stream<Path> s = Files.list(dir)) {
            entries = s.sorted().toList();
        } catch (IOException e) {
            throw new KeysDirException("keys dir " + dir + " cannot be listed: " + e.getClass().getSimpleName());
        }
        Map<String, byte[]> keys = new TreeMap<>();
        for (Path file : entries) {
            String name = file.getFileName().toString();
            if (name.startsWith(".")) {
                continue;
            }
            if (!ObjectName.isValidKeyId(name)) {
                throw new KeysDirException(file + " is not a key file: a key file's name is its key id, [a-z0-9][a-z0-9-]{0,31}"
                        + " (lower-case letters, digits, '-', at most 32 characters); the keys dir holds key files only");
            }
            if (!Files.isRegularFile(file)) {
                throw new KeysDirException(file + " is not a regular file: the keys dir holds one file per key");
            }
            keys.put(name, readKey(file));
        }
        return new KeyRing("keys dir " + dir, keys);
    }

    private static byte[] readKey(Path file) {
        String text;
        try {
            text = new String(Files.readAllBytes(file), StandardCharsets.US_ASCII).strip();
        } catch (IOException e) {
            throw new KeysDirException(file + " cannot be read: " + e.getClass().getSimpleName());
        }
        byte[] key;
        try {
            key = Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw new KeysDirException(file + " is not standard base64 (of " + KEY_BYTES + " random bytes, e.g. from"
                    + " 'openssl rand -base64 32')");
        }
        if (key.length != KEY_BYTES) {
            throw new KeysDirException(file + " holds " + key.length + " bytes, and a key is " + KEY_BYTES
                    + " (AES-256): write the base64 of 32 random bytes, e.g. 'openssl rand -base64 32'");
        }
        boolean allZero = true;
        for (byte b : key) {
            allZero &= b == 0;
        }
        if (allZero) {
            throw new KeysDirException(file + " holds 32 zero bytes, which is not a key (parquet-mr refuses it): write the"
                    + " base64 of 32 random bytes, e.g. 'openssl rand -base64 32'");
        }
        return key;
    }

    /** Where the keys come from, for messages ("keys dir /etc/mirror-v3/keys"). */
    public String source() {
        return source;
    }

    public Set<String> ids() {
        return keys.keySet();
    }

    public boolean has(String keyId) {
        return keys.containsKey(keyId);
    }

    /** A copy of the key (parquet-mr may keep or clear the array it is given). */
    public Optional<byte[]> key(String keyId) {
        byte[] k = keys.get(keyId);
        return k == null ? Optional.empty() : Optional.of(k.clone());
    }

    /** The key ids these objects name that this ring lacks, sorted. */
    public Set<String> missing(Collection<ObjectName> objects) {
        Set<String> missing = new TreeSet<>();
        for (ObjectName o : objects) {
            if (o.encrypted() && !keys.containsKey(o.keyId())) {
                missing.add(o.keyId());
            }
        }
        return missing;
    }

    /**
     * @throws MissingKeysException listing every key id the objects name and this ring lacks
     */
    public void requireKeysFor(String location, Collection<ObjectName> objects) {
        Set<String> missing = missing(objects);
        if (missing.isEmpty()) {
            return;
        }
        List<String> examples = new ArrayList<>();
        for (String id : missing) {
            objects.stream().filter(o -> id.equals(o.keyId())).findFirst().ifPresent(o -> examples.add(o.fileName()));
        }
        throw new MissingKeysException(location, missing, examples, source);
    }

    @Override
    public String toString() {
        return "KeyRing[" + source + ", ids " + keys.keySet() + "]";
    }
}
