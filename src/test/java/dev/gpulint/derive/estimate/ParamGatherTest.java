package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.testing.EstimateManifest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * fp8 parameter all-gathers (ParamGather): under Megatron's --fp8-param-gather (Megatron-Bridge's fp8 recipes, torchtitan's
 * enable_fsdp_float8_all_gather) the distributed optimizer's and FSDP's parameter all-gathers move the transformer layers'
 * linear weights at 1 byte and the embedding and output layer at 2; the gradient reduce-scatter keeps its width. Llama 3 8B
 * on one 8-GPU H100 host, dp 8: the shape of Megatron-Bridge 25.11's LLAMA3_8B H100 row.
 */
class ParamGatherTest {

    /**
     * Llama 3 8B's parameters on one GPU at tp 1 as ModelShape counts them (its norms with a weight and a bias: 4h a layer,
     * 2h the final one), and its embedding and untied output layer.
     */
    static final double PARAMS = 8_030_527_488.0, EMBEDDINGS = 2.0 * 128256 * 4096;

    private static JobEstimate estimate(String dtype, String optimizer, String gather) {
        EstimateManifest m = EstimateManifest.h100().model(EstimateManifest.LLAMA3_8B.replace("dtype: bf16", "dtype: " + dtype)
                + ", seq_length: 8192").parallelism("tp: 1, pp: 1").batch(1, 128).optimizer(optimizer).recompute("none");
        if (!gather.isEmpty()) m.line(gather);
        return m.estimate();
    }

    private static Estimate.Traffic gather(Estimate e) {
        return e.traffic(ParallelDim.DP, Collective.ALL_GATHER).orElseThrow();
    }

    /** The bytes a term's collectives move together: one per Megatron bucket or FSDP unit (NCCL's α once each). */
    private static double total(Estimate.Traffic t) {
        return t.count() * t.cost().bytes();
    }

    /** The seconds a term's collectives take together. */
    private static double seconds(Estimate.Traffic t) {
        return t.count() * t.cost().seconds();
    }

    private static List<String> said(JobEstimate j, String head) {
        return j.inputs().assumptions().stream().filter(s -> s.startsWith(head)).toList();
    }

    @Test
    void theDistributedOptimizersAllGatherMovesTheLinearWeightsInFp8() {
        JobEstimate onJob = estimate("fp8", "distributed: true", "fp8_param_gather: true");
        Estimate on = onJob.estimate(), off = estimate("fp8", "distributed: true", "").estimate();
        assertEquals(PARAMS, on.stages().get(0).parameters(), 0);
        // off: every parameter at 2 bytes; on: 1 byte each, and 1 more per embedding and output parameter
        assertEquals(16_061_054_976.0, total(gather(off)), 1e-3);
        assertEquals(2 * PARAMS, total(gather(off)), 1e-3);
        assertEquals(9_081_200_640.0, total(gather(on)), 1e-3);
        assertEquals(PARAMS + EMBEDDINGS, total(gather(on)), 1e-3);
        // a ring all-gather: each rank sends 7/8 of each bucket
        assertEquals(9_081_200_640.0 * 7 / 8, gather(on).count() * gather(on).cost().bytesPerRank(), 1e-3);
        // the gradient reduce-scatter is not touched (fp32 main gradients, 4 bytes each)
        Estimate.Traffic rsOn = on.traffic(ParallelDim.DP, Collective.REDUCE_SCATTER).orElseThrow();
        Estimate.Traffic rsOff = off.traffic(ParallelDim.DP, Collective.REDUCE_SCATTER).orElseThrow();
        assertEquals(4 * PARAMS, total(rsOn), 1e-3);
        assertEquals(seconds(rsOff), seconds(rsOn), 0);
        // seconds: the all-gather is cheaper, by what its bytes say, and so is the dp time
        assertTrue(seconds(gather(on)) < seconds(gather(off)));
        assertEquals(seconds(gather(on)) + seconds(rsOn), on.time().comm().get(ParallelDim.DP), 1e-12);
        assertEquals(seconds(gather(off)) + seconds(rsOff), off.time().comm().get(ParallelDim.DP), 1e-12);
        assertTrue(on.time().step() <= off.time().step());
        assertEquals(List.of("fp8 parameter all-gathers (fp8_param_gather): the transformer layers' linear weights gathered in"
                + " fp8, 1 byte each, the embedding and output layer in 16 bits, 2; gradients reduced as below; weight memory"
                + " counted as 16-bit (the fp8 weight and its transposed copy)"), said(onJob, "fp8 parameter all-gathers"));
        // memory is not changed by it
        assertEquals(off.stages().get(0).weights(), on.stages().get(0).weights(), 0);
    }

    @Test
    void fsdpsForwardAndBackwardAllGathersMoveFp8Too() {
        Estimate on = estimate("fp8", "zero_stage: 3", "fp8_param_gather: true").estimate();
        Estimate off = estimate("fp8", "zero_stage: 3", "fp8_param_gather: false").estimate();
        // forward and backward, one all-gather per layer each (32 layers): together twice the gathered bytes
        assertEquals(2 * 32, gather(on).count(), 0);
        assertEquals(2 * (PARAMS + EMBEDDINGS), total(gather(on)), 1e-3);
        assertEquals(2 * 2 * PARAMS, total(gather(off)), 1e-3);
    }

    @Test
    void withoutFp8GemmsOrShardedParametersNothingChangesAndItIsSaid() {
        JobEstimate bf16 = estimate("bf16", "distributed: true", "fp8_param_gather: true");
        assertEquals(2 * PARAMS, total(gather(bf16.estimate())), 1e-3);
        assertEquals(List.of("fp8_param_gather read, but the job's GEMMs are not fp8 (bf16): the parameters are all-gathered in"
                + " 16 bits, 2 bytes each"), said(bf16, "fp8_param_gather read"));
        // Megatron refuses it without the distributed optimizer or FSDP: nothing is gathered, and it is said
        JobEstimate ddp = estimate("fp8", "distributed: false", "fp8_param_gather: true");
        assertTrue(ddp.estimate().traffic(ParallelDim.DP, Collective.ALL_GATHER).isEmpty());
        assertEquals(estimate("fp8", "distributed: false", "").estimate().time().step(), ddp.estimate().time().step(), 0);
        assertEquals(1, said(ddp, "fp8_param_gather read, but the parameters are not sharded").size());
        assertTrue(said(ddp, "fp8_param_gather read").get(0).contains("--fp8-param-gather only supported with distributed optimizer"));
    }
}
