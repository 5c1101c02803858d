package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gpulint.testing.PlanCli;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserDefinedFileAttributeView;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code check --fix} must never do to a file (issue 40, items 4 to 6): give it to whoever runs gpulint, split its
 * hard links, drop its extended attributes, replace a read-only file, apply a fix the configuration misspelt, call a
 * file it could not write "fixed", or write through a link to a file outside the folders linted.
 */
@DisabledOnOs(OS.WINDOWS)
class FixIdentityCliTest {

    @AfterEach
    void restore() { Main.workingDir = Path.of(""); }

    static final String CLUSTER = FixCliTest.CLUSTER.replace("\r\n", "\n");
    static final String FIXED = FixCliTest.FIXED.replace("\r\n", "\n");

    private static boolean root() throws IOException {
        return ((Number) Files.getAttribute(Path.of("/proc/self"), "unix:uid")).intValue() == 0;
    }

    /** `sudo gpulint --fix .` in a shared checkout gave every fixed file to root, which its owner then could not write. */
    @Test
    void theOwnerGroupAndPermissionsOfAFixedFileAreKept(@TempDir Path dir) throws IOException {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")) && root(), "giving a file to another owner needs root");
        Path c = CliTest.write(dir, "c.yaml", CLUSTER);
        Files.setAttribute(c, "unix:uid", 4242);
        Files.setAttribute(c, "unix:gid", 4343);
        Files.setPosixFilePermissions(c, PosixFilePermissions.fromString("rw-rw-r--"));
        Main.workingDir = dir;
        PlanCli.Run r = PlanCli.run("check", "--fix", "c.yaml");
        assertEquals(0, r.code(), r.out() + r.err());
        assertEquals(FIXED, Files.readString(c));
        assertEquals(4242, Files.getAttribute(c, "unix:uid"));
        assertEquals(4343, Files.getAttribute(c, "unix:gid"));
        assertEquals("rw-rw-r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(c)));
        try (var s = Files.list(dir)) {
            assertEquals(1, s.count(), "no temporary file is left");
        }
    }

    @Test
    void aFileWithOtherHardLinksIsWrittenInPlaceSoEveryNameSeesTheFix(@TempDir Path dir) throws IOException {
        Path c = CliTest.write(dir, "c.yaml", CLUSTER);
        Path other = Files.createLink(dir.resolve("c.yaml.orig"), c);
        Main.workingDir = dir;
        PlanCli.Run r = PlanCli.run("check", "--fix", "c.yaml");
        assertEquals(0, r.code(), r.out() + r.err());
        assertEquals(FIXED, Files.readString(c));
        assertTrue(Files.isSameFile(c, other), "the link is not split off");
        assertEquals(FIXED, Files.readString(other));
        assertEquals(2, Files.getAttribute(c, "unix:nlink"));
    }

    @Test
    void userExtendedAttributesAreKept(@TempDir Path dir) throws IOException {
        Path c = CliTest.write(dir, "c.yaml", CLUSTER);
        UserDefinedFileAttributeView view = Files.getFileAttributeView(c, UserDefinedFileAttributeView.class);
        boolean supported;
        try {
            view.write("gpulint.test", StandardCharsets.UTF_8.encode("team-a"));
            supported = true;
        } catch (IOException | UnsupportedOperationException e) {
            supported = false;
        }
        assumeTrue(supported, "this file system keeps no user extended attributes");
        Main.workingDir = dir;
        assertEquals(0, PlanCli.run("check", "--fix", "c.yaml").code());
        assertEquals(FIXED, Files.readString(c));
        UserDefinedFileAttributeView after = Files.getFileAttributeView(c, UserDefinedFileAttributeView.class);
        ByteBuffer b = ByteBuffer.allocate(after.size("gpulint.test"));
        after.read("gpulint.test", b);
        b.flip();
        assertEquals("team-a", StandardCharsets.UTF_8.decode(b).toString());
    }

    /**
     * A read-only file (0444) is refused, as ruff and eslint refuse it, and its findings are reported as linted: the
     * closing line does not count them as fixed, and the other file's fixes are written. gpulint runs as root here
     * (CI, containers), whom the system lets write anything: the file's own mode is what says it is read-only.
     */
    @Test
    void aReadOnlyFileIsRefusedAndItsFindingsAreReportedAsLinted(@TempDir Path dir) throws IOException {
        Path ro = CliTest.write(dir, "ro.yaml", CLUSTER.replace("name: c", "name: r"));
        Path rw = CliTest.write(dir, "rw.yaml", CLUSTER);
        Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r--r--r--"));
        Main.workingDir = dir;
        PlanCli.Run r = PlanCli.run("check", "--fix", "ro.yaml", "rw.yaml");
        assertEquals(2, r.code(), r.out() + r.err());
        assertEquals(CLUSTER.replace("name: c", "name: r"), Files.readString(ro), "a read-only file is not replaced");
        assertEquals("r--r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(ro)));
        assertEquals(FIXED, Files.readString(rw));
        assertTrue(r.err().startsWith("gpulint: did not fix ro.yaml: it is read-only"), r.err());
        assertTrue(r.err().contains("make it writable (chmod u+w) to fix it"), r.err());
        assertTrue(r.out().contains("ro.yaml:7:"), "the unwritten file's findings are reported: " + r.out());
        assertEquals(2, r.out().split("\\[UNIT001]", -1).length - 1, r.out());
        assertFalse(r.out().contains("rw.yaml:"), r.out());
        assertTrue(r.out().endsWith("fixed 2 findings in 1 file; 2 remain\n"), r.out());
        // SARIF too: the two findings of the file not written are results
        PlanCli.Run sarif = PlanCli.run("check", "--fix", "-f", "sarif", "ro.yaml");
        assertEquals(2, sarif.code());
        assertEquals(2, sarif.out().split("\"ruleId\" : \"UNIT001\"", -1).length - 1, sarif.out());
        assertTrue(sarif.err().endsWith("fixed 0 findings; 2 remain\n"), sarif.err());
    }

    /** A misspelt level ("of") was reported and then the rule's default (safe) fix applied: an error in fix: writes nothing. */
    @Test
    void anInvalidFixEntryWritesNothing(@TempDir Path dir) throws IOException {
        Path c = CliTest.write(dir, "c.yaml", CLUSTER);
        CliTest.write(dir, ".gpulint.yaml", "fix:\n  rules: { UNIT001: of }\n");
        Main.workingDir = dir;
        PlanCli.Run r = PlanCli.run("check", "--fix", "c.yaml");
        assertEquals(2, r.code(), "a configuration error, as a file that could not be written: " + r.err());
        assertEquals(CLUSTER, Files.readString(c), "nothing is written");
        assertTrue(r.out().contains("fix level 'of' for UNIT001 in .gpulint.yaml must be safe, unsafe or off"), r.out());
        assertTrue(r.err().contains("gpulint: the fix settings of the configuration have an error (SYN002 above): nothing was fixed; "
                + "correct them and run again"), r.err());
        assertTrue(r.out().endsWith("fixed 0 findings; 3 remain\n"), r.out());
        PlanCli.Run diff = PlanCli.run("check", "--diff", "c.yaml");
        assertEquals("", diff.out(), "--diff shows no change either");
        assertEquals(2, diff.code(), "not exit 0, which says there is nothing to change");
        // a name that is no rule is an error of fix: too
        CliTest.write(dir, ".gpulint.yaml", "fix:\n  unfixable: [UNIT01]\n");
        PlanCli.run("check", "--fix", "c.yaml");
        assertEquals(CLUSTER, Files.readString(c));
        CliTest.write(dir, ".gpulint.yaml", "fix:\n  rules: { UNIT001: off }\n");
        PlanCli.run("check", "--fix", "c.yaml");
        assertEquals(CLUSTER, Files.readString(c), "off is no error, and no fix");
        CliTest.write(dir, ".gpulint.yaml", "fix:\n  rules: { UNIT001: safe }\n");
        assertEquals(0, PlanCli.run("check", "--fix", "c.yaml").code());
        assertEquals(FIXED, Files.readString(c), "a sound fix: section fixes");
    }

    /** A link to a file outside the folder: a folder walk does not follow it, and a link named is not written through. */
    @Test
    void aLinkToAFileOutsideTheFolderIsNeverWrittenThrough(@TempDir Path tmp) throws IOException {
        Path outside = CliTest.write(tmp, "home/victim.yaml", CLUSTER);
        Path repo = Files.createDirectories(tmp.resolve("repo"));
        Files.createSymbolicLink(repo.resolve("shared.yaml"), outside);
        Path inside = CliTest.write(repo, "sub/c.yaml", CLUSTER);
        Files.createSymbolicLink(repo.resolve("alias.yaml"), Path.of("sub/c.yaml"));
        Main.workingDir = repo;
        PlanCli.Run walked = PlanCli.run("check", "--fix", ".");
        assertEquals(0, walked.code(), walked.out() + walked.err());
        assertFalse(walked.out().contains("shared.yaml"), "a walk does not follow a link out of the folder: " + walked.out());
        assertEquals(CLUSTER, Files.readString(outside));
        assertEquals(FIXED, Files.readString(inside), "a link inside the folder is followed");
        assertTrue(Files.isSymbolicLink(repo.resolve("alias.yaml")));
        // named: linted, but not written through
        PlanCli.Run named = PlanCli.run("check", "--fix", "shared.yaml");
        assertEquals(2, named.code(), named.out() + named.err());
        assertEquals(CLUSTER, Files.readString(outside));
        assertTrue(named.err().startsWith("gpulint: did not fix shared.yaml: it is a symbolic link to " + outside.toRealPath()
                + ", outside the folders linted;"), named.err());
        assertTrue(named.out().contains("shared.yaml:7:"), named.out());
        // the folder it lies in given too: allowed
        Files.writeString(inside, CLUSTER);
        PlanCli.Run both = PlanCli.run("check", "--fix", "shared.yaml", outside.getParent().toString());
        assertEquals(0, both.code(), both.out() + both.err());
        assertEquals(FIXED, Files.readString(outside));
    }
}
