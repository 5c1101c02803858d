package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.testing.EstimateManifest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The routed experts' gradients and parameters synchronised over the expert data-parallel group (ExpertDpSync), as
 * Megatron-Core's DDP buckets them apart from the dense ones, on our own manifests: GPT-OSS-120B's shape on 8 DGX H100
 * (8 × 400 Gb/s per node), distributed optimizer, bf16 gradients.
 */
class ExpertDpSyncTest {

    static final double EXPERT_MLP = 3.0 * 2880 * 2880;   // one expert's gated MLP: 24,883,200 parameters

    static Estimate gptOss(String par) {
        return EstimateManifest.h100().nodes(8).nics(EstimateManifest.CX7_IB)
                .model(ExpertPassesTest.GPT_OSS_120B + ", seq_length: 4096").parallelism(par).batch(4, 512)
                .optimizer("zero_stage: 1, distributed: true, bytes_per_parameter: 16").recompute("none").estimate().estimate();
    }

    static List<Term.Collectives> dp(Estimate e) {
        return e.terms().stream().filter(t -> t instanceof Term.Collectives c && c.dim() == ParallelDim.DP)
                .map(t -> (Term.Collectives) t).toList();
    }

    static Term.Collectives named(Estimate e, String what) {
        return dp(e).stream().filter(c -> c.what().equals(what)).findFirst().orElseThrow(() -> new AssertionError(what + " in " + dp(e)));
    }

    @Test
    void expertsAtEp8ReduceOverEightRanksOnePerNode() {
        Estimate e = gptOss("tp: 1, ep: 8");
        // 64 GPUs, dp 64, ep 8, etp 1: edp = 64 ÷ 8 = 8, its ranks etp·ep = 8 apart, one on each 8-GPU node
        // the GPU's experts: 128 ÷ 8 = 16 per layer × 36 layers × 24,883,200 = 14,332,723,200 parameters
        double expert = 16 * 36 * EXPERT_MLP;
        assertEquals(14_332_723_200.0, expert, 0);
        // buckets of max(40M, 1M · dp·cp = 64M) parameters: ⌈14,332,723,200 ÷ 64M⌉ = 224
        Term.Collectives rs = named(e, "expert gradient reduce-scatter per bucket (expert data-parallel group)");
        assertEquals(8, rs.n());
        assertEquals(224, rs.count(), 0);
        CollectiveCost k = rs.cost();
        assertEquals(expert * 2 / 224, k.bytes(), 1e-3);
        assertEquals(7.0 / 8 * expert * 2 / 224, k.bytesPerRank(), 1e-3);
        // the ring crosses each node through one GPU's NIC: 400 Gb/s = 50 GB/s at the network's 0.9
        assertEquals(Tier.NETWORK, k.tier());
        assertEquals(1, k.local());
        assertEquals(50e9, k.lineRate(), 1e-3);
        assertEquals(k.bytesPerRank() / (50e9 * 0.9), k.bandwidthSeconds(), 1e-12);
        assertEquals(224 * k.seconds(), rs.seconds(), 1e-12);
        // the parameter all-gather moves the same bf16 bytes over the same group
        Term.Collectives ag = named(e, "expert parameter all-gather per bucket (expert data-parallel group)");
        assertEquals(8, ag.n());
        assertEquals(rs.seconds(), ag.seconds(), 1e-12);
        // the rest of the stage over all 64 ranks, at the node's eight NICs
        Term.Collectives shared = named(e, "gradient reduce-scatter per bucket");
        assertEquals(64, shared.n());
        double stage = e.stages().get(0).parameters();
        assertEquals((stage - expert) * 2 / shared.count(), shared.cost().bytes(), 1e-3);
        assertEquals(8, shared.cost().local());
        // the dp time is the four collectives' sum
        assertEquals(dp(e).stream().mapToDouble(Term.Collectives::seconds).sum(), e.time().comm().get(ParallelDim.DP), 1e-12);
        // 25.1 GB per rank through one NIC: over half a second each way, where the node's NICs moved the whole stage in ~0.1 s
        assertTrue(rs.seconds() > 0.55 && rs.seconds() < 0.6, "" + rs.seconds());
    }

    @Test
    void expertsAtEp64AreNotReduced() {
        // ep 64 = dp: each expert lives on one GPU, its group is one rank, nothing to reduce; the rest goes over 64 ranks
        Estimate e = gptOss("tp: 1, ep: 64");
        assertTrue(dp(e).stream().noneMatch(c -> c.what().startsWith("expert")), "" + dp(e));
        double expert = 2 * 36 * EXPERT_MLP;
        Term.Collectives shared = named(e, "gradient reduce-scatter per bucket");
        assertEquals(64, shared.n());
        assertEquals((e.stages().get(0).parameters() - expert) * 2 / shared.count(), shared.cost().bytes(), 1e-3);
    }

    @Test
    void aDenseModelKeepsOneGroup() {
        Estimate e = EstimateManifest.h100().nodes(8).nics(EstimateManifest.CX7_IB).model(EstimateManifest.LLAMA3_8B + ", seq_length: 8192")
                .parallelism("tp: 1").batch(1, 512).optimizer("zero_stage: 1, distributed: true").recompute("none").estimate().estimate();
        assertTrue(dp(e).stream().noneMatch(c -> c.what().startsWith("expert")), "" + dp(e));
        Term.Collectives rs = named(e, "gradient reduce-scatter per bucket");
        assertEquals(e.stages().get(0).parameters() * 4 / rs.count(), rs.cost().bytes(), 1e-3);   // fp32 gradients, Megatron's default
    }

    @Test
    void withoutTheDistributedOptimizerTheExpertsAllReduceOverTheirGroup() {
        Estimate e = EstimateManifest.h100().nodes(8).nics(EstimateManifest.CX7_IB)
                .model(ExpertPassesTest.GPT_OSS_120B + ", seq_length: 4096").parallelism("tp: 1, ep: 8").batch(1, 512)
                .optimizer("zero_stage: 0, distributed: false, bytes_per_parameter: 16").recompute("full").estimate().estimate();
        Term.Collectives ar = named(e, "expert gradient all-reduce per bucket (expert data-parallel group)");
        assertEquals(8, ar.n());
        assertEquals(1, ar.cost().local());
        assertEquals(64, named(e, "gradient all-reduce per bucket").n());
    }
}
