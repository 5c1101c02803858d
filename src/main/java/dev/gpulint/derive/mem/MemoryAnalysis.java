package dev.gpulint.derive.mem;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.derive.Facts;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.estimate.Estimate;
import dev.gpulint.derive.estimate.GpuMemory;
import dev.gpulint.derive.estimate.JobEstimate;
import dev.gpulint.derive.estimate.Layout;
import dev.gpulint.derive.estimate.MemoryModel;
import dev.gpulint.derive.estimate.StageMemory;
import dev.gpulint.derive.estimate.ShardedGathers;
import dev.gpulint.derive.estimate.StateBytes;
import dev.gpulint.derive.estimate.StateOffload;
import dev.gpulint.derive.estimate.StateShards;
import dev.gpulint.derive.estimate.UnstatedSize;
import dev.gpulint.facts.MemoryFact;
import dev.gpulint.spec.Specs;

/**
 * The MEM family's analysis: model states per GPU (weights, gradients, optimizer states) against GPU memory.
 *
 * <p>The bytes per parameter ({@link StateBytes}), what leaves the GPU ({@link StateOffload}) and the ranks the states
 * shard over ({@link StateShards}: dp·cp, under hybrid sharding the shard group · cp, the routed experts' expert
 * data-parallel group) are the plan's memory's own functions, so `check` and `plan` shard a job's states alike. What
 * differs on purpose: without a shape the estimate prices, MEM001/MEM002 count the parameters the job states
 * (model.parameters, model.expert_parameters) ÷ tp·pp, the mean over the pipeline stages, which the message says when
 * pp > 1, because a stated count does not say which layers, embedding and output layer each stage holds. With the shape
 * (and pp > 1), or a torchtitan flavor, they take the estimate's stage with the most states ({@link #named}), the one the
 * plan prints (uneven splits, the embedding on the first stage and the output layer on the last: MemoryModel#stages), for
 * every format alike; MEM002's stage rule and MEM003 hold the fullest stage to the same capacity.
 */
public final class MemoryAnalysis {
    private MemoryAnalysis() {}

    /** A job on a known node group only (no catalog to find the largest GPU in). */
    public static void job(Resolved.Job r, Facts out) {
        job(r, null, out);
    }

    /**
     * A job's model states against its node group's GPU memory ({@link GpuMemory}: the declared gpu.memory, else the
     * catalog's), by the job's {@link StateBytes} accounting, the one the plan's estimate uses; with no node group
     * known, against the largest memory of the catalog's GPUs (when {@code catalog} is given).
     */
    public static void job(Resolved.Job r, Catalog catalog, Facts out) {
        job(r, catalog, null, out);
    }

    /**
     * As {@link #job(Resolved.Job, Catalog, Facts)}; a torchtitan job naming its flavor, which states no parameter count,
     * takes its model states from its estimate {@code e} ({@link #named}; null: no estimate, as in the plan's candidate
     * search, which brings its own memory facts).
     */
    public static void job(Resolved.Job r, Catalog catalog, JobEstimate e, Facts out) {
        job(r, catalog, e, null, out);
    }

    /**
     * As above, {@code e} priced at {@code sized} when the job's files state no GPU count (the size `gpulint plan` takes:
     * {@link UnstatedSize}; null: the job states its size), which the fact carries for MEM001's and MEM002's messages: the named
     * job's states are its estimate's, a job stating its parameters shards them over the size's dp.
     */
    public static void job(Resolved.Job r, Catalog catalog, JobEstimate e, UnstatedSize.Size sized, Facts out) {
        Specs.Job j = r.spec();
        Resolved.Group g = r.group();
        if (j.model() == null) return;
        if (j.model().parameters() == null) {
            if (StageMemory.namedTitan(j)) named(r, e, sized, out);
            return;
        }
        // pipeline stages and a shape the estimate prices (StageMemory.checked: written, or a torchtitan flavor): the stage
        // with the most states by the estimate, the one `gpulint plan` prints and MEM002's stage rule and MEM003 judge, not the
        // stated count's mean over the stages (an uneven split, the embedding and output layer make the stages differ)
        if (r.pp() > 1 && e != null && e.estimate() != null && StageMemory.checked(j)) {
            named(r, e, sized, out);
            return;
        }
        GpuMemory memory = GpuMemory.of(g).orElse(null);
        boolean anyGpu = false;
        if (memory == null) {
            if (g != null && g.spec().gpu() != null) return;     // a GPU the catalog does not know, its memory not declared
            // no GPU known: the largest memory of any GPU the catalog knows, so "does not fit" means on no GPU at all
            if (catalog == null) return;
            Catalog.Gpu largest = null;
            for (Catalog.Gpu c : catalog.gpus()) if (largest == null || c.memoryBytes() > largest.memoryBytes()) largest = c;
            if (largest == null) return;
            memory = new GpuMemory(largest.memoryBytes(), false, largest.memoryBytes(), largest.name(), null);
            anyGpu = true;
        }
        double params = j.model().parameters().value();
        long zero = r.zeroStage();
        if (zero < 0 || r.tp() <= 0 || r.pp() <= 0 || r.cp() < 0) return;   // written as a placeholder: unknown
        StateBytes stated = StateBytes.of(j, zero);
        // the states the job keeps in host memory (ZeRO-Offload, FSDP CPU offload, Megatron's optimizer CPU offload) leave
        // the GPU: the message names the accounting as stated and what was counted off it
        StateOffload offload = StateOffload.of(j);
        StateBytes sb = offload.onGpu(stated, (int) zero);
        boolean distributed = StateBytes.distributed(j);
        boolean sharding = zero > 0 || distributed;
        long dp = r.dpEffective(), cp = Math.max(1, r.cp());
        // the job's files state no GPU count (nor dp) on a known node group: the size `gpulint plan` takes for it (UnstatedSize,
        // made once by Deriver), the one MEM002's and MEM003's stage facts are priced at, and the message says so; on fewer GPUs
        // each holds more, so a finding at it holds at every size the node group allows
        boolean atSized = dp <= 0 && sized != null && !anyGpu && sized.dp() > 0;
        if (atSized) dp = sized.dp();
        // dp not known (no GPU count) and no GPU known: the floor, as if the shards were spread over unboundedly many ranks
        boolean dpUnbounded = sharding && dp <= 0;
        if (dpUnbounded && !anyGpu) return;          // on a known node group dp is known, or the job is not sized yet
        // Mixture of experts: Megatron divides the expert parameters by etp × ep × pp (expert tp = tp by default) and
        // shards their optimizer states over the expert data-parallel size tp·cp·dp ÷ (etp·ep), the shared ones by
        // tp × pp over dp·cp: MoeShape.ExpertShare, the one split the plan's memory uses too (hardware-facts §6, MEG).
        // Without the expert count the dense estimate overstates an expert-parallel job: stay quiet.
        long experts = j.model().experts() == null ? 0 : j.model().experts().value();
        double expertParams = j.model().expertParameters() == null ? -1 : j.model().expertParameters().value();
        long ep = r.ep();
        if (experts > 1 && ep > 1 && expertParams < 0) return;
        long etp = r.tp();
        Specs.Parallelism p = j.parallelism();
        boolean moe = expertParams >= 0 && expertParams <= params && ep >= 1;
        if (moe) {
            if (dpUnbounded) return;                 // the expert split needs the job's GPU count
            if (p != null && p.isUnknown(dev.gpulint.spec.ParallelDim.ETP)) return;   // a placeholder: unknown
            if (p != null && p.expertTp() != null && p.expertTp().value() != null && p.expertTp().value() > 0) etp = p.expertTp().value();
        }
        // the ranks the states shard over, as the plan's memory shards them (StateShards): dp·cp, under hybrid sharding
        // (HSDP) the shard group's ranks · cp; the routed experts' over their expert data-parallel group
        StateShards shards = StateShards.of(r, etp, dp);
        long shard = dpUnbounded ? 0 : StateShards.shardRanks(r, dp);
        // FSDP under pipeline parallelism holds weights and gradients whole through the step, as the plan's memory does
        boolean pipelined = ShardedGathers.pipelined(j, zero, r.pp(), shard > 0 && shard < dp);
        StateShards.Sharded per = shards.held(sb, (int) zero, distributed, pipelined);
        if (pipelined) {
            stated = stated.accumulatedWhole();
            sb = sb.accumulatedWhole();
        }
        double perGpu, shared = 0;
        long expertDp = 0;
        if (moe) {
            expertDp = shards.expertsWhole() ? (long) shards.experts().ranks() : 0;
            if (sharding && expertDp <= 0) return;
            double sharedParams = (params - expertParams) / ((double) r.tp() * r.pp());
            double expertOnGpu = expertParams / (shards.experts().divisor() * r.pp());
            shared = per.total(sharedParams, 0);
            perGpu = per.total(sharedParams, expertOnGpu);
        } else {
            expertParams = -1;
            perGpu = per.total(params / ((double) r.tp() * r.pp()), 0);
        }
        String note = j.statedWhere("parameters");
        MemoryFact f = new MemoryFact(r.name(), j.file(), params, j.model().parameters().span(), stated.total(),
                sb.accounting() == StateBytes.Accounting.STATED, stated.weights(), stated.gradients(), stated.optimizer(), r.tp(), r.pp(),
                dpUnbounded ? 0 : dp, zero, perGpu, memory.bytes(), memory.gpu(), anyGpu || g == null ? null : g.name(),
                memory.declared(), memory.span(), anyGpu, dpUnbounded, note);
        f.accounting(sb.accounting().id(), sb.where(), distributed, cp, memory.overridesCatalog(), memory.catalogBytes());
        f.offloaded(offload.leaving((int) zero)).bytesOnGpu(sb.total());
        if (expertParams >= 0) f.experts(expertParams, ep, etp, expertDp, shared, perGpu - shared);
        if (shard > 0 && shard < dp) f.hybrid(shard);
        f.pipelined(pipelined);
        if (atSized) f.sized(sized.fact());
        out.add(f);
    }

    /**
     * A torchtitan job that names its model ({@code [model]} name and flavor: the model catalog's shape) states no parameter
     * count: its model states per GPU are the plan's, its estimate's stage with the most states ({@link Estimate#mostStates}, from
     * MemoryModel: the flavor's layers, embedding and output layer ÷ tp, sharded by FSDP2 as StateShards shards them, and
     * torchtitan's final norm + output unit whole at the backward's start, TitanUnits#heldBytes), so MEM001 fires when the
     * states alone of the stage `gpulint plan` prints do not fit, with its bytes; MEM003 when its states and activations do
     * not (StageMemory#fact). Nothing is computed again here: the stage's weights, gradients and optimizer states are summed
     * and the job's accounting named.
     */
    static void named(Resolved.Job r, JobEstimate e, UnstatedSize.Size sized, Facts out) {
        Specs.Job j = r.spec();
        if (e == null || e.estimate() == null) return;
        GpuMemory memory = GpuMemory.of(r.group()).orElse(null);
        if (memory == null) return;
        Estimate x = e.estimate();
        Layout l = x.layout();
        // the stage with the most states, which MEM001 holds alone to the GPU's memory (not the fullest with activations: at
        // pp > 1 that one can hold fewer states and hide the stage whose states exceed)
        MemoryModel.Stage s = x.mostStates();
        int zero = l.zeroStage();
        // the job's accounting at its layout's sharding, as StageMemory.account names it for MEM002/MEM003
        StateBytes stated = e.inputs().bytes().at(zero, l.distributedOptimizer());
        StateOffload offload = StateOffload.of(j);
        StateBytes sb = offload.onGpu(stated, zero);
        boolean pipelined = e.inputs().variants().gathers().pipelined(l);
        if (pipelined) {
            stated = stated.accumulatedWhole();
            sb = sb.accumulatedWhole();
        }
        long dp = l.dp(), shard = l.shardRanks();
        double perGpu = s.weights() + s.gradients() + s.optimizer();
        var at = j.model().parameters() != null ? j.model().parameters().span() : j.model().layers() != null ? j.model().layers().span() : j.span();
        MemoryFact f = new MemoryFact(r.name(), j.file(), x.model().parameters(), at, stated.total(),
                sb.accounting() == StateBytes.Accounting.STATED, stated.weights(), stated.gradients(), stated.optimizer(), l.tp(), l.pp(),
                dp, zero, perGpu, memory.bytes(), memory.gpu(), r.group().name(), memory.declared(), memory.span(), false, false, null);
        f.accounting(sb.accounting().id(), sb.where(), l.distributedOptimizer(), l.cp(), memory.overridesCatalog(), memory.catalogBytes());
        f.offloaded(offload.leaving(zero)).bytesOnGpu(sb.total());
        if (shard > 0 && shard < dp) f.hybrid(shard);
        f.pipelined(pipelined);
        f.named(j.statedWhere("model_shape"), s.stage(), s.parameters(), StageMemory.gatheredBytes(x, e.inputs().variants(), s));
        // routed experts: the stage's parameters count them ÷ expert tp × ep (the plan's split), not ÷ tp, and the message says so
        if (x.model().experts() > 1) {
            long etp = e.inputs().variants().moe() != null ? e.inputs().variants().moe().etp(l) : l.tp();   // StateShards.of(l, v)'s
            f.namedExperts(Math.max(1, etp), Math.max(1, l.ep()));
        }
        if (sized != null) f.sized(sized.fact());
        out.add(f);
    }
}
