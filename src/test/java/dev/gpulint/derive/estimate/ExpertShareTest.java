package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.derive.mem.MemoryAnalysis;
import dev.gpulint.facts.MemoryFact;
import dev.gpulint.testing.EstimateManifest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The routed experts' share of one GPU (MoeShape.ExpertShare) with an expert tensor-parallel size other than tp: the
 * experts ÷ etp·ep, their sharded states over the expert data-parallel group tp·cp·dp ÷ (etp·ep) (Megatron-Core's
 * parallel_state.initialize_model_parallel), in the plan's memory, its optimizer step and the MEM rules' fact alike. Our
 * own manifests: GPT-OSS-120B's shape (128 experts of 24,883,200 parameters, 36 layers) on DGX H100 nodes, 16 bytes per
 * parameter (2 + 2 + 12), the distributed optimizer.
 */
class ExpertShareTest {

    static final double EXPERTS = 128 * 36 * ExpertDpSyncTest.EXPERT_MLP;   // every routed expert's parameters

    static EstimateManifest gptOss(int nodes, String par, String model) {
        return EstimateManifest.h100().nodes(nodes).nics(EstimateManifest.CX7_IB)
                .model(ExpertPassesTest.GPT_OSS_120B + ", seq_length: 4096" + model).parallelism(par).batch(1, 512)
                .optimizer("zero_stage: 0, distributed: true, bytes_per_parameter: 16").recompute("full");
    }

    static Estimate estimate(int nodes, String par) {
        return gptOss(nodes, par, "").estimate().estimate();
    }

    @Test
    void etp1UnderTp2SplitsTheExpertsOverEpAlone() {
        // 64 GPUs, tp 2, dp 32, ep 8, etp 1: each GPU holds 128 ÷ (1 · 8) = 16 experts per layer, not 128 ÷ (2 · 8) = 8;
        // their expert data-parallel group is 2 · 32 ÷ (1 · 8) = 8 ranks
        Estimate e = estimate(8, "tp: 2, ep: 8, etp: 1");
        MemoryModel.Stage s = e.stages().get(0);
        double expert = EXPERTS / 8;
        assertEquals(16 * 36 * ExpertDpSyncTest.EXPERT_MLP, expert, 0);
        double shared = s.parameters() - expert;
        // the dense part ÷ tp 2, as without etp: GPT-OSS-120B's 116.8 G parameters less its 114.7 G routed experts, halved
        Estimate same = estimate(8, "tp: 2, ep: 8");
        double sharedAtTp2 = same.stages().get(0).parameters() - EXPERTS / 16;
        assertEquals(sharedAtTp2, shared, 1e-3);
        assertEquals(2 * (shared + expert), s.weights(), 1e-3);
        assertEquals(2 * (shared + expert), s.gradients(), 1e-3);
        assertEquals(12 * (shared / 32 + expert / 8), s.optimizer(), 1e-3);
        // the optimizer step updates the same shard
        assertEquals(shared / 32 + expert / 8, OptimizerShardTest.optimizer(e).localParameters(), 1e-3);
        // and the experts' gradients reduce over the same group, each GPU's experts whole
        assertEquals(8, ExpertDpSyncTest.named(e, "expert gradient reduce-scatter per bucket (expert data-parallel group)").n());
    }

    @Test
    void etpStatedAsTpIsTheDefault() {
        Estimate stated = estimate(8, "tp: 2, ep: 8, etp: 2"), unstated = estimate(8, "tp: 2, ep: 8");
        assertEquals(unstated.stages().get(0).total(), stated.stages().get(0).total(), 0);
        // tp 2 · ep 8: 8 experts per layer on each GPU, their states over 2 · 32 ÷ 16 = 4 ranks
        double expert = EXPERTS / 16, shared = stated.stages().get(0).parameters() - expert;
        assertEquals(12 * (shared / 32 + expert / 4), stated.stages().get(0).optimizer(), 1e-3);
    }

    @Test
    void anExpertGroupWiderThanDpShardsOverTpTimesDpOverEtpEp() {
        // 16 GPUs, tp 8, dp 2, ep 4, etp 1: dp·cp = 2 < ep; the expert data-parallel group is 8 · 2 ÷ (1 · 4) = 4 ranks, where
        // dp·cp ÷ ep = 0.5, clamped at 1, sharded the experts' states over one (4 times the bytes)
        Estimate e = estimate(2, "tp: 8, ep: 4, etp: 1");
        MemoryModel.Stage s = e.stages().get(0);
        double expert = EXPERTS / 4, shared = s.parameters() - expert;
        assertEquals(2 * (shared + expert), s.weights(), 1e-3);
        assertEquals(12 * (shared / 2 + expert / 4), s.optimizer(), 1e-3);
        assertEquals(shared / 2 + expert / 4, OptimizerShardTest.optimizer(e).localParameters(), 1e-3);
        assertEquals(4, ExpertDpSyncTest.named(e, "expert gradient reduce-scatter per bucket (expert data-parallel group)").n());
    }

    @Test
    void theShareIsEtpTimesEpAndTheRanksTpTimesDpCpOverIt() {
        MoeShape.ExpertShare s = MoeShape.ExpertShare.of(2, 1, 8, 32);
        assertEquals(8, s.divisor(), 0);
        assertEquals(8, s.ranks(), 0);
        assertTrue(s.whole());
        MoeShape.ExpertShare half = MoeShape.ExpertShare.of(2, 2, 8, 4);
        assertEquals(16, half.divisor(), 0);
        assertEquals(0.5, half.ranks(), 0);
        assertFalse(half.whole(), "an expert grid that does not divide the GPUs");
        assertFalse(MoeShape.ExpertShare.of(1, 1, 8, Double.POSITIVE_INFINITY).whole(), "dp not known");
    }

    @Test
    void theMemRulesNumberIsThePlansWithEtp() {
        // the job states its parameters as the plan counts them: the MEM fact's model states per GPU are the plan's
        Estimate e = estimate(8, "tp: 2, ep: 8, etp: 1");
        MemoryModel.Stage s = e.stages().get(0);
        double expert = EXPERTS / 8, sharedTotal = (s.parameters() - expert) * 2;
        String stated = String.format(java.util.Locale.ROOT, ", parameters: %.0f, expert_parameters: %.0f", sharedTotal + EXPERTS, EXPERTS);
        EstimateManifest m = gptOss(8, "tp: 2, ep: 8, etp: 1", stated);
        List<MemoryFact> facts = m.fixture().jobFacts(MemoryFact.class, MemoryAnalysis::job);
        assertEquals(1, facts.size());
        MemoryFact f = facts.get(0);
        assertEquals(1, f.getExpertTp());
        assertEquals(8, f.getEp());
        assertEquals(8, f.getExpertDp());
        assertEquals(s.weights() + s.gradients() + s.optimizer(), f.getPerGpuBytes(), 1);
        assertEquals(EXPERTS / 8 * (2 + 2 + 12.0 / 8), f.getExpertBytes(), 1);
        // the plan of the same manifest with its parameters stated counts the same
        MemoryModel.Stage planned = m.estimate().estimate().stages().get(0);
        assertEquals(planned.weights() + planned.gradients() + planned.optimizer(), f.getPerGpuBytes(), 1);
    }
}
