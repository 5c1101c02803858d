package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.plan.EstimateWords;
import dev.gpulint.spec.ParallelDim;
import dev.gpulint.testing.EstimateManifest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Megatron-Core's overlap_param_gather_with_optimizer_step (OptimizerStepGather): model chunk 0 is one bucket (training.py,
 * get_model: disable_bucketing) and its all-gather is dispatched right after its own optimizer step (ChainedOptimizer.
 * step_with_ready_grads), so it runs beside the other chunks' optimizer step instead of before chunk 0's first forward, and
 * its reduce-scatter starts only once the step's last backward has ended. Chunks 1 … vpp − 1 are unchanged.
 */
class OptimizerStepGatherTest {

    @Test
    void chunkZeroReducesWholeAndGathersBehindTheOtherChunksOptimizerStep() {
        // b200.tsv's 405B layout as ChunkedDpSyncTest prices it: tp 4, pp 8, vpp 8, cp 2, 32 micro-batches; the stage's
        // micro-batch 143.5 ms, the reduce-scatter and the all-gather 425.0 ms each; an optimizer step of 20 ms
        double chunk = 0.425 / 8, backward = 0.1435 * 2 / 3 / 8, forward = 0.1435 / 3 / 8, window = 0.020 * 7 / 8;
        double others = 7 * (chunk - 8 * forward);                        // chunks 1..7's all-gathers, as without it
        double without = (chunk - backward) + (chunk - forward) + others;
        double with = chunk + (chunk - window) + others;                  // chunk 0's reduction whole, its gather behind 17.5 ms
        assertEquals(without, ChunkedDpSync.outlasting(8, 8, 32, 0.1435, 0.425, 0.425, false), 1e-12);
        assertEquals(with, ChunkedDpSync.outlasting(8, 8, 32, 0.1435, 0.425, 0.425, false, window), 1e-12);
        assertEquals(0.12579167, with, 1e-8);
        assertEquals(backward - window + forward, with - without, 1e-12, "the reduction loses its backward pass, the gather trades its forward for the window");
        // an optimizer step longer than chunk 0's all-gather hides all of it
        assertEquals(chunk + others, ChunkedDpSync.outlasting(8, 8, 32, 0.1435, 0.425, 0.425, false, 0.060), 1e-12);
        // no window (−1): as without it; an all-reduce (no gather) has nothing to move
        assertEquals(without, ChunkedDpSync.outlasting(8, 8, 32, 0.1435, 0.425, 0.425, false, -1), 1e-12);
        assertEquals(ChunkedDpSync.outlasting(8, 8, 32, 0.1435, 0.425, 0, true),
                ChunkedDpSync.outlasting(8, 8, 32, 0.1435, 0.425, 0, true, window), 1e-12);
    }

    /** Llama 3 8B at 512 tokens, pp 4, vpp 4 over 8 one-GPU nodes, one NIC each: dp 2 crosses the NICs (ChunkedDpSyncTest's). */
    private static EstimateManifest base(String parallelism, String optimizer) {
        return EstimateManifest.h100().nodes(8).gpusPerNode(1)
                .nics("{ model: ConnectX-7, count: 1, speed: 400 Gb/s, protocol: infiniband, gpudirect_rdma: true }")
                .model(EstimateManifest.LLAMA3_8B + ", seq_length: 512").batch(1, 16).parallelism(parallelism)
                .optimizer("zero_stage: 0, distributed: true, bytes_per_parameter: 16" + optimizer);
    }

    private static <T extends Term> List<T> terms(Estimate e, Class<T> kind) {
        return e.terms().stream().filter(kind::isInstance).map(kind::cast).toList();
    }

    private static List<String> said(JobEstimate j, String part) {
        return j.inputs().assumptions().stream().filter(s -> s.contains(part)).toList();
    }

    @Test
    void theEstimatePricesChunkZerosCollectivesWhereTheOptimizerStepPutsThem() {
        JobEstimate on = base("tp: 1, pp: 4, virtual_pp: 4", ", overlap_param_gather_with_step: true").estimate();
        Estimate e = on.estimate(), off = base("tp: 1, pp: 4, virtual_pp: 4", "").estimate().estimate();
        Term.StepGather g = terms(e, Term.StepGather.class).get(0);
        double optimizer = terms(e, Term.Optimizer.class).get(0).seconds(), stage = terms(e, Term.Compute.class).get(0).seconds();
        assertEquals(4, g.vpp());
        assertEquals(optimizer, g.optimizer(), 0);
        assertEquals(optimizer * 3 / 4, g.window(), 1e-15, "the other three chunks' optimizer step");
        assertEquals(stage / 3 / 4, g.forward(), 1e-15);
        // the collectives: one per chunk (chunk 0 one bucket too), 1/4 of the stage's bytes each
        Estimate.Traffic gathers = e.traffic(ParallelDim.DP, Collective.ALL_GATHER).orElseThrow();
        assertEquals(4, gathers.count(), 0);
        assertTrue(off.traffic(ParallelDim.DP, Collective.ALL_GATHER).orElseThrow().count() > 4, "bucketed, chunk 0 is several");
        assertEquals(gathers.cost().seconds(), g.gatherChunk(), 1e-15);
        double reduce = 4 * g.reduceChunk(), gather = 4 * g.gatherChunk();
        assertEquals(ChunkedDpSync.outlasting(4, 4, 8, stage, reduce, gather, false, g.window()), g.with(), 1e-15);
        assertEquals(ChunkedDpSync.outlasting(4, 4, 8, stage, reduce, gather, false), g.without(), 1e-15);
        double dpOverlap = terms(e, Term.DpExposure.class).get(0).dpOverlap();
        assertEquals(Math.max((1 - dpOverlap) * (reduce + gather), g.with()), terms(e, Term.DpExposure.class).get(0).exposed(), 1e-15);
        // here the collectives outlast their windows: chunk 0's reduction loses its backward pass, its all-gather trades
        // a forward pass for the optimizer window
        assertEquals(g.backward() + Math.min(g.gatherChunk(), g.forward()) - Math.min(g.gatherChunk(), g.window()), g.with() - g.without(), 1e-12);
        assertEquals(-0.00574, g.with() - g.without(), 5e-5);
        assertEquals(e.time().step() - off.time().step(),
                terms(e, Term.DpExposure.class).get(0).exposed() - terms(off, Term.DpExposure.class).get(0).exposed(), 1e-3,
                "only the dp exposure moves (and NCCL's α of fewer collectives)");
        assertEquals(1, said(on, "model chunk 0's parameter all-gather in the optimizer step (optimizer.overlap_param_gather_with_step)").size());
        assertTrue(EstimateWords.line(g).startsWith("dp-step: model chunk 0's all-gather in the optimizer step"
                + " (overlap_param_gather_with_optimizer_step): chunk 0 one bucket, its reduce-scatter "), EstimateWords.line(g));
        assertTrue(EstimateWords.line(g).contains("(4 − 1)/4 × "), EstimateWords.line(g));
    }

    @Test
    void quietWhenOffOrWhereMegatronRefusesIt() {
        double off = base("tp: 1, pp: 4, virtual_pp: 4", "").estimate().estimate().time().step();
        JobEstimate no = base("tp: 1, pp: 4, virtual_pp: 4", ", overlap_param_gather_with_step: false").estimate();
        assertTrue(terms(no.estimate(), Term.StepGather.class).isEmpty());
        assertEquals(off, no.estimate().time().step(), 0);
        assertEquals(List.of(), said(no, "overlap_param_gather_with_step"));
        // not interleaved (vpp 1, or no pipeline): Megatron asserts an interleaved pipeline; priced as without it, and said
        for (String layout : new String[] {"tp: 1, pp: 4", "tp: 1, pp: 1"}) {
            JobEstimate flat = base(layout, ", overlap_param_gather_with_step: true").estimate();
            assertTrue(terms(flat.estimate(), Term.StepGather.class).isEmpty(), layout);
            assertEquals(base(layout, "").estimate().estimate().time().step(), flat.estimate().time().step(), 0, layout);
            List<String> s = said(flat, "optimizer.overlap_param_gather_with_step read, but the pipeline is not interleaved");
            assertEquals(1, s.size(), layout);
            assertTrue(s.get(0).contains("only supported with interleaved pipeline parallelism"), s.get(0));
        }
        // no distributed optimizer: Megatron asserts it; priced as without it, and said
        JobEstimate ddp = EstimateManifest.h100().nodes(8).gpusPerNode(1)
                .nics("{ model: ConnectX-7, count: 1, speed: 400 Gb/s, protocol: infiniband, gpudirect_rdma: true }")
                .model(EstimateManifest.LLAMA3_8B + ", seq_length: 512").batch(1, 16).parallelism("tp: 1, pp: 4, virtual_pp: 4")
                .optimizer("zero_stage: 0, distributed: false, overlap_param_gather_with_step: true").estimate();
        assertTrue(terms(ddp.estimate(), Term.StepGather.class).isEmpty());
        assertEquals(1, said(ddp, "read, but the job has no distributed optimizer").size());
    }
}
