package dev.gpulint.core;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The temporary files gpulint writes beside a file it replaces (a report, a plan, a discovered manifest, a file
 * {@code --fix} rewrites): each is removed on every way out, a finished or failed write ({@link #done}) and a
 * SIGTERM or Ctrl-C mid-write (the shutdown hook), so no {@code .FILE.NNN.gpulint-fix} of up to the maximum file
 * size is left beside the file. (SIGKILL runs no hook: nothing can.)
 */
public final class TempFiles {
    private TempFiles() {}

    private static final Set<Path> PENDING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(TempFiles::removeAll, "gpulint-temp-cleanup"));
    }

    /** A new private temporary file in {@code folder}, named {@code .NAME.NNN.SUFFIX}, registered until {@link #done}. */
    public static Path create(Path folder, String name, String suffix) throws IOException {
        Path tmp = Files.createTempFile(folder, "." + name + ".", suffix);
        PENDING.add(tmp);
        return tmp;
    }

    /** Removes the temporary file if it is still there (it was moved into place, or the write failed). */
    public static void done(Path tmp) throws IOException {
        try {
            Files.deleteIfExists(tmp);
        } finally {
            PENDING.remove(tmp);
        }
    }

    /** Whether {@code tmp} is registered (tests). */
    public static boolean pending(Path tmp) { return PENDING.contains(tmp); }

    /** What the shutdown hook runs (and tests, as it would): every temporary file still registered is removed. */
    public static void removeAll() {
        for (Path p : PENDING) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                // the process is ending: nothing more can be said
            }
        }
    }
}
