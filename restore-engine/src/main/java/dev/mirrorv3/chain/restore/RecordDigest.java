package dev.mirrorv3.chain.restore;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.RecordHeader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256 over records in order: per record its key, value, headers (key and value each) and timestamp, every field
 * length-prefixed (-1 for null) so no two different record sequences feed the same bytes. It covers what a restore writes,
 * not where: two restores of the same backup and cut have the same digest in either offset mode, and so has the verify
 * pass that chose the cut. Not thread-safe: one per partition.
 */
public final class RecordDigest {
    /** Bytes gathered before they are fed to the digest: one update per buffer, not one per field (same digest). */
    private static final int BUFFER = 8192;

    private final MessageDigest sha;
    private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER);

    public RecordDigest() {
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }

    public void add(BackupRecord r) {
        bytes(r.key());
        bytes(r.value());
        longValue(r.headers().size());
        for (RecordHeader h : r.headers()) {
            bytes(h.key().getBytes(StandardCharsets.UTF_8));
            bytes(h.value());
        }
        longValue(r.timestampMs() == null ? -1 : r.timestampMs());
    }

    /** The digest as lower-case hex; the digest cannot be fed afterwards. */
    public String hex() {
        drain();
        return HexFormat.of().formatHex(sha.digest());
    }

    private void bytes(byte[] b) {
        if (b == null) {
            longValue(-1);
            return;
        }
        longValue(b.length);
        if (b.length > buffer.remaining()) {
            drain();
            if (b.length > buffer.capacity()) {
                sha.update(b);
                return;
            }
        }
        buffer.put(b);
    }

    private void longValue(long v) {
        if (buffer.remaining() < Long.BYTES) {
            drain();
        }
        buffer.putLong(v);
    }

    private void drain() {
        sha.update(buffer.array(), 0, buffer.position());
        buffer.clear();
    }
}
