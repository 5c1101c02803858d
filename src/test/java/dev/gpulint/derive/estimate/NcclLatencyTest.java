package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.derive.estimate.NcclLatency.Algorithm;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * NCCL's latency term (issue 35): α of each collective as NVIDIA/nccl v2.20.3's src/graph/tuning.cc computes it for the
 * ring and the tree with the Simple protocol, worked by hand from its tables, and α + n/β in the one home of a
 * collective's time: a small message is its latency, a large one its bandwidth.
 */
class NcclLatencyTest {

    private static final double US = 1e-6;

    /** An HGX H100 node: NVLink 4 450 GB/s per direction, PCIe Gen5 63 GB/s, eight 400 Gb/s NICs. */
    private static Links hgx() {
        return new Links(8, 8, true, false, 4, 450e9, 5, 63e9, true, 8 * 50e9, Links.Transport.RDMA, 8, "test NIC", null, null, 0);
    }

    private static Efficiency eff() {
        return Efficiency.of(Map.ofEntries(Map.entry("gemm", 0.7), Map.entry("gemm_fp8", 0.6), Map.entry("gemm_kernel_s", 1e-5),
                Map.entry("expert_gemm_s", 26e-6), Map.entry("expert_gemm_fp8_s", 26e-6), Map.entry("attention", 0.3), Map.entry("hbm", 0.8),
                Map.entry("traffic", 9.0), Map.entry("layer_s", 2e-4), Map.entry("nvlink", 0.8), Map.entry("pcie", 0.8),
                Map.entry("network", 0.9), Map.entry("tcp", 0.5), Map.entry("dp_overlap", 0.39), Map.entry("tp_overlap", 0.0),
                Map.entry("pp_overlap", 0.8), Map.entry("cp_overlap", 0.8)), "test");
    }

    /** α of one collective: {@code micros} µs, as {@code why} works it out from tuning.cc's tables. */
    record Alpha(String why, Collective collective, Algorithm algorithm, long n, long nodes, boolean nvlink, double micros) {
        @Override
        public String toString() {
            return why;
        }
    }

    static Stream<Alpha> alphas() {
        return Stream.of(
            // a ring inside one node is its base plus one hop per step
            new Alpha("all-gather over 8 NVLink ranks: 8.4 + 7 × 3.4 µs", Collective.ALL_GATHER, Algorithm.RING, 8, 1, true, 32.2),
            new Alpha("reduce-scatter over 8 NVLink ranks: 8.4 + 7 × 3.4 µs", Collective.REDUCE_SCATTER, Algorithm.RING, 8, 1, true, 32.2),
            new Alpha("all-reduce over 8 NVLink ranks: 2(n − 1) steps, 8.4 + 14 × 3.4", Collective.ALL_REDUCE, Algorithm.RING, 8, 1, true, 56.0),
            new Alpha("all-gather over 4 PCIe ranks: 5.7 µs a step, 8.4 + 3 × 5.7", Collective.ALL_GATHER, Algorithm.RING, 4, 1, false, 25.5),
            new Alpha("a group of one issues nothing", Collective.ALL_GATHER, Algorithm.RING, 1, 1, true, 0),
            // across nodes each node boundary is a network step
            new Alpha("two HGX nodes, 16 ranks: 14 NVLink steps and 1 network step", Collective.ALL_GATHER, Algorithm.RING, 16, 2, true, 70.0),
            new Alpha("384 A100 on 48 nodes (Narayanan 2021's ZeRO-3 run): 8.4 + 336 × 3.4 + 47 × 14", Collective.REDUCE_SCATTER,
                    Algorithm.RING, 384, 48, true, 1808.8),
            new Alpha("an all-reduce counts 2 × nodes network steps and takes the ring's 1.4 plateau: (8.4 + 670 × 3.4 + 96 × 14) × 1.4",
                    Collective.ALL_REDUCE, Algorithm.RING, 384, 48, true, 5082.56),
            new Alpha("one rank per node: tuning.cc's own count, 2(n − 1) − 2n = −2 intra steps: (8.4 − 2 × 3.4 + 8 × 14) × 1.4",
                    Collective.ALL_REDUCE, Algorithm.RING, 4, 4, true, 159.04),
            new Alpha("PCIe inside, across nodes: an intra step is at least the 3 µs network post overhead (5.7 is above it)",
                    Collective.ALL_GATHER, Algorithm.RING, 8, 2, false, 8.4 + 6 * 5.7 + 14),
            // the tree has log depth
            new Alpha("the tree over 48 nodes: 2 × (7 × 28 + ⌊log₂ 48⌋ = 5 × 28) µs", Collective.ALL_REDUCE, Algorithm.TREE, 384, 48, true, 672.0),
            // a send and an all-to-all are one ring step
            new Alpha("a send inside a node", Collective.SEND, Algorithm.STEP, 2, 1, true, 11.8),
            new Alpha("a send across nodes", Collective.SEND, Algorithm.STEP, 4, 4, true, 22.4),
            new Alpha("an all-to-all across nodes", Collective.ALL_TO_ALL, Algorithm.STEP, 64, 8, true, 22.4),
            new Alpha("an all-to-all over PCIe inside a node", Collective.ALL_TO_ALL, Algorithm.STEP, 4, 1, false, 14.1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("alphas")
    void eachCollectivesLatencyIsTuningCcsWorkedByHand(Alpha c) {
        assertEquals(c.micros() * US, NcclLatency.seconds(c.collective(), c.algorithm(), c.n(), c.nodes(), c.nvlink()), 1e-12);
    }

    @Test
    void ncclPicksTheTreeWhereItsTimeIsShorter() {
        // inside one node the ring's 56 µs beats the tree's 2 × 7 × 28 = 392 µs
        assertEquals(Algorithm.RING, NcclLatency.allReduce(8, 1, true, 1e6, 360e9));
        // 48 nodes: a 100 MB bucket takes the tree (its 4.4 ms less latency outweighs 0.92 of the bandwidth) ...
        assertEquals(Algorithm.TREE, NcclLatency.allReduce(384, 48, true, 2 * 383.0 / 384 * 100e6, 45e9));
        // ... a 10 GB one the ring: 0.08 × 0.44 s > 4.4 ms
        assertEquals(Algorithm.RING, NcclLatency.allReduce(384, 48, true, 2 * 383.0 / 384 * 10e9, 45e9));
    }

    @Test
    void aSmallMessageIsItsLatencyAndALargeOneItsBandwidth() {
        Links k = hgx();
        // 8 kB all-gathered over 8 NVLink ranks: 7 kB at 360 GB/s is 19.9 ns, α 32.2 µs
        CollectiveCost small = CollectiveCost.price(k, eff(), Map.of(), Collective.ALL_GATHER, 8, 1, 8192);
        assertEquals(32.2 * US, small.latency(), 1e-12);
        assertEquals(32.2 * US + 7.0 / 8 * 8192 / 360e9, small.seconds(), 1e-12);
        assertTrue(small.latency() / small.seconds() > 0.999, "latency-bound");
        // 1 GB: 875 MB at 360 GB/s = 2.43 ms, α 1.3 % of it
        CollectiveCost large = CollectiveCost.price(k, eff(), Map.of(), Collective.ALL_GATHER, 8, 1, 1e9);
        assertEquals(32.2 * US + 0.875e9 / 360e9, large.seconds(), 1e-12);
        assertEquals(0.875e9 / 360e9, large.bandwidthSeconds(), 1e-12);
        assertEquals(32.2 * US + 0.875e9 / 450e9, large.idealSeconds(), 1e-12, "α is physical: the ideal time pays it too");
        assertTrue(large.latency() / large.seconds() < 0.014, "bandwidth-bound");
        assertEquals("α 32.2 µs (ring, NCCL tuning.cc: 8.4 + 7 × 3.4 µs a step inside)", large.latencyFormula());
    }

    @Test
    void theCostCountsNodesAsNcclDoes() {
        Links k = hgx();
        // dp 16 with stride 8 (tp 8 fills each node): one rank per node, 16 nodes: 8.4 + 15 × 14 µs
        CollectiveCost rs = CollectiveCost.price(k, eff(), Map.of(), Collective.REDUCE_SCATTER, 16, 8, 1e9);
        assertEquals(Tier.NETWORK, rs.tier());
        assertEquals(16, rs.nodes());
        assertEquals(218.4 * US, rs.latency(), 1e-10);
        assertEquals("α 218.4 µs (ring, NCCL tuning.cc: 8.4 + 15 × 14 µs a network step)", rs.latencyFormula());
        // a pipeline send across nodes: one step on the network
        CollectiveCost send = CollectiveCost.price(k, eff(), Map.of(), Collective.SEND, 4, 8, 64e6);
        assertEquals(22.4 * US, send.latency(), 1e-12);
        // an NVL72 rack is one NVLink node to NCCL (MNNVL): 72 ranks, 8.4 + 71 × 3.4 µs
        CollectiveCost rack = CollectiveCost.price(k.withDomain(4, 72).forJob(72), eff(), Map.of(), Collective.ALL_GATHER, 72, 1, 1e9);
        assertEquals(Tier.NVLINK, rack.tier());
        assertEquals(1, rack.nodes());
        assertEquals((8.4 + 71 * 3.4) * US, rack.latency(), 1e-12);
        // a large all-reduce over 48 nodes that takes the tree pays 0.92 of the bandwidth
        CollectiveCost ar = CollectiveCost.price(k, eff(), Map.of(), Collective.ALL_REDUCE, 48, 8, 100e6);
        assertEquals(Algorithm.TREE, ar.algorithm());
        assertEquals(2 * (0 + 5) * 28 * US, ar.latency(), 1e-12);
        assertEquals(ar.bytesPerRank() / (50e9 * 0.9) / 0.92, ar.bandwidthSeconds(), 1e-12);
        assertEquals("α 280.0 µs (tree, NCCL tuning.cc: 2 × (0 + 5) × 28 µs; at 0.92 of the ring's bandwidth)", ar.latencyFormula());
        assertEquals("α 5.1 ms (ring, NCCL tuning.cc: (8.4 + 670 × 3.4 µs a step inside + 96 × 14 µs a network step) × 1.4, the ring's plateau"
                + " across nodes)", NcclLatency.describe(Collective.ALL_REDUCE, Algorithm.RING, 384, 48, true));
    }

    @Test
    void dataParallelBucketsAreMegatronsAndShardedUnitsAreLayers() {
        // max(40M, 1M × ranks) parameters a bucket
        assertEquals(175, DpBuckets.count(7e9, 8));
        assertEquals(110, DpBuckets.count(7e9, 64));
        assertEquals(1, DpBuckets.count(10e6, 8), "a model below one bucket is one collective");
        assertEquals(12, DpBuckets.shardedUnits(12));
        assertEquals(13, DpBuckets.shardedUnits(12.5));
        assertEquals(1, DpBuckets.shardedUnits(0.5));
    }

    @Test
    void interleavedOnlyTheFirstModelChunkIsBucketed() {
        // Megatron's training.py: disable_bucketing=(model_chunk_idx > 0). The 405B stage of tp 4 / pp 8 (12.7B parameters)
        // at dp·cp 16, vpp 8: chunk 0's 1.59B in 40M buckets (40), one bucket for each of the 7 other chunks; not 318
        assertEquals(318, DpBuckets.count(12.7e9, 16));
        assertEquals(40 + 7, DpBuckets.count(12.7e9, 16, 8));
        assertEquals(DpBuckets.count(12.7e9, 16), DpBuckets.count(12.7e9, 16, 1), "not interleaved: every bucket");
        assertEquals(4, DpBuckets.count(10e6, 8, 4), "a chunk is at least one bucket");
    }
}
