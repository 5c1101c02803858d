package dev.gpulint.derive.estimate;

import dev.gpulint.spec.ParallelDim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.EstimateManifest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The estimate's breakdown as numbers ({@link Term}): one known layout, its terms in order and their figures worked out
 * here from the model, the layout and the catalog's H100 (hardware-facts.md: NVLink 4 450 GB/s per direction, HBM3
 * 3.35 TB/s). The words are plan/EstimateWords' (EstimateWordsTest).
 */
class EstimateTermsTest {

    /** Llama 3 8B's shape on one DGX H100: tp 2, pp 2, dp 2, sequence parallel, distributed optimizer, no recompute. */
    private static JobEstimate job(String name, String parallelism) {
        return EstimateManifest.h100().name(name)
                .model(EstimateManifest.LLAMA3_8B + ", seq_length: 8192")
                .parallelism(parallelism).batch(1, 64).optimizer("distributed: true").recompute("none").estimate();
    }

    private static <T extends Term> List<T> all(Estimate e, Class<T> kind) {
        return e.terms().stream().filter(kind::isInstance).map(kind::cast).toList();
    }

    @Test
    void aKnownLayoutsTermsCarryItsFigures() {
        JobEstimate j = job("a", "tp: 2, pp: 2, sequence_parallel: true");
        Estimate e = j.estimate();
        Efficiency eff = j.inputs().hardware().efficiency();
        ModelShape m = j.inputs().model();
        // tp twice: its collectives, then what of them is exposed (TpOverlap)
        assertEquals(List.of("compute", "tp", "tp", "pp", "bubble", "dp", "dp", "dp", "optimizer"), e.terms().stream().map(Term::term).toList());

        // compute: 16 layers per stage; one layer's linear FLOPs are the 8,192 tokens' over tp 2; 32 micro-batches per step
        Term.Compute c = all(e, Term.Compute.class).get(0);
        assertEquals(16, c.layersPerStage());
        assertEquals(8192 * m.linearFlopsPerTokenLayer() / 2, c.linearFlops(), 1);
        assertEquals(ModelShape.Dtype.BF16, c.gemmPath());
        assertEquals(12, c.kernels());
        assertEquals(3.35e12 * eff.hbm(), c.hbmRate(), 1e3);
        assertEquals(e.time().compute(), 32 * c.seconds(), 1e-12, "the step's compute is 32 micro-batches of the slowest stage");
        assertTrue(c.logitSeconds() > 0, "the last stage is the slowest: the logits are in it");

        // tp: 8 collectives per layer × 16 layers, each b·s·h·2 bytes, (n − 1)/n of it per rank, over NVLink 4 at 450 GB/s × eff
        Term.Collectives tp = all(e, Term.Collectives.class).get(0);
        assertEquals(ParallelDim.TP, tp.dim());
        assertEquals(128, tp.count());
        assertEquals(2, tp.n());
        assertEquals(8192.0 * 4096 * 2, tp.cost().bytes());
        assertEquals(8192.0 * 4096 * 2 / 2, tp.cost().bytesPerRank());
        assertEquals(Tier.NVLINK, tp.cost().tier());
        assertEquals(450e9, tp.cost().lineRate(), 1e3);
        // + NCCL's latency once per collective: 8.4 + 1 × 3.4 µs for a ring of two on NVLink
        assertEquals(11.8e-6, tp.cost().latency(), 1e-12);
        assertEquals(128 * (8192.0 * 4096 / (450e9 * eff.nvlink()) + 11.8e-6), tp.seconds(), 1e-12);
        assertEquals(e.time().comm().get(ParallelDim.TP), 32 * tp.seconds(), 1e-12);

        // pp: an activation forward and a gradient backward, b·s·h·2 bytes / tp under sequence parallelism
        Term.Sends pp = all(e, Term.Sends.class).get(0);
        assertEquals(ParallelDim.PP, pp.dim());
        assertEquals(2 * 8192.0 * 4096 * 2 / 2, pp.bytes());
        assertEquals(Tier.NVLINK, pp.cost().tier());

        // the bubble: (pp − 1)/vpp = 1 micro-batch of 32, the layers split evenly
        Term.Bubble b = all(e, Term.Bubble.class).get(0);
        assertTrue(b.even());
        assertEquals(32, b.microBatches());
        assertEquals(e.time().bubble(), b.seconds(), 1e-12);
        assertEquals(b.perMicroBatch(), b.seconds(), 1e-12);

        // dp: the gradients reduce-scattered and the bf16 parameters all-gathered over 2 ranks, then what is exposed of them
        List<Term.Collectives> dp = all(e, Term.Collectives.class).stream().filter(t -> t.dim() == ParallelDim.DP).toList();
        double params = e.largestStage().parameters();
        assertEquals(Collective.REDUCE_SCATTER, dp.get(0).cost().collective());
        assertEquals(Collective.ALL_GATHER, dp.get(1).cost().collective());
        // in Megatron's buckets of max(40M, 1M × 2) parameters: ⌈params / 40M⌉ collectives each, each paying NCCL's α
        double buckets = Math.ceil(params / 40e6);
        assertEquals(buckets, dp.get(0).count());
        assertEquals(buckets, dp.get(1).count());
        assertEquals(params * 2, dp.get(1).count() * dp.get(1).cost().bytes(), 1);
        assertEquals(dp.get(1).count() * dp.get(1).cost().seconds(), dp.get(1).seconds(), 1e-12);
        assertTrue(dp.get(1).cost().latency() > 0);
        Term.DpExposure x = all(e, Term.DpExposure.class).get(0);
        assertEquals(dp.get(0).seconds() + dp.get(1).seconds(), x.seconds(), 1e-12);
        assertEquals(e.time().comm().get(ParallelDim.DP), x.seconds(), 1e-12);
        assertEquals(eff.dpOverlap(), x.dpOverlap());
        assertTrue(x.exposed() >= (1 - eff.dpOverlap()) * x.seconds() - 1e-12 && x.exposed() <= x.seconds(), x.toString());

        // the optimizer: 30 bytes per parameter of the GPU's half of the stage's states, at the HBM rate
        Term.Optimizer o = all(e, Term.Optimizer.class).get(0);
        assertEquals(params / 2, o.localParameters(), 1);
        assertEquals(params / 2 * 30 / (3.35e12 * eff.hbm()), o.seconds(), 1e-12);
        assertEquals(e.time().optimizer(), o.seconds(), 1e-15);
    }

    @Test
    void aTermOnlyWhereItsCostIs() {
        Estimate one = job("b", "tp: 1, pp: 1").estimate();
        // 8 GPUs of data parallelism only: no tp, pp or bubble term
        assertEquals(List.of("compute", "dp", "dp", "dp", "optimizer"), one.terms().stream().map(Term::term).toList());
        assertFalse(one.terms().stream().anyMatch(t -> t instanceof Term.Bubble));
        assertEquals(32, all(one, Term.Compute.class).get(0).layersPerStage());
    }

    @Test
    void twoLayoutsTermsEachCarryTheirOwnFigures() {
        Estimate a = job("a", "tp: 1, pp: 1").estimate(), b = job("b", "tp: 4, pp: 2, sequence_parallel: true").estimate();
        assertEquals(32, all(a, Term.Compute.class).get(0).layersPerStage());
        assertEquals(16, all(b, Term.Compute.class).get(0).layersPerStage());
        assertEquals(4, all(b, Term.Collectives.class).get(0).n());
        assertEquals(b.time().compute() / 64, all(b, Term.Compute.class).get(0).seconds(), 1e-12, "dp 1: 64 micro-batches");
    }
}
