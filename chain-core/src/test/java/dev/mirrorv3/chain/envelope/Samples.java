package dev.mirrorv3.chain.envelope;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Records for codec tests: the edge cases every codec must keep, and bulk data for throughput. */
final class Samples {
    private Samples() {
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Null/empty keys and values, header edge cases, all timestamp types, extreme offsets; all valid JSON. */
    static List<BackupRecord> edgeCases() {
        List<BackupRecord> r = new ArrayList<>();
        r.add(new BackupRecord("orders", 3, 0, 1_700_000_000_000L, TimestampType.CREATE_TIME,
                utf8("\"k0\""), utf8("{\"a\":1}"), List.of()));
        r.add(new BackupRecord("orders", 3, 1, 1_700_000_000_001L, TimestampType.LOG_APPEND_TIME,
                null, utf8("[1,2,3]"), List.of(new RecordHeader("h", utf8("1")))));
        r.add(new BackupRecord("orders", 3, 2, null, TimestampType.NOT_AVAILABLE,
                utf8("\"k2\""), null, List.of(new RecordHeader("nul", null), new RecordHeader("dup", utf8("a")),
                        new RecordHeader("dup", new byte[] {0, (byte) 0xFF, 10}), new RecordHeader("empty", new byte[0]))));
        r.add(new BackupRecord("orders", 3, 7, -5L, TimestampType.CREATE_TIME,
                null, null, List.of()));
        r.add(new BackupRecord("orders", 3, 8, 0L, TimestampType.CREATE_TIME,
                utf8("\"ünïcødé ✓ \\u0000 \\n\""), utf8("\"line\\nbreak \\\"quoted\\\" 🎉\""), List.of(new RecordHeader("ünï", utf8("x")))));
        r.add(new BackupRecord("orders", 3, Long.MAX_VALUE - 1, Long.MIN_VALUE, TimestampType.CREATE_TIME,
                utf8("0"), utf8("null"), List.of()));
        r.add(new BackupRecord("orders", 3, Long.MAX_VALUE, Long.MAX_VALUE, TimestampType.LOG_APPEND_TIME,
                utf8("true"), utf8("-1.5e300"), List.of()));
        return r;
    }

    /** Like {@link #edgeCases()} plus an empty value, which is valid bytes and utf8 but not JSON. */
    static List<BackupRecord> edgeCasesFor(ValueType keys, ValueType values) {
        List<BackupRecord> r = new ArrayList<>(edgeCases());
        if (values != ValueType.JSON) {
            r.add(new BackupRecord("orders", 3, Long.MAX_VALUE, 1L, TimestampType.CREATE_TIME,
                    keys == ValueType.JSON ? utf8("1") : new byte[0], new byte[0], List.of()));
        }
        if (keys == ValueType.BYTES && values == ValueType.BYTES) {
            r.add(new BackupRecord("orders", 3, Long.MAX_VALUE, 2L, TimestampType.CREATE_TIME,
                    new byte[] {(byte) 0xC0, (byte) 0x80}, new byte[] {(byte) 0xFF, 0, 1}, List.of()));
        }
        return r;
    }

    /** {@code n} records of one partition, random {@code valueBytes}-byte values, 16-byte keys, one header in ten. */
    static List<BackupRecord> bulk(int n, int valueBytes, boolean text) {
        Random rnd = new Random(42);
        List<BackupRecord> out = new ArrayList<>(n);
        long ts = 1_700_000_000_000L;
        for (int i = 0; i < n; i++) {
            byte[] key = new byte[16];
            byte[] value = new byte[valueBytes];
            if (text) {
                fillText(rnd, key);
                fillText(rnd, value);
            } else {
                rnd.nextBytes(key);
                rnd.nextBytes(value);
            }
            List<RecordHeader> headers = i % 10 == 0 ? List.of(new RecordHeader("trace", key)) : List.of();
            out.add(new BackupRecord("bench", 0, 1_000_000L + i, ts + i / 100, TimestampType.CREATE_TIME, key, value, headers));
        }
        return out;
    }

    private static void fillText(Random rnd, byte[] b) {
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) ('a' + rnd.nextInt(26));
        }
    }
}
