package dev.gpulint.derive.mem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One quantity, one home, for a torchtitan job that names its flavor ({@code [model] name = "llama3"}, {@code flavor =
 * "405B"}) and so states no parameter count: `check` (MEM001 for the model states, MEM003 for states and activations) and
 * `gpulint plan` judge the same stage with the same bytes, and check fires exactly when the plan's current layout does not
 * fit. The job is bound as a user binds it: a Slurm script launching the TOML gives the GPU count, {@code job_clusters}
 * the cluster (docs/other-formats.md, "Which cluster a job runs on").
 */
class TitanStatesCheckAndPlanTest {

    private static final String LAUNCH = """
            #!/bin/bash
            #SBATCH --nodes=16
            #SBATCH --ntasks-per-node=1
            #SBATCH --gpus-per-node=8
            srun torchrun --nnodes 16 --nproc_per_node 8 -m torchtitan.train --job.config_file ./big.toml
            """;

    private static String cluster(String gpu) {
        return "kind: cluster\nname: pod\nnode_groups:\n  - name: dgx\n    count: 16\n    gpu: { model: " + gpu + ", count: 8 }\n";
    }

    /** Llama 3 405B's shape (torchtitan's llama3_405b.toml), FSDP over the rest of 128 GPUs with tp 8, full recompute. */
    private static String toml(int localBatch) {
        return "[model]\nname = \"llama3\"\nflavor = \"405B\"\n\n[training]\nlocal_batch_size = " + localBatch
                + "\nseq_len = 8192\n\n[parallelism]\ndata_parallel_shard_degree = -1\ntensor_parallel_degree = 8\n\n"
                + "[activation_checkpoint]\nmode = \"full\"\n";
    }

    private record Both(Map<String, Object> plan, List<Map<String, Object>> findings, int checkCode) {}

    private static Both run(Path dir, String gpu, int localBatch) {
        return run(dir, gpu, localBatch, true);
    }

    /** {@code launched} false: the TOML alone, no script giving its GPU count (plan and check take the node group's size). */
    @SuppressWarnings("unchecked")
    private static Both run(Path dir, String gpu, int localBatch, boolean launched) {
        PlanCli p = PlanCli.in(dir).file("c.yaml", cluster(gpu)).file("big.toml", toml(localBatch));
        if (launched) p.file("train.sbatch", LAUNCH);
        p.jobClusters("pod", "*.toml", "*.sbatch");
        Map<String, Object> plan = p.planJson("--top", "1").json();
        List<String> args = new java.util.ArrayList<>(List.of("check", "-f", "json", "-c", dir.resolve(".gpulint.yaml").toString(),
                dir.resolve("c.yaml").toString()));
        if (launched) args.add(dir.resolve("train.sbatch").toString());
        args.add(dir.resolve("big.toml").toString());
        PlanCli.Run check = PlanCli.run(args.toArray(String[]::new));
        List<Map<String, Object>> findings = (List<Map<String, Object>>) check.json().get("findings");
        return new Both(plan, findings, check.code());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> memory(Both b) {
        return (Map<String, Object>) PlanCli.map(b.plan().get("current")).get("memory");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> stage(Both b) {
        List<Map<String, Object>> stages = (List<Map<String, Object>>) memory(b).get("stages");
        assertEquals(1, stages.size());
        return stages.get(0);
    }

    private static double n(Map<String, Object> m, String key) {
        return ((Number) m.get(key)).doubleValue();
    }

    private static String gb(double bytes) {
        return String.format(Locale.ROOT, "%.2f GB", bytes / 1e9);
    }

    private static List<String> messages(Both b, String rule) {
        return b.findings().stream().filter(f -> rule.equals(f.get("ruleId"))).map(f -> (String) f.get("message")).toList();
    }

    @Test
    void mem001QuotesThePlansStatesWhenTheyAloneDoNotFit(@TempDir Path dir) {
        Both b = run(dir, "A100-SXM4-40GB", 2);
        Map<String, Object> s = stage(b);
        double states = n(s, "weights_bytes") + n(s, "gradients_bytes") + n(s, "optimizer_bytes");
        assertFalse((Boolean) memory(b).get("fits"), "the plan: does not fit");
        assertTrue(states > n(memory(b), "capacity_bytes"), "the states alone are over the A100's 40 GiB");
        List<String> mem001 = messages(b, "MEM001");
        assertEquals(1, mem001.size(), b.findings().toString());
        assertTrue(mem001.get(0).startsWith("model states need " + gb(states) + " per GPU: the fullest stage gpulint plan prices"),
                mem001.get(0));
        // by hand: 405.88B ÷ tp 8 = 50.735B × 16 B ÷ dp 16 = 50.735 GB, + 2·(V·h ÷ 8 + h) of the output unit (V 129,024 padded,
        // h 16,384: 0.53 GB) + 2 × a mean layer ÷ 8 of the prefetched last block (3.19B ÷ 8: 0.80 GB)
        assertEquals("52.06 GB", gb(states));
        assertEquals(List.of(), messages(b, "MEM003"), "the states alone are MEM001's");
        assertEquals(1, b.checkCode(), "MEM001 is an error");
    }

    @Test
    void mem003QuotesThePlansStageWhenItsActivationsTipItOver(@TempDir Path dir) {
        Both b = run(dir, "H100-SXM5-80GB", 8);
        Map<String, Object> s = stage(b);
        assertFalse((Boolean) memory(b).get("fits"));
        assertEquals(List.of(), messages(b, "MEM001"), "51.26 GB of states fit 80 GiB");
        List<String> mem003 = messages(b, "MEM003");
        assertEquals(1, mem003.size(), b.findings().toString());
        assertTrue(mem003.get(0).startsWith("pipeline stage 1 of 1 needs " + gb(n(s, "total_bytes")) + " per GPU"), mem003.get(0));
    }

    @Test
    void quietWhenThePlanSaysItFits(@TempDir Path dir) {
        Both b = run(dir, "H100-SXM5-80GB", 2);
        assertTrue((Boolean) memory(b).get("fits"));
        assertEquals(List.of(), messages(b, "MEM001"));
        assertEquals(List.of(), messages(b, "MEM002"));
        assertEquals(List.of(), messages(b, "MEM003"));
    }

    /**
     * The TOML alone, no launch script: its files state no GPU count, so `gpulint plan` prices it on the node group's 16 nodes
     * × 8 GPUs (UnstatedSize), and check holds its memory at the same size and says so: the same 52.06 GB of states as
     * launched on those 128 GPUs, not a quiet check beside a plan that says it does not fit.
     */
    @Test
    void withoutALaunchCheckTakesThePlansSizeAndSaysSo(@TempDir Path dir) {
        Both b = run(dir, "A100-SXM4-40GB", 2, false);
        Map<String, Object> s = stage(b);
        double states = n(s, "weights_bytes") + n(s, "gradients_bytes") + n(s, "optimizer_bytes");
        assertFalse((Boolean) memory(b).get("fits"), "the plan at 128 GPUs: does not fit");
        @SuppressWarnings("unchecked")
        List<String> assumptions = (List<String>) b.plan().get("assumptions");
        assertTrue(assumptions.stream().anyMatch(a -> a.startsWith("the job's files state no GPU count (nor dp): planned on all 16 nodes"
                + " of node group dgx × 8 GPUs per node = 128 GPUs")), assumptions.toString());
        assertEquals("52.06 GB", gb(states), "as launched on the same 128 GPUs");
        List<String> mem001 = messages(b, "MEM001");
        assertEquals(1, mem001.size(), b.findings().toString());
        assertTrue(mem001.get(0).startsWith("model states need " + gb(states) + " per GPU: the fullest stage gpulint plan prices"), mem001.get(0));
        assertTrue(mem001.get(0).contains("; the job's files state no GPU count (nor dp), so these are at the size gpulint plan takes"
                + " for it, 128 GPUs (all the 16 nodes of node group 'dgx' × 8 GPUs): the most it can be given there, and on fewer"
                + " GPUs each holds more; the job cannot fit"), mem001.get(0));
        assertEquals(1, b.checkCode(), "MEM001 is an error");
    }

    /** The same on the H100s, micro batch 8: the states fit, states and activations do not; MEM003 names the size too. */
    @Test
    void withoutALaunchMem003TakesThePlansSizeToo(@TempDir Path dir) {
        Both b = run(dir, "H100-SXM5-80GB", 8, false);
        Map<String, Object> s = stage(b);
        assertFalse((Boolean) memory(b).get("fits"));
        assertEquals(List.of(), messages(b, "MEM001"));
        List<String> mem003 = messages(b, "MEM003");
        assertEquals(1, mem003.size(), b.findings().toString());
        assertTrue(mem003.get(0).startsWith("pipeline stage 1 of 1 needs " + gb(n(s, "total_bytes")) + " per GPU"), mem003.get(0));
        assertTrue(mem003.get(0).contains(" at 128 GPUs, the size gpulint plan takes for a job whose files state no GPU count (nor dp):"
                + " all the 16 nodes of node group 'dgx' × 8 GPUs, the most it can be given there, recompute full;"), mem003.get(0));
    }
}
