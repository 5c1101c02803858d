package dev.gpulint.derive.estimate;

import dev.gpulint.derive.Resolved;
import java.util.ArrayList;

/**
 * The data-parallel ranks one GPU's model states shard over (ZeRO, FSDP, Megatron's distributed optimizer), and the
 * states' bytes on one GPU that follow from them: the one home of the plan's memory ({@link MemoryModel#stages}, its
 * optimizer step's shard) and of MEM001/MEM002 (derive/mem/MemoryAnalysis), so that `check` and `plan` shard a job's
 * states over the same ranks.
 * <ul>
 * <li>the shared (dense) parameters: dp·cp (Megatron's data-parallel group with context parallelism); under hybrid
 *     sharding (HSDP: torchtitan's data_parallel_replicate_degree × data_parallel_shard_degree, FSDP2's 2-D mesh, the
 *     native parallelism.dp_shard) the shard group only, {@link Layout#shardRanks} · cp ranks: each of the dp ÷ shard
 *     replicas holds the whole states, sharded over its own group ({@link HybridShard});</li>
 * <li>the routed experts: Megatron-Core's expert data-parallel group, (those ranks) · tp ÷ (etp·ep)
 *     ({@link MoeShape.ExpertShare}).</li>
 * </ul>
 *
 * @param ranks   the ranks the shared parameters' states shard over; infinite when dp is not known
 * @param experts the routed experts' share: their divisor etp·ep and their expert data-parallel ranks
 */
public record StateShards(double ranks, MoeShape.ExpertShare experts) {

    /**
     * @param shardRanks the data-parallel ranks of one shard group: dp, or the HSDP shard group ({@link Layout#shardRanks});
     *                   infinite when dp is not known
     */
    public static StateShards of(long tp, long etp, long ep, double shardRanks, long cp) {
        double ranks = shardRanks * Math.max(1, cp);
        return new StateShards(ranks, MoeShape.ExpertShare.of(tp, etp, ep, ranks));
    }

    /** A layout's, the routed experts' etp as the job's MoE shape gives it (without one, expert tp = tp). */
    static StateShards of(Layout l, Variants v) {
        return of(l.tp(), v.moe() != null ? v.moe().etp(l) : l.tp(), l.ep(), l.shardRanks(), l.cp());
    }

    /**
     * A job's as written (check's MEM rules), with expert tensor parallelism {@code etp}: its dp (infinite when not
     * known: the sharded parts drop out, the least the job can need) or its shard group, read from the job as the plan's
     * layout reads it ({@link JobInputs}: parallelism.dp_shard, else dp ÷ the replicate degree; a size that does not
     * divide dp counts as all of dp).
     */
    public static StateShards of(Resolved.Job r, long etp) {
        return of(r, etp, r.dpEffective());
    }

    /**
     * As {@link #of(Resolved.Job, long)} at data-parallel size {@code dp} (0: not known), for a job whose files state none,
     * held at the size `gpulint plan` takes for it (UnstatedSize).
     */
    public static StateShards of(Resolved.Job r, long etp, long dp) {
        double shard = dp <= 0 ? Double.POSITIVE_INFINITY : shardRanks(r, dp);
        return of(r.tp(), etp, r.ep(), shard, Math.max(1, r.cp()));
    }

    /** The HSDP shard group's ranks of a job whose dp is {@code dp} (above 0): its stated shard group, else all of dp. */
    public static long shardRanks(Resolved.Job r, long dp) {
        int shard = HybridInputs.shard(r.spec().parallelism(), dp, new ArrayList<>());
        return Layout.hybrid(dp, shard) ? shard : dp;
    }

    /** The expert data-parallel ranks are a whole number (Megatron refuses a grid where they are not). */
    public boolean expertsWhole() { return experts.whole(); }

    /**
     * The accounting {@code b} (what stays on the GPU: {@link StateOffload#onGpu}) sharded by ZeRO stage {@code zeroStage}
     * or the distributed optimizer over these ranks: per shared parameter and per routed-expert parameter.
     */
    public Sharded sharded(StateBytes b, int zeroStage, boolean distributed) {
        return new Sharded(b.sharded(zeroStage, distributed, ranks), b.sharded(zeroStage, distributed, experts.ranks()));
    }

    /**
     * {@link #sharded}, or under FSDP with pipeline parallelism ({@code pipelined}: {@link ShardedGathers#pipelined}) as it
     * holds them through the step: the weights whole (reshard after backward off until the last backward: gathered at
     * stage 2 by the first forward, at stage 3 by the backwards), the gradients whole at their accumulation width ({@link
     * StateBytes#accumulatedWhole}), the optimizer states sharded — ZeRO-1's count.
     */
    public Sharded held(StateBytes b, int zeroStage, boolean distributed, boolean pipelined) {
        return pipelined ? sharded(b.accumulatedWhole(), 1, distributed) : sharded(b, zeroStage, distributed);
    }

    /** Bytes per parameter on one GPU, sharded: of the shared parameters and of the routed experts'. */
    public record Sharded(StateBytes shared, StateBytes experts) {
        /** Weight bytes of {@code sharedParams} shared and {@code expertParams} routed-expert parameters on one GPU. */
        public double weights(double sharedParams, double expertParams) {
            return sharedParams * shared.weights() + expertParams * experts.weights();
        }

        public double gradients(double sharedParams, double expertParams) {
            return sharedParams * shared.gradients() + expertParams * experts.gradients();
        }

        public double optimizer(double sharedParams, double expertParams) {
            return sharedParams * shared.optimizer() + expertParams * experts.optimizer();
        }

        /** Weights + gradients + optimizer states, summed in that order (as {@link MemoryModel.Stage#total} sums them). */
        public double total(double sharedParams, double expertParams) {
            return weights(sharedParams, expertParams) + gradients(sharedParams, expertParams) + optimizer(sharedParams, expertParams);
        }
    }
}
