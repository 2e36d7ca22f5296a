package dev.mirrorv3.chain.snapshot;

import dev.mirrorv3.chain.envelope.BackupRecord;
import dev.mirrorv3.chain.envelope.RecordHeader;
import dev.mirrorv3.chain.envelope.RecordStream;
import dev.mirrorv3.chain.envelope.TimestampType;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A sorted run of records spilled to a local file while a snapshot is being gathered: a private, length-prefixed
 * binary layout read back only by this process (never a backup object). Topic and partition are the builder's.
 */
final class SpillRun {
    private static final int BUFFER = 64 * 1024;

    private SpillRun() {
    }

    static void write(Path file, Collection<BackupRecord> sortedRecords) {
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), BUFFER))) {
            for (BackupRecord r : sortedRecords) {
                out.writeBoolean(true);
                out.writeLong(r.offset());
                out.writeBoolean(r.timestampMs() != null);
                out.writeLong(r.timestampMs() == null ? 0 : r.timestampMs());
                out.writeByte(r.timestampType().ordinal());
                writeBytes(out, r.key());
                writeBytes(out, r.value());
                out.writeInt(r.headers().size());
                for (RecordHeader h : r.headers()) {
                    out.writeUTF(h.key());
                    writeBytes(out, h.value());
                }
            }
            out.writeBoolean(false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot spill records to " + file + " (the snapshot spill directory): check its free"
                    + " space, or set compaction.spill.dir", e);
        }
    }

    static RecordStream read(Path file, String topic, int partition) {
        DataInputStream in;
        try {
            in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), BUFFER));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the spilled records " + file, e);
        }
        TimestampType[] types = TimestampType.values();
        return new RecordStream() {
            @Override
            public BackupRecord next() {
                try {
                    if (!in.readBoolean()) {
                        return null;
                    }
                    long offset = in.readLong();
                    boolean hasTs = in.readBoolean();
                    long ts = in.readLong();
                    TimestampType type = types[in.readByte()];
                    byte[] key = readBytes(in);
                    byte[] value = readBytes(in);
                    int n = in.readInt();
                    List<RecordHeader> headers = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        headers.add(new RecordHeader(in.readUTF(), readBytes(in)));
                    }
                    return new BackupRecord(topic, partition, offset, hasTs ? ts : null, type, key, value, headers);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read the spilled records " + file, e);
                }
            }

            @Override
            public void close() {
                try {
                    in.close();
                } catch (IOException ignored) {
                    // read-only
                }
            }
        };
    }

    private static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
        if (b == null) {
            out.writeInt(-1);
        } else {
            out.writeInt(b.length);
            out.write(b);
        }
    }

    private static byte[] readBytes(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            return null;
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }
}
