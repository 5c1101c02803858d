package dev.gpulint.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.plan.search.Candidate;
import dev.gpulint.plan.search.SearchResult;
import dev.gpulint.testing.EstimateManifest;
import org.junit.jupiter.api.Test;

/**
 * The plan proposes no layout Megatron-Core refuses for the layers an fp8 job keeps in bf16: TransformerConfig
 * (__post_init__, NVIDIA/Megatron-LM d98e8a6) raises when num_layers_at_start_in_bf16 or num_layers_at_end_in_bf16 is
 * above num_layers // pp, so PAR013 rejects such a candidate as it rejects any layout a rule's error is about.
 */
class Bf16LayersPlanTest {

    /** Llama 3 8B in fp8 (32 layers) on 4 DGX H100, at {@code pp}, keeping the first 1 and the last 4 layers in bf16 or not. */
    private static PlanSearch.Ranking plan(int pp, boolean bf16Layers) {
        EstimateManifest m = EstimateManifest.pod(4).model(EstimateManifest.LLAMA3_8B.replace("dtype: bf16", "dtype: fp8") + ", seq_length: 8192")
                .parallelism("tp: 1, pp: " + pp).batch(1, 128).optimizer("distributed: true");
        if (bf16Layers) m.line("fp8_layers_bf16: { start: 1, end: 4 }");
        return PlanSearch.rank(m.estimate(), Catalog.builtIn(), RuleCatalog.builtIn(), java.util.Map.of(), 0, 0);
    }

    @Test
    void noCandidateLeavesAStageFewerLayersThanTheBf16Counts() {
        SearchResult s = plan(16, true).search();
        // the job as written: 32 // 16 = 2 layers per stage, fewer than the last 4 it keeps in bf16
        assertTrue(s.current().rejectedBy().contains("PAR013"), s.current().toString());
        assertTrue(s.rejected().getOrDefault("PAR013", 0) > 0, s.rejected().toString());
        assertFalse(s.candidates().isEmpty());
        // pp 16 and 32 leave 2 and 1 layers per stage: rejected, every one; pp 8 and below (4 or more per stage) are not, by PAR013
        for (Candidate c : s.candidates()) assertTrue(c.layout().pp() <= 8, "proposed: " + c.layout());
        boolean pp16 = false;
        for (Candidate c : s.rejectedLayouts()) {
            boolean byBound = c.rejectedBy().contains("PAR013");
            assertEquals(c.layout().pp() > 8, byBound, c.toString());
            pp16 |= c.layout().pp() == 16;
        }
        assertTrue(pp16, "the pp 16 layouts were searched and rejected, not left out");
        assertTrue(plan(16, true).best().orElseThrow().layout().pp() <= 8);
    }

    @Test
    void withoutLayersKeptInBf16ThoseLayoutsAreCandidates() {
        // the same job keeping every layer in fp8: pp 16 layouts are valid (the bound above is what rejects them)
        SearchResult s = plan(16, false).search();
        assertFalse(s.rejected().containsKey("PAR013"), s.rejected().toString());
        assertTrue(s.current().valid(), s.current().toString());
        assertTrue(s.candidates().stream().anyMatch(c -> c.layout().pp() == 16));
    }
}
