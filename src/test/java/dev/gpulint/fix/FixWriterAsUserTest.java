package dev.gpulint.fix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * --fix run by a user who is not root (issue 40, item 4), in a child JVM started with setpriv as uid 4343: a
 * group-writable file of another user in a shared folder keeps its owner (the rename gave it to whoever ran gpulint;
 * it cannot be given back without root, so it is written in place), and the user's own read-only file is refused
 * (the rename replaced it, since the folder is writable). Runs where the tests run as root and setpriv exists.
 */
@DisabledOnOs(OS.WINDOWS)
class FixWriterAsUserTest {

    /** The child: writes the fix of args[0] and prints "written" or why not. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            Path file = Path.of(args[0]);
            String before = Files.readString(file);
            try {
                FixWriter.write(file, before, before.replace("Gb/s", "GB/s"), List.of(file.getParent().toRealPath()));
                System.out.println("written");
            } catch (FixWriter.Refused e) {
                System.out.println("refused: " + e.getMessage());
            }
        }
    }

    private static String runAs(int uid, Path file) throws Exception {
        String jvm = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = Path.of(FixWriter.class.getProtectionDomain().getCodeSource().getLocation().toURI()) + java.io.File.pathSeparator
                + Path.of(Child.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Process p = new ProcessBuilder("setpriv", "--reuid=" + uid, "--regid=" + uid, "--clear-groups", jvm, "-XX:-UsePerfData",
                "-cp", cp, Child.class.getName(), file.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        dev.gpulint.testing.CpuBudget.waitFor(p, 120);
        return out.strip();
    }

    private static boolean usable() throws Exception {
        if (!Files.isDirectory(Path.of("/proc/self"))) return false;
        if (((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).intValue() != 0) return false;
        if (Files.notExists(Path.of("/usr/bin/setpriv")) && Files.notExists(Path.of("/bin/setpriv"))) return false;
        // the classes must be readable by another user (they are not under a private home folder)
        Path classes = Path.of(FixWriter.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        for (Path p = classes; p != null; p = p.getParent()) {
            if (!PosixFilePermissions.toString(Files.getPosixFilePermissions(p)).endsWith("x")) return false;
        }
        return true;
    }

    @Test
    void anotherUsersGroupWritableFileKeepsItsOwnerAndTheUsersReadOnlyFileIsRefused(@TempDir Path tmp) throws Exception {
        assumeTrue(usable(), "needs root, setpriv and classes other users can read");
        Path shared = Files.createDirectories(tmp.resolve("shared"));
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        String text = "nvlink: { bandwidth: 900 Gb/s }\n";
        Path theirs = Files.writeString(shared.resolve("theirs.yaml"), text);
        Files.setAttribute(theirs, "unix:uid", 4242);
        Files.setAttribute(theirs, "unix:gid", 4343);
        Files.setPosixFilePermissions(theirs, PosixFilePermissions.fromString("rw-rw-r--"));
        assertEquals("written", runAs(4343, theirs));
        assertEquals(text.replace("Gb/s", "GB/s"), Files.readString(theirs));
        assertEquals(4242, Files.getAttribute(theirs, "unix:uid"), "the owner is kept");
        assertEquals(4343, Files.getAttribute(theirs, "unix:gid"));
        assertEquals("rw-rw-r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(theirs)));

        Path mine = Files.writeString(shared.resolve("mine.yaml"), text);
        Files.setAttribute(mine, "unix:uid", 4343);
        Files.setAttribute(mine, "unix:gid", 4343);
        Files.setPosixFilePermissions(mine, PosixFilePermissions.fromString("r--r--r--"));
        String said = runAs(4343, mine);
        assertTrue(said.startsWith("refused: it is read-only for you (r--r--r--)"), said);
        assertEquals(text, Files.readString(mine));
        try (var s = Files.list(shared)) {
            assertEquals(2, s.count(), "no temporary file is left");
        }
    }
}
