package dev.gpulint.derive.par;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.derive.Fixture;
import dev.gpulint.facts.Bf16LayersFact;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * PAR013's analysis: each end's bf16 count beside Megatron-Core's bound, num_layers // pp (TransformerConfig.__post_init__
 * at NVIDIA/Megatron-LM d98e8a6, checked only when config.fp8 is set).
 */
class Bf16LayersAnalysisTest {

    private static List<Bf16LayersFact> facts(String dtype, String pp, String counts) {
        return Fixture.of("kind: training_job\nname: j\nnodes: 2\ngpus_per_node: 8\nmodel: { dtype: " + dtype
                        + ", layers: 32, hidden_size: 4096, attention_heads: 32 }\n" + pp + "fp8_layers_bf16: " + counts + "\n")
                .jobFacts(Bf16LayersFact.class, Bf16LayersAnalysis::job);
    }

    @Test
    void eachEndAboveZeroIsAFactWithMegatronsBound() {
        List<Bf16LayersFact> f = facts("fp8", "parallelism: { tp: 1, pp: 16 }\n", "{ start: 1, end: 4 }");
        assertEquals(2, f.size());
        Bf16LayersFact start = f.get(0), end = f.get(1);
        assertFalse(start.isAtEnd());
        assertTrue(end.isAtEnd());
        assertEquals(1, start.getCount());
        assertEquals(4, end.getCount());
        // 32 layers // pp 16 = 2 per stage: the start's 1 is accepted, the end's 4 is not; pp 8 (32 // 4) would accept it
        assertEquals(2, end.getPerStage());
        assertEquals(8, end.getPpAtMost());
        assertTrue(end.isSomePpFits());
        assertEquals(32, end.getLayers());
        assertEquals(16, end.getPp());
        assertEquals("fp8_layers_bf16.end", end.getCountKey());
        assertEquals("t.yaml:7:35", end.getCountSpan().toString());
        assertEquals("t.yaml:6:27", end.getPpSpan().toString());
        assertEquals("training_job:j/bf16-layers/end", end.identity());
        assertEquals("training_job:j/bf16-layers/start", start.identity());
    }

    /**
     * The pp to lower to is a divisor of the job's: 32 layers keeping 6 at the end at pp 16 take pp 5 (32 // 6), which neither
     * divides 32 (PAR004) nor 16·tp·cp GPUs by 5·tp·cp (PAR001): told pp 4. pp 3 keeping 11 of 32 takes 2, no divisor of 3: 1.
     */
    @Test
    void thePpToLowerToIsADivisorOfTheJobsPp() {
        assertEquals(4, facts("fp8", "parallelism: { tp: 1, pp: 16 }\n", "{ end: 6 }").get(0).getPpAtMost());
        assertEquals(1, facts("fp8", "parallelism: { tp: 1, pp: 3 }\n", "{ end: 11 }").get(0).getPpAtMost());
        assertEquals(8, facts("fp8", "parallelism: { tp: 1, pp: 16 }\n", "{ end: 4 }").get(0).getPpAtMost(), "32 // 4 = 8 divides 16");
    }

    @Test
    void theBoundIsTheFloorOfLayersOverPpWhateverTheVirtualStages() {
        // 32 // 3 = 10 (Megatron's integer division; the pp does not divide the layers: PAR004's to say)
        assertEquals(10, facts("fp8", "parallelism: { tp: 1, pp: 3 }\n", "{ end: 11 }").get(0).getPerStage());
        assertEquals(4, facts("mxfp8", "parallelism: { tp: 1, pp: 8, virtual_pp: 2 }\n", "{ end: 5 }").get(0).getPerStage(),
                "the virtual pipeline size does not enter TransformerConfig's check");
        Bf16LayersFact beyond = facts("fp8", "", "{ start: 40 }").get(0);
        assertEquals(1, beyond.getPp(), "pp not written: 1, whose bound is every layer");
        assertEquals(32, beyond.getPerStage());
        assertEquals(0, beyond.getPpAtMost());
        assertFalse(beyond.isSomePpFits(), "40 of 32 layers: no pp accepts it");
    }

    @Test
    void onlyFp8AndMxfp8JobsAreBoundedAndZeroCountsAreNoFact() {
        String pp = "parallelism: { tp: 1, pp: 16 }\n";
        assertEquals(List.of(), facts("nvfp4", pp, "{ start: 4, end: 4 }"), "NVFP4: Megatron-Core's fp4 context, no bound");
        assertEquals(List.of(), facts("bf16", pp, "{ start: 4, end: 4 }"));
        assertEquals(List.of(), facts("fp8", pp, "{ start: 0, end: 0 }"));
        assertEquals(1, facts("mxfp8", pp, "{ start: 0, end: 4 }").size());
    }

    @Test
    void theCountIsNamedAsTheJobsFileWritesIt() {
        assertEquals("--num-layers-at-end-in-bf16", Bf16LayersAnalysis.key("--first-last-layers-bf16", true, false));
        assertEquals("--num-layers-at-start-in-bf16 (not written: its default under --first-last-layers-bf16)",
                Bf16LayersAnalysis.key("--first-last-layers-bf16", false, true));
        assertEquals("mixed_precision.num_layers_at_end_in_bf16", Bf16LayersAnalysis.key("mixed_precision.first_last_layers_bf16", true, false));
        assertEquals("model.config.num_layers_at_start_in_bf16 (not written: its default under model.config.first_last_layers_bf16)",
                Bf16LayersAnalysis.key("model.config.first_last_layers_bf16", false, true));
        assertEquals("mixed_precision: nemotron_h_bf16_with_fp8_current_scaling_mixed",
                Bf16LayersAnalysis.key("mixed_precision: nemotron_h_bf16_with_fp8_current_scaling_mixed", true, true));
        assertEquals("fp8_layers_bf16.start", Bf16LayersAnalysis.key(null, false, false));
    }
}
