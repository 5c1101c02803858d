package dev.gpulint.derive.estimate;

import dev.gpulint.derive.estimate.Layout.Recompute;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * How many collectives a ZeRO-3 / FSDP job's parameter all-gathers and gradient reduce-scatters are per micro-batch, each
 * paying NCCL's α once ({@link NcclLatency}), and what the all-gathers assemble.
 *
 * <ul>
 * <li>{@link Unit#LAYER} (the default): one unit per transformer layer, FSDP's and torchtitan's per-block wrapping and
 *     Megatron-FSDP's per-module buckets ({@link DpBuckets#shardedUnits}): each layer's parameters gathered forward and
 *     backward (a recomputed forward runs inside the unit on the parameters the backward gather brought) and its gradients
 *     reduce-scattered, three collectives a layer.</li>
 * <li>{@link Unit#TENSOR}: DeepSpeed's ZeRO stage 3 as it was released in 2021 (v0.3.13 to v0.4.x, the DeepSpeed that
 *     Narayanan et al. 2021 compare PTD-P against), read in its code (deepspeed/runtime/zero/stage3.py and
 *     partition_parameters.py of those releases): a submodule's forward (and backward) pre-hook fetches its parameters
 *     that are not available with {@code _all_gather(params, async_op=True)}, which calls {@code _allgather_param} per
 *     parameter, one {@code torch.distributed.all_gather} each; the prefetch of the next submodules
 *     ({@code stage3_prefetch_bucket_size}) goes through the same per-parameter call, so it changes when a gather is issued,
 *     not how many. After a submodule's use its parameters are released (re-partitioned) unless the trace's reuse distance,
 *     the parameters used before the next use of the same submodule, is under {@code stage3_max_reuse_distance} (default
 *     1,000,000,000 elements); a parameter of fewer elements than {@code stage3_param_persistence_threshold} (default
 *     100,000) is persistent, never released and never re-gathered ({@code persistent_parameters}: {@code ds_numel <
 *     persistence_threshold}). The gradients are reduce-scattered per parameter ({@code _reduce_scatter_gradients} calls
 *     {@code torch.distributed.reduce_scatter} once per parameter of the reduce bucket), persistent ones included, every
 *     micro-batch. Under Megatron's full activation checkpointing the backward re-runs each layer's forward, whose
 *     submodule hooks fetch again what the forward released, and then the backward fetches what the recomputed forward
 *     released: a parameter is gathered forward, recomputed and backward unless the reuse distance kept it.
 *     {@link #perMicroBatch} plays that trace over the stage's layers: per layer, in forward order, the input LayerNorm
 *     (weight and bias, h each), the fused QKV weight, the attention output weight, the post-attention LayerNorm and the
 *     two MLP weights (fc1 2·h·ffn when gated), each its tensor-parallel share; the linear layers' biases (Megatron's GPT
 *     has them; persistent below the threshold) are not in the model's parameter count and not counted. The embedding and
 *     the other parameters outside the layers are one unit gathered forward and backward and reduce-scattered once.</li>
 * </ul>
 *
 * @param unit                 the gather unit
 * @param persistenceThreshold DeepSpeed's {@code stage3_param_persistence_threshold}, elements
 * @param maxReuseDistance     DeepSpeed's {@code stage3_max_reuse_distance}, elements
 * @param titan                torchtitan's embedding and final norm + output units beside the layers ({@link TitanUnits}); null
 *                             for any other job
 */
public record ShardedGathers(Unit unit, double persistenceThreshold, double maxReuseDistance, TitanUnits titan) {
    /**
     * A ZeRO-3 job's gather unit; KEPT: FSDP2's per-layer unit at stage 2 ({@code fully_shard(reshard_after_forward=False)},
     * torchtitan's {@code fsdp_reshard_after_forward} "never", or "default" with pipeline parallelism), each layer's parameters
     * gathered for the forward and kept for the backward ({@link #keptForBackward}); FSDP2: FSDP2's per-layer unit at stage 3
     * ({@code fully_shard(reshard_after_forward=True)}, torchtitan's "always"), priced as LAYER's collectives, told apart
     * because under pipeline parallelism torch.distributed.pipelining holds it unsharded through the step ({@link #pipelined}).
     */
    public enum Unit { LAYER, TENSOR, KEPT, FSDP2 }

    /** deepspeed/runtime/zero/constants.py: ZERO_OPTIMIZATION_PARAM_PERSISTENCE_THRESHOLD_DEFAULT. */
    public static final double PERSISTENCE_DEFAULT = 100_000;
    /** deepspeed/runtime/zero/constants.py: ZERO_OPTIMIZATION_MAX_REUSE_DISTANCE_DEFAULT. */
    public static final double REUSE_DEFAULT = 1_000_000_000;

    /** One unit per layer (FSDP's wrapping). */
    public static final ShardedGathers LAYER = new ShardedGathers(Unit.LAYER, PERSISTENCE_DEFAULT, REUSE_DEFAULT, null);

    /** One unit per layer, kept from forward to backward (FSDP2 at stage 2: {@link Unit#KEPT}). */
    public static final ShardedGathers KEPT = new ShardedGathers(Unit.KEPT, PERSISTENCE_DEFAULT, REUSE_DEFAULT, null);

    /** One unit per layer, FSDP2's fully_shard at stage 3 ({@link Unit#FSDP2}): LAYER's collectives. */
    public static final ShardedGathers FSDP2 = new ShardedGathers(Unit.FSDP2, PERSISTENCE_DEFAULT, REUSE_DEFAULT, null);

    /**
     * One micro-batch's collectives on the fullest stage.
     *
     * @param gathers          parameter all-gathers
     * @param gatheredElements the elements they assemble on one GPU, all gathers together
     * @param reduces          gradient reduce-scatters
     */
    public record Counts(double gathers, double gatheredElements, double reduces) {}

    /**
     * What a job states (optimizer.zero3_gather, optimizer.persistence_threshold), with one line of {@code as} when it
     * states the per-tensor unit or when the unit cannot be priced so: below stage 3, under hybrid sharding ({@code hybrid}:
     * the states shard over a sub-group of dp, which DeepSpeed's 2021 stage 3 did not have; {@link HybridShard} prices it
     * one unit per layer, so the per-tensor unit is said to be not applied rather than announced and left unpriced), for
     * MoE or multi-latent attention.
     */
    static ShardedGathers of(Specs.Job j, ModelShape m, boolean zero3, boolean hybrid, List<String> as) {
        ShardedGathers g = unitOf(j, m, zero3, hybrid, as);
        TitanUnits t = TitanUnits.of(j, m);
        if (t != null) as.add(t.describe(zero3, hybrid));
        return t == null ? g : new ShardedGathers(g.unit, g.persistenceThreshold, g.maxReuseDistance, t);
    }

    /** {@link #of}'s gather unit, without torchtitan's units beside the layers. */
    private static ShardedGathers unitOf(Specs.Job j, ModelShape m, boolean zero3, boolean hybrid, List<String> as) {
        Specs.Optimizer o = j.optimizer();
        // torchtitan shards with FSDP2's fully_shard per transformer block: at stage 2 (reshard_after_forward False,
        // TorchtitanAdapter) the blocks are still its units, not Megatron's buckets
        if (!zero3 && o != null && o.zeroStage() != null && o.zeroStage().value() == 2 && fullyShard(j)) {
            if (!hybrid && dev.gpulint.spec.Format.of(j.origin().format()) == dev.gpulint.spec.Format.ACCELERATE) {
                as.add("accelerate FSDP2 with fsdp_reshard_after_forward false (ZeRO-2): per layer and micro-batch one parameter"
                        + " all-gather for the forward, kept for the backward and resharded after it, and one gradient reduce-scatter"
                        + " over every data-parallel rank; under gradient accumulation too: accelerate's accumulate() skips the sync"
                        + " through Accelerator.no_sync, which enters the model's no_sync, and FSDP2's module has none (it has"
                        + " set_requires_gradient_sync)");
            }
            return KEPT;
        }
        Located<String> u = o == null ? null : o.zero3Gather();
        boolean tensor = u != null && u.value() != null && u.value().trim().toLowerCase(Locale.ROOT).equals("tensor");
        // FSDP2 at stage 3 (torchtitan's "always"): per-layer units, held whole under pp as at stage 2 (pipelined)
        if (zero3 && !hybrid && fullyShard(j)) {
            if (tensor) as.add("optimizer.zero3_gather: tensor read, but FSDP2's fully_shard gathers one unit per module it wraps:"
                    + " one gather unit per layer");
            return FSDP2;
        }
        if (!tensor) return LAYER;
        if (!zero3) {
            as.add("optimizer.zero3_gather: tensor read, but the parameters are not sharded at ZeRO stage 3: nothing is gathered"
                    + " per micro-batch");
            return LAYER;
        }
        if (hybrid) {
            as.add("optimizer.zero3_gather: tensor read, but the states shard over a sub-group of dp (hybrid sharding): priced"
                    + " one gather unit per layer within the shard group (HybridShard), as FSDP's HSDP runs it");
            return LAYER;
        }
        if (m == null || m.experts() > 1 || m.mla() != null) {
            as.add("optimizer.zero3_gather: tensor read, but per-tensor gathers are counted for a dense layer's tensors only"
                    + " (no MoE or multi-latent attention): one gather unit per layer");
            return LAYER;
        }
        Located<Double> t = o.persistenceThreshold();
        double threshold = t != null && t.value() != null && t.value() >= 0 ? t.value() : PERSISTENCE_DEFAULT;
        as.add("ZeRO-3 collectives per parameter tensor (optimizer.zero3_gather: tensor, DeepSpeed's stage 3 of 2021): each"
                + " layer tensor of " + whole(threshold) + " elements or more ("
                + (t != null && t.value() != null ? "persistence_threshold" : "DeepSpeed's default stage3_param_persistence_threshold")
                + ") all-gathered at each use it was released before (released when the next use is "
                + whole(REUSE_DEFAULT) + " elements or more away, stage3_max_reuse_distance's default; a full recompute's"
                + " forward uses it again), every tensor's gradient reduce-scattered alone; linear biases not counted");
        return new ShardedGathers(Unit.TENSOR, threshold, REUSE_DEFAULT, null);
    }

    /**
     * Whether the job shards with PyTorch's FSDP2 ({@code fully_shard}) per transformer block: a torchtitan configuration
     * (its apply_fsdp), or one whose adapter states {@link Specs.Origin#FSDP_VERSION} 2 (accelerate's fsdp2_prepare_model, one fully_shard per
     * module its auto-wrap policy names: src/accelerate/utils/fsdp_utils.py).
     */
    static boolean fullyShard(Specs.Job j) {
        if (j.origin() == null) return false;
        if (dev.gpulint.spec.Format.of(j.origin().format()) == dev.gpulint.spec.Format.TORCHTITAN) return true;
        return "2".equals(j.origin().statedValue(Specs.Origin.FSDP_VERSION));
    }

    /**
     * Whether FSDP runs under torch.distributed.pipelining's schedules (torchtitan's pipeline parallelism): pp above 1 at
     * ZeRO stage 2 or 3, sharded by FSDP — hybrid sharding (HSDP is FSDP's) or FSDP2's fully_shard units ({@code fullyShard}:
     * {@link Unit#KEPT} at stage 2, torchtitan's "never" or "default" with pp, and {@link Unit#FSDP2} at stage 3, its "always":
     * the schedule turns the resharding after backward off whatever the module's reshard_after_forward). Its PipelineStage turns the FSDPModule's gradient sync and reshard after backward
     * off for every micro-batch's backward and runs FSDP's post-backward once, after the stage's last backward (pytorch/pytorch
     * torch/distributed/pipelining/stage.py, {@code backward_maybe_with_nosync} and {@code _post_backward}; {@link
     * HybridSync#perStep}): the sync is the step's, and through the step the gradients accumulate unsharded and the
     * gathered weights stay whole (StateShards#held). The one decision the plan's memory and sync and check's MEM001 read.
     */
    public static boolean pipelined(long zeroStage, long pp, boolean hybrid, boolean fullyShard) {
        return pp > 1 && zeroStage >= 2 && (hybrid || fullyShard);
    }

    /** {@link #pipelined(long, long, boolean, boolean)} of a layout priced with these gathers. */
    public boolean pipelined(Layout l) {
        return pipelined(l.zeroStage(), l.pp(), l.hybrid(), unit == Unit.KEPT && l.zeroStage() == 2 || unit == Unit.FSDP2 && l.zeroStage() >= 3);
    }

    /**
     * {@link #pipelined(long, long, boolean, boolean)} of a job as written (check's MEM001): hybrid when its shard group
     * is smaller than dp, FSDP2's when it shards with fully_shard at stage 2 or 3 (as {@link #of} decides it: {@link Unit#KEPT},
     * {@link Unit#FSDP2}).
     */
    public static boolean pipelined(Specs.Job j, long zeroStage, long pp, boolean hybrid) {
        return pipelined(zeroStage, pp, hybrid, fullyShard(j));
    }

    /**
     * Whether a stage-2 layout {@code l} shards FSDP2's units kept from forward to backward: one parameter all-gather per layer
     * and micro-batch (the forward's, {@link HybridSync#gathersPerUnit} 1) and one gradient reduce-scatter per layer and
     * micro-batch, over all of dp·cp (hybrid sharding prices it in {@link HybridSync}). Without pipeline parallelism only: with
     * it torchtitan's pipeline schedule keeps the parameters gathered and the gradients unreduced until the step's last
     * backward (torchtitan's apply_fsdp: "For PP, by default do not reshard after forward to avoid per-microbatch
     * all-gathers"; PyTorch's torch/distributed/pipelining/stage.py, PipelineStage.backward_maybe_with_nosync: for an
     * FSDPModule {@code set_reshard_after_backward(False)} and {@code set_requires_gradient_sync(False)} on every backward,
     * both back on and the post-backward run only when {@code last_backward}): {@link #pipelined} then, priced by {@link
     * HybridSync} with one replica, once per step (one all-gather per layer, by the step's first forward, and one
     * reduce-scatter per layer after its last backward), not by Megatron's ZeRO-2 buckets.
     */
    public boolean keptForBackward(Layout l) {
        return unit == Unit.KEPT && l.zeroStage() == 2 && !l.hybrid() && l.pp() <= 1;
    }

    /** Whether this prices per tensor (else {@link DpBuckets#shardedUnits} per layer). */
    public boolean perTensor() {
        return unit == Unit.TENSOR;
    }

    /**
     * The collectives of one micro-batch on a stage of {@code layers} layers holding {@code params} parameters per GPU (its
     * layers and what else it holds: the embedding, the final norm).
     */
    Counts perMicroBatch(ModelShape m, Layout l, double layers, double params) {
        int n = (int) Math.max(1, Math.ceil(layers - 1e-9));
        double[] mod = modules(m, l);
        double layerElements = 0;
        for (double x : mod) layerElements += x;
        // the trace: every use of a submodule in order, forward then (per layer, last first) recompute and backward
        int k = mod.length;
        int[] ids = new int[n * k * 3];
        int len = 0;
        for (int i = 0; i < n; i++) for (int s = 0; s < k; s++) ids[len++] = i * k + s;
        for (int i = n - 1; i >= 0; i--) {
            if (recomputed(l, i)) for (int s = 0; s < k; s++) ids[len++] = i * k + s;
            for (int s = k - 1; s >= 0; s--) ids[len++] = i * k + s;
        }
        // prefix sums of the elements used, for the reuse distance between two uses
        double[] before = new double[len + 1];
        for (int p = 0; p < len; p++) before[p + 1] = before[p] + mod[ids[p] % k];
        int[] next = new int[len];
        int[] last = new int[n * k];
        Arrays.fill(last, -1);
        for (int p = len - 1; p >= 0; p--) {
            next[p] = last[ids[p]];
            last[ids[p]] = p;
        }
        boolean[] available = new boolean[n * k];
        double gathers = 0, elements = 0;
        for (int p = 0; p < len; p++) {
            int id = ids[p];
            double e = mod[id % k];
            if (e / TENSORS[id % k] < persistenceThreshold) continue;     // persistent: gathered once, kept
            if (!available[id]) {
                gathers += TENSORS[id % k];
                elements += e;
            }
            // released after this use unless the next use is nearer than the reuse distance (no next use: released)
            available[id] = next[p] >= 0 && before[next[p]] - before[p + 1] < maxReuseDistance;
        }
        double other = Math.max(0, params - n * layerElements);
        double reduces = n * (double) Arrays.stream(TENSORS).sum() + (other > 0 ? 1 : 0);
        if (other >= persistenceThreshold) {
            gathers += 2;
            elements += 2 * other;
        }
        return new Counts(gathers, elements, reduces);
    }

    /** The tensors of each of {@link #modules}: a LayerNorm's weight and bias (h each), one weight per linear layer. */
    static final int[] TENSORS = {2, 1, 1, 2, 1, 1};

    /** One layer's submodules in forward order, their elements on one GPU: LayerNorm, QKV, output, LayerNorm, fc1, fc2. */
    static double[] modules(ModelShape m, Layout l) {
        double h = m.hidden(), t = l.tp();
        double qkv = h * ((double) m.heads() * m.headDim() + 2.0 * m.kvHeads() * m.headDim()) / t;
        double out = (double) m.heads() * m.headDim() * h / t;
        double fc1 = (m.gatedMlp() ? 2.0 : 1.0) * h * m.ffn() / t, fc2 = (double) m.ffn() * h / t;
        return new double[] {2 * h, qkv, out, 2 * h, fc1, fc2};
    }

    /** Whether layer {@code i} of the stage runs its forward again in the backward (full recompute, or every n-th layer). */
    private static boolean recomputed(Layout l, int i) {
        if (l.recompute() == Recompute.FULL) return true;
        return l.recompute() == Recompute.EVERY && l.recomputeEvery() >= 1 && i % l.recomputeEvery() == 0;
    }

    private static String whole(double x) {
        return String.format(Locale.ROOT, "%,.0f", x);
    }
}
