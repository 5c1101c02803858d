package dev.gpulint.derive.estimate;

/**
 * The data-parallel sync of one micro-batch under hybrid sharding (HSDP: torchtitan's data_parallel_replicate_degree ×
 * data_parallel_shard_degree, FSDP2's 2-D device mesh, the native manifest's parallelism.dp_shard), priced once for
 * everything that shows it: the plan's estimate ({@link HybridShard}, through {@link Comm}) and NET003 (derive/net
 * AllReduceAnalysis, through {@link CollectiveCost#price}). Within the shard group ({@link #shardGroup}: the dp·cp
 * group's first shard ranks · cp members) the parameters are all-gathered forward and backward and the gradients
 * reduce-scattered, one collective each per FSDP unit (one per layer: {@link DpBuckets#shardedUnits}); each shard's
 * reduced gradients, S ÷ (shard · cp), are then all-reduced over the replicas ({@link #replicaGroup}: the outer mesh
 * dimension, dpStride · shard ranks apart; dpStride from {@link RankGroup#strides}, as the plan's), one per unit. FSDP2 runs these for every micro-batch's backward
 * (torch.distributed.fsdp.fully_shard reduces on each backward unless the caller turns gradient sync off; torchtitan's
 * train step does not), so one micro-batch's sync is the figure both print; the plan's step pays it m times.
 *
 * @param units         the collectives of each kind per micro-batch, one per FSDP unit (a layer)
 * @param gather        one parameter all-gather within the shard group ({@code 2 · units} per micro-batch)
 * @param reduceScatter one gradient reduce-scatter within the shard group ({@code units} per micro-batch)
 * @param allReduce     one all-reduce of a shard's gradients over the replicas ({@code units} per micro-batch)
 */
public record HybridSync(double units, CollectiveCost gather, CollectiveCost reduceScatter, CollectiveCost allReduce) {

    /** Prices one collective over a group, {@code count} of them per micro-batch ({@code what}: the words of the estimate's term). */
    @FunctionalInterface
    public interface Pricer {
        CollectiveCost price(Collective c, RankGroup g, double count, double bytes, String what);
    }

    /**
     * Bytes per parameter a check without the model's shape gathers: 16 bits ({@link ParamGather#BF16}, the plan's default;
     * fp8 parameter gathering needs the GEMM path and scaling the estimate's inputs resolve, so only the plan prices it).
     */
    public static final double GATHER_BYTES = ParamGather.WIDE;

    /** FSDP units of a stage of an evenly split model: one per layer ({@link DpBuckets#shardedUnits}); 1 when the layers are not known. */
    public static double units(long layers, long pp) {
        return layers <= 0 ? 1 : DpBuckets.shardedUnits((double) layers / Math.max(1, pp));
    }

    /**
     * The shard group: the dp·cp group's every cp rank with the first shardRanks of its dp ranks ({@code dp} of them,
     * {@code dpStride} apart), its cp and shard ranks together (the mesh's dp_shard_cp): {@link RankGroup#within}, a grid
     * in every rank order, where the group's first shardRanks · cp members are none when dp is faster than cp.
     */
    public static RankGroup shardGroup(RankGroup dpCp, long dp, long dpStride, long shardRanks) {
        return dpCp.within(dp, dpStride, shardRanks);
    }

    /** The replicas: {@code replicas} ranks {@code dpStride · shardRanks} apart, the shard group lying inside each replica. */
    public static RankGroup replicaGroup(long replicas, long dpStride, long shardRanks) {
        return RankGroup.strided(replicas, dpStride * shardRanks);
    }

    /**
     * One micro-batch's HSDP sync, each collective priced by {@code p} (a group of one rank costs nothing and is not priced).
     *
     * @param dpCp        the dp·cp group ({@link RankGroup#dpCp})
     * @param shardRanks  the shard group's data-parallel ranks ({@link Layout#shardRanks})
     * @param cp          context-parallel ranks (they join the shard group)
     * @param replicas    dp ÷ shardRanks ({@link Layout#replicas})
     * @param dpStride    ranks between consecutive data-parallel ranks in the rank order
     * @param params      the fullest stage's parameters per GPU before sharding
     * @param gatherBytes the bytes a parameter all-gather assembles for that stage ({@link ParamGather})
     * @param gradBytes   bytes per reduced gradient element ({@link GradientReduce})
     * @param units       FSDP units (one per layer: {@link DpBuckets#shardedUnits})
     */
    public static HybridSync price(Pricer p, RankGroup dpCp, long shardRanks, long cp, long replicas, long dpStride, double params,
                                   double gatherBytes, double gradBytes, double units) {
        RankGroup shard = shardGroup(dpCp, replicas * shardRanks, dpStride, shardRanks);
        RankGroup across = replicaGroup(replicas, dpStride, shardRanks);
        double perUnitGrads = params * gradBytes / units;
        CollectiveCost ag = one(p, Collective.ALL_GATHER, shard, 2 * units, gatherBytes / units,
                "parameter all-gathers forward and backward, one per layer, within the shard group");
        CollectiveCost rs = one(p, Collective.REDUCE_SCATTER, shard, units, perUnitGrads,
                "gradient reduce-scatter, one per layer, within the shard group");
        CollectiveCost ar = one(p, Collective.ALL_REDUCE, across, units, perUnitGrads / (shardRanks * Math.max(1, cp)),
                "gradient all-reduce, one per layer, of each shard over the replicas");
        return new HybridSync(units, ag, rs, ar);
    }

    private static CollectiveCost one(Pricer p, Collective c, RankGroup g, double count, double bytes, String what) {
        if (g.n() <= 1 || count <= 0) return CollectiveCost.none(c, Tier.NVLINK, bytes);
        return p.price(c, g, count, bytes, what);
    }

    /** Seconds within the shard group per micro-batch, NCCL's latency once per collective included. */
    public double shardSeconds() { return 2 * units * gather.seconds() + units * reduceScatter.seconds(); }

    /** Seconds over the replicas per micro-batch, NCCL's latency once per collective included. */
    public double replicaSeconds() { return units * allReduce.seconds(); }

    /** One micro-batch's sync as the plan prices it: every collective at the bus bandwidth, NCCL's latency once each. */
    public double seconds() { return shardSeconds() + replicaSeconds(); }

    /** Within the shard group at line rate, without NCCL's latency: the bandwidth floor. */
    public double shardLineSeconds() {
        return 2 * units * (gather.idealSeconds() - gather.latency()) + units * (reduceScatter.idealSeconds() - reduceScatter.latency());
    }

    /** Over the replicas at line rate, without NCCL's latency. */
    public double replicaLineSeconds() { return units * (allReduce.idealSeconds() - allReduce.latency()); }

    /** The bytes each GPU sends within the shard group per micro-batch. */
    public double shardSentBytes() { return 2 * units * gather.bytesPerRank() + units * reduceScatter.bytesPerRank(); }

    /** The bytes each GPU sends over the replicas per micro-batch. */
    public double replicaSentBytes() { return units * allReduce.bytesPerRank(); }
}
