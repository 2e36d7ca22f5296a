package dev.mirrorv3.chain.store.s3;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpMethod;

/**
 * The headers of every PutObject as it leaves the client ({@link ExecutionInterceptor#beforeTransmission}, after
 * signing): one entry per call (the SDK's invocation id), its last attempt's headers, in the order of the calls.
 */
final class RecordedPuts implements ExecutionInterceptor {
    /** The three kinds of create, in {@link #createOfEachKind}'s order. */
    static final String CHAIN_OBJECT = "00000000000000000000-00000000000000000009.parquet";
    static final String META_DIR = "_meta/topic";
    static final String META_OBJECT = "00000001796090280333.json";
    static final String SNAPSHOT = "00000000000000000000-00000000000000000099.parquet";

    private final Map<String, Map<String, List<String>>> puts = Collections.synchronizedMap(new LinkedHashMap<>());

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        if (context.httpRequest().method() == SdkHttpMethod.PUT && !context.httpRequest().rawQueryParameters().containsKey("retention")) {
            Map<String, List<String>> headers = context.httpRequest().headers();
            puts.put(String.valueOf(headers.get("amz-sdk-invocation-id")), headers);
        }
    }

    List<Map<String, List<String>>> sent() {
        synchronized (puts) {
            return List.copyOf(puts.values());
        }
    }

    /**
     * A chain object in partition 0, a topic snapshot beside the partitions and a snapshot of partition 1 streamed from a
     * file in {@code dir}; returns their bytes.
     */
    static List<byte[]> createOfEachKind(S3Store store, Path dir) throws IOException {
        byte[] chainObject = "a chain object".getBytes(StandardCharsets.UTF_8);
        byte[] meta = "{\"format_version\":1}".getBytes(StandardCharsets.UTF_8);
        Path snapshot = Files.write(dir.resolve("snapshot.parquet"), new byte[300_000]);
        store.create(0, CHAIN_OBJECT, chainObject);
        store.createBeside(META_DIR, META_OBJECT, meta);
        store.createFrom(1, SNAPSHOT, snapshot, false);
        return List.of(chainObject, meta, Files.readAllBytes(snapshot));
    }

    /** The base64 of the big-endian CRC32, as {@code x-amz-checksum-crc32} carries it. */
    static String crc32(byte[] data) {
        CRC32 crc = new CRC32();
        crc.update(data);
        long v = crc.getValue();
        return Base64.getEncoder().encodeToString(new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v});
    }
}
