package dev.mirrorv3.chain.envelope;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** DuckDB reads our Parquet objects with the intended column types and the records' values. */
class ParquetDuckDbTest {
    @TempDir
    Path dir;

    @Test
    void bytesObjectReadsAsBlobsWithUnsignedOffsets() throws Exception {
        List<BackupRecord> records = new ArrayList<>(Samples.edgeCasesFor(ValueType.BYTES, ValueType.BYTES));
        records.addAll(Samples.bulk(2000, 100, false));
        Path file = write("bytes.parquet", EnvelopeSettings.parquetBytes(), records);

        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            assertThat(columnTypes(st, file)).containsExactly(
                    Map.entry("topic", "VARCHAR"),
                    Map.entry("partition", "INTEGER"),
                    Map.entry("offset", "UBIGINT"),
                    Map.entry("timestamp_ms", "BIGINT"),
                    Map.entry("timestamp_type", "VARCHAR"),
                    Map.entry("key", "BLOB"),
                    Map.entry("value", "BLOB"),
                    Map.entry("headers", "STRUCT(\"key\" VARCHAR, \"value\" BLOB)[]"));

            try (ResultSet rs = st.executeQuery("SELECT count(*), max(\"offset\")::VARCHAR FROM read_parquet('" + file + "')")) {
                rs.next();
                assertThat(rs.getLong(1)).isEqualTo(records.size());
                assertThat(rs.getString(2)).isEqualTo(Long.toString(Long.MAX_VALUE));
            }
            List<BackupRecord> sample = new ArrayList<>(records.subList(0, 12));
            sample.add(records.get(records.size() - 1));
            try (ResultSet rs = st.executeQuery("SELECT topic, partition, \"offset\"::VARCHAR, timestamp_ms, timestamp_type, key, value,"
                    + " len(headers), to_json(headers)::VARCHAR FROM read_parquet('" + file + "') ORDER BY file_row_number")) {
                int row = 0;
                for (BackupRecord expected : records) {
                    assertThat(rs.next()).isTrue();
                    if (sample.contains(expected)) {
                        assertThat(rs.getString(1)).isEqualTo(expected.topic());
                        assertThat(rs.getInt(2)).isEqualTo(expected.partition());
                        assertThat(rs.getString(3)).isEqualTo(Long.toUnsignedString(expected.offset()));
                        assertThat(rs.getObject(4) == null ? null : rs.getLong(4)).isEqualTo(expected.timestampMs());
                        assertThat(rs.getString(5)).isEqualTo(expected.timestampType().stored());
                        assertThat(rs.getBytes(6)).as("key of row %d", row).isEqualTo(expected.key());
                        assertThat(rs.getBytes(7)).as("value of row %d", row).isEqualTo(expected.value());
                        assertThat(rs.getInt(8)).isEqualTo(expected.headers().size());
                    }
                    row++;
                }
                assertThat(rs.next()).isFalse();
            }
            try (ResultSet rs = st.executeQuery("SELECT headers[3].key, headers[3].value, headers[1].value IS NULL"
                    + " FROM read_parquet('" + file + "') WHERE \"offset\" = 2")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("dup");
                assertThat(rs.getBytes(2)).isEqualTo(new byte[] {0, (byte) 0xFF, 10});
                assertThat(rs.getBoolean(3)).isTrue();
            }
        }
    }

    @Test
    void utf8AndJsonObjectsReadAsText() throws Exception {
        List<BackupRecord> records = Samples.edgeCasesFor(ValueType.UTF8, ValueType.JSON);
        Path file = write("text.parquet", new EnvelopeSettings(EnvelopeFormat.PARQUET, Compression.SNAPPY, ValueType.UTF8,
                ValueType.JSON), records);

        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            Map<String, String> types = columnTypes(st, file);
            assertThat(types).containsEntry("key", "VARCHAR");
            // DuckDB maps Parquet's JSON annotation to its JSON type (a VARCHAR alias with JSON functions).
            assertThat(types).containsEntry("value", "JSON");
            try (ResultSet rs = st.executeQuery("SELECT key, value::VARCHAR FROM read_parquet('" + file + "') ORDER BY file_row_number")) {
                for (BackupRecord expected : records) {
                    assertThat(rs.next()).isTrue();
                    assertThat(rs.getString(1)).isEqualTo(expected.key() == null ? null
                            : new String(expected.key(), StandardCharsets.UTF_8));
                    assertThat(rs.getString(2)).isEqualTo(expected.value() == null ? null
                            : new String(expected.value(), StandardCharsets.UTF_8));
                }
            }
            try (ResultSet rs = st.executeQuery("SELECT value->>'a' FROM read_parquet('" + file + "') WHERE \"offset\" = 0")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("1");
            }
        }
    }

    private Path write(String name, EnvelopeSettings settings, List<BackupRecord> records) throws Exception {
        Path file = dir.resolve(name);
        Files.write(file, EnvelopeCodecs.forSettings(settings).encode(records));
        return file;
    }

    private static Map<String, String> columnTypes(Statement st, Path file) throws Exception {
        Map<String, String> types = new LinkedHashMap<>();
        try (ResultSet rs = st.executeQuery("DESCRIBE SELECT * FROM read_parquet('" + file + "')")) {
            while (rs.next()) {
                types.put(rs.getString("column_name"), rs.getString("column_type"));
            }
        }
        return types;
    }
}
