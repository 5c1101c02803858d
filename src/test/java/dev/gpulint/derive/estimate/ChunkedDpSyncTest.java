package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.derive.Fixture;
import dev.gpulint.spec.ParallelDim;
import dev.gpulint.testing.EstimateManifest;
import org.junit.jupiter.api.Test;

/**
 * Megatron-Core's interleaved schedule reduces and gathers each model chunk's parameters on its own (schedules.py:
 * grad_sync_func after a chunk's last backward, param_sync_func ahead of its first forward, chunks 0 and 1 before the
 * first forward), so the collectives hide behind other chunks' compute, not behind one micro-batch.
 */
class ChunkedDpSyncTest {

    @Test
    void withoutInterleavingOneMicroBatchHidesThem() {
        // the estimate's rule before interleaving was priced: a reduce-scatter + all-gather outlast the stage's compute,
        // an all-reduce its backward (2/3 of it)
        assertEquals(0.300 + 0.200 - 0.150, ChunkedDpSync.outlasting(1, 8, 32, 0.150, 0.300, 0.200, false), 1e-12);
        assertEquals(0.300 - 0.150 * 2 / 3, ChunkedDpSync.outlasting(1, 8, 32, 0.150, 0.300, 0, true), 1e-12);
        assertEquals(0.300 - 0.150 * 2 / 3, ChunkedDpSync.outlasting(8, 1, 32, 0.150, 0.300, 0, true), 1e-12, "no pipeline, no chunks");
    }

    @Test
    void llama405bOnDgxB200ExposesWhatChunkZerosOwnPassesDoNotHide() {
        // b200.tsv's 405B layout: tp 4, pp 8, vpp 8, cp 2, 32 micro-batches (groups of 8); the stage's micro-batch 143.5 ms;
        // the dp·cp reduce-scatter and all-gather over the NICs 425.0 ms each (plan's text output)
        double chunk = 0.425 / 8;                                         // 53.1 ms of each per chunk
        double backward = 0.1435 * 2 / 3 / 8, forward = 0.1435 / 3 / 8;  // a chunk's passes: 12.0 and 6.0 ms
        // chunks 1..7 are one bucket each: their reductions hide behind the 8 backward passes of the chunk after them
        // (96 ms > 53.1), their all-gathers behind 8 forward passes (47.8 ms < 53.1: 5.3 ms of each outlasts)
        assertTrue(chunk < 8 * backward && chunk > 8 * forward);
        double expected = (chunk - backward) + (chunk - forward)          // chunk 0's reduction and all-gather
                + 7 * (chunk - 8 * forward);                              // chunks 1..7's all-gathers
        assertEquals(0.12535416667, expected, 1e-9);
        assertEquals(expected, ChunkedDpSync.outlasting(8, 8, 32, 0.1435, 0.425, 0.425, false), 1e-12);
        assertTrue(expected < 0.425 + 0.425 - 0.1435, "far less than one micro-batch hides");
    }

    @Test
    void aStepWithFewerMicroBatchesThanStagesHasSmallerGroups() {
        // 2 micro-batches on 4 stages: each chunk runs a group of 2, so a chunk k >= 1's reduction has 2 passes of the
        // next chunk to hide behind (not its own: it is one bucket, reduced once its backward has ended)
        double perChunk = 0.400 / 4, backward = 0.100 * 2 / 3 / 4;
        double expected = (perChunk - backward) + 3 * (perChunk - 2 * backward);
        assertEquals(0.2833333333, expected, 1e-9);
        assertEquals(expected, ChunkedDpSync.outlasting(4, 4, 2, 0.100, 0.400, 0, true), 1e-12);
    }

    @Test
    void theEstimateHidesAnInterleavedStagesCollectivesBehindOtherChunks() {
        // Llama 3 8B at 512 tokens, pp 4 over 8 one-GPU nodes: dp 2 crosses the NICs and its collectives outlast a
        // micro-batch; bf16 gradients (16 bytes per parameter), so the reduce-scatter and the all-gather move the same bytes
        EstimateManifest base = EstimateManifest.h100().nodes(8).gpusPerNode(1)
                .nics("{ model: ConnectX-7, count: 1, speed: 400 Gb/s, protocol: infiniband, gpudirect_rdma: true }")
                .model(EstimateManifest.LLAMA3_8B + ", seq_length: 512").batch(1, 16)
                .optimizer("zero_stage: 0, distributed: true, bytes_per_parameter: 16");
        Estimate flat = estimate(base.parallelism("tp: 1, pp: 4"));
        Estimate chunked = estimate(base.parallelism("tp: 1, pp: 4, virtual_pp: 4"));
        double overlap = ((Term.DpExposure) flat.terms().stream().filter(t -> t instanceof Term.DpExposure).findFirst().orElseThrow()).dpOverlap();
        assertEquals(0.39, overlap, 1e-9, "Hopper's dp_overlap (Lee et al. 2025)");
        for (Estimate e : new Estimate[] {flat, chunked}) {
            double dp = e.time().comm().get(ParallelDim.DP);
            Term.Compute c = (Term.Compute) e.terms().stream().filter(t -> t instanceof Term.Compute).findFirst().orElseThrow();
            int vpp = e.layout().virtualPp();
            double expected = Math.max((1 - overlap) * dp, ChunkedDpSync.outlasting(vpp, 4, 8, c.seconds(), dp / 2, dp / 2, false));
            double exposed = e.terms().stream().filter(t -> t instanceof Term.DpExposure).map(t -> ((Term.DpExposure) t).exposed())
                    .findFirst().orElseThrow();
            assertEquals(expected, exposed, 1e-9, "vpp " + vpp);
        }
        double flatDp = flat.time().comm().get(ParallelDim.DP), flatStage = stage(flat);
        assertTrue(flatDp - flatStage > (1 - overlap) * flatDp, "the flat layout's collectives outlast one micro-batch");
        assertTrue(dpExposed(chunked) < dpExposed(flat) - 0.010, "interleaved, other chunks' compute hides more of them");
        // NCCL's α once per collective: the flat stage's buckets all, the interleaved stage's chunk 0's and one per other chunk
        Estimate.Traffic flatRs = flat.traffic(ParallelDim.DP, Collective.ALL_GATHER).orElseThrow();
        Estimate.Traffic chunkedRs = chunked.traffic(ParallelDim.DP, Collective.ALL_GATHER).orElseThrow();
        double stageParams = flatRs.count() * flatRs.cost().bytes() / 2;     // the all-gather moves bf16 parameters
        assertEquals(DpBuckets.count(stageParams, 2), flatRs.count(), 1e-9);
        assertEquals(Math.ceil(stageParams / 4 / DpBuckets.MIN_BUCKET) + 3, chunkedRs.count(), 1e-9);
        assertTrue(chunkedRs.count() < flatRs.count(), chunkedRs.count() + " collectives, not " + flatRs.count());
    }

    private static Estimate estimate(EstimateManifest m) {
        Fixture f = m.fixture();
        return JobEstimate.of(f.jobs().get(0), f.catalog()).estimate();
    }

    private static double stage(Estimate e) {
        return e.terms().stream().filter(t -> t instanceof Term.Compute).map(t -> ((Term.Compute) t).seconds()).findFirst().orElseThrow();
    }

    private static double dpExposed(Estimate e) {
        return e.terms().stream().filter(t -> t instanceof Term.DpExposure).map(t -> ((Term.DpExposure) t).exposed()).findFirst().orElseThrow();
    }
}
