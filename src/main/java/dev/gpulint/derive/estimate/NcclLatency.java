package dev.gpulint.derive.estimate;

import java.util.Locale;

/**
 * NCCL's own latency model of a collective, α in α + n/β: the time one collective takes before its first byte, as NCCL's
 * tuner prices it to choose an algorithm (NVIDIA/nccl v2.20.3, commit b647562, src/graph/tuning.cc: the {@code baseLat}
 * and {@code hwLat} tables, lines 54–78, in µs; {@code ncclTopoTuneModel}'s latency block and {@code ncclTopoGetAlgoTime}).
 * These are the library authors' constants (the calibration rule allows them); nothing here is fitted. The estimate's
 * bandwidth term is the ring's (2(n − 1)/n · S at the bus bandwidth nccl-tests measures, the Simple protocol's), so α is
 * the ring's with the Simple protocol:
 *
 * <ul>
 * <li>Ring, Simple: {@code baseLat} 8.4 µs + (nsteps − nInterSteps) × intra + nInterSteps × inter, nsteps 2(n − 1) for an
 *     all-reduce and n − 1 for an all-gather or reduce-scatter, nInterSteps 2 × nodes (all-reduce across nodes; 0 on one)
 *     and nodes − 1; intra {@code hwLat} 3.4 µs a step on NVLink, 5.7 on PCIe, at least 3 × the 1 µs network post overhead
 *     once the ring leaves the node ({@code getNetOverhead}, the Intel / default CPU figure; 2 µs on AMD hosts is not
 *     modelled); inter 14 µs a step (the NET row; NCCL adds the graph's {@code latencyInter}, 0 for InfiniBand). Across
 *     nodes an all-reduce's latency is multiplied by 1.4, "plateau effect of ring" (compute capability 8.0 and newer; 1.9
 *     on Volta, not modelled).</li>
 * <li>Tree, Simple (all-reduce only, as NCCL offers it): 2 × ((n/nodes − 1) × 28 µs + ⌊log₂ nodes⌋ × 28 µs), at 0.92 of
 *     the ring's bus bandwidth ("busBw*.92"). NCCL picks, per message, the algorithm its model gives the shorter time:
 *     {@link #allReduceSeconds} does the same between the two, so a large job's all-reduce takes the tree's log-depth
 *     latency instead of the ring's linear one.</li>
 * <li>A send (a pipeline boundary, a context-parallel ring step) and an all-to-all (grouped sends to every peer, which NCCL
 *     runs on parallel channels): NCCL's tuner has no p2p model; priced as one ring step, base + one hop on the tier it
 *     crosses (the form tuning.cc gives a broadcast on shared channels: base + one hop).</li>
 * </ul>
 *
 * A step inside a node is NCCL's NVLINK row on any scale-up link (NVLink, NVLink across an NVL72 rack; AMD's Infinity Fabric
 * too: RCCL's own tables are not modelled) and its PCI row on PCIe.
 *
 * NCCL's choice of the LL and LL128 protocols for small messages (lower base latency, a quarter and 0.92 of the bandwidth)
 * and the tree's correction for medium sizes are not modelled: for a message of a few KB the ring Simple α is an upper
 * bound by at most 8.4 − 6.6 µs of base plus the per-step difference.
 */
public final class NcclLatency {
    private NcclLatency() {}

    /** tuning.cc {@code baseLat[RING][SIMPLE]}, µs. */
    public static final double RING_BASE_US = 8.4;
    /** tuning.cc {@code hwLat[NVLINK][RING][SIMPLE]}, µs per step. */
    public static final double RING_NVLINK_US = 3.4;
    /** tuning.cc {@code hwLat[PCI][RING][SIMPLE]}, µs per step. */
    public static final double RING_PCIE_US = 5.7;
    /** tuning.cc {@code hwLat[NET][RING][SIMPLE]}, µs per step. */
    public static final double RING_NET_US = 14.0;
    /** tuning.cc {@code getNetOverhead} (1 µs on Intel and other CPUs) × 3 for Simple: an intra-node step's floor across nodes. */
    public static final double NET_OVERHEAD_SIMPLE_US = 3.0;
    /** tuning.cc {@code ncclTopoGetAlgoTime}: a ring all-reduce across nodes, compute capability ≥ 8.0. */
    public static final double RING_PLATEAU = 1.4;
    /** tuning.cc {@code hwLat[*][TREE][SIMPLE]}, NVLink, PCIe and network alike; {@code baseLat[TREE][SIMPLE]} is 0. */
    public static final double TREE_STEP_US = 28.0;
    /** tuning.cc: a tree's bus bandwidth is 0.92 of the graph's. */
    public static final double TREE_BANDWIDTH = 0.92;

    /** Which of NCCL's algorithms priced a collective. */
    public enum Algorithm { RING, TREE, STEP }

    /**
     * α of collective {@code c} over {@code n} ranks on {@code nodes} nodes (1 inside one scale-up domain: NCCL treats a
     * multi-node NVLink domain as one node), the ranks on a node joined by NVLink ({@code nvlink}) or PCIe.
     *
     * @param a the algorithm (RING or TREE for an all-reduce; sends and all-to-alls are one STEP)
     * @return seconds
     */
    public static double seconds(Collective c, Algorithm a, long n, long nodes, boolean nvlink) {
        if (n <= 1 && c != Collective.SEND) return 0;
        long k = Math.max(1, nodes);
        double hop = nvlink ? RING_NVLINK_US : RING_PCIE_US;
        if (c == Collective.SEND || c == Collective.ALL_TO_ALL) {
            return (RING_BASE_US + (k > 1 ? RING_NET_US : hop)) * 1e-6;
        }
        if (a == Algorithm.TREE) {
            return 2 * ((n / k - 1) * TREE_STEP_US + log2(k) * TREE_STEP_US) * 1e-6;
        }
        long steps = c == Collective.ALL_REDUCE ? 2 * (n - 1) : n - 1;
        long inter = c == Collective.ALL_REDUCE ? (k > 1 ? 2 * k : 0) : k - 1;
        double intra = k > 1 ? Math.max(hop, NET_OVERHEAD_SIMPLE_US) : hop;
        // as tuning.cc counts them: an all-reduce with one rank per node counts 2 × nodes network steps against 2(n − 1) in
        // all, so its intra-node count is −2 there (NCCL's own arithmetic, kept: 6.8 µs against 2n × 14 µs)
        double us = RING_BASE_US + (steps - inter) * intra + inter * RING_NET_US;
        if (c == Collective.ALL_REDUCE && k > 1) us *= RING_PLATEAU;
        return us * 1e-6;
    }

    /**
     * An all-reduce as NCCL's tuner picks it: the ring's α + v/bus or the tree's α + v/(0.92 · bus), whichever is shorter.
     *
     * @param v   bytes per rank at the ring's bus bandwidth (2(n − 1)/n · S)
     * @param bus the ring's bus bandwidth, bytes/s
     * @return the chosen algorithm
     */
    public static Algorithm allReduce(long n, long nodes, boolean nvlink, double v, double bus) {
        if (n <= 2 || bus <= 0) return Algorithm.RING;
        double ring = seconds(Collective.ALL_REDUCE, Algorithm.RING, n, nodes, nvlink) + v / bus;
        double tree = seconds(Collective.ALL_REDUCE, Algorithm.TREE, n, nodes, nvlink) + v / (bus * TREE_BANDWIDTH);
        return tree < ring ? Algorithm.TREE : Algorithm.RING;
    }

    /** The formula as the estimate prints it, with its numbers: "α 32.2 µs (ring: 8.4 + 7 × 3.4 µs)". */
    public static String describe(Collective c, Algorithm a, long n, long nodes, boolean nvlink) {
        long k = Math.max(1, nodes);
        double hop = nvlink ? RING_NVLINK_US : RING_PCIE_US;
        String link = nvlink ? "a step inside" : "a PCIe step";
        double s = seconds(c, a, n, k, nvlink);
        String us = String.format(Locale.ROOT, "α %s", Units.seconds(s));
        if (c == Collective.SEND || c == Collective.ALL_TO_ALL) {
            return us + String.format(Locale.ROOT, " (one ring step, NCCL tuning.cc: %s + %s µs %s)", num(RING_BASE_US),
                    num(k > 1 ? RING_NET_US : hop), k > 1 ? "a network step" : link);
        }
        if (a == Algorithm.TREE) {
            return us + String.format(Locale.ROOT, " (tree, NCCL tuning.cc: 2 × (%d + %d) × %s µs; at %.2f of the ring's bandwidth)",
                    n / k - 1, log2(k), num(TREE_STEP_US), TREE_BANDWIDTH);
        }
        long steps = c == Collective.ALL_REDUCE ? 2 * (n - 1) : n - 1;
        long inter = c == Collective.ALL_REDUCE ? (k > 1 ? 2 * k : 0) : k - 1;
        double intra = k > 1 ? Math.max(hop, NET_OVERHEAD_SIMPLE_US) : hop;
        boolean plateau = c == Collective.ALL_REDUCE && k > 1;
        String inside = steps == inter ? "" : String.format(Locale.ROOT, " %s %d × %s µs %s", steps > inter ? "+" : "−",
                Math.abs(steps - inter), num(intra), link);
        String across = inter > 0 ? String.format(Locale.ROOT, " + %d × %s µs a network step", inter, num(RING_NET_US)) : "";
        String sum = num(RING_BASE_US) + inside + across;
        return us + " (ring, NCCL tuning.cc: " + (plateau ? "(" + sum + ") × " + num(RING_PLATEAU) + ", the ring's plateau across nodes" : sum) + ")";
    }

    /** ⌊log₂ k⌋, NCCL's log2i. */
    static int log2(long k) {
        return 63 - Long.numberOfLeadingZeros(Math.max(1, k));
    }

    private static String num(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.1f", v);
    }
}
