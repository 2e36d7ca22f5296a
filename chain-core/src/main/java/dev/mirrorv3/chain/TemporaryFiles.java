package dev.mirrorv3.chain;

import java.util.UUID;

/**
 * Our writer's temporary files: {@code <final name>.tmp.<uuid>} (mirror-v3's spelling). Listing
 * ignores them; a task removes them when it opens a partition.
 */
public final class TemporaryFiles {
    public static final String MARKER = ".tmp.";

    private TemporaryFiles() {
    }

    public static String temporaryNameFor(String finalName) {
        return finalName + MARKER + UUID.randomUUID();
    }

    public static boolean isTemporary(String name) {
        return name.contains(MARKER);
    }
}
