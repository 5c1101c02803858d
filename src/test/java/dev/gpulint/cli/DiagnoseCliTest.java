package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.diagnose.Fixtures;
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
        CliTest.Run r = CliTest.run("diagnose", dir.toString());
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
        CliTest.Run r = CliTest.run("diagnose", "-f", "json", dir.toString());
        assertEquals(1, r.code(), r.err() + r.out());
        @SuppressWarnings("unchecked")
        Map<String, Object> doc = (Map<String, Object>) new Load(LoadSettings.builder().build()).loadFromString(r.out());
        assertEquals(List.of("job", "gpu", "gpus", "measured", "expected", "path", "attribution", "captures"), List.copyOf(doc.keySet()));
        assertEquals(null, doc.get("measured"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> path = (List<Map<String, Object>>) doc.get("path");
        Map<String, Object> nccl = path.get(3);
        assertEquals("nccl", nccl.get("step"));
        assertEquals("bad", nccl.get("verdict"));
        assertEquals(dir + "/evidence/train.nccl.log:4", nccl.get("evidence"));
        assertTrue(((List<?>) nccl.get("rules")).contains("EVID010"));
        @SuppressWarnings("unchecked")
        Map<String, Object> a = (Map<String, Object>) doc.get("attribution");
        assertEquals("network", a.get("cause"));
        assertEquals(true, a.get("found"));
        @SuppressWarnings("unchecked")
        Map<String, Object> ml = (Map<String, Object>) ((Map<String, Object>) doc.get("expected")).get("measured_links");
        assertEquals(2, ((List<?>) ml.get("changes")).size());
        assertEquals(r.out(), CliTest.run("diagnose", "-f", "json", dir.toString()).out(), "the same bytes from a second run");
    }

    @Test
    void markdownIsAnIncidentTicket(@TempDir Path dir) throws IOException {
        Fixtures.project(dir, IB, Fixtures.healthyBut("dgx-01.ibstat.txt", Fixtures.ibstat(100, "InfiniBand")));
        CliTest.Run r = CliTest.run("diagnose", "-f", "markdown", dir.toString());
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
        CliTest.Run r = CliTest.run("diagnose", dir.toString());
        assertEquals(0, r.code(), r.err() + r.out());
        assertTrue(r.out().contains("\n  GPU utilisation   [suspect]       30 % mean over 8 GPUs in one nvidia-smi snapshot: one instant cannot show"
                + " dips or clocks  " + dir + "/evidence/dgx-01.nvidia-smi.txt:9\n"), r.out());
    }

    @Test
    void noJobOrTwoJobsIsBadUsage(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("cluster.yaml"), IB);
        CliTest.Run r = CliTest.run("diagnose", dir.toString());
        assertEquals(2, r.code());
        assertEquals("gpulint: diagnose: nothing to diagnose: no training job with a model and a cluster node group\n", r.err());
        Fixtures.project(dir, IB);
        Files.writeString(dir.resolve("job2.yaml"), Fixtures.JOB.replace("name: gpt13b", "name: other"));
        r = CliTest.run("diagnose", dir.toString());
        assertEquals(2, r.code());
        assertEquals("gpulint: diagnose: more than one job: choose one with --job (gpt13b, other)\n", r.err());
        assertEquals(0, CliTest.run("diagnose", "--job", "other", dir.toString()).code());
        r = CliTest.run("diagnose", "-f", "yaml", dir.toString());
        assertEquals(2, r.code());
    }
}
