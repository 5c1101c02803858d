package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The layout fix of PAR002, PAR005 and MEM001 (plan.LayoutFixes) through check: shown in the text report, left out by
 * --fix alone (it is unsafe), applied with --unsafe-fixes to every size at once, and gone after (a second run
 * changes nothing).
 */
class LayoutFixCliTest {

    @AfterEach
    void restore() {
        Main.workingDir = Path.of("");
    }

    static final String CLUSTER = "kind: cluster\nname: selene\nnode_groups:\n  - name: dgx-h100\n    count: 16\n"
            + "    gpu: { model: H100-SXM5-80GB, count: 8 }\n"
            + "    nvlink: { switch: true, bandwidth: 900 GB/s, direction: bidirectional }\n"
            + "    nics:\n      - { model: ConnectX-7, count: 8, speed: 400 Gb/s, protocol: infiniband, gpudirect_rdma: true }\n";

    /** 36 heads over tp=8 (PAR005): the plan's best with the job's other choices kept is tp 2, dp 8. */
    static final String JOB = "kind: training_job\nname: heads36\ncluster: selene\nnode_group: dgx-h100\nnodes: 2\n"
            + "model:\n  parameters: 8B\n  dtype: bf16\n  layers: 32\n  attention_heads: 36\n  kv_heads: 4\n"
            + "  hidden_size: 4608\n  ffn_hidden_size: 12288\n  vocab_size: 32000\n  seq_length: 4096\n"
            + "parallelism: { tp: 8, pp: 1, dp: 2, virtual_pp: 1 }   # sizes\n"
            + "batch: { micro_batch_size: 1, global_batch_size: 64 }\noptimizer: { distributed: true }\n";

    @Test
    void theUnsafeLayoutFixIsShownAndAppliedOnlyWithUnsafeFixes(@TempDir Path dir) throws IOException {
        CliTest.write(dir, "cluster.yaml", CLUSTER);
        Path job = CliTest.write(dir, "job.yaml", JOB);
        Main.workingDir = dir;
        PlanCli.Run check = PlanCli.run("check", "cluster.yaml", "job.yaml");
        assertEquals(1, check.code(), check.err());
        assertTrue(check.out().contains("fix available (unsafe): set tp 2, pp 1, dp 8: the fastest layout gpulint plan finds"),
                check.out());
        PlanCli.Run safeOnly = PlanCli.run("check", "--fix", "cluster.yaml", "job.yaml");
        assertEquals(1, safeOnly.code(), safeOnly.out());
        assertEquals(JOB, Files.readString(job), "--fix alone applies no unsafe fix");
        PlanCli.Run fixed = PlanCli.run("check", "--fix", "--unsafe-fixes", "cluster.yaml", "job.yaml");
        assertEquals(0, fixed.code(), fixed.out() + fixed.err());
        assertEquals(JOB.replace("{ tp: 8, pp: 1, dp: 2,", "{ tp: 2, pp: 1, dp: 8,"), Files.readString(job),
                "tp and dp change together, the comment stays");
        assertTrue(fixed.out().startsWith("0 errors, 0 warnings, 0 notes in 2 files\nfixed 1 finding in 1 file; 0 remain"), fixed.out());
        PlanCli.Run diff = PlanCli.run("check", "--diff", "--unsafe-fixes", "cluster.yaml", "job.yaml");
        assertEquals(0, diff.code(), "nothing left to fix: " + diff.out());
        assertEquals("", diff.out());
    }

    @Test
    void theConfigurationsUnfixableLeavesTheLayoutFixOut(@TempDir Path dir) throws IOException {
        CliTest.write(dir, "cluster.yaml", CLUSTER);
        Path job = CliTest.write(dir, "job.yaml", JOB);
        CliTest.write(dir, ".gpulint.yaml", "fix:\n  unfixable: [PAR005]\n");
        Main.workingDir = dir;
        PlanCli.Run check = PlanCli.run("check", "cluster.yaml", "job.yaml");
        assertEquals(1, check.code(), check.err());
        assertTrue(check.out().contains("PAR005"), check.out());
        assertTrue(!check.out().contains("fix available"), "unfixable: no fix offered: " + check.out());
        PlanCli.Run fixed = PlanCli.run("check", "--fix", "--unsafe-fixes", "cluster.yaml", "job.yaml");
        assertEquals(1, fixed.code(), fixed.out());
        assertEquals(JOB, Files.readString(job), "an unfixable rule's layout fix is never applied");
    }
}
