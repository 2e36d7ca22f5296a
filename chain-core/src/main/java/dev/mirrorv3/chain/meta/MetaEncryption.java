package dev.mirrorv3.chain.meta;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * AES-256-GCM for metadata snapshots, with the chain's keys: {@code MV3M}, a version byte, a 12-byte random nonce,
 * then the ciphertext and its 16-byte tag. The object's path under the backup ({@code _meta/groups/<name>}) is the
 * associated data, so a snapshot copied under another name or kind fails authentication instead of being read.
 */
final class MetaEncryption {
    private static final byte[] MAGIC = "MV3M".getBytes(StandardCharsets.US_ASCII);
    private static final byte VERSION = 1;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private MetaEncryption() {
    }

    static byte[] seal(byte[] key, String aad, byte[] plain) {
        byte[] nonce = new byte[NONCE_BYTES];
        RANDOM.nextBytes(nonce);
        try {
            Cipher c = cipher(Cipher.ENCRYPT_MODE, key, nonce, aad);
            byte[] sealed = c.doFinal(plain);
            return ByteBuffer.allocate(MAGIC.length + 1 + NONCE_BYTES + sealed.length)
                    .put(MAGIC).put(VERSION).put(nonce).put(sealed).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available in this JVM", e);
        } finally {
            Arrays.fill(key, (byte) 0);
        }
    }

    /** @param where the object, for messages */
    static byte[] open(byte[] key, String aad, byte[] data, String where) {
        int header = MAGIC.length + 1 + NONCE_BYTES;
        if (data.length < header + TAG_BITS / 8 || !Arrays.equals(MAGIC, 0, MAGIC.length, data, 0, MAGIC.length)) {
            throw new MetaFormatException(where + " is not an encrypted mirror-v3 snapshot (its name carries a key id)");
        }
        if (data[MAGIC.length] != VERSION) {
            throw new MetaFormatException(where + " has encryption version " + data[MAGIC.length] + ": use a newer mirror-v3");
        }
        byte[] nonce = Arrays.copyOfRange(data, MAGIC.length + 1, header);
        try {
            return cipher(Cipher.DECRYPT_MODE, key, nonce, aad).doFinal(data, header, data.length - header);
        } catch (javax.crypto.AEADBadTagException e) {
            throw new MetaFormatException(where + " fails authentication: the key file does not hold the key it was"
                    + " written with, or the object was changed or renamed", e);
        } catch (GeneralSecurityException e) {
            throw new MetaFormatException(where + " cannot be decrypted: " + e.getClass().getSimpleName(), e);
        } finally {
            Arrays.fill(key, (byte) 0);
        }
    }

    private static Cipher cipher(int mode, byte[] key, byte[] nonce, String aad) throws GeneralSecurityException {
        Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
        c.init(mode, new SecretKeySpec(key, "AES"), new GCMParameterSpec(TAG_BITS, nonce));
        c.updateAAD(aad.getBytes(StandardCharsets.UTF_8));
        return c;
    }
}
