package dev.gpulint.derive.estimate;

import dev.gpulint.spec.ParallelDim;

/**
 * Hybrid sharded data parallelism (HSDP: torchtitan's data_parallel_replicate_degree × data_parallel_shard_degree,
 * FSDP2's 2-D device mesh; the native manifest's parallelism.dp_shard), at ZeRO stage 3 (HYBRID_SHARD) or 2
 * (_HYBRID_SHARD_ZERO2, reshard_after_forward off: the parameters gathered once per micro-batch, for the forward: {@link
 * HybridSync#gathersPerUnit}). The states shard over the shard group
 * ({@link Layout#shardRanks} · cp ranks, the inner mesh dimension: consecutive data-parallel ranks, so inside a node
 * when it fits); the parameters are all-gathered forward and backward and the gradients reduce-scattered within it, and
 * each shard's reduced gradients are then all-reduced over the {@link Layout#replicas} (the outer mesh dimension:
 * across nodes). Every collective is priced by {@link CollectiveCost} through {@link Comm}, on the tier its group runs on,
 * by {@link HybridSync}, the function NET003 prices the same job's sync with.
 */
final class HybridShard {
    private HybridShard() {}

    /**
     * The data-parallel sync under hybrid sharding: one micro-batch's (FSDP2 reduces each micro-batch's gradients, as the
     * estimate's FSDP does), or with pipeline parallelism the step's ({@link HybridSync#perStep}: torch.distributed.pipelining
     * runs FSDP's post-backward once, after the stage's last backward).
     *
     * @param dpCp      the dp·cp group ({@link Estimator#dpCpGroup}); the shard group is its first shard ranks · cp members
     *                  ({@link RankGroup#prefix}: ranks tp apart with the default order and torchtitan's mesh)
     * @param dpStride  ranks between consecutive data-parallel ranks (the rank order's dp stride)
     * @param params    the fullest stage's parameters per GPU before sharding
     * @param gatherBytes the fullest stage's bytes a parameter all-gather assembles ({@link ParamGather})
     * @param gradBytes bytes per reduced gradient element
     * @param units     the stage's FSDP units (one per layer: {@link DpBuckets#shardedUnits}); each unit's collectives pay
     *                  NCCL's latency once
     * @param microBatches the step's micro-batches (the gathers a stage-3 step pays under pp)
     */
    static HybridSync sync(Comm c, Layout l, RankGroup dpCp, long dpStride, double params, double gatherBytes, double gradBytes, double units,
                           double microBatches) {
        // one home with NET003's figure for the job: HybridSync prices the shard group's and the replicas' collectives
        return HybridSync.price((k, g, count, bytes, what) -> c.priced(ParallelDim.DP, g, count, bytes, k, what), dpCp,
                l.shardRanks(), l.cp(), l.replicas(), dpStride, params, gatherBytes, gradBytes, units, l.zeroStage(), l.pp(), microBatches);
    }
}
