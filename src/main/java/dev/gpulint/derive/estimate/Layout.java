package dev.gpulint.derive.estimate;

import dev.gpulint.spec.ParallelDim;
import java.util.Objects;

/**
 * One way of laying a training job out over its GPUs: the parallel sizes and the memory and recompute choices that
 * come with them. The unit of `gpulint plan` (../spec/PLAN.md, the "layout" object of a PLAN): the estimate
 * prices one, the search enumerates many, the pictures draw one.
 *
 * <p>tp·cp·pp·dp is the GPU count; ep lies inside dp·cp (Megatron-Core's expert grid); {@code virtualPp} is 1
 * without interleaving; {@code zeroStage} is 0–3 (FSDP FULL_SHARD = 3, SHARD_GRAD_OP = 2) and
 * {@code distributedOptimizer} is Megatron's sharding of the optimizer over dp (ZeRO-1-like); {@code split} is how the
 * layers are split over the pp stages ({@link PipelineSplit}: even unless the job sizes its first or last stage);
 * {@code offloadLayers} is how many of a stage's layers keep their activations in host memory (CPU activation offload,
 * Megatron's --cpu-offloading-num-layers; 0 without); {@code recomputeEvery} is n for {@link Recompute#EVERY} (every
 * n-th layer fully recomputed), else 1; {@code dpShard} is the shard group's size under hybrid sharding (HSDP), 0 when
 * the states shard over all of dp ({@link #shardRanks}); {@code scheduleBatch} is the batch per data-parallel replica one
 * pipeline schedule runs when the format runs one schedule per gradient-accumulation step (torchtitan's local_batch_size),
 * 0 when one schedule runs the whole step's micro-batches (Megatron's num_microbatches): {@link #schedule}.
 */
public record Layout(int tp, int pp, int dp, int cp, int ep, int virtualPp, int microBatchSize, long globalBatchSize,
                     int zeroStage, boolean distributedOptimizer, Recompute recompute, boolean sequenceParallel,
                     PipelineSplit split, int offloadLayers, int recomputeEvery, int dpShard, int scheduleBatch) {

    /** A layout whose step is one pipeline schedule (every format but torchtitan with gradient accumulation). */
    public Layout(int tp, int pp, int dp, int cp, int ep, int virtualPp, int microBatchSize, long globalBatchSize,
                  int zeroStage, boolean distributedOptimizer, Recompute recompute, boolean sequenceParallel,
                  PipelineSplit split, int offloadLayers, int recomputeEvery, int dpShard) {
        this(tp, pp, dp, cp, ep, virtualPp, microBatchSize, globalBatchSize, zeroStage, distributedOptimizer, recompute,
                sequenceParallel, split, offloadLayers, recomputeEvery, dpShard, 0);
    }

    /** A layout without hybrid sharding: ZeRO/FSDP, when on, shards over the whole of dp·cp. */
    public Layout(int tp, int pp, int dp, int cp, int ep, int virtualPp, int microBatchSize, long globalBatchSize,
                  int zeroStage, boolean distributedOptimizer, Recompute recompute, boolean sequenceParallel,
                  PipelineSplit split, int offloadLayers, int recomputeEvery) {
        this(tp, pp, dp, cp, ep, virtualPp, microBatchSize, globalBatchSize, zeroStage, distributedOptimizer, recompute,
                sequenceParallel, split, offloadLayers, recomputeEvery, 0);
    }

    /**
     * The data-parallel ranks the states shard over: {@code dpShard} under hybrid sharding (HSDP: torchtitan's
     * data_parallel_shard_degree beside a replicate degree, the native parallelism.dp_shard), else all of dp. A shard
     * degree that is not a proper divisor of dp counts as all of dp.
     */
    public int shardRanks() { return hybrid() ? dpShard : dp; }

    /** The replicas hybrid sharding all-reduces the gradients over: dp ÷ {@link #shardRanks}, 1 without it. */
    public int replicas() { return dp / shardRanks(); }

    /** Hybrid sharding: the states shard over a proper divisor of dp, the replicas all-reduce. */
    public boolean hybrid() { return hybrid(dp, dpShard); }

    /** A shard group of {@code dpShard} ranks is hybrid sharding of {@code dp}: a proper divisor of it ({@link StateShards} asks it of a job). */
    static boolean hybrid(long dp, long dpShard) { return dpShard >= 1 && dpShard < dp && dp % dpShard == 0; }

    /** The same layout sharding over {@code shard} of its dp ranks (0: all of them). */
    public Layout withShard(int shard) {
        return new Layout(tp, pp, dp, cp, ep, virtualPp, microBatchSize, globalBatchSize, zeroStage, distributedOptimizer,
                recompute, sequenceParallel, split, offloadLayers, recomputeEvery, shard, scheduleBatch);
    }

    /** A layout whose recompute is not every n-th layer. */
    public Layout(int tp, int pp, int dp, int cp, int ep, int virtualPp, int microBatchSize, long globalBatchSize,
                  int zeroStage, boolean distributedOptimizer, Recompute recompute, boolean sequenceParallel,
                  PipelineSplit split, int offloadLayers) {
        this(tp, pp, dp, cp, ep, virtualPp, microBatchSize, globalBatchSize, zeroStage, distributedOptimizer, recompute,
                sequenceParallel, split, offloadLayers, 1);
    }

    /** A layout without CPU activation offload. */
    public Layout(int tp, int pp, int dp, int cp, int ep, int virtualPp, int microBatchSize, long globalBatchSize,
                  int zeroStage, boolean distributedOptimizer, Recompute recompute, boolean sequenceParallel, PipelineSplit split) {
        this(tp, pp, dp, cp, ep, virtualPp, microBatchSize, globalBatchSize, zeroStage, distributedOptimizer, recompute,
                sequenceParallel, split, 0);
    }

    /** An evenly split layout without offload, recomputing every {@code recomputeEvery}-th layer under {@link Recompute#EVERY}. */
    public Layout(int tp, int pp, int dp, int cp, int ep, int virtualPp, int microBatchSize, long globalBatchSize,
                  int zeroStage, boolean distributedOptimizer, Recompute recompute, boolean sequenceParallel, int recomputeEvery) {
        this(tp, pp, dp, cp, ep, virtualPp, microBatchSize, globalBatchSize, zeroStage, distributedOptimizer, recompute,
                sequenceParallel, PipelineSplit.EVEN, 0, recomputeEvery);
    }

    /**
     * Activation recomputation: none, Megatron's selective (attention core only), full (every layer's input kept),
     * torchtitan's op-level selective policy (every other matmul's output recomputed: {@link Checkpointing}) or every
     * n-th layer fully recomputed (torchtitan's {@code selective_ac_option = "n"}). The plan's search tries the first
     * three; the last two are priced when the job states them.
     */
    public enum Recompute {
        NONE, SELECTIVE, FULL, OP, EVERY;

        /** As PLAN.md writes it: "none", "selective", "full", "op", "every". */
        public String id() { return id; }

        // made once: the plan search asks it for every layout (hundreds of thousands)
        private final String id = name().toLowerCase(java.util.Locale.ROOT);

        /** The choices the plan's search tries. */
        public static final java.util.List<Recompute> SEARCHED = java.util.List.of(NONE, SELECTIVE, FULL);
    }

    /** A layout whose layers split evenly over its stages, without offload, not recomputing every n-th layer. */
    public Layout(int tp, int pp, int dp, int cp, int ep, int virtualPp, int microBatchSize, long globalBatchSize,
                  int zeroStage, boolean distributedOptimizer, Recompute recompute, boolean sequenceParallel) {
        this(tp, pp, dp, cp, ep, virtualPp, microBatchSize, globalBatchSize, zeroStage, distributedOptimizer, recompute,
                sequenceParallel, PipelineSplit.EVEN);
    }

    /** How texts name the recompute choice: "full", "op", "one layer in 2" ... */
    public String recomputeText() {
        return recompute == Recompute.EVERY ? "one layer in " + recomputeEvery : recompute.id();
    }

    public Layout {
        if (tp < 1 || pp < 1 || dp < 1 || cp < 1 || ep < 1 || virtualPp < 1 || microBatchSize < 1 || globalBatchSize < 1)
            throw new IllegalArgumentException("every size of a layout is at least 1: " + text(tp, pp, dp, cp, ep, virtualPp));
        if (zeroStage < 0 || zeroStage > 3) throw new IllegalArgumentException("zero_stage is 0 to 3, not " + zeroStage);
        Objects.requireNonNull(recompute, "recompute");
        if (split == null) split = PipelineSplit.EVEN;
        if (offloadLayers < 0) throw new IllegalArgumentException("offloaded layers are at least 0, not " + offloadLayers);
        if (recomputeEvery < 1) throw new IllegalArgumentException("recompute every n-th layer needs n ≥ 1, not " + recomputeEvery);
        if (dpShard < 0) throw new IllegalArgumentException("the shard group is at least 1 rank (0: all of dp), not " + dpShard);
        if (scheduleBatch < 0) throw new IllegalArgumentException("a schedule's batch is at least 1 (0: the step's), not " + scheduleBatch);
    }

    /** The same layout with {@code n} layers' activations offloaded to host memory. */
    public Layout withOffload(int n) {
        return new Layout(tp, pp, dp, cp, ep, virtualPp, microBatchSize, globalBatchSize, zeroStage, distributedOptimizer,
                recompute, sequenceParallel, split, n, recomputeEvery, dpShard, scheduleBatch);
    }

    /** The same layout running {@code batch} per data-parallel replica in each pipeline schedule (0: one schedule per step). */
    public Layout withScheduleBatch(int batch) {
        if (batch == scheduleBatch) return this;
        return new Layout(tp, pp, dp, cp, ep, virtualPp, microBatchSize, globalBatchSize, zeroStage, distributedOptimizer,
                recompute, sequenceParallel, split, offloadLayers, recomputeEvery, dpShard, batch);
    }

    /** The same layout with its layers split as {@code s}. */
    public Layout withSplit(PipelineSplit s) {
        return new Layout(tp, pp, dp, cp, ep, virtualPp, microBatchSize, globalBatchSize, zeroStage, distributedOptimizer,
                recompute, sequenceParallel, s, offloadLayers, recomputeEvery, dpShard, scheduleBatch);
    }

    /** GPUs the layout occupies: tp·cp·pp·dp. */
    public long gpus() { return (long) tp * cp * pp * dp; }

    /** The size of a dimension the layout chooses (all but etp: a layout keeps the job's expert tensor parallelism). */
    public int size(ParallelDim d) {
        return switch (d) {
            case TP -> tp; case PP -> pp; case DP -> dp; case CP -> cp; case EP -> ep; case VPP -> virtualPp;
            case ETP -> throw new IllegalArgumentException("a layout does not choose etp");
        };
    }

    /** Micro-batches per step on each data-parallel replica: global ÷ (micro × dp), or 0 when it does not divide. */
    public long microBatches() {
        long perStep = (long) microBatchSize * dp;
        return globalBatchSize % perStep == 0 ? globalBatchSize / perStep : 0;
    }

    /** The micro-batches one pipeline schedule runs ({@link #schedule}); 0 when the step's count does not divide. */
    public long scheduleMicroBatches() { return schedule(globalBatchSize, microBatchSize, dp, scheduleBatch).microBatches(); }

    /** The pipeline schedules a step runs on each replica ({@link #schedule}): 1 but for torchtitan's gradient accumulation. */
    public long schedules() { return schedule(globalBatchSize, microBatchSize, dp, scheduleBatch).count(); }

    /**
     * A step's pipeline schedules: {@code count} of them, of {@code microBatches} micro-batches each.
     *
     * @param microBatches micro-batches per schedule (m of the bubble's (pp − 1)/(v·m + pp − 1)); 0 when none divides
     * @param count        schedules per step (1 when one schedule runs the step)
     */
    public record Schedule(long microBatches, long count) {}

    /**
     * The one home of a step's pipeline schedules, for the plan ({@link #schedules}) and PAR006 (BubbleAnalysis). Megatron-LM
     * runs the step as one schedule of num_microbatches = global ÷ (micro × dp) (forward_backward_func once per
     * train_step). torchtitan runs {@code pp_schedule.step} once per gradient-accumulation step (Trainer.train_step's loop over
     * gradient_accumulation_steps, forward_backward_step: torchtitan/train.py at 000204a4a8bf3d0f31adc44fc29855fbb6ea13d8),
     * each on the local batch, which build_pipeline_schedule splits into local ÷ pipeline_parallel_microbatch_size
     * micro-batches: with {@code scheduleBatch} (the local batch) above 0, dividing into micro-batches, and global a whole
     * multiple of local × dp, a step is global ÷ (local × dp) schedules of local ÷ micro micro-batches; else one schedule of
     * global ÷ (micro × dp) (0 micro-batches when that does not divide).
     */
    public static Schedule schedule(long global, long micro, long dp, long scheduleBatch) {
        if (global < 1 || micro < 1 || dp < 1) return new Schedule(0, 1);
        if (scheduleBatch >= micro && scheduleBatch % micro == 0 && scheduleBatch <= global / dp && global % (scheduleBatch * dp) == 0)
            return new Schedule(scheduleBatch / micro, global / (scheduleBatch * dp));
        long perStep = micro * dp;
        return new Schedule(global % perStep == 0 ? global / perStep : 0, 1);
    }

    /** The same layout with other parallel sizes (everything else kept; a hand-made split only while pp is). */
    public Layout withSizes(int tp, int pp, int dp, int cp, int ep, int virtualPp) {
        return new Layout(tp, pp, dp, cp, ep, virtualPp, microBatchSize, globalBatchSize, zeroStage, distributedOptimizer,
                recompute, sequenceParallel, pp == this.pp ? split : PipelineSplit.EVEN, offloadLayers, recomputeEvery,
                dpShard, scheduleBatch);      // kept while it divides the new dp (hybrid()); else the states shard over all of it
    }

    /** "tp 8, pp 2, dp 4" (cp, ep and vpp only when above 1): how texts name a layout. */
    public String sizes() {
        return text(tp, pp, dp, cp, ep, virtualPp) + (hybrid() ? " (dp " + replicas() + " replicas × " + dpShard + " shards)" : "");
    }

    private static String text(int tp, int pp, int dp, int cp, int ep, int vpp) {
        StringBuilder b = new StringBuilder("tp ").append(tp).append(", pp ").append(pp);
        if (vpp > 1) b.append(", vpp ").append(vpp);
        b.append(", dp ").append(dp);
        if (cp > 1) b.append(", cp ").append(cp);
        if (ep > 1) b.append(", ep ").append(ep);
        return b.toString();
    }
    /*
     * equals and hashCode written out: the record's own go through method handles, which the launcher's C1-only JIT does
     * not inline, and the plan search looks up hundreds of thousands of layouts in its maps (the record's equals and
     * hashCode took 8 % of the 1,024-GPU hybrid plan's CPU samples). Every component takes part, as in the record's: LayoutTest holds that a layout differing in any one of them
     * is not equal.
     */
    @Override
    public boolean equals(Object o) {
        if (this == o) return true;
        return o instanceof Layout l && tp == l.tp && pp == l.pp && dp == l.dp && cp == l.cp && ep == l.ep
                && virtualPp == l.virtualPp && microBatchSize == l.microBatchSize && globalBatchSize == l.globalBatchSize
                && zeroStage == l.zeroStage && distributedOptimizer == l.distributedOptimizer && recompute == l.recompute
                && sequenceParallel == l.sequenceParallel && offloadLayers == l.offloadLayers
                && recomputeEvery == l.recomputeEvery && dpShard == l.dpShard && scheduleBatch == l.scheduleBatch && (split == l.split || split.equals(l.split));
    }

    @Override
    public int hashCode() {
        int h = tp;
        h = 31 * h + pp;
        h = 31 * h + dp;
        h = 31 * h + cp;
        h = 31 * h + ep;
        h = 31 * h + virtualPp;
        h = 31 * h + microBatchSize;
        h = 31 * h + Long.hashCode(globalBatchSize);
        h = 31 * h + zeroStage;
        h = 31 * h + (distributedOptimizer ? 1 : 0);
        h = 31 * h + recompute.ordinal();
        h = 31 * h + (sequenceParallel ? 1 : 0);
        h = 31 * h + (split == PipelineSplit.EVEN ? EVEN_HASH : split.hashCode());
        h = 31 * h + offloadLayers;
        h = 31 * h + recomputeEvery;
        h = 31 * h + dpShard;
        return 31 * h + scheduleBatch;
    }

    private static final int EVEN_HASH = PipelineSplit.EVEN.hashCode();
}
