package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.gpulint.testing.CpuLimit;

/** Issue #25, round 3 of hostile input at the command line: limits, reports over inputs, excludes. */
class HostileRound3CliTest {

    private static PlanCli.Run run(String... args) { return PlanCli.run(args); }

    private static final String JOB = "kind: training_job\nname: j\ncluster: nowhere\n";

    @Test
    @CpuLimit(seconds = 60)   // a hang guard: the wrapped limit spun forever
    void aMaxFileSizeBeyondWhatCanBeReadIsAUsageError(@TempDir Path dir) throws IOException {
        Path job = Files.writeString(dir.resolve("job.yaml"), JOB);
        PlanCli.Run r = run("--max-file-size", "99999999999GiB", job.toString());
        assertEquals(2, r.code());
        assertEquals("gpulint: --max-file-size 99999999999GiB: the limit can be at most 1 GiB (files are read whole into memory; "
                + "manifests are kilobytes)\n", r.err());
        assertEquals("", r.out());
        // 1 GiB itself is allowed, and the file is linted
        assertEquals(1, run("--max-file-size", "1 GiB", job.toString()).code());
    }

    @Test
    void aMaxFileSizeBelowOneByteIsAUsageError(@TempDir Path dir) throws IOException {
        Path job = Files.writeString(dir.resolve("job.yaml"), JOB);
        for (String bad : new String[] {"-1GB", "0 B", "0.5 B"}) {
            PlanCli.Run r = run("--max-file-size", bad, job.toString());
            assertEquals(2, r.code(), bad);
            assertEquals("gpulint: --max-file-size " + bad + ": the limit must be at least 1 byte (e.g. 100 KiB, 8 MiB)\n", r.err());
            assertEquals("", r.out(), "nothing is linted: every file would be 'too large'");
        }
    }

    private static final String CLUSTER = "kind: cluster\nname: c\nnode_groups:\n  - name: g\n    count: 1\n"
            + "    gpu: { model: H100-SXM5-80GB, count: 8 }\n";

    @Test
    void aReportIsNeverWrittenOverAFileBeingLinted(@TempDir Path dir) throws IOException {
        Path job = Files.writeString(dir.resolve("job.yaml"), JOB);
        Path cluster = Files.writeString(dir.resolve("cluster.yaml"), CLUSTER);
        PlanCli.Run r = run("-o", job.toString(), job.toString(), cluster.toString());
        assertEquals(2, r.code());
        assertEquals("gpulint: will not write --output " + job + " over an input: it is a file named to be linted; "
                + "nothing was written, name another file\n", r.err());
        assertEquals(JOB, Files.readString(job), "the manifest is intact");
        // a file found by walking a folder, and a link to it, are inputs too
        Path link = Files.createSymbolicLink(dir.resolve("link.yaml"), cluster);
        PlanCli.Run walked = run("--format", "json", "-o", link.toString(), dir.toString());
        assertEquals(2, walked.code());
        assertTrue(walked.err().startsWith("gpulint: will not write --output " + link + " over an input: it is an input of this run ("),
                walked.err());
        assertEquals(CLUSTER, Files.readString(cluster));
        // --write-baseline too
        assertEquals(2, run("--write-baseline", cluster.toString(), job.toString(), cluster.toString()).code());
        assertEquals(CLUSTER, Files.readString(cluster));
    }

    @Test
    void aReportIsNeverWrittenOverTheConfigurationOrTheBaseline(@TempDir Path dir) throws IOException {
        Path job = Files.writeString(dir.resolve("job.yaml"), JOB);
        String config = "rules:\n  SYN003: \"off\"\n";
        Path cfg = Files.writeString(dir.resolve(".gpulint.yaml"), config);
        PlanCli.Run r = run("-o", cfg.toString(), job.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("over an input: it is the configuration file;"), r.err());
        assertEquals(config, Files.readString(cfg));
        Path base = dir.resolve("base.sarif");
        assertTrue(run("--write-baseline", base.toString(), job.toString()).code() < 2);
        String written = Files.readString(base);
        PlanCli.Run b = run("--baseline", base.toString(), "--format", "sarif", "-o", base.toString(), job.toString());
        assertEquals(2, b.code());
        assertTrue(b.err().contains("over an input: it is the baseline this run reads (--baseline);"), b.err());
        assertEquals(written, Files.readString(base));
        PlanCli.Run both = run("-o", dir.resolve("r").toString(), "--write-baseline", dir.resolve("r").toString(), job.toString());
        assertEquals(2, both.code());
        assertEquals("gpulint: --output and --write-baseline name the same file, " + dir.resolve("r") + ": give each its own\n", both.err());
    }

    @Test
    void anEarlierReportInTheLintedFolderIsNoInput(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("job.yaml"), JOB);
        Path report = dir.resolve("report.json");
        assertEquals(1, run("--format", "json", "-o", report.toString(), dir.toString()).code());
        // the second run walks report.json (a JSON file, not gpulint's) and may write it again
        PlanCli.Run again = run("--format", "json", "-o", report.toString(), dir.toString());
        assertEquals(1, again.code(), again.err());
        assertEquals("", again.err());
    }

    @Test
    void excludeAppliesToFilesNamedOnTheCommandLine(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve(".gpulint.yaml"), "exclude: [\"legacy/**\"]\n");
        Path legacy = Files.createDirectories(dir.resolve("legacy")).resolve("tp16-job.yaml");
        Files.writeString(legacy, JOB);
        Path fresh = Files.writeString(dir.resolve("job.yaml"), JOB.replace("name: j", "name: k"));
        // as pre-commit runs it: options, --, every committed file by name
        PlanCli.Run r = run("--", legacy.toString(), fresh.toString());
        assertEquals(1, r.code(), r.out());
        assertTrue(r.out().contains("job.yaml:3:10: error: job 'k' runs on cluster 'nowhere'"), r.out());
        assertFalse(r.out().contains("legacy"), r.out());
        // the excluded file committed alone passes, and a person running it by hand is told why nothing was linted
        PlanCli.Run alone = run("--", legacy.toString());
        assertEquals(0, alone.code(), alone.out());
        assertEquals("0 errors, 0 warnings, 0 notes in 0 files\n", alone.out());
        assertEquals("gpulint: no gpulint manifests found in " + legacy + " (a manifest is a .topo file, or YAML with kind: cluster "
                + "or kind: training_job); 1 of the files named is left out by exclude in the configuration\n", alone.err());
        // standard input named as an excluded file too (ruff's force-exclude applies to --stdin-filename)
        Main.stdin = () -> new java.io.ByteArrayInputStream(JOB.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        try {
            PlanCli.Run in = run("-q", "--stdin-filename", legacy.toString());
            assertEquals(0, in.code(), in.out());
            assertEquals("", in.out());
        } finally {
            Main.stdin = () -> System.in;
        }
    }

    private static PlanCli.Run runIn(Path cwd, String... args) {
        Main.workingDir = cwd;
        try {
            return PlanCli.run(args);
        } finally {
            Main.workingDir = Path.of("");
        }
    }

    private static final String DEEPSPEED = "{\n  \"train_batch_size\": 1000,\n  \"train_micro_batch_size_per_gpu\": 16,\n"
            + "  \"gradient_accumulation_steps\": 4\n}\n";
    private static final String NEMO2 = "trainer:\n  _target_: nemo.lightning.pytorch.trainer.Trainer\n  devices: 8\n  num_nodes: 2\n"
            + "  strategy:\n    _target_: nemo.lightning.pytorch.strategies.megatron_strategy.MegatronStrategy\n"
            + "    tensor_model_parallel_size: 4\n    pipeline_model_parallel_size: 3\nmodel:\n  config:\n    num_layers: 32\n";

    private static java.util.List<String> fingerprints(String json) {
        java.util.List<String> out = new java.util.ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"fingerprint\" : \"([0-9a-f]+)\"").matcher(json);
        while (m.find()) out.add(m.group(1));
        return out;
    }

    @Test
    void fingerprintsOfOtherFormatsAreTheSameFromEveryWorkingDirectory(@TempDir Path repo) throws IOException {
        Files.createDirectories(repo.resolve(".git"));
        CliTest.write(repo, "samples/ds/ds_config.json", DEEPSPEED);
        CliTest.write(repo, "samples/recipes/llama_pp3.yaml", NEMO2);
        PlanCli.Run top = runIn(repo, "-f", "json", "samples/");
        PlanCli.Run sub = runIn(repo.resolve("samples"), "-f", "json", ".");
        java.util.List<String> fromTop = fingerprints(top.out()), fromSub = fingerprints(sub.out());
        assertTrue(fromTop.size() >= 2, top.out());
        assertEquals(fromTop, fromSub, top.out() + "\n" + sub.out());
        // and a baseline written at the root holds in the sub-folder
        assertEquals(1, runIn(repo, "--write-baseline", "gpulint-baseline.sarif", "samples/").code());
        PlanCli.Run base = runIn(repo.resolve("samples"), "--baseline", "../gpulint-baseline.sarif", ".");
        assertEquals(0, base.code(), base.out());
        assertTrue(base.out().endsWith("(" + fromTop.size() + " in the baseline)\n"), base.out());
    }

    @Test
    void aBaselineIsTheSameBytesOnEveryClone(@TempDir Path tmp) throws IOException {
        String[] written = new String[2];
        for (int i = 0; i < 2; i++) {
            Path repo = tmp.resolve("clone-" + i);
            Files.createDirectories(repo.resolve(".git"));
            CliTest.write(repo, "samples/ds/ds_config.json", DEEPSPEED);
            runIn(repo, "--write-baseline", "b.sarif", "samples/");
            written[i] = Files.readString(repo.resolve("b.sarif"));
        }
        assertFalse(written[0].contains(tmp.toString()), "no absolute path of the writer: " + written[0]);
        assertEquals(written[0], written[1]);
        assertTrue(written[0].contains("\"%SRCROOT%\" : {"), written[0]);
    }

    @Test
    void includeStaysInsideTheProjectUnlessTheCommandLineAllowsMore(@TempDir Path tmp) throws IOException {
        Path repo = Files.createDirectories(tmp.resolve("repo"));
        CliTest.write(tmp, "outside/c.yaml", CLUSTER.replace("name: c", "name: nowhere"));
        Files.createSymbolicLink(repo.resolve("out-link"), tmp.resolve("outside"));
        CliTest.write(repo, "job.yaml", JOB);
        for (String inc : new String[] {"../outside", tmp.resolve("outside").toString(), "out-link"}) {
            CliTest.write(repo, ".gpulint.yaml", "include: [\"" + inc + "\"]\n");
            PlanCli.Run r = runIn(repo, "job.yaml");
            assertEquals(2, r.code(), inc + ": " + r.out());
            assertTrue(r.out().contains(".gpulint.yaml:1:11: error: include '" + inc + "' in .gpulint.yaml lies outside the project "
                    + "(the configuration's folder" + (inc.equals("out-link") ? "; it leads out through a symbolic link" : "")
                    + "): a configuration comes with the repository, so gpulint reads nothing outside it for one; "
                    + "pass --include-outside-project to allow it. [SYN001]"), inc + ": " + r.out());
            assertTrue(r.out().contains("job.yaml:3:10: error: job 'j' runs on cluster 'nowhere', which no linted file defines"), r.out());
            // the command line may allow it: the cluster outside is read as context
            PlanCli.Run allowed = runIn(repo, "--include-outside-project", "job.yaml");
            assertFalse(allowed.out().contains("[SYN001]"), inc + ": " + allowed.out());
            assertFalse(allowed.out().contains("no linted file defines"), inc + ": " + allowed.out());
        }
    }

    @Test
    @CpuLimit(seconds = 60)   // a hang guard: "/" walked the machine
    void includeOfTheFileSystemRootIsNeverWalked(@TempDir Path repo) throws IOException {
        CliTest.write(repo, "job.yaml", JOB);
        CliTest.write(repo, ".gpulint.yaml", "include: [\"/\"]\n");
        for (String[] args : new String[][] {{"job.yaml"}, {"--include-outside-project", "job.yaml"}}) {
            PlanCli.Run r = runIn(repo, args);
            assertEquals(2, r.code(), r.out());
            assertTrue(r.out().contains(".gpulint.yaml:1:11: error: include '/' in .gpulint.yaml names the file system's root, which "
                    + "gpulint never walks; name the folders of your cluster files. [SYN001]"), r.out());
        }
    }
}
