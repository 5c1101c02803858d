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
 * train step does not without pp), so one micro-batch's sync is the figure both print; the plan's step pays it m times.
 *
 * <p>Stage 2 ({@link #gathersPerUnit} 1): FSDP1's {@code _HYBRID_SHARD_ZERO2} (accelerate's HYBRID_SHARD_ZERO2, 5) and FSDP2's
 * {@code fully_shard(reshard_after_forward=False)} over a replicate × shard mesh. PyTorch's ShardingStrategy docstring
 * (torch/distributed/fsdp/api.py, pytorch/pytorch@0aafd810d15fe1943f9badd40228f29e25a5014f): SHARD_GRAD_OP "unshards
 * before the forward, does not reshard them after the forward, and only reshards them after the backward computation";
 * _HYBRID_SHARD_ZERO2 applies it within the shard group, "the unsharded parameters are not freed after the forward pass,
 * saving the all-gathers in the pre-backward". FSDP1's post-backward frees the unsharded parameters whenever it syncs
 * gradients ({@code _should_free_in_backward}: {@code state._sync_gradients or} a reshard-after-forward strategy,
 * torch/distributed/fsdp/_runtime_utils.py), so each micro-batch's forward gathers them again. fully_shard's docstring
 * (torch/distributed/fsdp/_fully_shard/_fully_shard.py, pytorch/pytorch@0257dd1c405a7e3a8779e6c88eef5c8c9cea1620):
 * {@code False} "keeps the unsharded parameters in memory after forward and avoids the all-gather in backward"; "after
 * gradient computation, FSDP frees the unsharded parameters and reduce-scatters the unsharded gradients". So per unit and
 * micro-batch: one all-gather in the shard group (the forward's), the reduce-scatter there and the replicas' all-reduce,
 * the gradients' bytes as at stage 3; the memory keeps the whole parameters through the step (ZeRO-2's count, {@link
 * StateShards}).
 *
 * <p>With pipeline parallelism ({@link #perStep}) the sync runs once per step, not per micro-batch: HSDP is FSDP's, and FSDP
 * under pp runs in torch.distributed.pipelining's schedules (torchtitan's), whose PipelineStage turns an FSDPModule's
 * gradient sync and its reshard after backward off for every micro-batch's backward ({@code backward_maybe_with_nosync}:
 * {@code set_requires_gradient_sync(False)}, {@code set_reshard_after_backward(False)}) and runs FSDP's post-backward — the
 * reduce-scatter and the replicas' all-reduce of every unit — once, after the stage's last backward (pytorch/pytorch
 * torch/distributed/pipelining/stage.py: at 88fa1e7170b48d369c6b00d545a89e97fb9e2e43 inside {@code backward_maybe_with_nosync}
 * when {@code last_backward}, at 0138610331c90b8053a0bfc6df0175b200a1cad2 in {@code _post_backward}, which the schedule calls
 * after the last backward; both after the backward's compute). The gathers follow the reshard: at stage 2
 * (reshard_after_forward False, torchtitan's default with pp) nothing reshards before that post-backward, so each unit is
 * gathered once per step, by the first micro-batch's forward; at stage 3 the forward reshards and the backward does not, so
 * a unit is gathered by every operation that follows a forward, m + 1 per step whatever the schedule's order (the step's
 * first operation, and the m operations after its m forwards). {@link #price} with {@code microBatches} 1 (check, which
 * does not know m) gives the least: 2 at stage 3.
 *
 * @param units         the collectives of each kind per sync, one per FSDP unit (a layer)
 * @param gathersPerUnit the parameter all-gathers per unit and sync: 2 (stage 3: forward and backward), 1 (stage 2:
 *                       the forward's, kept for the backward); under pp per step, 1 at stage 2 and m + 1 at stage 3
 * @param gather        one parameter all-gather within the shard group ({@code gathersPerUnit · units} per sync)
 * @param reduceScatter one gradient reduce-scatter within the shard group ({@code units} per sync)
 * @param allReduce     one all-reduce of a shard's gradients over the replicas ({@code units} per sync)
 * @param perStep       the sync is the step's (pipeline parallelism), not one micro-batch's
 */
public record HybridSync(double units, int gathersPerUnit, CollectiveCost gather, CollectiveCost reduceScatter, CollectiveCost allReduce,
                         boolean perStep) {

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
     * One HSDP sync, each collective priced by {@code p} (a group of one rank costs nothing and is not priced): one
     * micro-batch's, or with pipeline parallelism ({@code pp} > 1) the step's ({@link #perStep}).
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
     * @param zeroStage   3 (FSDP's HYBRID_SHARD: parameters gathered forward and backward) or 2 (_HYBRID_SHARD_ZERO2,
     *                    reshard_after_forward off: gathered for the forward and kept for the backward)
     * @param pp          pipeline-parallel ranks: above 1 the sync is once per step (torch.distributed.pipelining)
     * @param microBatches the step's micro-batches (1 when not known: the least a stage-3 step gathers under pp)
     */
    public static HybridSync price(Pricer p, RankGroup dpCp, long shardRanks, long cp, long replicas, long dpStride, double params,
                                   double gatherBytes, double gradBytes, double units, int zeroStage, long pp, double microBatches) {
        boolean step = pp > 1;
        int gathers = step ? gathersPerStep(zeroStage, microBatches) : gathersPerUnit(zeroStage);
        String when = step ? ", once per step" : "";
        RankGroup shard = shardGroup(dpCp, replicas * shardRanks, dpStride, shardRanks);
        RankGroup across = replicaGroup(replicas, dpStride, shardRanks);
        double perUnitGrads = params * gradBytes / units;
        CollectiveCost ag = one(p, Collective.ALL_GATHER, shard, gathers * units, gatherBytes / units, step
                ? (zeroStage >= 3 ? "parameter all-gathers, m + 1 per layer and step (the forward reshards, the backward keeps them),"
                        + " within the shard group" : "parameter all-gather for the step's first forward, kept through the step, one per layer,"
                        + " within the shard group")
                : gathers == 2 ? "parameter all-gathers forward and backward, one per layer, within the shard group"
                : "parameter all-gather for the forward, kept for the backward, one per layer, within the shard group");
        CollectiveCost rs = one(p, Collective.REDUCE_SCATTER, shard, units, perUnitGrads,
                "gradient reduce-scatter, one per layer" + when + ", within the shard group");
        CollectiveCost ar = one(p, Collective.ALL_REDUCE, across, units, perUnitGrads / (shardRanks * Math.max(1, cp)),
                "gradient all-reduce, one per layer" + when + ", of each shard over the replicas");
        return new HybridSync(units, gathers, ag, rs, ar, step);
    }

    /** The stages HSDP runs at: FSDP's HYBRID_SHARD (3) and _HYBRID_SHARD_ZERO2 (2); below it the states are not sharded per layer. */
    public static boolean priced(long zeroStage) {
        return zeroStage >= 2;
    }

    /** Parameter all-gathers per unit and micro-batch: forward and backward at stage 3, the forward's alone at stage 2. */
    public static int gathersPerUnit(long zeroStage) {
        return zeroStage >= 3 ? 2 : 1;
    }

    /**
     * Parameter all-gathers per unit and step under pipeline parallelism ({@link #perStep}): 1 at stage 2 (nothing reshards
     * before the step's post-backward), m + 1 at stage 3 (every operation after a forward gathers; {@code microBatches}
     * bounded to an int).
     */
    public static int gathersPerStep(long zeroStage, double microBatches) {
        return zeroStage >= 3 ? (int) Math.min(Integer.MAX_VALUE - 1, Math.max(1, Math.ceil(microBatches))) + 1 : 1;
    }

    /**
     * Seconds of the sync a step pays: {@code microBatches} syncs, or the step's one under pipeline parallelism.
     */
    public double stepSeconds(double microBatches) {
        return perStep ? seconds() : microBatches * seconds();
    }

    /** The parameter all-gathers' seconds of one sync, NCCL's latency once per collective included. */
    public double gatherSeconds() { return gathersPerUnit * units * gather.seconds(); }

    private static CollectiveCost one(Pricer p, Collective c, RankGroup g, double count, double bytes, String what) {
        if (g.n() <= 1 || count <= 0) return CollectiveCost.none(c, Tier.NVLINK, bytes);
        return p.price(c, g, count, bytes, what);
    }

    /** Seconds within the shard group per sync, NCCL's latency once per collective included. */
    public double shardSeconds() { return gatherSeconds() + units * reduceScatter.seconds(); }

    /** Seconds over the replicas per sync, NCCL's latency once per collective included. */
    public double replicaSeconds() { return units * allReduce.seconds(); }

    /** One sync as the plan prices it: every collective at the bus bandwidth, NCCL's latency once each. */
    public double seconds() { return shardSeconds() + replicaSeconds(); }

    /** Within the shard group at line rate, without NCCL's latency: the bandwidth floor. */
    public double shardLineSeconds() {
        return gathersPerUnit * units * (gather.idealSeconds() - gather.latency()) + units * (reduceScatter.idealSeconds() - reduceScatter.latency());
    }

    /** Over the replicas at line rate, without NCCL's latency. */
    public double replicaLineSeconds() { return units * (allReduce.idealSeconds() - allReduce.latency()); }

    /** The bytes each GPU sends within the shard group per sync. */
    public double shardSentBytes() { return gathersPerUnit * units * gather.bytesPerRank() + units * reduceScatter.bytesPerRank(); }

    /** The bytes each GPU sends over the replicas per sync. */
    public double replicaSentBytes() { return units * allReduce.bytesPerRank(); }
}
