package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import dev.gpulint.read.Readers;
import dev.gpulint.testing.PlanCli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** --quiet, the help and version commands, and report targets that cannot be written. */
class UsageCliTest {

    @Test
    void quietPrintsFindingsOnlyAndNothingWhenClean() {
        PlanCli.Run r = PlanCli.run("--quiet", "../samples/broken/tp16-job.yaml", "../samples/broken/roce-cluster.yaml");
        assertEquals(1, r.code());
        assertTrue(r.out().startsWith("../samples/broken/"), r.out());
        assertFalse(r.out().contains(" errors, "), "no closing count line: " + r.out());
        assertEquals(r.out(), PlanCli.run("../samples/broken/tp16-job.yaml", "../samples/broken/roce-cluster.yaml").out()
                .replaceAll("(?m)^\\d+ errors?, .*\n\\z", ""), "the same findings as without --quiet");
        PlanCli.Run clean = PlanCli.run("-q", "../samples/sound");
        assertEquals(0, clean.code());
        assertEquals("", clean.out());
        assertEquals("", clean.err());
        PlanCli.Run github = PlanCli.run("-q", "-f", "github", "../samples/sound");
        assertEquals("", github.out());
    }

    @Test
    void quietSaysNothingAboutAFolderWithoutManifestsUnlessThatFails(@TempDir Path dir) throws IOException {
        CliTest.write(dir, "values.yaml", "replicaCount: 1\n");
        PlanCli.Run r = PlanCli.run("-q", dir.toString());
        assertEquals(0, r.code());
        assertEquals("", r.out() + r.err());
        PlanCli.Run strict = PlanCli.run("-q", "--fail-if-no-manifests", dir.toString());
        assertEquals(2, strict.code());
        assertTrue(strict.err().startsWith("gpulint: no gpulint manifests found in "), strict.err());
    }

    @Test
    void topLevelHelpShowsChecksOptionsAndEveryExtensionFromTheRegistry() {
        PlanCli.Run h = PlanCli.run("--help");
        assertEquals(0, h.code());
        for (String option : new String[] {"--fail-on", "--stdin-filename", "--quiet", "--write-baseline", "--max-file-size", "[PATH...]"}) {
            assertTrue(h.out().contains(option), option + " in " + h.out());
        }
        // picocli wraps long lines at spaces and after punctuation (". slurm"): compare without whitespace
        String flat = h.out().replaceAll("\\s+", "");
        Readers.SYNTAXES.forEach(s -> s.extensions().forEach(ext -> assertTrue(flat.contains(ext), ext + " in " + flat)));
        assertTrue(flat.contains(("It reads files ending in " + Usage.extensions() + ";").replaceAll("\\s+", "")), flat);
        for (String command : new String[] {"check", "rules", "explain", "test-rules", "help", "version"}) {
            assertTrue(h.out().contains("\n  " + command + " "), command + " in " + h.out());
        }
        assertEquals(h.out(), PlanCli.run("help").out(), "gpulint help is gpulint --help");
    }

    @Test
    void helpForOneCommandAndTheVersionCommand() {
        PlanCli.Run rules = PlanCli.run("help", "rules");
        assertEquals(0, rules.code());
        assertTrue(rules.out().startsWith("Usage: gpulint rules"), rules.out());
        assertTrue(rules.out().contains("text, json or markdown"), rules.out());
        assertFalse(rules.out().contains("--fail-on"), rules.out());
        assertTrue(PlanCli.run("help", "check").out().contains("--stdin-filename"));
        PlanCli.Run v = PlanCli.run("version");
        assertEquals(0, v.code());
        assertTrue(v.out().startsWith("gpulint "), v.out());
        assertEquals(PlanCli.run("--version").out(), v.out());
    }

    @Test
    void aReportPathThatCannotBeWrittenIsBadUsageNamingThePathAndTheProblem(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("notes.txt"), "a file\n");
        String sample = "../samples/sound";
        PlanCli.Run under = PlanCli.run("-o", file + "/gpulint.sarif", sample);
        assertEquals(2, under.code());
        assertEquals("", under.out());
        assertEquals("gpulint: cannot write --output " + file + "/gpulint.sarif: '" + file
                + "' is a file, not a folder, so nothing can be created under it\n", under.err());
        PlanCli.Run deeper = PlanCli.run("--write-baseline", file + "/reports/base.sarif", sample);
        assertEquals("gpulint: cannot write --write-baseline " + file + "/reports/base.sarif: '" + file
                + "' is a file, not a folder, so nothing can be created under it\n", deeper.err());
        PlanCli.Run folder = PlanCli.run("-o", dir.toString(), sample);
        assertEquals("gpulint: cannot write --output " + dir + ": it is a folder, not a file\n", folder.err());
        PlanCli.Run slash = PlanCli.run("-o", dir + "/reports/", sample);
        assertEquals(2, slash.code());
        assertEquals("gpulint: cannot write --output " + dir + "/reports/: it names a folder (it ends with '/'); give a file name\n",
                slash.err());
        assertFalse(Files.exists(dir.resolve("reports")));
        for (PlanCli.Run r : new PlanCli.Run[] {under, deeper, folder, slash}) assertFalse(r.err().contains("internal error"), r.err());
        assertEquals("a file\n", Files.readString(file));
    }

    @Test
    void aFolderWithoutWritePermissionIsBadUsage(@TempDir Path dir) throws IOException {
        Path locked = Files.createDirectories(dir.resolve("locked"));
        Files.setPosixFilePermissions(locked, java.nio.file.attribute.PosixFilePermissions.fromString("r-x------"));
        try {
            assumeFalse(Files.isWritable(locked), "root writes everywhere");
            PlanCli.Run r = PlanCli.run("-o", locked + "/out.sarif", "../samples/sound");
            assertEquals(2, r.code());
            assertEquals("gpulint: cannot write --output " + locked + "/out.sarif: permission denied: files cannot be created in '"
                    + locked + "'\n", r.err());
        } finally {
            Files.setPosixFilePermissions(locked, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        }
    }
}
