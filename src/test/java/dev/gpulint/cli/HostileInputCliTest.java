package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gpulint.testing.PlanCli;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import dev.gpulint.testing.CpuLimit;

/** The "hostile input" issue at the command line: file names as options, special files, lost output. */
class HostileInputCliTest {

    private static PlanCli.Run run(String... args) { return PlanCli.run(args); }

    private static final String JOB = "kind: training_job\nname: j\ncluster: nowhere\n";

    @Test
    void everyPreCommitHookEndsOptionsBeforeTheFileNames() throws IOException {
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> hooks = (List<Map<String, Object>>) new Load(LoadSettings.builder().build())
                .loadFromString(Files.readString(Path.of("../.pre-commit-hooks.yaml")));
        assertFalse(hooks.isEmpty());
        for (Map<String, Object> h : hooks) {
            @SuppressWarnings("unchecked")
            List<String> args = (List<String>) h.getOrDefault("args", List.of());
            boolean ends = String.valueOf(h.get("entry")).endsWith(" --") || (!args.isEmpty() && args.get(args.size() - 1).equals("--"));
            assertTrue(ends, "hook " + h.get("id") + " must end its options with -- before pre-commit's file names");
        }
    }

    @Test
    void aFileNamedLikeAnOptionAfterDoubleDashIsAPath(@TempDir Path dir) throws IOException {
        Path victim = dir.resolve("victim.yaml");
        Path good = Files.writeString(dir.resolve("job.yaml"), JOB);
        PlanCli.Run r = run("--", "--output=" + victim, good.toString());
        assertEquals(2, r.code(), r.err());
        assertFalse(Files.exists(victim), "nothing written to the named file");
        // a path that does not exist is bad usage, named on standard error
        assertEquals("gpulint: no such file or folder: --output=" + victim + "\n", r.err());
        assertTrue(run("--", good.toString()).out().contains("job.yaml:3:10: error: job 'j' runs on cluster 'nowhere'"));
        // the explicit check command too
        assertEquals(2, run("check", "--", "--output=" + victim).code());
        assertFalse(Files.exists(victim));
    }

    @Test
    void anAtFileNameIsAPathNotAnArgumentFile(@TempDir Path dir) throws IOException {
        Path args = Files.writeString(dir.resolve("args"), "--output=" + dir.resolve("victim.yaml") + "\n");
        PlanCli.Run r = run("--", "@" + args);
        assertEquals(2, r.code());
        // picocli would expand @file even after -- (reading whatever the name points at)
        assertEquals("gpulint: no such file or folder: @" + args + "\n", r.err());
        assertFalse(Files.exists(dir.resolve("victim.yaml")));
    }

    @Test
    @CpuLimit(seconds = 60)
    void devicesAreReportedNotRead() {
        assumeTrue(Files.exists(Path.of("/dev/zero")));
        PlanCli.Run r = run("/dev/zero");
        assertEquals(2, r.code());
        assertTrue(r.out().contains("cannot read '/dev/zero': it is a special file (a device, FIFO or socket), not a regular file"), r.out());
        assertEquals("", r.err());
    }

    @Test
    @CpuLimit(seconds = 60)
    void aSymlinkToADeviceIsReportedNotRead(@TempDir Path dir) throws IOException {
        assumeTrue(Files.exists(Path.of("/dev/zero")));
        Path link = Files.createSymbolicLink(dir.resolve("zero.yaml"), Path.of("/dev/zero"));
        PlanCli.Run r = run(link.toString());
        assertEquals(2, r.code());
        assertTrue(r.out().contains("not a regular file"), r.out());
    }

    @Test
    @CpuLimit(seconds = 60)
    void aFifoAsPathOrBaselineDoesNotBlock(@TempDir Path dir) throws Exception {
        Path fifo = fifo(dir.resolve("pipe.yaml"));
        PlanCli.Run r = run(fifo.toString());
        assertEquals(2, r.code());
        assertTrue(r.out().contains("not a regular file"), r.out());
        Path good = Files.writeString(dir.resolve("job.yaml"), JOB);
        PlanCli.Run b = run("--baseline", fifo.toString(), good.toString());
        assertEquals(2, b.code());
        assertTrue(b.err().contains("cannot read the baseline " + fifo + ": it is a special file"), b.err());
        PlanCli.Run c = run("--config", fifo.toString(), good.toString());
        assertEquals(2, c.code());
        assertTrue(c.out().contains("cannot read the configuration '" + fifo + "': it is a special file"), c.out());
    }

    @Test
    @CpuLimit(seconds = 120)
    void theWalkStaysInsideTheTree(@TempDir Path dir) throws IOException {
        Path tree = Files.createDirectories(dir.resolve("tree"));
        Files.createSymbolicLink(tree.resolve("a-root"), Path.of("/"));
        if (Files.isDirectory(Path.of("/proc"))) Files.createSymbolicLink(tree.resolve("b-proc"), Path.of("/proc"));
        Files.createDirectories(tree.resolve("c"));
        Files.createDirectories(tree.resolve(".e"));
        Files.createSymbolicLink(tree.resolve("d-inside"), tree.resolve(".e"));
        Files.createSymbolicLink(tree.resolve("f-again"), tree.resolve("c"));
        Files.writeString(tree.resolve("c/z-job.yaml"), JOB);
        Files.writeString(tree.resolve(".e/z-job.yaml"), JOB);
        Files.writeString(tree.resolve("z-job.yaml"), JOB);
        PlanCli.Run r = run(tree.toString());
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("z-job.yaml:3:10: error: job 'j' runs on cluster 'nowhere'"), r.out());
        assertTrue(r.out().contains("c/z-job.yaml:3:10"), r.out());
        assertTrue(r.out().contains("d-inside/z-job.yaml:3:10"), "a link inside the tree is followed: " + r.out());
        assertFalse(r.out().contains("f-again/"), "a file met under two names is linted once, under the first: " + r.out());
        assertFalse(r.out().contains("a-root/"), r.out());
    }

    @Test
    void oneUnreadableFolderCostsOnlyItself(@TempDir Path dir) throws IOException {
        assumeTrue(!"root".equals(System.getProperty("user.name")), "root reads every folder");
        Path locked = Files.createDirectories(dir.resolve("a-locked"));
        Files.writeString(locked.resolve("job.yaml"), JOB);
        Files.writeString(dir.resolve("z-job.yaml"), JOB);
        locked.toFile().setReadable(false);
        try {
            PlanCli.Run r = run(dir.toString());
            assertEquals(2, r.code());
            assertTrue(r.out().contains("a-locked:1:1: error: cannot read '"), r.out());
            assertTrue(r.out().contains("z-job.yaml:3:10"), r.out());
        } finally {
            locked.toFile().setReadable(true);
        }
    }

    @Test
    void aReportThatCannotBeWrittenExitsTwoWithAMessage() {
        StringWriter err = new StringWriter();
        Writer broken = new Writer() {
            @Override public void write(char[] c, int o, int n) throws IOException { throw new IOException("No space left on device"); }
            @Override public void flush() throws IOException { throw new IOException("No space left on device"); }
            @Override public void close() {}
        };
        int code = Main.run(new String[] {"../samples/sound"}, new PrintWriter(broken), new PrintWriter(err));
        assertEquals(2, code);
        assertTrue(err.toString().contains("gpulint: cannot write the report to standard output"), err.toString());
    }

    @Test
    void outputToAFolderOrUnderAFileIsAUsageError(@TempDir Path dir) throws IOException {
        PlanCli.Run folder = run("-o", dir.toString(), "../samples/sound");
        assertEquals(2, folder.code());
        assertTrue(folder.err().contains("cannot write --output " + dir + ": it is a folder, not a file"), folder.err());
        assertFalse(folder.err().contains("internal error"), folder.err());
        Path file = Files.writeString(dir.resolve("file"), "x");
        PlanCli.Run under = run("-o", file.resolve("report.txt").toString(), "../samples/sound");
        assertEquals(2, under.code());
        assertTrue(under.err().contains("cannot write --output " + file.resolve("report.txt")), under.err());
        assertFalse(under.err().contains("internal error"), under.err());
        if (Files.exists(Path.of("/dev/full"))) {
            PlanCli.Run full = run("-o", "/dev/full", "../samples/sound");
            assertEquals(2, full.code());
            assertTrue(full.err().contains("cannot write --output /dev/full"), full.err());
        }
    }

    @Test
    void outputIsMovedIntoPlaceAndLeavesNoTemporaryFile(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("report.txt");
        Files.writeString(out, "old");
        assertEquals(0, run("-o", out.toString(), "../samples/sound").code());
        assertEquals("0 errors, 0 warnings, 0 notes in 31 files\n", Files.readString(out));
        try (var s = Files.list(dir)) {
            assertEquals(List.of(out), s.toList());
        }
    }

    @Test
    void controlCharactersInFileNamesAreEscapedInText(@TempDir Path dir) throws IOException {
        Path f = Files.writeString(dir.resolve("a\u001b[31mb\rc\nd.yaml"), JOB);
        PlanCli.Run r = run(f.toString());
        assertFalse(r.out().contains("\u001b") || r.out().contains("\r"), r.out());
        assertTrue(r.out().contains("a\\x1b[31mb\\rc\\nd.yaml:3:10: error: job 'j'"), r.out());
        PlanCli.Run g = run("-f", "github", f.toString());
        assertFalse(g.out().contains("\u001b"), g.out());
    }

    @Test
    void aBaselineThatIsNoSarif210IsRefused(@TempDir Path dir) throws IOException {
        Path good = Files.writeString(dir.resolve("job.yaml"), JOB);
        Map<String, String> bad = Map.of(
                "empty.sarif", "",
                "v1.sarif", "{\"version\": \"1.0.0\", \"runs\": []}",
                "array.sarif", "[1, 2]",
                "runs.sarif", "{\"version\": \"2.1.0\", \"runs\": 3}",
                "text.sarif", "hello");
        for (var e : bad.entrySet()) {
            Path b = Files.writeString(dir.resolve(e.getKey()), e.getValue());
            PlanCli.Run r = run("--baseline", b.toString(), good.toString());
            assertEquals(2, r.code(), e.getKey());
            assertTrue(r.err().contains("cannot read the baseline " + b + ": it"), e.getKey() + ": " + r.err());
        }
        Path v1 = dir.resolve("v1.sarif");
        assertTrue(run("--baseline", v1.toString(), good.toString()).err().contains("it is SARIF 1.0.0; baselines are SARIF 2.1.0"));
        Path written = dir.resolve("ok.sarif");
        assertEquals(1, run("--write-baseline", written.toString(), good.toString()).code());
        assertEquals(0, run("--baseline", written.toString(), good.toString()).code());
    }

    @Test
    void maxFindingsPerRuleCapsOneRuleInOneFile(@TempDir Path dir) throws IOException {
        Path f = Files.writeString(dir.resolve("job.yaml"), JOB + "aa: 1\nbb: 2\ncc: 3\ndd: 4\nee: 5\n");
        PlanCli.Run all = run(f.toString());
        assertEquals(5, all.out().lines().filter(l -> l.contains("unknown field")).count(), all.out());
        PlanCli.Run r = run("--max-findings-per-rule", "2", f.toString());
        assertEquals(2, r.out().lines().filter(l -> l.contains("unknown field")).count(), r.out());
        assertTrue(r.out().contains("job.yaml:1:1: note: 3 more SYN002 findings in '" + f + "' were left out: at most 2 per rule "
                + "and file are reported (--max-findings-per-rule). [SYN002]"), r.out());
        assertEquals(2, run("--max-findings-per-rule", "0", f.toString()).code());
    }

    static Path fifo(Path p) throws Exception {
        Process mk = new ProcessBuilder("mkfifo", p.toString()).inheritIO().start();
        assumeTrue(mk.waitFor() == 0, "mkfifo is needed");
        return p;
    }

    @Test
    void aHugeValueQuotedByARuleIsCutInTheMessage(@TempDir Path dir) throws IOException {
        String model = "X".repeat(3_000_000);
        Path f = Files.writeString(dir.resolve("c.yaml"),
                "kind: cluster\nname: c\nnode_groups:\n  - name: g\n    count: 1\n    gpu: { model: " + model + ", count: 8 }\n");
        PlanCli.Run r = run("--max-file-size", "16 MiB", f.toString());
        assertEquals(0, r.code(), r.err()); // a warning: below the default --fail-on error
        assertTrue(r.out().contains("c.yaml:6:19: warning: GPU model 'XXXX"), r.out().substring(0, Math.min(200, r.out().length())));
        assertTrue(r.out().contains(" characters left out) … "), "the quoted model is cut");
        assertTrue(r.out().length() < 10_000, "report of " + r.out().length() + " characters");
    }
}
