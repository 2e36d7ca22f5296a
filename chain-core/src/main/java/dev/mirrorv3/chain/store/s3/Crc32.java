package dev.mirrorv3.chain.store.s3;

import dev.mirrorv3.chain.bytes.ObjectBytes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.zip.CRC32;

/**
 * The CRC32 of an object's bytes as S3's {@code x-amz-checksum-crc32} header carries it (base64 of the 4 bytes, big
 * endian). The store sends it with every PutObject itself rather than relying on the SDK's default (which
 * {@code AWS_REQUEST_CHECKSUM_CALCULATION=when_required} turns off): S3 refuses a PutObject into a bucket with Object
 * Lock that carries neither Content-MD5 nor an {@code x-amz-checksum-*} header, and checks the value it is given.
 */
final class Crc32 {
    private Crc32() {
    }

    static String of(byte[] data) {
        CRC32 crc = new CRC32();
        crc.update(data);
        return encode(crc);
    }

    static String of(ObjectBytes data) {
        CRC32 crc = new CRC32();
        data.readUnchecked(crc::update);
        return encode(crc);
    }

    /** Streams the file (a snapshot may be far larger than the heap). */
    static String of(Path file) {
        CRC32 crc = new CRC32();
        byte[] buf = new byte[64 * 1024];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                crc.update(buf, 0, n);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the local file " + file + " to checksum it", e);
        }
        return encode(crc);
    }

    private static String encode(CRC32 crc) {
        return Base64.getEncoder().encodeToString(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
    }
}
