package dev.mirrorv3.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** The discard sink's own count (its task writes it at every offset commit): it must hold every record of the run. */
final class DiscardCount implements SinkCheck {
    private final Path file;
    private final long records;
    private long count = -1;

    /** @param countFile the connector's {@code count.file}; its one task writes to it + ".0" */
    DiscardCount(Path countFile, long records) {
        this.file = countFile.resolveSibling(countFile.getFileName() + ".0");
        this.records = records;
    }

    @Override
    public boolean done() throws IOException {
        try {
            count = Long.parseLong(Files.readString(file).trim());
        } catch (NoSuchFileException e) {
            return false;
        }
        return count >= records;
    }

    @Override
    public String lag() {
        return file + " counts " + (count < 0 ? "nothing yet" : count) + " of " + records + " records";
    }
}
