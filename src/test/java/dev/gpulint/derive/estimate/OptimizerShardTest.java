package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.testing.EstimateManifest;
import org.junit.jupiter.api.Test;

/**
 * The optimizer step's parameters are the shard whose states the memory counts (MemoryModel.optimizerShard): under the
 * distributed optimizer the shared parameters ÷ dp·cp and the routed experts ÷ their expert data-parallel group, as
 * Megatron-Core builds the experts' optimizer over intra_expt_dp_group. Our own manifests: GPT-OSS-120B's shape and
 * Llama 3 8B's on 8 DGX H100 (64 GPUs).
 */
class OptimizerShardTest {

    static Term.Optimizer optimizer(Estimate e) {
        return e.terms().stream().filter(t -> t instanceof Term.Optimizer).map(t -> (Term.Optimizer) t).findFirst()
                .orElseThrow(() -> new AssertionError("no optimizer term in " + e.terms()));
    }

    static Estimate gptOss(String par, String optimizer) {
        return EstimateManifest.h100().nodes(8).nics(EstimateManifest.CX7_IB)
                .model(ExpertPassesTest.GPT_OSS_120B + ", seq_length: 4096").parallelism(par).batch(1, 512)
                .optimizer(optimizer).recompute("full").estimate().estimate();
    }

    @Test
    void theExpertsStepTheirShardOverTheExpertDataParallelGroup() {
        Estimate e = gptOss("tp: 1, ep: 8", "zero_stage: 0, distributed: true, bytes_per_parameter: 16");
        // 64 GPUs, dp 64, ep 8: each GPU holds 128 ÷ 8 = 16 experts per layer × 36 layers × 24,883,200 = 14,332,723,200
        // expert parameters, their states sharded over the expert data-parallel group of 64 ÷ 8 = 8 ranks; the rest over 64
        double expert = 16 * 36 * ExpertDpSyncTest.EXPERT_MLP;
        double shared = e.stages().get(0).parameters() - expert;
        Term.Optimizer o = optimizer(e);
        assertEquals(shared / 64 + expert / 8, o.localParameters(), 1e-3);
        // 1.79 G of experts + ~2.1 G shared ÷ 64: 1.82 G parameters, where ÷ 64 for all of them gave 0.26 G
        assertEquals(1.82e9, o.localParameters(), 0.01e9);
        assertEquals(o.localParameters() * 30 / o.hbmRate(), o.seconds(), 1e-15);
        assertEquals(e.time().optimizer(), o.seconds(), 0);
        // the memory's optimizer states are 12 bytes for each of the same parameters
        assertEquals(12 * o.localParameters(), e.stages().get(0).optimizer(), 1e-3);
    }

    @Test
    void atEp64EachExpertStepsOnItsOwnGpu() {
        // ep = dp: each expert's group is one rank, whose optimizer holds all of that GPU's experts
        Estimate e = gptOss("tp: 1, ep: 64", "zero_stage: 0, distributed: true, bytes_per_parameter: 16");
        double expert = 2 * 36 * ExpertDpSyncTest.EXPERT_MLP;
        double shared = e.stages().get(0).parameters() - expert;
        assertEquals(shared / 64 + expert, optimizer(e).localParameters(), 1e-3);
        assertEquals(12 * optimizer(e).localParameters(), e.stages().get(0).optimizer(), 1e-3);
    }

    @Test
    void unshardedTheStepUpdatesEveryParameterOfTheStage() {
        Estimate e = gptOss("tp: 1, ep: 8", "zero_stage: 0, distributed: false, bytes_per_parameter: 16");
        assertEquals(e.stages().get(0).parameters(), optimizer(e).localParameters(), 1e-3);
    }

    @Test
    void aDenseModelStepsItsStageOverDpCp() {
        // Llama 3 8B at tp 1 over 64 GPUs with the distributed optimizer: the stage ÷ 64, as before the experts' own group
        Estimate e = EstimateManifest.h100().nodes(8).nics(EstimateManifest.CX7_IB).model(EstimateManifest.LLAMA3_8B + ", seq_length: 8192")
                .parallelism("tp: 1").batch(1, 512).optimizer("zero_stage: 1, distributed: true").recompute("none").estimate().estimate();
        double params = e.stages().get(0).parameters();
        assertEquals(8.03e9, params, 0.01e9);
        assertEquals(params / 64, optimizer(e).localParameters(), 0);
        assertEquals(12 * params / 64, e.stages().get(0).optimizer(), 1e-3);
    }
}
