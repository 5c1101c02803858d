package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.CpuLimit;
import dev.gpulint.testing.EstimateManifest;
import dev.gpulint.testing.PlanCli;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 35: a 2,048-GPU MoE job's space is past SearchSpace.MAX_LAYOUTS; the plan keeps the micro batch as written,
 * says so, and ranks the job as written (docs/plan.md, "Past 250,000 layouts").
 */
class LargeMoePlanTest {

    /** Grok-1 314B (64 layers, 8 experts, top 2) as DGX Cloud's recipe lays it out on 256 DGX H100: 2,048 GPUs. */
    static final String GROK_2048 = EstimateManifest.pod(256).name("grok1-314b")
            .model("dtype: bf16, layers: 64, hidden_size: 6144, attention_heads: 48, kv_heads: 8, ffn_hidden_size: 32768,"
                    + " vocab_size: 131072, gated_mlp: true, tied_embeddings: false, seq_length: 8192, experts: 8, top_k: 2,"
                    + " moe: { dispatcher: alltoall, grouped_gemm: true }")
            .parallelism("tp: 4, pp: 8, cp: 2, virtual_pp: 8, sequence_parallel: true, ep: 8").batch(1, 1024)
            .optimizer("zero_stage: 1, distributed: true").recompute("none").yaml();

    @Test
    @CpuLimit(seconds = 240)
    @SuppressWarnings("unchecked")
    void aTwoThousandGpuMoeJobIsRankedWithTheMicroBatchKeptAsWrittenAndSaysSo(@TempDir Path dir) {
        Map<String, Object> doc = PlanCli.in(dir).file("grok.yaml", GROK_2048).planJson("--top", "3").json();
        assertFalse(doc.containsKey("search_problem"), String.valueOf(doc.get("search_problem")));
        List<String> assumptions = (List<String>) doc.get("assumptions");
        assertTrue(assumptions.contains("2,048 GPUs give 305,904 layouts, more than the 250,000 one search checks: the search keeps the "
                + "micro batch (1) as written (77,784 layouts; a candidate whose sizes do not allow the written value takes the largest "
                + "they allow below it), and ranks the job as written among them"), assumptions.toString());
        assertEquals(77_785, ((Number) doc.get("evaluated")).intValue(), "the narrowed space and the job as written");
        Map<String, Object> current = PlanCli.map(doc.get("current"));
        Map<String, Object> layout = PlanCli.map(current.get("layout"));
        assertEquals(List.of(4, 8, 32, 2, 8, 8), List.of(layout.get("tp"), layout.get("pp"), layout.get("dp"), layout.get("cp"),
                layout.get("ep"), layout.get("virtual_pp")));
        Object rank = current.get("rank");
        assertNotNull(rank, "the job as written is ranked");
        int valid = ((Number) doc.get("valid")).intValue();
        assertTrue((Integer) rank >= 1 && (Integer) rank <= valid, rank + " of " + valid);
        List<Object> candidates = (List<Object>) doc.get("candidates");
        assertEquals(3, candidates.size());
        for (Object c : candidates) assertEquals(1, PlanCli.map(PlanCli.map(c).get("layout")).get("micro_batch_size"));
    }
}
