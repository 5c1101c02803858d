package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.diagnose.Fixtures;
import dev.gpulint.testing.PlanCli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/** `gpulint diagnose` end to end: exit codes as check's, the three formats, the same bytes from any run. */
class DiagnoseCliTest {
    private static final String IB = Fixtures.cluster("infiniband", "", true);

    @Test
    void healthyCapturesExitZeroAndDrawThePath(@TempDir Path dir) throws IOException {
        Fixtures.project(dir, IB, Fixtures.healthy());
        PlanCli.Run r = PlanCli.run("diagnose", dir.toString());
        assertEquals(0, r.code(), r.err() + r.out());
        String[] lines = r.out().split("\n");
        assertEquals("Diagnosis of job gpt13b (16 × H100-SXM5-80GB)", lines[0]);
        assertEquals("  measured  not given (no training log)", lines[1]);
        List<String> steps = java.util.Arrays.stream(lines).filter(l -> l.matches("  \\S.*\\[[a-z ]+\\].*")).map(l -> l.substring(2, 20).trim()).toList();
        assertEquals(List.of("GPU utilisation", "NVLink status", "PCIe topology", "NCCL performance", "InfiniBand/RoCE", "the bottleneck"), steps);
        assertTrue(r.out().contains("      │\n      ▼\n  NVLink status     [ok]            8 GPUs, every link active (18 each)  " + dir
                + "/evidence/dgx-01.nvlink-s.txt:2\n"), r.out());
        assertTrue(r.out().contains("\nTo capture next:\n  - nvidia-smi --query-gpu="), r.out());
    }

    @Test
    void ncclOnSocketsExitsOneAndTheJsonSaysWhy(@TempDir Path dir) throws IOException {
        String[] c = Fixtures.healthyBut("train.nccl.log", Fixtures.ncclLog("Socket", false, null));
        c[9] = Fixtures.allReduce(2.9);
        Fixtures.project(dir, IB, c);
        PlanCli.Run r = PlanCli.run("diagnose", "-f", "json", dir.toString());
        assertEquals(1, r.code(), r.err() + r.out());
        @SuppressWarnings("unchecked")
        Map<String, Object> doc = (Map<String, Object>) new Load(LoadSettings.builder().build()).loadFromString(r.out());
        assertEquals(List.of("job", "gpu", "gpus", "verdict", "measured", "expected", "path", "attribution", "captures"), List.copyOf(doc.keySet()));
        assertEquals("found", doc.get("verdict"));
        assertEquals(null, doc.get("measured"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> path = (List<Map<String, Object>>) doc.get("path");
        Map<String, Object> nccl = path.get(3);
        assertEquals("nccl", nccl.get("step"));
        assertEquals("bad", nccl.get("verdict"));
        // named from the project root (the folder the linted paths share), as the JSON, SARIF and CI reports name files
        assertEquals("evidence/train.nccl.log:4", nccl.get("evidence"));
        assertTrue(((List<?>) nccl.get("rules")).contains("EVID010"));
        @SuppressWarnings("unchecked")
        Map<String, Object> a = (Map<String, Object>) doc.get("attribution");
        assertEquals("network", a.get("cause"));
        assertEquals(true, a.get("found"));
        @SuppressWarnings("unchecked")
        Map<String, Object> ml = (Map<String, Object>) ((Map<String, Object>) doc.get("expected")).get("measured_links");
        assertEquals(2, ((List<?>) ml.get("changes")).size());
        assertEquals(r.out(), PlanCli.run("diagnose", "-f", "json", dir.toString()).out(), "the same bytes from a second run");
    }

    @Test
    void markdownIsAnIncidentTicket(@TempDir Path dir) throws IOException {
        Fixtures.project(dir, IB, Fixtures.healthyBut("dgx-01.ibstat.txt", Fixtures.ibstat(100, "InfiniBand")));
        PlanCli.Run r = PlanCli.run("diagnose", "-f", "markdown", dir.toString());
        assertEquals(1, r.code(), r.err() + r.out());
        assertTrue(r.out().startsWith("### Diagnosis of job gpt13b (16 × H100-SXM5-80GB)\n\n| | |\n|---|---|\n| **Measured** | not given"), r.out());
        assertTrue(r.out().contains("\n| InfiniBand/RoCE | **bad** | the slowest node's compute ports: 8 up at 800 Gb/s together of the 3200 Gb/s"
                + " declared (8 × 400 Gb/s ConnectX-7 per node (RDMA)) (EVID006) | `" + dir + "/evidence/dgx-01.ibstat.txt:11` |\n"), r.out());
        assertTrue(r.out().contains("\n#### Attribution\n\n"), r.out());
    }

    @Test
    void theNvidiaSmiTablesUtilisationIsOneSnapshot(@TempDir Path dir) throws IOException {
        String[] c = java.util.Arrays.copyOf(Fixtures.healthy(), 12);
        c[10] = "dgx-01.nvidia-smi.txt";
        c[11] = Fixtures.smiTable(31, 29, 30, 30, 28, 32, 30, 30);
        Fixtures.project(dir, IB, c);
        PlanCli.Run r = PlanCli.run("diagnose", dir.toString());
        assertEquals(0, r.code(), r.err() + r.out());
        assertTrue(r.out().contains("\n  GPU utilisation   [suspect]       30 % mean over 8 GPUs in one nvidia-smi snapshot: one instant cannot show"
                + " dips or clocks  " + dir + "/evidence/dgx-01.nvidia-smi.txt:9\n"), r.out());
    }

    @Test
    void noJobOrTwoJobsIsBadUsage(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("cluster.yaml"), IB);
        PlanCli.Run r = PlanCli.run("diagnose", dir.toString());
        assertEquals(2, r.code());
        assertEquals("gpulint: diagnose: nothing to diagnose: no training job with a model and a cluster node group\n", r.err());
        Fixtures.project(dir, IB);
        Files.writeString(dir.resolve("job2.yaml"), Fixtures.JOB.replace("name: gpt13b", "name: other"));
        r = PlanCli.run("diagnose", dir.toString());
        assertEquals(2, r.code());
        assertEquals("gpulint: diagnose: more than one job: choose one with --job (gpt13b, other)\n", r.err());
        r = PlanCli.run("diagnose", "--job", "other", dir.toString());
        assertTrue(r.out().startsWith("Diagnosis of job other (16 × H100-SXM5-80GB)\n"), r.out());
        assertEquals(2, r.code(), "no capture of job other: nothing captured");
        r = PlanCli.run("diagnose", "-f", "yaml", dir.toString());
        assertEquals(2, r.code());
    }
    @Test
    void nothingCapturedIsItsOwnOutcomeNotAnAllClear(@TempDir Path dir) throws IOException {
        // the manifests alone: the estimate can be priced, but no capture says anything of the job
        Fixtures.project(dir, IB);
        PlanCli.Run r = PlanCli.run("diagnose", dir.toString());
        assertEquals(2, r.code(), r.err() + r.out());
        assertEquals("gpulint: diagnose: nothing captured for job gpt13b: no training log or capture of its nodes among the paths"
                + " (docs/evidence.md says what to capture)\n", r.err());
        String[] lines = r.out().split("\n");
        assertEquals("Diagnosis of job gpt13b (16 × H100-SXM5-80GB)", lines[0]);
        assertEquals("  nothing captured: no training log and no capture of the job's nodes (nvidia-smi, dcgm-exporter, NCCL log,"
                + " nccl-tests, ibstat) among the paths, so nothing was diagnosed: the path below is the estimate's alone. Capture what"
                + " the list at the end names, put the files beside the manifests (docs/evidence.md) and run diagnose again", lines[1]);
        assertTrue(r.out().contains("\nTo capture next:\n  - "), r.out());
        PlanCli.Run json = PlanCli.run("diagnose", "-f", "json", dir.toString());
        assertEquals(2, json.code());
        @SuppressWarnings("unchecked")
        Map<String, Object> doc = (Map<String, Object>) new Load(LoadSettings.builder().build()).loadFromString(json.out());
        assertEquals("nothing-captured", doc.get("verdict"));
        PlanCli.Run md = PlanCli.run("diagnose", "-f", "markdown", dir.toString());
        assertTrue(md.out().startsWith("### Diagnosis of job gpt13b (16 × H100-SXM5-80GB)\n\n> **nothing captured**: no training log"), md.out());
        // one capture of the job is a diagnosis: healthy captures are "nothing-found", exit 0, and no such line
        Fixtures.project(dir, IB, "dgx-01.nvlink-s.txt", Fixtures.nvlinks(-1, 0));
        PlanCli.Run one = PlanCli.run("diagnose", "-f", "json", dir.toString());
        assertEquals(0, one.code(), one.err() + one.out());
        @SuppressWarnings("unchecked")
        Map<String, Object> d1 = (Map<String, Object>) new Load(LoadSettings.builder().build()).loadFromString(one.out());
        assertEquals("nothing-found", d1.get("verdict"));
        assertTrue(!PlanCli.run("diagnose", dir.toString()).out().contains("nothing captured"));
    }

    /** A Megatron-LM iteration line as core_r0.7+ prints it, with {@code ms} per iteration. */
    private static String megatronIteration(int iteration, double ms) {
        return String.format(java.util.Locale.ROOT, " [2024-05-14 10:%02d:33] iteration %8d/  500000 | consumed samples: %12d |"
                + " elapsed time per iteration (ms): %.1f | throughput per GPU (TFLOP/s/GPU): 412.3 | learning rate: 2.999E-04 |"
                + " global batch size:    64 | lm loss: 7.214E+00 | loss scale: 1.0 | grad norm: 1.234 |"
                + " number of skipped iterations:   0 | number of nan iterations:   0 |%n", iteration / 10, iteration, iteration * 64L, ms);
    }

    @Test
    void aMegatronLogAndADcgmScrapeAreReadFromFilesEndToEnd(@TempDir Path dir) throws IOException {
        // NCCL on sockets at the 2.9 GB/s nccl-tests measured: what the measured links make of the step, without a log
        String[] sockets = Fixtures.healthyBut("train.nccl.log", Fixtures.ncclLog("Socket", false, null));
        sockets[9] = Fixtures.allReduce(2.9);
        Fixtures.project(dir.resolve("a"), IB, sockets);
        @SuppressWarnings("unchecked")
        Map<String, Object> priced = (Map<String, Object>) ((Map<String, Object>) new Load(LoadSettings.builder().build())
                .loadFromString(PlanCli.run("diagnose", "-f", "json", dir.resolve("a").toString()).out())).get("expected");
        @SuppressWarnings("unchecked")
        double links = ((Number) ((Map<String, Object>) priced.get("measured_links")).get("step_s")).doubleValue();
        // the same captures, with a Megatron-LM log whose steps (after a slow first one) take that long, and two DCGM scrapes
        StringBuilder log = new StringBuilder();
        for (int i = 1; i <= 6; i++) log.append(megatronIteration(i * 10, links * 1000 * (i == 1 ? 3 : 1)));
        StringBuilder dcgm = new StringBuilder();
        for (int t = 0; t < 2; t++) {
            dcgm.append("2024-05-14T10:2").append(t).append(":00Z\n# HELP DCGM_FI_DEV_GPU_UTIL GPU utilization (in %).\n# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n");
            for (int g = 0; g < 8; g++) {
                dcgm.append("DCGM_FI_DEV_GPU_UTIL{gpu=\"").append(g).append("\",UUID=\"GPU-0\",device=\"nvidia").append(g)
                        .append("\",modelName=\"NVIDIA H100 80GB HBM3\",Hostname=\"dgx-01\"} 41\n");
            }
        }
        String[] c = java.util.Arrays.copyOf(sockets, sockets.length + 4);
        c[c.length - 4] = "pretrain.train.log";
        c[c.length - 3] = log.toString();
        c[c.length - 2] = "dgx-01.dcgm.txt";
        c[c.length - 1] = dcgm.toString();
        Fixtures.project(dir.resolve("b"), IB, c);
        PlanCli.Run r = PlanCli.run("diagnose", "-f", "json", dir.resolve("b").toString());
        assertEquals(1, r.code(), r.err() + r.out());
        @SuppressWarnings("unchecked")
        Map<String, Object> doc = (Map<String, Object>) new Load(LoadSettings.builder().build()).loadFromString(r.out());
        @SuppressWarnings("unchecked")
        Map<String, Object> measured = (Map<String, Object>) doc.get("measured");
        assertEquals("megatron", measured.get("framework"));
        assertEquals(links, ((Number) measured.get("step_s")).doubleValue(), links * 0.001, "the median step, the warm-up left out");
        // the median step's line: the warm-up (line 1) left out, the middle of iterations 20..60
        assertEquals("evidence/pretrain.train.log:4", measured.get("evidence"), "from the project root");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> path = (List<Map<String, Object>>) doc.get("path");
        assertTrue(String.valueOf(path.get(0).get("finding")).startsWith("41 % mean over 2 instants"), path.get(0).toString());
        @SuppressWarnings("unchecked")
        Map<String, Object> a = (Map<String, Object>) doc.get("attribution");
        assertEquals("network", a.get("cause"), a.toString());
    }
}
