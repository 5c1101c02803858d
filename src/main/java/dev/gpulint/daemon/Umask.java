package dev.gpulint.daemon;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;

/**
 * This process's umask, which Java cannot read: found from the permissions of a folder made without any. A run
 * that creates folders (-o into a new folder) makes them with the creating process's umask, so a client whose
 * umask differs runs cold.
 */
final class Umask {
    private Umask() {}

    static int own() {
        Path probe = null;
        try {
            probe = Files.createTempDirectory("gpulint-umask-");
            Path d = Files.createDirectory(probe.resolve("d"));
            int mode = 0;
            for (PosixFilePermission p : Files.getPosixFilePermissions(d)) mode |= 1 << (8 - p.ordinal());
            Files.delete(d);
            return 0777 & ~mode;
        } catch (IOException | UnsupportedOperationException e) {
            return -1;       // unknown: every client runs cold rather than with other permissions
        } finally {
            try {
                if (probe != null) Files.deleteIfExists(probe);
            } catch (IOException e) {
                // a leftover empty folder in the temporary folder
            }
        }
    }
}
