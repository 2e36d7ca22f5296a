package dev.mirrorv3.restore.cli.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Evidence files written whole: a temporary file beside the target, renamed over it. A reader (node-exporter's textfile
 * collector, a job copying the report, a run in parallel) sees the old file or the new one, never half of either.
 */
public final class AtomicFiles {
    private AtomicFiles() {
    }

    public static void write(Path file, String text) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Path tmp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp");
        try {
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
