package dev.gpulint.daemon;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Where a running daemon says how to reach it: its pid, port and token, in a file only its user can read
 * (rw-------) in a folder only its user can enter (rwx------). One daemon per jar: the file is named after the
 * jar's path, so two clones or installs each have their own. bin/gpulint computes the same name, and passes it
 * to the daemon commands in {@code GPULINT_DAEMON_STATE}.
 *
 * <p>The folder: {@code $GPULINT_DAEMON_DIR}, else {@code $XDG_RUNTIME_DIR/gpulint-daemon}, else
 * {@code ${XDG_CACHE_HOME:-$HOME/.cache}/gpulint/daemon}.
 */
public final class StateFile {
    private StateFile() {}

    /** What the file holds: line 1 "1 PID PORT TOKEN" (what bash reads), line 2 the jar, line 3 the start time (ms). */
    public record State(long pid, int port, String token, String jar, long started) {}

    public static Path folder(UnaryOperator<String> env) {
        String own = env.apply("GPULINT_DAEMON_DIR");
        if (own != null && !own.isEmpty()) return Path.of(own);
        String runtime = env.apply("XDG_RUNTIME_DIR");
        if (runtime != null && !runtime.isEmpty() && Files.isDirectory(Path.of(runtime))) return Path.of(runtime, "gpulint-daemon");
        String cache = env.apply("XDG_CACHE_HOME");
        if (cache == null || cache.isEmpty()) cache = Path.of(nonEmpty(env.apply("HOME"), System.getProperty("user.home")), ".cache").toString();
        return Path.of(cache, "gpulint", "daemon");
    }

    private static String nonEmpty(String a, String b) { return a == null || a.isEmpty() ? b : a; }

    /** The state file of the daemon of {@code jar}: {@code $GPULINT_DAEMON_STATE} when the launcher set it. */
    public static Path of(UnaryOperator<String> env, Path jar) {
        String given = env.apply("GPULINT_DAEMON_STATE");
        if (given != null && !given.isEmpty()) return Path.of(given);
        return folder(env).resolve("daemon-" + mangle(jar.toString()));
    }

    /** The jar's path as a file name: what is not a letter, digit, '.', '_' or '-' becomes '_' (as bin/gpulint does it). */
    static String mangle(String path) {
        StringBuilder s = new StringBuilder();
        for (char c : path.toCharArray()) {
            boolean keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
            s.append(keep ? c : '_');
        }
        return s.toString();
    }

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");

    /**
     * Why the folder cannot hold a token, or null once it exists and only its owner, this user, can enter it.
     * A folder the user made earlier with other permissions is refused, not changed.
     */
    static String folderProblem(Path folder) {
        try {
            if (!Files.exists(folder)) {
                Files.createDirectories(folder.getParent());
                Files.createDirectory(folder, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
                Files.setPosixFilePermissions(folder, OWNER_ONLY);     // the umask may have taken bits away, never added
            }
            if (!Files.isDirectory(folder)) return folder + " is not a folder";
            if (!Files.getOwner(folder).getName().equals(System.getProperty("user.name"))) return folder + " belongs to another user";
            Set<PosixFilePermission> p = Files.getPosixFilePermissions(folder);
            for (PosixFilePermission x : p) {
                if (x.name().startsWith("GROUP") || x.name().startsWith("OTHERS")) {
                    return folder + " can be entered by other users (" + PosixFilePermissions.toString(p) + "); make it rwx------ "
                            + "(chmod 700) or set GPULINT_DAEMON_DIR to a folder of your own";
                }
            }
            return null;
        } catch (IOException | UnsupportedOperationException e) {
            return "cannot use " + folder + ": " + e;
        }
    }

    /** Writes the file (rw-------) through a temporary file moved into place, so a client never reads half of it. */
    static void write(Path file, State s) throws IOException {
        String problem = folderProblem(file.getParent());
        if (problem != null) throw new IOException(problem);
        Path tmp = Files.createTempFile(file.getParent(), ".daemon-", ".tmp", PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rw-------")));
        try {
            Files.writeString(tmp, "1 " + s.pid() + " " + s.port() + " " + s.token() + "\n" + s.jar() + "\n" + s.started() + "\n",
                    StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    public static Optional<State> read(Path file) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            String[] f = lines.get(0).split(" ");
            if (!f[0].equals("1") || f.length != 4) return Optional.empty();
            return Optional.of(new State(Long.parseLong(f[1]), Integer.parseInt(f[2]), f[3], lines.get(1), Long.parseLong(lines.get(2))));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Removes the file when it is still this daemon's (a successor may have written its own meanwhile). */
    static void removeIfOurs(Path file, String token) {
        read(file).filter(s -> s.token().equals(token)).ifPresent(s -> {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // nothing more to do: the next client finds no daemon at that port and runs cold
            }
        });
    }
}
