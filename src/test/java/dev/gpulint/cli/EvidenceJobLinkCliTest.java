package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Configuration {@code evidence: [{files: GLOB, job: NAME}]}, end to end through the command line:
 * the configuration is found, the folder walk picks the capture up by its content, and the capture
 * is checked against the node group of the job's cluster that the job runs on; a job nothing
 * defines is EVID001 at the name in the configuration.
 */
class EvidenceJobLinkCliTest {

    @AfterEach
    void restore() { Main.workingDir = Path.of(""); }

    /** Two node groups of eight GPUs and eight NICs each: a matrix matches both, so only configuration links it. */
    private static final String CLUSTER = String.join("\n",
            "kind: cluster",
            "name: hgx",
            "fabric: { type: infiniband, topology: rail-optimized }",
            "node_groups:",
            "  - name: h100",
            "    count: 4",
            "    gpu: { model: H100-SXM5-80GB, count: 8 }",
            "    nvlink: { switch: true }",
            "    nics:",
            "      - { model: ConnectX-7, count: 8, speed: 400 Gb/s, protocol: infiniband, gpudirect_rdma: true }",
            "  - name: a100",
            "    count: 4",
            "    gpu: { model: A100-SXM4-80GB, count: 8 }",
            "    nvlink: { switch: true }",
            "    nics:",
            "      - { model: ConnectX-6, count: 8, speed: 200 Gb/s, protocol: infiniband, gpudirect_rdma: true }",
            "");

    private static final String JOB = String.join("\n",
            "kind: training_job",
            "name: gpt-a100",
            "cluster: hgx",
            "node_group: a100",
            "nodes: 2",
            "");

    /** An A100 NVSwitch board's matrix (NV12 everywhere) where GPU5 shows NV11: one of its 12 links is down. */
    static String a100Matrix() {
        List<String> out = new ArrayList<>();
        StringBuilder h = new StringBuilder();
        for (int i = 0; i < 8; i++) h.append("\tGPU").append(i);
        for (int i = 0; i < 8; i++) h.append("\tNIC").append(i);
        out.add(h.append("\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID").toString());
        for (int r = 0; r < 16; r++) {
            StringBuilder row = new StringBuilder(r < 8 ? "GPU" + r : "NIC" + (r - 8));
            for (int c = 0; c < 16; c++) {
                String cell;
                if (r == c) cell = " X ";
                else if (r < 8 && c < 8) cell = r == 5 || c == 5 ? "NV11" : "NV12";
                else cell = r % 8 == c % 8 ? "PXB" : (r % 8) / 4 == (c % 8) / 4 ? "NODE" : "SYS";
                row.append('\t').append(cell);
            }
            if (r < 8) row.append(r < 4 ? "\t0-63\t0\t\tN/A" : "\t64-127\t1\t\tN/A");
            out.add(row.toString());
        }
        out.add("");
        out.add("Legend:");
        out.add("");
        out.add("  X    = Self");
        out.add("  NV#  = Connection traversing a bonded set of # NVLinks");
        out.add("");
        return String.join("\n", out);
    }

    private static Path project(Path dir, String config) throws IOException {
        Files.createDirectories(dir.resolve(".git"));
        if (config != null) CliTest.write(dir, ".gpulint.yaml", config);
        CliTest.write(dir, "clusters/hgx.yaml", CLUSTER);
        CliTest.write(dir, "jobs/gpt-a100.yaml", JOB);
        // named plainly: the walk takes it for its content, not its name
        CliTest.write(dir, "evidence/gpt/node03.txt", a100Matrix());
        return dir;
    }

    private static PlanCli.Run lint(Path dir) {
        Main.workingDir = dir;
        return PlanCli.run("--color=never", ".");
    }

    private static List<String> findings(PlanCli.Run r, String rule) {
        return r.out().lines().filter(l -> l.endsWith("[" + rule + "]")).toList();
    }

    @Test
    void aCaptureLinkedToAJobIsCheckedAgainstTheNodeGroupTheJobRunsOn(@TempDir Path tmp) throws IOException {
        Path dir = project(tmp, "evidence:\n  - { files: \"evidence/gpt/*.txt\", job: gpt-a100 }\n");
        PlanCli.Run r = lint(dir);
        assertEquals(List.of("evidence/gpt/node03.txt:7:1: error: GPU5 shows at most NV11 to the other GPUs (its row: GPU0 NV11, "
                + "GPU1 NV11, GPU2 NV11, GPU3 NV11, GPU4 NV11, GPU6 NV11, GPU7 NV11) where every A100-SXM4-80GB GPU through the "
                + "NVSwitch of node group 'a100' of cluster 'hgx' shows NV12: it has 1 of its 12 NVLinks down, which cuts its NVLink "
                + "bandwidth by that share; nvidia-smi nvlink -s shows them <inactive>: reset the GPU or service the board. [EVID002]"),
                findings(r, "EVID002"), r.out());
        assertTrue(r.out().contains("  related: clusters/hgx.yaml:14:5: the NVSwitch is declared here"), r.out());
        assertEquals(List.of(), findings(r, "EVID001"), r.out());
        // the job's node group, not the other one: the matrix's 8 NICs are as many as either declares
        assertFalse(r.out().contains("node group 'h100'"), r.out());
    }

    @Test
    void withoutTheLinkTheSameCaptureFitsBothNodeGroupsAndIsCheckedOnItsOwn(@TempDir Path tmp) throws IOException {
        PlanCli.Run r = lint(project(tmp, null));
        assertEquals(List.of("evidence/gpt/node03.txt:7:1: error: GPU5 shows at most NV11 to the other GPUs (its row: GPU0 NV11, "
                + "GPU1 NV11, GPU2 NV11, GPU3 NV11, GPU4 NV11, GPU6 NV11, GPU7 NV11) where other GPUs of this matrix show NV12: every "
                + "GPU pair shows NVLink and the most is NV12, a GPU's full link count in its NVLink generation, as through an "
                + "NVSwitch, so GPU5 likely has 1 of its 12 NVLinks down; nvidia-smi nvlink -s shows them <inactive>: reset the GPU "
                + "or service the board. [EVID002]"), findings(r, "EVID002"), r.out());
    }

    @Test
    void aJobNothingDefinesIsEvid001AtItsNameAndTheCaptureIsCheckedOnItsOwn(@TempDir Path tmp) throws IOException {
        Path dir = project(tmp, "evidence:\n  - files: \"evidence/gpt/*.txt\"\n    job: gpt-a10\n");
        PlanCli.Run r = lint(dir);
        assertEquals(List.of(".gpulint.yaml:3:10: error: configuration evidence: links 'evidence/gpt/node03.txt' to job 'gpt-a10', "
                + "which no linted or included file defines (did you mean 'gpt-a100'?); the nvidia-smi topo -m capture is checked on "
                + "its own, without the declaration it should be compared with: name a cluster (with node_group when it has several) "
                + "or a job of a linted file, or include the file that defines it. [EVID001]"), findings(r, "EVID001"), r.out());
        List<String> evid002 = findings(r, "EVID002");
        assertEquals(1, evid002.size(), r.out());
        assertTrue(evid002.get(0).contains("where other GPUs of this matrix show NV12"), evid002.get(0));
    }
}
