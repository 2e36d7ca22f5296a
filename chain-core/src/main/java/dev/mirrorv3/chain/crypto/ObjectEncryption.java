package dev.mirrorv3.chain.crypto;

import dev.mirrorv3.chain.ObjectName;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * How a chain's objects are encrypted: the keys to read objects with (each with the key id its name carries), and the
 * key id new objects are written with ({@code null}: new objects are plain). Built from the blob sink's settings
 * {@code encryption}, {@code encryption.keys.dir} and {@code encryption.key.id}; shared by the sink, the restore
 * command line and decrypt.
 */
public record ObjectEncryption(KeyRing keys, String writeKeyId) {
    public static final String ENCRYPTION = "encryption";
    public static final String KEYS_DIR = "encryption.keys.dir";
    public static final String KEY_ID = "encryption.key.id";
    public static final String NONE = "none";
    public static final String PARQUET = "parquet";

    public ObjectEncryption {
        Objects.requireNonNull(keys, "keys");
        if (writeKeyId != null && !keys.has(writeKeyId)) {
            throw new KeysDirException("the key id " + writeKeyId + " (" + KEY_ID + ") has no key file in " + keys.source()
                    + ": add the file " + writeKeyId + " holding the base64 of 32 random bytes, or name a key id that has one");
        }
    }

    /** Plain objects only. */
    public static ObjectEncryption none() {
        return new ObjectEncryption(KeyRing.empty(), null);
    }

    /** Writes plain objects, reads encrypted ones with these keys. */
    public static ObjectEncryption readOnly(KeyRing keys) {
        return new ObjectEncryption(keys, null);
    }

    public boolean encryptsNewObjects() {
        return writeKeyId != null;
    }

    /** For a start-up log line: how new objects are written, and which keys read older ones. */
    public String describe() {
        if (encryptsNewObjects()) {
            return "parquet with key id " + writeKeyId + " (keys " + keys.ids() + ")";
        }
        return "none" + (keys.ids().isEmpty() ? "" : " (keys " + keys.ids() + " to read older objects)");
    }

    /** A copy of the key new objects are written with. */
    public byte[] writeKey() {
        return keys.key(writeKeyId).orElseThrow();
    }

    /**
     * From a blob connector's settings (config providers resolved): {@code encryption=parquet} needs a keys dir and a
     * key id that has a file there; with {@code none} (or unset) a keys dir is still loaded, to read the objects an
     * earlier configuration encrypted.
     *
     * @throws KeysDirException naming the setting or the file that is wrong
     */
    public static ObjectEncryption fromSettings(Map<String, String> settings) {
        String mode = settings.getOrDefault(ENCRYPTION, "").trim();
        String dir = settings.getOrDefault(KEYS_DIR, "").trim();
        String keyId = settings.getOrDefault(KEY_ID, "").trim();
        KeyRing keys = dir.isEmpty() ? KeyRing.empty() : KeyRing.load(Path.of(dir));
        if (PARQUET.equalsIgnoreCase(mode)) {
            if (dir.isEmpty()) {
                throw new KeysDirException(ENCRYPTION + "=parquet needs " + KEYS_DIR + ", the directory of key files");
            }
            if (!ObjectName.isValidKeyId(keyId)) {
                throw new KeysDirException(ENCRYPTION + "=parquet needs " + KEY_ID + ", the id ([a-z0-9][a-z0-9-]{0,31}) of the"
                        + " key new objects are written with" + (keyId.isEmpty() ? "" : " (found '" + keyId + "')"));
            }
            if (!keys.has(keyId)) {
                throw new KeysDirException(Path.of(dir).resolve(keyId) + " does not exist: " + KEY_ID + "=" + keyId
                        + " names the key new objects are written with; add its file (the base64 of 32 random bytes) to the"
                        + " keys dir, or name a key id that has one");
            }
            return new ObjectEncryption(keys, keyId);
        }
        if (!mode.isEmpty() && !NONE.equalsIgnoreCase(mode)) {
            throw new KeysDirException("unknown " + ENCRYPTION + " '" + mode + "': use none or parquet");
        }
        return readOnly(keys);
    }
}
