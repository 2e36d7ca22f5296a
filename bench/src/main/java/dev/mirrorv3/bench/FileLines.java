package dev.mirrorv3.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** The FileStreamSink's output file: one line per record; new bytes are read and their newlines counted. */
final class FileLines implements SinkCheck {
    private final Path file;
    private final long records;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
    private long position;
    private long lines;

    FileLines(Path file, long records) {
        this.file = file;
        this.records = records;
    }

    @Override
    public boolean done() throws IOException {
        if (!Files.exists(file)) {
            return false;
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            int n;
            while ((n = ch.read(buffer.clear(), position)) > 0) {
                position += n;
                for (int i = 0; i < n; i++) {
                    if (buffer.get(i) == '\n') {
                        lines++;
                    }
                }
            }
        }
        if (lines > records) {
            throw new IllegalStateException(file + " holds " + lines + " lines for " + records + " records: it was not empty");
        }
        return lines == records;
    }

    @Override
    public String lag() {
        return file + " holds " + lines + " of " + records + " lines";
    }
}
