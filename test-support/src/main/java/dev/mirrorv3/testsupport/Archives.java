package dev.mirrorv3.testsupport;

import java.io.IOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A built archive unpacked as an operator unpacks it, so that tests check what ships rather than the build directory:
 * files with their Unix permissions (bin/ scripts stay executable), read through the JDK's zip file system with its
 * POSIX attributes.
 */
public final class Archives {
    private Archives() {
    }

    /** Unpacks {@code zip} into {@code into}; returns {@code into}. */
    public static Path unzip(Path zip, Path into) throws IOException {
        URI uri = URI.create("jar:" + zip.toAbsolutePath().toUri());
        try (FileSystem fs = FileSystems.newFileSystem(uri, Map.of("enablePosixFileAttributes", "true"))) {
            Path top = fs.getPath("/");
            List<Path> entries;
            try (Stream<Path> walk = Files.walk(top)) {
                entries = walk.toList();
            }
            for (Path entry : entries) {
                Path to = into.resolve(top.relativize(entry).toString()).normalize();
                if (!to.startsWith(into)) {
                    throw new IOException(zip + ": entry " + entry + " would leave the directory it is unpacked into");
                }
                if (Files.isDirectory(entry)) {
                    Files.createDirectories(to);
                    continue;
                }
                Files.createDirectories(to.getParent());
                Files.copy(entry, to);
                PosixFileAttributes attrs = Files.getFileAttributeView(entry, PosixFileAttributeView.class).readAttributes();
                Files.setPosixFilePermissions(to, attrs.permissions());
            }
        }
        return into;
    }
}
