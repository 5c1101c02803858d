package dev.gpulint.derive.estimate;

import dev.gpulint.spec.ParallelDim;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What one collective of a job costs on each tier the cluster has and could have: the GPU's scale-up fabric (NVLink,
 * Infinity Fabric), its PCIe link, the declared network, and two reference networks (400 Gb/s InfiniBand, one NIC per
 * GPU; 25GbE, one port per GPU, through NCCL's TCP sockets). Each row is a {@link CollectiveCost}: bytes per GPU, line
 * rate, ideal time, efficiency, estimate. Rows the job does not run on price the same group as if it did: inside one
 * scale-up domain, inside one node without NVLink, and across nodes as placed (one rank per node when the group fits
 * in a node).
 *
 * @param what       the collective in words ("data-parallel gradient all-reduce")
 * @param collective the collective
 * @param n          the group's ranks
 * @param bytes      S, the bytes each rank holds
 * @param rows       one per tier
 */
public record TierTable(String what, Collective collective, long n, double bytes, List<Row> rows) {

    public TierTable {
        rows = List.copyOf(rows);
    }

    /**
     * One tier.
     *
     * @param id        nvlink, pcie, network, ib-400g, 25gbe (the JSON key)
     * @param name      as the hardware's vendor names it, with the NICs for the network rows
     * @param reference a reference network, not the cluster's
     * @param asPlaced  the tier the job's group runs on as written
     */
    public record Row(String id, String name, boolean reference, boolean asPlaced, CollectiveCost cost) {}

    /** 400 Gb/s per direction (NDR InfiniBand), and 25GbE's 25 Gb/s (hardware-facts §2). */
    public static final double IB_400G = 50e9, ETHERNET_25G = 3.125e9;

    /** The job's data-parallel gradient all-reduce (dp·cp ranks, the fullest stage's gradients), or null without one. */
    public static TierTable dataParallel(Estimate e, Hardware hw, List<ParallelDim> order) {
        Layout l = e.layout();
        long n = (long) l.dp() * l.cp();
        if (n <= 1) return null;
        Estimate.Traffic grads = e.traffic(ParallelDim.DP, Collective.ALL_REDUCE)
                .or(() -> e.traffic(ParallelDim.DP, Collective.REDUCE_SCATTER)).orElse(null);
        if (grads == null) return null;
        long stride = Estimator.strides(l, order).get(ParallelDim.DP);
        RankGroup group = Estimator.dpCpGroup(l, order);         // the dp·cp group's ranks
        double bytes = grads.count() * grads.cost().bytes();     // the estimate issues them in buckets or per layer (DpBuckets)
        if (l.hybrid() && HybridSync.priced(l.zeroStage())) {
            // hybrid sharding: the all-reduce is each shard's, over the replicas (HybridShard)
            return of(hw.forJob(l.gpus()), Collective.ALL_REDUCE, RankGroup.strided(l.replicas(), stride * l.shardRanks()), bytes,
                    "data-parallel gradient all-reduce over the " + l.replicas() + " replicas");
        }
        return of(hw.forJob(l.gpus()), Collective.ALL_REDUCE, group, bytes, "data-parallel gradient all-reduce");
    }

    /**
     * A collective the user names (`gpulint plan --collective KIND[:SIZE]`): over the expert-parallel group for an
     * all-to-all when ep > 1, else over the data-parallel group (dp·cp); {@code bytes} ≤ 0 takes the data-parallel
     * gradients. Null when the group has one rank or no size can be found. The expert-parallel group is the expert grid's
     * ({@link MoeShape#epGroup}: ranks etp apart in the default order, whatever tp and cp are), the group the estimate
     * prices the all-to-alls over, so the tier shown as placed is the ep term's.
     *
     * @param moe the job's MoE shape (null: the model's uniform one, {@link MoeShape#uniform})
     */
    public static TierTable named(Estimate e, Hardware hw, List<ParallelDim> order, MoeShape moe, Collective c, double bytes) {
        Layout l = e.layout();
        boolean ep = c == Collective.ALL_TO_ALL && l.ep() > 1;
        long n = ep ? l.ep() : (long) l.dp() * l.cp();
        if (n <= 1) return null;
        double s = bytes;
        if (s <= 0) {
            TierTable dp = dataParallel(e, hw, order);
            if (dp == null) return null;
            s = dp.bytes();
        }
        RankGroup g = ep ? (moe != null ? moe : MoeShape.uniform(e.model())).epGroup(l, order) : Estimator.dpCpGroup(l, order);
        return of(hw.forJob(l.gpus()), c, g, s, (ep ? "expert-parallel " : "data-parallel ") + c.id() + " of " + Units.bytes(s) + " per GPU");
    }

    /** Collective {@code c} of {@code bytes} per rank over n ranks spaced {@code stride} apart, on every tier. */
    public static TierTable of(Hardware hw, Collective c, long n, long stride, double bytes, String what) {
        return of(hw, c, RankGroup.strided(n, stride), bytes, what);
    }

    /**
     * Collective {@code c} of {@code bytes} per rank over group {@code g} (several strided parts where the rank order puts a
     * dimension between cp and dp: {@link RankGroup}), on every tier; as placed, on the tier its widest span reaches.
     */
    public static TierTable of(Hardware hw, Collective c, RankGroup g, double bytes, String what) {
        Links k = hw.links();
        Efficiency e = hw.efficiency();
        Map<Tier, Double> measured = hw.measured();
        long n = g.n(), stride = g.firstStride();
        Tier placed = Tier.of(g, k.gpusPerNode(), k.domainSize(), k.scaleUp(), k.jobGpus());
        List<Row> rows = new ArrayList<>();
        if (k.scaleUp()) {
            Links inDomain = k.withDomain(Math.max(n, k.gpusPerNode()), Math.max(n, k.domainSize()));
            rows.add(new Row("nvlink", k.scaleUpName(), false, placed == Tier.NVLINK,
                    CollectiveCost.price(inDomain, e, placed == Tier.NVLINK ? measured : Map.of(), c, n, 1, bytes)));
        }
        Links inNode = k.withDomain(Math.max(n, k.gpusPerNode()), 1).withoutScaleUp();
        rows.add(new Row("pcie", k.tierName(Tier.PCIE), false, placed == Tier.PCIE,
                CollectiveCost.price(inNode, e, placed == Tier.PCIE ? measured : Map.of(), c, n, 1, bytes)));
        // across nodes: as placed when the group leaves its node (or its NVLink rack), else one rank per node
        RankGroup across = placed == Tier.NETWORK ? g : RankGroup.strided(n, Math.max(stride, k.domainSize() > k.gpusPerNode() ? k.domainSize() : k.gpusPerNode()));
        rows.add(new Row("network", k.networkName(), false, placed == Tier.NETWORK,
                CollectiveCost.price(k, e, placed == Tier.NETWORK ? measured : Map.of(), c, across, bytes)));
        rows.add(new Row("ib-400g", "reference: 400 Gb/s InfiniBand, one NIC per GPU (RDMA)", true, false,
                CollectiveCost.price(k.withNics(IB_400G, Links.Transport.RDMA, "400 Gb/s InfiniBand"), e, Map.of(), c, across, bytes)));
        rows.add(new Row("25gbe", "reference: 25GbE, one port per GPU (NCCL over TCP sockets)", true, false,
                CollectiveCost.price(k.withNics(ETHERNET_25G, Links.Transport.TCP, "25 Gb/s Ethernet"), e, Map.of(), c, across, bytes)));
        return new TierTable(what, c, n, bytes, rows);
    }
}
