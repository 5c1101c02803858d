package dev.gpulint.cli;

import static dev.gpulint.cli.PlanRankingTest.cluster;
import static dev.gpulint.cli.PlanRankingTest.job;
import static dev.gpulint.cli.PlanRankingTest.map;
import static dev.gpulint.cli.PlanRankingTest.plan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 34's leftover: Llama 3 405B as Meta ran it (arXiv:2407.21783 §3.3: tp 8, pp 16, one layer fewer on the first and
 * the last stage, FSDP sharding gradients and optimizer states, no activation checkpointing at 8K) on 1,024 H100 (dp 8)
 * is a layout that ran: `plan` must keep it valid, with no PAR004 and no memory finding, and price each stage's own layers.
 */
class UnevenPipelinePlanTest {
    private static final String LLAMA3_405B = "{ dtype: bf16, layers: 126, hidden_size: 16384, attention_heads: 128, kv_heads: 8, "
            + "ffn_hidden_size: 53248, vocab_size: 128256, gated_mlp: true, tied_embeddings: false, seq_length: 8192 }";

    @Test
    @SuppressWarnings("unchecked")
    void llama3_405bWithSevenLayersOnTheFirstAndLastStageIsValidAndPricedPerStage(@TempDir Path dir) throws IOException {
        Map<String, Object> doc = plan(dir, cluster(128, "H100-SXM5-80GB") + job(128, LLAMA3_405B,
                "{ tp: 8, pp: 16, dp: 8, sequence_parallel: true, first_stage_layers: 7, last_stage_layers: 7 }",
                "{ micro_batch_size: 1, global_batch_size: 256 }", "{ zero_stage: 2 }", "none"), "--top", "1");
        Map<String, Object> cur = map(doc.get("current"));
        assertNotNull(cur.get("rank"), "a layout that ran is valid: rejected by " + cur.get("rejected_by"));
        List<Object> findings = (List<Object>) cur.get("findings");
        assertTrue(findings.stream().map(String::valueOf).noneMatch(f -> f.contains("PAR004") || f.contains("MEM00")), findings.toString());
        List<Map<String, Object>> stages = (List<Map<String, Object>>) map(cur.get("memory")).get("stages");
        assertEquals(16, stages.size());
        // stage 0 holds 7 layers and the embedding, stage 1 a middle stage's 8 layers, stage 15 7 layers and the output layer
        double p0 = ((Number) stages.get(0).get("parameters")).doubleValue(), p1 = ((Number) stages.get(1).get("parameters")).doubleValue();
        double perLayer = p1 / 8, embedding = 129024.0 * 16384 / 8;   // vocabulary padded to 128 × tp
        assertEquals(7 * perLayer + embedding, p0, p0 * 1e-3);
        assertEquals(7, map(cur.get("layout")).get("first_stage_layers"));
        assertEquals(7, map(cur.get("layout")).get("last_stage_layers"));
        assertTrue(((List<Object>) doc.get("assumptions")).contains("layers over the pipeline: 7 on the first stage, 7 on the last, 8 on"
                + " each other (uneven split), as Megatron-Core's get_num_layers_to_build builds them"), String.valueOf(doc.get("assumptions")));
    }
}
