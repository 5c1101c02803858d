package dev.gpulint.derive.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.derive.Fixture;
import dev.gpulint.facts.AllReduceFact;
import dev.gpulint.testing.PlanCli;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One quantity, one home: the gradient all-reduce NET003 holds a job to (AllReduceFact) is the one `gpulint plan` prints
 * for the same job (its JSON's {@code collectives}, the data-parallel gradient all-reduce, as placed): over dp·cp ranks
 * laid out as the job's rank order lays them (derive.estimate.RankGroup.dpCp), on the tier that group's widest span
 * reaches, at the same line rate, through the same CollectiveCost. NET003 states the bandwidth floor, so its seconds are
 * the plan's less NCCL's latency.
 */
class AllReduceCheckAndPlanTest {

    private static final String LLAMA3_8B = "dtype: bf16, layers: 32, hidden_size: 4096, attention_heads: 32, kv_heads: 8,"
            + " ffn_hidden_size: 14336, vocab_size: 128256, gated_mlp: true, tied_embeddings: false, seq_length: 8192";

    /** Two nodes of 8 H100 (NVSwitch, 8 × 400 Gb/s NICs) and job {@code j} on both. */
    private static String manifest(String model, String parallelism) {
        return "kind: cluster\nname: c\nnode_groups:\n  - { name: g, count: 2, gpu: { model: H100-SXM5-80GB, count: 8 },"
                + " nvlink: { switch: true }, nics: [ { model: ConnectX-7, count: 8, speed: 400 Gb/s } ] }\n---\n"
                + "kind: training_job\nname: j\ncluster: c\nnodes: 2\nmodel: { " + model + " }\n"
                + "parallelism: { " + parallelism + " }\nbatch: { micro_batch_size: 1, global_batch_size: 64 }\nstep_time: 0.5 s\n";
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> plan(Path dir, String name, String text) {
        Map<String, Object> doc = PlanCli.in(dir).file(name, text).planJson("--top", "1").json();
        List<Map<String, Object>> tables = (List<Map<String, Object>>) doc.get("collectives");
        Map<String, Object> dp = tables.stream().filter(t -> "data-parallel gradient all-reduce".equals(t.get("what"))).findFirst().orElseThrow();
        return dp;
    }

    /** The row of the tier the job's group runs on as written. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> placed(Map<String, Object> table) {
        List<Map<String, Object>> rows = (List<Map<String, Object>>) table.get("tiers");
        List<Map<String, Object>> placed = rows.stream().filter(r -> Boolean.TRUE.equals(r.get("as_placed"))).toList();
        assertEquals(1, placed.size());
        return placed.get(0);
    }

    /** The stage's parameters the plan counts from the shape (`plan -f json`: current.memory.stages[0]). */
    @SuppressWarnings("unchecked")
    private static long planParameters(Path dir, String parallelism) {
        Map<String, Object> doc = PlanCli.in(dir).file("count.yaml", manifest("parameters: 1B, " + LLAMA3_8B, parallelism))
                .planJson("--top", "1").json();
        Map<String, Object> current = (Map<String, Object>) doc.get("current");
        List<Map<String, Object>> stages = (List<Map<String, Object>>) ((Map<String, Object>) current.get("memory")).get("stages");
        return Math.round(n(stages.get(0), "parameters"));
    }

    private static double n(Map<String, Object> m, String key) {
        return ((Number) m.get(key)).doubleValue();
    }

    private static AllReduceFact fact(String text) {
        Fixture f = Fixture.of(text);
        List<AllReduceFact> facts = f.jobFacts(AllReduceFact.class, (j, out) -> AllReduceAnalysis.job(j, f.catalog(), java.util.Map.of(), java.util.Map.of(), out));
        assertEquals(1, facts.size());
        return facts.get(0);
    }

    /** The plan rounds its seconds to four significant digits. */
    private static void close(double expected, double actual, String what) {
        assertEquals(expected, actual, Math.abs(expected) * 1e-3, what);
    }

    @Test
    void dpBeforeCpGivesCheckAndPlanTheSameGroupTierAndSeconds(@TempDir Path dir) {
        // dp fastest: dp's 8 ranks fill a node, but the gradients are reduced over dp·cp = 16 ranks, which span both nodes
        String layout = "tp: 1, cp: 2, dp: 8, order: dp-cp-tp-ep-pp";
        long parameters = planParameters(dir, layout);
        String text = manifest("parameters: " + parameters + ", " + LLAMA3_8B, layout);
        Map<String, Object> plan = plan(dir, "j.yaml", text);
        Map<String, Object> row = placed(plan);
        AllReduceFact check = fact(text);

        assertEquals(16, check.getRanks(), "dp 8 × cp 2, not dp alone");
        assertEquals(8, check.getDp());
        assertEquals(2, check.getCp());
        assertEquals(n(plan, "ranks"), check.getRanks());
        assertEquals(AllReduceFact.Link.NETWORK, check.getLink(), "16 ranks on 8-GPU nodes: dp's 8 alone would stay on NVLink");
        assertEquals("network", row.get("tier"));
        assertEquals(n(row, "line_rate_bytes_per_s"), check.getLinkBytesPerSecond(), 1);
        assertEquals(n(plan, "bytes"), check.getGradientBytes(), 1, "the stated parameters are the plan's count: the same S");
        assertEquals(n(row, "bytes_per_gpu"), check.getSentBytes(), 1);
        close(n(row, "ideal_s") - n(row, "latency_s"), check.getSeconds(), "line rate, less NCCL's latency");
        close(n(row, "estimate_s") - n(row, "latency_s"), check.getEstimatedSeconds(), "at NCCL's efficiency, less its latency");
    }

    @Test
    void aDimensionBetweenCpAndDpGivesCheckAndPlanTheSameGroupTierAndSeconds(@TempDir Path dir) {
        // tp-cp-pp-dp: cp's 2 ranks 1 apart, dp's 4 ranks 4 apart (pp 2 between them); the default order would keep the
        // dp·cp group in one node (ranks 0-7), this one spans 16 ranks: both nodes
        String layout = "tp: 1, cp: 2, pp: 2, dp: 4, order: tp-cp-pp-dp";
        String text = manifest("parameters: 8B, " + LLAMA3_8B, layout);
        Map<String, Object> plan = plan(dir, "j.yaml", text);
        Map<String, Object> row = placed(plan);
        AllReduceFact check = fact(text);

        assertEquals(8, check.getRanks());
        assertEquals(n(plan, "ranks"), check.getRanks());
        assertEquals(AllReduceFact.Link.NETWORK, check.getLink());
        assertEquals("network", row.get("tier"));
        assertEquals(n(row, "line_rate_bytes_per_s"), check.getLinkBytesPerSecond(), 1);
        assertEquals(8 / 4, check.getRingsPerNode(), "4 of the group's ranks on a node: two groups share its NICs");
        // NET003's S is parameters ÷ pp, the plan's the fullest stage it counts; the seconds per byte are the same
        double s = n(plan, "bytes");
        assertEquals(n(row, "bytes_per_gpu") / s, check.getSentBytes() / check.getGradientBytes(), 1e-9, "2(N−1)/N with N = 8");
        close((n(row, "ideal_s") - n(row, "latency_s")) / s, check.getSeconds() / check.getGradientBytes(), "line rate per byte");
        close((n(row, "estimate_s") - n(row, "latency_s")) / s, check.getEstimatedSeconds() / check.getGradientBytes(),
                "NCCL's efficiency per byte");
    }

    @Test
    void theDefaultOrderKeepsThatGroupOnNvlinkInBoth(@TempDir Path dir) {
        String layout = "tp: 1, cp: 2, pp: 2, dp: 4";
        String text = manifest("parameters: 8B, " + LLAMA3_8B, layout);
        Map<String, Object> row = placed(plan(dir, "j.yaml", text));
        AllReduceFact check = fact(text);
        assertEquals(8, check.getRanks());
        assertEquals(AllReduceFact.Link.NVLINK, check.getLink());
        assertEquals("nvlink", row.get("tier"));
        assertEquals(n(row, "line_rate_bytes_per_s"), check.getLinkBytesPerSecond(), 1);
        assertEquals(450e9, check.getLinkBytesPerSecond(), 1, "NVLink 4's 900 GB/s both ways");
    }
}
