package dev.gpulint.cli;

import static dev.gpulint.testing.PlanCli.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli.Run;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line as the README and `gpulint --help` describe it, run in process: output format and exit codes. */
class CliTest {

    @org.junit.jupiter.api.AfterEach
    void restoreEnvironment() { Main.env = System::getenv; }

    @Test
    void samplesHaveErrorsAndExitOne() {
        Run r = run("../samples");
        assertEquals(1, r.code(), r.err());
        assertTrue(r.out().contains("../samples/broken/tp16-job.yaml:12:7: error: tp=16 spans 2 nodes: ranks 0-15 sit on hgx-0 (0-7) and hgx-1 (8-15);"), r.out());
        assertTrue(r.out().contains("  help: keep tp at most the NVLink domain size and a divisor of it, and put pp or dp across nodes; see `gpulint explain PAR002`"));
        assertTrue(r.out().endsWith("40 errors, 14 warnings, 7 notes in 63 files\n"), r.out());
        assertEquals("", r.err());
    }

    @Test
    void soundSamplesPass() {
        Run r = run("check", "../samples/sound");
        assertEquals(0, r.code(), r.out());
        // every sample is read, the other formats (NeMo, Megatron-LM, Kubernetes, SkyPilot, DeepSpeed, DCGM, accelerate,
        // gpt-neox, NIC policies, NicClusterPolicy, HyperPod, Ray, MXJob, Argo, recipes, launch scripts, mlnx_qos setup
        // scripts, torchtitan) too; a script that launches nothing and sets no NIC QoS is not counted
        assertEquals("0 errors, 0 warnings, 0 notes in 31 files\n", r.out());
    }

    @Test
    void failOnDecidesTheExitCode(@TempDir Path dir) throws IOException {
        Path f = write(dir, "c.yaml", """
                kind: cluster
                name: eth
                fabric: { type: roce, roce: { pfc: { enabled: true } } }
                node_groups:
                  - { name: g, count: 1, gpu: { model: L4, count: 4 } }
                """);
        assertEquals(0, run(f.toString()).code(), "a warning does not fail by default");
        assertEquals(1, run("--fail-on", "warning", f.toString()).code());
        assertEquals(1, run("--fail-on", "note", f.toString()).code());
        assertEquals(0, run("--fail-on", "never", "../samples").code());
    }

    @Test
    void aFileThatDoesNotParseExitsTwoAndTheOthersAreStillLinted(@TempDir Path dir) throws IOException {
        write(dir, "a-bad.topo", "cluster \"x\" {\n");
        write(dir, "b-job.yaml", "kind: training_job\nname: j\ncluster: nowhere\n");
        Run r = run(dir.toString());
        assertEquals(2, r.code());
        assertTrue(r.out().contains("a-bad.topo:2:1: error: syntax error: unexpected end of file"), r.out());
        assertTrue(r.out().contains("b-job.yaml:3:10: error: job 'j' runs on cluster 'nowhere'"), r.out());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    @Test
    void badEncodingIsAFindingNotACrash(@TempDir Path dir) throws IOException {
        Path bin = dir.resolve("blob.yaml");
        Files.write(bin, new byte[] {(byte) 0xff, (byte) 0xfe, 'k', ':', ' ', (byte) 0xc3});
        Run r = run(bin.toString());
        assertEquals(2, r.code());
        assertTrue(r.out().contains("blob.yaml:1:1: error: '" + bin + "' is not UTF-8 text"), r.out());
        assertEquals("", r.err());
    }

    @Test
    void aMissingPathConfigOrRulesFolderIsBadUsageNamingIt(@TempDir Path dir) throws IOException {
        Path job = write(dir, "job.yaml", "kind: training_job\nname: j\ncluster: nowhere\n");
        Run r = run(dir.resolve("nope.yaml").toString(), job.toString());
        assertEquals(2, r.code(), r.out());
        assertEquals("gpulint: no such file or folder: " + dir.resolve("nope.yaml") + "\n", r.err());
        assertEquals("", r.out(), "nothing is linted: the command line is wrong");
        Run all = run("-c", "no-config.yaml", "--rules", "no-rules", "missing/");
        assertEquals(2, all.code());
        assertEquals("gpulint: --config: no such file: no-config.yaml\ngpulint: --rules: no such folder: no-rules\n"
                + "gpulint: no such file or folder: missing/\n", all.err());
        assertFalse(all.err().contains("syntax"), all.err());
    }

    @Test
    void badUsageExitsTwo() {
        Run r = run("--format", "xml", "../samples");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("xml"), r.err());
    }

    @Test
    void explainPrintsTheHelpPage() {
        Run r = run("explain", "PAR002");
        assertEquals(0, r.code());
        assertTrue(r.out().startsWith("# PAR002 tp-crosses-node\n"), r.out());
        assertEquals(r.out(), run("explain", "tp-crosses-node").out(), "by name too");
        Run bad = run("explain", "PAR02");
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("unknown rule 'PAR02'; did you mean PAR002?"), bad.err());
    }

    @Test
    void rulesListsTheCatalog() {
        Run r = run("rules");
        assertEquals(0, r.code());
        assertTrue(r.out().contains("PAR002   error    tp-crosses-node"), r.out());
        String json = run("rules", "--format", "json").out();
        assertTrue(json.contains("\"remediation\" : "), json);
        assertFalse(json.contains("helpUri"), "no guessed address for the help pages: " + json);
    }

    @Test
    void versionAndHelp() {
        assertTrue(run("--version").out().startsWith("gpulint "));
        Run h = run("--help");
        assertEquals(0, h.code());
        assertTrue(h.out().contains("explain"), h.out());
    }

    @Test
    void outputFileAndFormats(@TempDir Path dir) throws IOException {
        Path out = dir.resolve("reports/gpulint.json");
        Run r = run("-f", "json", "-o", out.toString(), "../samples/broken/tp16-job.yaml", "../samples/broken/roce-cluster.yaml");
        assertEquals(1, r.code());
        assertEquals("", r.out());
        String json = Files.readString(out);
        assertTrue(json.contains("\"ruleId\" : \"PAR002\""), json);
        assertTrue(json.contains("\"errors\" : 5"), json);
    }

    @Test
    void sameInputSameBytes() {
        String a = run("-f", "sarif", "../samples").out();
        String b = run("-f", "sarif", "../samples/sound", "../samples/broken").out();
        assertEquals(a, b);
        assertEquals(run("../samples").out(), run("../samples").out());
    }

    @Test
    void githubFormatIsChosenInsideGitHubActions() {
        Main.env = name -> name.equals("GITHUB_ACTIONS") ? "true" : null;
        Run r = run("../samples/broken/tp16-job.yaml", "../samples/broken/roce-cluster.yaml");
        assertEquals(1, r.code());
        assertTrue(r.out().contains("::error file=../samples/broken/tp16-job.yaml,line=12,col=7,endLine=12,endColumn=9,"
                + "title=PAR002 tp-crosses-node::tp=16 spans 2 nodes"), r.out());
        assertTrue(r.out().contains("::warning file=../samples/broken/roce-cluster.yaml,line=6,col=9,"), r.out());
        assertTrue(run("-f", "text", "../samples/broken/tp16-job.yaml", "../samples/broken/roce-cluster.yaml").out()
                .contains("tp16-job.yaml:12:7: error:"), "an explicit format wins");
    }

    @Test
    void configIncludeResolvesAJobChangedAlone(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("clusters"));
        write(dir.resolve("clusters"), "pod.yaml", """
                kind: cluster
                name: pod
                fabric: { type: roce }
                node_groups:
                  - { name: g, count: 2, gpu: { model: H100-SXM5-80GB, count: 8 } }
                """);
        Path job = write(dir, "job.yaml", "kind: training_job\nname: j\ncluster: pod\nnodes: 2\nparallelism: { tp: 16 }\n");
        Run without = run(job.toString());
        assertTrue(without.out().contains("runs on cluster 'pod', which no linted file defines"), without.out());
        Path cfg = write(dir, ".gpulint.yaml", "include: [clusters/]\nexclude: [\"legacy/**\"]\n");
        Run with = run("-c", cfg.toString(), job.toString());
        assertFalse(with.out().contains("no linted file defines"), with.out());
        assertTrue(with.out().contains("job.yaml:5:20: error: tp=16 spans 2 nodes"), with.out());
        assertFalse(with.out().contains("[NET001]"), "the included cluster's own findings are context: " + with.out());
        assertTrue(with.out().contains("  related: " + dir.resolve("clusters/pod.yaml") + ":5:63:"), "it is still referred to");
        assertTrue(with.out().endsWith("in 1 file\n"), with.out());
        // linted explicitly, the cluster's findings are reported
        assertTrue(run("-c", cfg.toString(), job.toString(), dir.resolve("clusters").toString()).out().contains("[NET001]"));
    }

    @Test
    void configExcludeAndUnknownKeys(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("legacy"));
        write(dir.resolve("legacy"), "old.yaml", "kind: training_job\nname: old\ncluster: gone\n");
        Path cfg = write(dir, ".gpulint.yaml", "exclude: [\"legacy/**\"]\n");
        assertEquals(0, run("-c", cfg.toString(), dir.toString()).code());
        Path bad = write(dir, "bad.yaml", "includes: [clusters/]\n");
        Run r = run("-c", bad.toString(), dir.resolve("legacy").toString());
        assertEquals(2, r.code());
        assertTrue(r.out().contains("bad.yaml:1:1: error: unknown key 'includes' in "), r.out());
        assertTrue(r.out().contains("did you mean 'include'?"), r.out());
    }

    @Test
    void limitsAndEmptyFolders(@TempDir Path dir) throws IOException {
        Path big = write(dir, "big.yaml", "kind: cluster\n" + "# padding\n".repeat(20_000));
        Run r = run("--max-file-size", "100 KiB", big.toString());
        assertEquals(2, r.code());
        assertTrue(r.out().contains("big.yaml:1:1: error: '" + big + "' is 195.326 KiB, more than the 100 KiB gpulint reads per file"), r.out());
        Path nul = dir.resolve("nul.yaml");
        Files.write(nul, new byte[] {'a', ':', ' ', 0, '\n'});
        assertTrue(run(nul.toString()).out().contains("is a binary file (it contains NUL bytes)"));
        Path empty = Files.createDirectories(dir.resolve("empty"));
        write(empty, "values.yaml", "replicaCount: 1\n");
        Run none = run(empty.toString());
        assertEquals(0, none.code());
        assertTrue(none.err().contains("gpulint: no gpulint manifests found in " + empty), none.err());
        assertEquals(2, run("--fail-if-no-manifests", empty.toString()).code());
    }

    private static final String USER_META = "id: MY001\nname: small-jobs-only\nlevel: warning\ntitle: Jobs stay small\n"
            + "description: Our queue limits jobs to one node.\nremediation: split the job\n";

    @Test
    void userRulesRunBesideTheBuiltInOnes(@TempDir Path dir) throws IOException {
        write(dir, "MY001.drl", """
                package custom;
                import dev.gpulint.facts.JobFact;
                global dev.gpulint.engine.FindingSink sink;
                rule "MY001 one node per job"
                    @id("MY001")
                when
                    $j : JobFact( nodes > 1 )
                then
                    sink.report("MY001", $j.getNodesSpan(), $j.identity(), "job '" + $j.getName() + "' uses " + $j.getNodes() + " nodes");
                end
                """);
        write(dir, "MY001.yaml", USER_META);
        Run r = run("--rules", dir.toString(), "../samples/broken/tp16-job.yaml", "../samples/broken/roce-cluster.yaml");
        assertEquals(1, r.code(), r.err());
        assertTrue(r.out().contains("../samples/broken/tp16-job.yaml:6:8: warning: job 'gpt-175b' uses 4 nodes. [MY001]"), r.out());
        assertTrue(r.out().contains("  help: split the job; see `gpulint explain MY001`"), r.out());
        assertTrue(r.out().contains("[PAR002]"), "the built-in rules still run");
        String sarif = run("-f", "sarif", "--rules", dir.toString(), "../samples/broken/tp16-job.yaml").out();
        assertTrue(sarif.contains("\"id\" : \"MY001\""), "user rules join SARIF's rules[]");
    }

    @Test
    void testRulesRunsAUserRulesCases(@TempDir Path dir) throws IOException {
        write(dir, "MY001.drl", """
                package custom;
                import dev.gpulint.facts.JobFact;
                global dev.gpulint.engine.FindingSink sink;
                rule "MY001" @id("MY001")
                when $j : JobFact( nodes > 1 )
                then sink.report("MY001", $j.getNodesSpan(), $j.identity(), "job '" + $j.getName() + "' uses " + $j.getNodes() + " nodes");
                end
                """);
        write(dir, "MY001.yaml", USER_META);
        write(dir, "MY001.test.yaml", """
                rule: MY001
                cases:
                  - name: two nodes
                    files:
                      j.yaml: "kind: training_job\\nname: j\\nnodes: 2\\n"
                    expect:
                      - { file: j.yaml, line: 3, column: 8, message: "job 'j' uses 2 nodes." }
                  - name: one node
                    files:
                      j.yaml: "kind: training_job\\nname: j\\nnodes: 1\\n"
                    expect: []
                  - name: a wrong expectation
                    files:
                      j.yaml: "kind: training_job\\nname: j\\nnodes: 3\\n"
                    expect: []
                """);
        Run r = run("test-rules", dir.toString());
        assertEquals(1, r.code(), r.out());
        assertTrue(r.out().contains("PASS MY001: two nodes\nPASS MY001: one node\nFAIL MY001: a wrong expectation"), r.out());
        assertTrue(r.out().contains("    j.yaml:3:8: job 'j' uses 3 nodes."), r.out());
        assertTrue(r.out().endsWith("2 passed, 1 failed\n"), r.out());
    }

    @Test
    void aUserRuleThatDoesNotCompileIsAFindingWithItsLine(@TempDir Path dir) throws IOException {
        write(dir, "MY001.drl", "package custom;\nimport dev.gpulint.facts.JobFact;\nrule \"x\"\nwhen\n  $j : JobFact( nodez > 1 )\nthen\nend\n");
        write(dir, "MY001.yaml", USER_META);
        Run r = run("--rules", dir.toString(), "../samples/broken/tp16-job.yaml", "../samples/broken/roce-cluster.yaml");
        assertEquals(2, r.code());
        assertTrue(r.out().contains("MY001.drl:5:1: error: user rule file does not compile: Unable to Analyse Expression nodez > 1"), r.out());
        assertTrue(r.out().contains("[PAR002]"), "the built-in rules still run: " + r.out());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    @Test
    void aRunawayUserRuleIsStopped(@TempDir Path dir) throws IOException {
        write(dir, "MY001.drl", """
                package custom;
                import dev.gpulint.facts.JobFact;
                rule "seed" when JobFact() then insert(Integer.valueOf(0)); end
                rule "forever" when $i : Integer() then insert(Integer.valueOf($i + 1)); end
                """);
        write(dir, "MY001.yaml", USER_META);
        Run r = run("--rules", dir.toString(), "../samples/broken/tp16-job.yaml");
        assertTrue(r.out().contains("were stopped: a rule keeps re-triggering itself"), r.out());
        assertEquals(1, r.code());
    }

    @Test
    void inlineSuppressionsWithReasonsAndExpiry(@TempDir Path dir) throws IOException {
        Path c = write(dir, "c.yaml", """
                kind: cluster
                name: lab
                fabric:
                  # gpulint: ignore NET001, NET002 -- lab network, no RDMA traffic
                  type: roce
                node_groups:
                  - { name: g, count: 1, gpu: { model: H100-SXM5-80GB, count: 8 } }
                """);
        Run r = run(c.toString());
        assertEquals(0, r.code(), r.out());
        assertEquals("0 errors, 0 warnings, 0 notes in 1 file (2 suppressed)\n", r.out());
        String sarif = run("-f", "sarif", c.toString()).out();
        assertTrue(java.util.regex.Pattern.compile("\"suppressions\" : \\[ \\{\\s*\"kind\" : \"inSource\",\\s*\"justification\" : \"lab network, no RDMA traffic\"")
                .matcher(sarif).find(), sarif);
        Path expired = write(dir, "c.yaml", Files.readString(c).replace("-- lab", "until=2020-01-01 -- lab"));
        Run e = run(expired.toString());
        assertEquals(1, e.code(), e.out());
        assertTrue(e.out().contains("(its suppression at line 4 expired on 2020-01-01). [NET001]"), e.out());
    }

    @Test
    void configTurnsRulesOffAndChangesLevels(@TempDir Path dir) throws IOException {
        Path c = write(dir, "c.yaml", "kind: cluster\nname: lab\nfabric: { type: roce }\nnode_groups:\n"
                + "  - { name: g, count: 1, gpu: { model: H100-SXM5-80GB, count: 8 } }\n");
        Path cfg = write(dir, "cfg.yaml", "rules:\n  NET001: warning\n  roce-without-ecn: off\n");
        Run r = run("-c", cfg.toString(), c.toString());
        assertEquals(0, r.code(), r.out());
        assertTrue(r.out().contains("warning: cluster 'lab' runs RoCE (fabric type roce) but states no PFC"), r.out());
        assertFalse(r.out().contains("[NET002]"), r.out());
        Path bad = write(dir, "bad.yaml", "rules:\n  NET01: off\n  NET002: loud\n");
        Run b = run("-c", bad.toString(), c.toString());
        assertEquals(2, b.code());
        assertTrue(b.out().contains("bad.yaml:2:3: error: 'NET01' in the rules of "), b.out());
        assertTrue(b.out().contains("did you mean 'NET001'?"), b.out());
        assertTrue(b.out().contains("bad.yaml:3:11: error: rule setting 'loud' for NET002 must be off, error, warning or note"), b.out());
    }

    @Test
    void baselineReportsOnlyNewFindingsAndSurvivesEditsAbove(@TempDir Path dir) throws IOException {
        Path c = write(dir, "c.yaml", "kind: cluster\nname: lab\nfabric: { type: roce }\nnode_groups:\n"
                + "  - { name: g, count: 1, gpu: { model: H100-SXM5-80GB, count: 8 } }\n");
        Path base = dir.resolve("gpulint-baseline.sarif");
        Run first = run("--write-baseline", base.toString(), c.toString());
        assertEquals(1, first.code());
        assertTrue(Files.readString(base).contains("\"gpulint/v1\""));
        // lines inserted above the findings, and a new mistake
        write(dir, "c.yaml", "# owned by the lab team\n# reviewed 2026-11\n\n" + Files.readString(c)
                + "  - { name: h, count: 1, gpu: { model: L40S, count: 4 }, nvlink: { switch: true } }\n");
        Run after = run("--baseline", base.toString(), c.toString());
        assertEquals(1, after.code(), after.out());
        assertFalse(after.out().contains("[NET001]"), "baselined findings stay quiet after edits above: " + after.out());
        assertTrue(after.out().contains("c.yaml:9:58: error: node group 'h' declares NVLink for L40S"), after.out());
        assertTrue(after.out().endsWith("1 error, 0 warnings, 0 notes in 1 file (2 in the baseline)\n"), after.out());
    }

    /**
     * A file that does not parse is not linted, so what else is wrong in it is unknown: its SYN001 is never accepted
     * by a baseline (as ruff reports syntax errors whatever its ignores say). --write-baseline does not record it,
     * and a baseline that holds its fingerprint anyway (here a full SARIF report used as one) still reports it, exit 2.
     */
    @Test
    void aParseErrorIsNeverBaselined(@TempDir Path dir) throws IOException {
        Path c = write(dir, "c.yaml", "kind: cluster\nname: lab\nfabric: { type: roce }\nnode_groups:\n"
                + "  - { name: g, count: 1, gpu: { model: H100-SXM5-80GB, count: 8 } }\n");
        Path bad = write(dir, "bad.yaml", "kind: cluster\nname: [lab\n");
        Path written = dir.resolve("written.sarif");
        assertEquals(2, run("--write-baseline", written.toString(), c.toString(), bad.toString()).code());
        assertFalse(Files.readString(written).contains("\"ruleId\" : \"SYN001\""), "a parse error is not recorded");
        Path report = dir.resolve("report.sarif");
        assertEquals(2, run("-f", "sarif", "-o", report.toString(), c.toString(), bad.toString()).code());
        assertTrue(Files.readString(report).contains("\"ruleId\" : \"SYN001\""), "the report holds the parse error's fingerprint");
        for (Path baseline : java.util.List.of(written, report)) {
            Run r = run("--baseline", baseline.toString(), c.toString(), bad.toString());
            assertEquals(2, r.code(), r.out());
            assertTrue(r.out().contains("bad.yaml:3:1: error: YAML syntax error"), r.out());
            assertFalse(r.out().contains("[NET001]"), "the other findings are baselined: " + r.out());
            assertTrue(r.out().endsWith("1 error, 0 warnings, 0 notes in 2 files (2 in the baseline)\n"), r.out());
        }
    }

    @Test
    void configThresholdsAndCatalogAdditions(@TempDir Path dir) throws IOException {
        Path j = write(dir, "j.yaml", """
                kind: cluster
                name: lab
                node_groups:
                  - { name: g, count: 1, gpu: { model: H20-SXM-96GB, count: 8 }, nvlink: { switch: true } }
                ---
                kind: training_job
                name: j
                cluster: lab
                nodes: 1
                model: { parameters: 21B }
                parallelism: { tp: 1, pp: 4, dp: 2 }
                batch: { micro_batches: 12 }
                """);
        Run plain = run(j.toString());
        assertTrue(plain.out().contains("GPU model 'H20-SXM-96GB' is not in gpulint's hardware catalog"), plain.out());
        assertFalse(plain.out().contains("[PAR006]"), "a 20% bubble is under the default 25% note threshold");
        Path cfg = write(dir, "cfg.yaml", """
                thresholds:
                  bubble_note: 0.1
                  memory_warning_percent: 80
                catalog:
                  gpus:
                    - name: H20-SXM-96GB
                      family: H20
                      form: sxm
                      memory: 96 GiB
                      nvlink_generation: 4
                      nvswitch: true
                      source: vendor datasheet
                """);
        Run r = run("-c", cfg.toString(), j.toString());
        assertFalse(r.out().contains("[HW003]"), r.out());
        assertTrue(r.out().contains("j.yaml:11:27: note: pp=4 with 12 micro-batches per step"), r.out());
        assertTrue(r.out().contains("the H20-SXM-96GB has 96 GiB (103.08 GB), so that is 81% of its memory"), r.out());
        assertTrue(r.out().contains("less than 20% is left for activations"), r.out());
        Path bad = write(dir, "bad.yaml", "thresholds:\n  bubble_noet: 0.1\ncatalog:\n  gpus:\n    - { name: X1 }\n");
        Run b = run("-c", bad.toString(), j.toString());
        assertEquals(2, b.code());
        assertTrue(b.out().contains("unknown threshold 'bubble_noet' in " + bad + "; did you mean 'bubble_note'?"), b.out());
        assertTrue(b.out().contains("the catalog of " + bad + ": catalog GPU X1 lacks 'family'"), b.out());
    }

    @Test
    void jobClustersPlaceJobsOfOtherFormats(@TempDir Path dir) throws IOException {
        write(dir, "clusters/pod.yaml", """
                kind: cluster
                name: ib-pod
                fabric: { type: infiniband }
                node_groups:
                  - { name: dgx, count: 2, gpu: { model: H100-SXM5-80GB, count: 8 }, nvlink: { switch: true } }
                """);
        Path job = write(dir, "training/llm.yaml", """
                trainer: { num_nodes: 2, devices: 8 }
                model:
                  micro_batch_size: 1
                  global_batch_size: 64
                  tensor_model_parallel_size: 16
                env_vars:
                  NCCL_IB_DISABLE: 1
                """);
        Run alone = run(dir.resolve("clusters").toString(), job.toString());
        assertFalse(alone.out().contains("[PAR002]"), "a NeMo file names no cluster: " + alone.out());
        assertFalse(alone.out().contains("[NCCL001]"), alone.out());
        Path cfg = write(dir, ".gpulint.yaml", "job_clusters:\n  - { files: \"training/**\", cluster: ib-pod }\n");
        Run r = run("-c", cfg.toString(), dir.resolve("clusters").toString(), job.toString());
        assertTrue(r.out().contains(job + ":5:31: error: tp=16 spans 2 nodes: ranks 0-15 sit on dgx-0 (0-7) and dgx-1 (8-15)"), r.out());
        assertTrue(r.out().contains(job + ":7:20: error: NCCL_IB_DISABLE=1 turns off NCCL's InfiniBand/RoCE transport on cluster 'ib-pod'"), r.out());
        Path bad = write(dir, "bad.yaml", "job_clusters:\n  - { files: \"training/**\", clutser: ib-pod }\n  - cluster: x\n");
        Run b = run("-c", bad.toString(), job.toString());
        assertEquals(2, b.code(), b.out());
        assertTrue(b.out().contains("unknown key 'clutser' in entry 1 of 'job_clusters'; did you mean 'cluster'?"), b.out());
        assertTrue(b.out().contains("entry 2 of 'job_clusters' in " + bad + " needs both 'files' (a glob) and 'cluster'"), b.out());
    }

    @Test
    void aByteOrderMarkIsAccepted(@TempDir Path dir) throws IOException {
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        Path y = dir.resolve("bom.yaml");
        Files.write(y, concat(bom, "kind: training_job\nname: j\ncluster: nowhere\n".getBytes(StandardCharsets.UTF_8)));
        Path t = dir.resolve("bom.topo");
        Files.write(t, concat(bom, "training_job \"k\" { cluster = \"nowhere\" }\n".getBytes(StandardCharsets.UTF_8)));
        Run r = run(y.toString(), t.toString());
        assertEquals(1, r.code(), r.out());
        assertTrue(r.out().contains("bom.yaml:3:10: error: job 'j' runs on cluster 'nowhere'"), r.out());
        assertTrue(r.out().contains("bom.topo:1:30: error: job 'k' runs on cluster 'nowhere'"), r.out());
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void symlinkLoopsAreReportedNotFollowedForever(@TempDir Path dir) throws IOException {
        Path d = Files.createDirectories(dir.resolve("a"));
        write(d, "job.yaml", "kind: training_job\nname: j\n");
        Files.createSymbolicLink(d.resolve("loop"), d);
        Run r = run(dir.toString());
        assertEquals(2, r.code(), r.out());
        assertTrue(r.out().contains("symbolic-link loop"), r.out());
    }

    static Path write(Path dir, String name, String text) throws IOException {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return p;
    }
}
