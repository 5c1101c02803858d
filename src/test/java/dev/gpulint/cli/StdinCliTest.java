package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cat job.yaml | gpulint -} and, for editors, {@code --stdin-filename path/in/repo.yaml} (ruff's
 * convention): standard input is read like a file (bounded), its format decided by the name's extension,
 * findings reported under the name, and the configuration and the job's cluster found from the project
 * as for a file at that path.
 */
class StdinCliTest {

    @AfterEach
    void restore() {
        Main.workingDir = Path.of("");
        Main.stdin = Main.SYSTEM_IN;
    }

    private static PlanCli.Run pipe(Path cwd, String input, String... args) {
        Main.workingDir = cwd;
        Main.stdin = () -> new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8));
        return PlanCli.run(args);
    }

    static final String JOB_TP16 = "kind: training_job\nname: j\ncluster: pod\nnodes: 2\nparallelism: { tp: 16 }\n";

    private static Path project(Path repo) throws IOException {
        Files.createDirectories(repo.resolve(".git"));
        CliTest.write(repo, "clusters/pod.yaml", PreCommitSplitTest.CLUSTER);
        // the file on disk is the saved version; the editor sends its buffer on standard input
        CliTest.write(repo, "jobs/job.yaml", "kind: training_job\nname: j\ncluster: pod\nnodes: 2\nparallelism: { tp: 8 }\n");
        return repo;
    }

    @Test
    void stdinIsLintedAsTheFileItStandsFor(@TempDir Path repo) throws IOException {
        project(repo);
        PlanCli.Run r = pipe(repo, JOB_TP16, "--stdin-filename", "jobs/job.yaml");
        assertEquals(1, r.code(), r.out());
        assertTrue(r.out().startsWith("jobs/job.yaml:5:20: error: tp=16 spans 2 nodes"), "stdin's text, under the name: " + r.out());
        assertTrue(r.out().contains("  related: clusters/pod.yaml:5:65:"), "the cluster comes from the project: " + r.out());
        assertFalse(r.out().contains("SYN003"), r.out());
        assertTrue(r.out().endsWith("1 error, 0 warnings, 0 notes in 1 file\n"), "the file on disk is not linted too: " + r.out());
        // from another working directory, the same project and findings, under the name as given
        PlanCli.Run away = pipe(repo.resolve("clusters"), JOB_TP16, "--stdin-filename", "../jobs/job.yaml", "-");
        assertTrue(away.out().startsWith("../jobs/job.yaml:5:20: error: tp=16 spans 2 nodes"), away.out());
    }

    @Test
    void theConfigurationOfTheStdinFilenamesProjectApplies(@TempDir Path tmp) throws IOException {
        Path repo = project(tmp.resolve("repo"));
        CliTest.write(repo, ".gpulint.yaml", "rules:\n  PAR002: note\n");
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        PlanCli.Run r = pipe(elsewhere, JOB_TP16, "--stdin-filename", repo.resolve("jobs/job.yaml").toString());
        assertEquals(0, r.code(), r.out());
        assertTrue(r.out().startsWith(repo.resolve("jobs/job.yaml") + ":5:20: note: tp=16 spans 2 nodes"), r.out());
    }

    @Test
    void theFormatComesFromTheNamesExtensionAndIsYamlWithoutOne(@TempDir Path dir) {
        String topo = "training_job \"k\" { cluster = \"nowhere\" }\n";
        PlanCli.Run dsl = pipe(dir, topo, "--stdin-filename", "jobs/k.topo");
        assertTrue(dsl.out().startsWith("jobs/k.topo:1:30: error: job 'k' runs on cluster 'nowhere'"), dsl.out());
        PlanCli.Run plain = pipe(dir, "kind: training_job\nname: j\ncluster: nowhere\n", "-");
        assertEquals(1, plain.code(), plain.out());
        assertTrue(plain.out().startsWith("<stdin>:3:10: error: job 'j' runs on cluster 'nowhere'"), plain.out());
        PlanCli.Run notYaml = pipe(dir, topo, "-");
        assertEquals(0, notYaml.code(), "DSL text without a .topo name is read as YAML (a plain scalar): " + notYaml.out());
        assertTrue(notYaml.err().startsWith("gpulint: no gpulint manifests found in standard input"), notYaml.err());
    }

    @Test
    void stdinIsBoundedAndDecodedLikeAFile(@TempDir Path dir) {
        PlanCli.Run big = pipe(dir, "kind: cluster\n" + "# padding\n".repeat(200), "--max-file-size", "1 KiB", "-");
        assertEquals(2, big.code());
        assertTrue(big.out().startsWith("<stdin>:1:1: error: standard input is more than the 1 KiB gpulint reads per file"), big.out());
        PlanCli.Run nul = pipe(dir, "a: \u0000\n", "--stdin-filename", "x.yaml");
        assertTrue(nul.out().startsWith("x.yaml:1:1: error: 'x.yaml' is a binary file (it contains NUL bytes)"), nul.out());
    }

    @Test
    void stdinIsLintedWithTheFilesNamedBesideIt(@TempDir Path repo) throws IOException {
        project(repo);
        // `gpulint - clusters/`: the job comes on standard input, its cluster from the folder
        PlanCli.Run r = pipe(repo, JOB_TP16, "-", "clusters/");
        assertEquals(1, r.code(), r.err());
        assertTrue(r.out().startsWith("<stdin>:5:20: error: tp=16 spans 2 nodes"), r.out());
        assertTrue(r.out().endsWith(" in 2 files\n"), r.out());
        PlanCli.Run named = pipe(repo, JOB_TP16, "--stdin-filename", "jobs/job.yaml", "clusters/pod.yaml");
        assertTrue(named.out().startsWith("jobs/job.yaml:5:20: error: tp=16 spans 2 nodes"), named.out());
    }

    @Test
    void afterDoubleDashADashIsTheFileNamedDash(@TempDir Path dir) throws IOException {
        CliTest.write(dir, "-", "kind: training_job\nname: from-the-file\ncluster: nowhere\n");
        PlanCli.Run r = pipe(dir, "kind: training_job\nname: from-stdin\ncluster: nowhere\n", "--", "-");
        assertTrue(r.out().contains("job 'from-the-file' runs on cluster 'nowhere'"), r.out());
        assertFalse(r.out().contains("from-stdin"), r.out());
    }

    @Test
    void aClosedStandardInputIsSaidSo(@TempDir Path dir) {
        Main.env = java.util.Map.of("GPULINT_STDIN_CLOSED", "1")::get;
        try {
            PlanCli.Run r = pipe(dir, "", "-");
            assertEquals(2, r.code());
            assertEquals("gpulint: standard input is closed: pipe a manifest in (cat job.yaml | gpulint -), or name the files to lint\n",
                    r.err());
        } finally {
            Main.env = System::getenv;
        }
    }

    @Test
    void aConfigurationThatIsAFolderIsAnError(@TempDir Path repo) throws IOException {
        Files.createDirectories(repo.resolve(".git"));
        Files.createDirectories(repo.resolve(".gpulint.yaml"));
        CliTest.write(repo, "c.yaml", ProjectRootCliTest.ROCE);
        Main.workingDir = repo;
        PlanCli.Run r = PlanCli.run("c.yaml");
        assertEquals(2, r.code(), r.out());
        assertTrue(r.out().startsWith(".gpulint.yaml:1:1: error: '.gpulint.yaml' is a folder, not a configuration file: "
                + "gpulint reads its configuration from a file of that name; no configuration is used."), r.out());
    }

    @Test
    void aReportBeingWrittenIsRemovedWhenTheProcessIsStopped(@TempDir Path dir) throws IOException {
        Path tmp = dev.gpulint.core.TempFiles.create(dir, "report.sarif", ".tmp");
        assertTrue(dev.gpulint.core.TempFiles.pending(tmp));
        dev.gpulint.core.TempFiles.removeAll();      // what the shutdown hook runs on SIGTERM
        assertFalse(Files.exists(tmp));
        dev.gpulint.core.TempFiles.done(tmp);
    }
}
