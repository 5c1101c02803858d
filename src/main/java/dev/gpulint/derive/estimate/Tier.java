package dev.gpulint.derive.estimate;

/**
 * Where a communication group's traffic runs: inside a scale-up domain (NVLink through an NVSwitch, a bridge or a
 * multi-host NVLink rack; AMD Infinity Fabric), through PCIe and the host inside one node, or across nodes over the
 * NICs. {@link Links#tierName} names each as the hardware's vendor does.
 * {@link #id()} is the key of PLAN.md's {@code exposed_comm_s}.
 */
public enum Tier {
    NVLINK("nvlink"), PCIE("pcie"), NETWORK("network");

    private final String id;

    Tier(String id) { this.id = id; }

    public String id() { return id; }

    /**
     * The tier of the slowest of a dimension's groups of {@code n} ranks spaced {@code stride} apart in a job of
     * {@code gpus} GPUs (0: the job's rank order not known, so a group that fits a domain is taken to sit in one; a tier
     * table's "as if in one domain" rows), ranks filling nodes of {@code gpusPerNode} and scale-up domains of
     * {@code domainSize} in order. A group inside one scale-up domain runs on it even when the domain spans nodes
     * (GB200/GB300 NVL72: 72 GPUs in trays of 4, one NVLink domain). A group that fits a domain's size but straddles the
     * boundary between two ({@link #straddles}: tp 4 · cp 2 · dp 2 = ranks 64–79 of 128 GPUs, the second NVL72 rack
     * beginning at rank 72) runs on the network: a ring is as slow as its slowest hop, and NCCL's ring crosses the
     * boundary on the NICs (hardware-facts.md §2; NCCL builds one ring per channel through every rank of the group). The
     * dimension's collective ends when its slowest group ends, so one straddling group prices the dimension.
     */
    public static Tier of(long n, long stride, long gpusPerNode, long domainSize, boolean scaleUp, long gpus) {
        if (n <= 1) return NVLINK;
        if (scaleUp && membersPerDomain(n, stride, domainSize) >= n && !straddles(n, stride, domainSize, gpus)) return NVLINK;
        return membersPerNode(n, stride, gpusPerNode) < n || straddles(n, stride, gpusPerNode, gpus) ? NETWORK : PCIE;
    }

    /**
     * {@link #of(long, long, long, long, boolean, long)} for a group of several strided parts ({@link RankGroup}: the dp·cp
     * group where a dimension lies between cp and dp in the rank order): the tier its widest span reaches. Such groups tile
     * blocks of {@link RankGroup#block} ranks, so every one of them lies in one unit (scale-up domain, node) when the block
     * fits the unit and, in a job of more than one unit, divides it ({@link #straddles} with the block for n·stride);
     * otherwise some group crosses a unit boundary and the dimension runs on the next tier. One part: exactly the strided
     * rule.
     */
    public static Tier of(RankGroup g, long gpusPerNode, long domainSize, boolean scaleUp, long gpus) {
        if (g.strided()) return of(g.n(), g.firstStride(), gpusPerNode, domainSize, scaleUp, gpus);
        if (g.n() <= 1) return NVLINK;
        if (scaleUp && within(g.block(), domainSize, gpus)) return NVLINK;
        return within(g.block(), gpusPerNode, gpus) ? PCIE : NETWORK;
    }

    /** Blocks of {@code block} consecutive ranks each lie in one unit of {@code unit} GPUs (units filled in rank order). */
    private static boolean within(long block, long unit, long gpus) {
        return block <= unit && (gpus <= unit || unit % block == 0);
    }

    /**
     * Some group of {@code n} ranks spaced {@code stride} apart, in a job of {@code gpus} GPUs filling units (nodes or
     * scale-up domains) of {@code unit} GPUs in rank order, has members in two units although n·stride fits one. A
     * dimension's groups tile blocks of n·stride consecutive ranks (its own stride times its size: every block starts at a
     * multiple of n·stride, which divides the job's GPUs); a group crosses a unit boundary exactly when the boundary falls
     * strictly inside a block. The first boundary (rank {@code unit}) already does when n·stride does not divide the unit,
     * so they straddle exactly when the job outgrows one unit and n·stride does not divide it. O(1).
     */
    public static boolean straddles(long n, long stride, long unit, long gpus) {
        long block = n * Math.max(1, stride);
        return n > 1 && gpus > unit && block <= unit && unit % block != 0;
    }

    /**
     * Members of a dimension's group on one scale-up domain of {@code domainSize} GPUs (at least 1): for a straddling
     * group ({@link #straddles}) the fewest any group has on one side of a boundary, else as {@link #membersPerDomain(long, long, long)}.
     */
    public static long membersPerDomain(long n, long stride, long domainSize, long gpus) {
        return straddles(n, stride, domainSize, gpus) ? fewestOnOneSide(n, stride, domainSize, gpus) : membersPerDomain(n, stride, domainSize);
    }

    /** Members of a dimension's group on one node (at least 1): {@link #membersPerDomain(long, long, long, long)} for nodes. */
    public static long membersPerNode(long n, long stride, long gpusPerNode, long gpus) {
        return straddles(n, stride, gpusPerNode, gpus) ? fewestOnOneSide(n, stride, gpusPerNode, gpus) : membersPerNode(n, stride, gpusPerNode);
    }

    /** Members of such a group in one scale-up domain of {@code domainSize} GPUs (at least 1). */
    public static long membersPerDomain(long n, long stride, long domainSize) {
        if (stride >= domainSize) return 1;
        return Math.min(n, Math.max(1, domainSize / Math.max(1, stride)));
    }

    /** Members of such a group on one node (at least 1). */
    public static long membersPerNode(long n, long stride, long gpusPerNode) {
        if (stride >= gpusPerNode) return 1;
        return Math.min(n, Math.max(1, gpusPerNode / Math.max(1, stride)));
    }

    /**
     * Over every group a unit boundary cuts, the fewest members on one side of it (the side whose NICs carry the ring
     * across). A boundary at offset o inside a block cuts the groups starting at j &lt; o (j below the stride), leaving
     * ⌈(o − j)/stride⌉ members below it. The offsets repeat with period n·stride ÷ gcd(unit, n·stride), so at most
     * n·stride boundaries are looked at, each over the stride's groups: bounded by the unit's size squared.
     */
    static long fewestOnOneSide(long n, long stride, long unit, long gpus) {
        long s = Math.max(1, stride), block = n * s;
        long boundaries = Math.min((gpus - 1) / unit, block / gcd(unit, block));
        long fewest = n;
        for (long m = 1; m <= boundaries; m++) {
            long o = (m * unit) % block;
            if (o == 0) continue;
            for (long j = 0; j < Math.min(s, o); j++) {
                long below = (o - j + s - 1) / s;
                if (below >= n) continue;          // the whole group lies below the boundary
                fewest = Math.min(fewest, Math.min(below, n - below));
            }
        }
        return Math.max(1, fewest);
    }

    private static long gcd(long a, long b) {
        while (b != 0) { long t = a % b; a = b; b = t; }
        return a;
    }
}
