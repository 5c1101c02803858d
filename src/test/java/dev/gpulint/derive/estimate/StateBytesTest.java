package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.derive.estimate.ModelShape.Dtype;
import dev.gpulint.derive.estimate.StateBytes.Accounting;
import org.junit.jupiter.api.Test;

/** The one model-state accounting against the ZeRO paper's and Megatron-LM's own figures. */
class StateBytesTest {

    private static double perGpu(double params, StateBytes b, long tp, long pp, int zero, boolean distributed, double ranks) {
        return params / (tp * pp) * b.sharded(zero, distributed, ranks).total();
    }

    @Test
    void zeroPaperExample() {
        // Rajbhandari et al. 2020, Fig. 1: 7.5B parameters, N_d = 64: 120 GB, 31.4 GB, 16.6 GB, 1.9 GB
        StateBytes b = StateBytes.of(Dtype.BF16, 1, false, null, null);
        assertEquals(Accounting.ZERO, b.accounting());
        assertEquals(16, b.total());
        assertEquals(120.0, perGpu(7.5e9, b, 1, 1, 0, false, 64) / 1e9, 0.05);
        assertEquals(31.4, perGpu(7.5e9, b, 1, 1, 1, false, 64) / 1e9, 0.05);
        assertEquals(16.6, perGpu(7.5e9, b, 1, 1, 2, false, 64) / 1e9, 0.05);
        assertEquals(1.9, perGpu(7.5e9, b, 1, 1, 3, false, 64) / 1e9, 0.05);
    }

    @Test
    void megatronBf16IsEighteenAndSixPlusTwelveOverDpWithTheDistributedOptimizer() {
        StateBytes b = StateBytes.of(Dtype.BF16, 0, true, null, null);
        assertEquals(Accounting.MEGATRON_BF16, b.accounting());
        assertEquals(2, b.weights());
        assertEquals(4, b.gradients());
        assertEquals(12, b.optimizer());
        // 70B over tp 8 × pp 2: 4.375B parameters per GPU × 18 bytes
        assertEquals(78.75e9, perGpu(70e9, b, 8, 2, 0, false, 4), 1);
        // Llama 3 8B, dp 8, distributed optimizer (theoretical_memory_usage.py: 6 + 12/dp): 8.03B × 7.5 = 60.2 GB
        assertEquals(60.225e9, perGpu(8.03e9, b, 1, 1, 0, true, 8), 1);
        // fp8 trains bf16 weights: the same accounting
        assertEquals(Accounting.MEGATRON_BF16, StateBytes.of(Dtype.FP8, 0, false, null, null).accounting());
    }

    @Test
    void eachNamedAccounting() {
        assertEquals(16, StateBytes.of(Dtype.FP32, 0, false, null, null).total());
        assertEquals(8, StateBytes.of(Dtype.FP32, 0, false, null, null).optimizer());
        assertEquals(Accounting.FP32, StateBytes.of(Dtype.TF32, 3, false, null, null).accounting());
        StateBytes fp16 = StateBytes.of(Dtype.FP16, 0, true, null, null);
        assertEquals(Accounting.MEGATRON_FP16, fp16.accounting());
        assertEquals(4 + 16.0 / 8, fp16.sharded(0, true, 8).total(), 1e-12, "fp16 weights and gradients, the fp32 shard 16/dp");
        assertEquals(16, StateBytes.of(Dtype.FP16, 0, false, null, null).total());
        StateBytes none = StateBytes.of(null, 0, false, null, null);
        assertEquals(Accounting.LEAST, none.accounting());
        assertEquals(16, none.total(), "no dtype stated: the least mixed-precision Adam holds");
        // 16-bit main gradients stated by another format (--grad-reduce-in-bf16): 2 + 2 + 12, and where it was said
        StateBytes grads = StateBytes.of(Dtype.BF16, 0, true, 16.0, "--grad-reduce-in-bf16");
        assertEquals(Accounting.STATED, grads.accounting());
        assertEquals(2, grads.gradients());
        assertEquals("--grad-reduce-in-bf16", grads.where());
        assertEquals(1, StateBytes.of(null, 0, false, 8.0, null).weights(), "under 14 bytes: the ZeRO proportions");
        assertEquals("optimizer.bytes_per_parameter", StateBytes.of(null, 0, false, 20.0, null).where());
    }

    @Test
    void aCandidateLayoutGetsItsOwnShardingsAccountingUnlessTheBytesAreStated() {
        StateBytes job = StateBytes.of(Dtype.BF16, 0, false, null, null);
        assertEquals(Accounting.ZERO, job.at(2, false).accounting());
        assertEquals(18, job.at(0, true).total());
        StateBytes stated = StateBytes.of(Dtype.BF16, 0, false, 16.0, null);
        assertEquals(stated, stated.at(3, false));
        assertEquals(Accounting.LEAST, StateBytes.of(null, 0, false, null, null).at(0, true).accounting());
    }

    @Test
    void unboundedRanksLeaveTheShardedPartsOut() {
        StateBytes b = StateBytes.of(Dtype.BF16, 3, false, null, null);
        assertEquals(0, b.sharded(3, false, Double.POSITIVE_INFINITY).total());
        assertEquals(4, b.sharded(1, false, Double.POSITIVE_INFINITY).total());
    }
}
