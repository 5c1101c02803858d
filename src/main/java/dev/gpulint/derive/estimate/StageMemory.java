package dev.gpulint.derive.estimate;

import dev.gpulint.core.Span;
import dev.gpulint.facts.StageMemoryFact;
import dev.gpulint.spec.Specs;
import java.util.Optional;

/**
 * MEM003's fact: a job's fullest stage by the estimate, when the job states its model's shape. A shape taken from the
 * model's name (the model catalog, a config.json: JobInputs' model shape source) is the plan's, not check's: such jobs
 * (fine-tunes launched with an accelerate or FSDP configuration gpulint does not read, recipes whose sharding is the
 * framework's default) leave the memory layout unwritten, and a finding on the defaults would be a guess. A torchtitan
 * configuration naming its flavor is the exception ({@link #namedTitan}): its layout is written, so check and plan agree on it.
 */
public final class StageMemory {
    private StageMemory() {}

    public static Optional<StageMemoryFact> fact(JobEstimate e) {
        return fact(e, null);
    }

    /**
     * As above, {@code e} priced at {@code sized}, the size `gpulint plan` takes for a job whose files state none
     * ({@link UnstatedSize}; null: the job states its size), which the fact carries for the messages.
     */
    public static Optional<StageMemoryFact> fact(JobEstimate e, UnstatedSize.Size sized) {
        if (e.estimate() == null || !checked(e.job().spec())) return Optional.empty();
        Estimate x = e.estimate();
        MemoryModel.Stage s = x.largestStage();
        Specs.Model m = e.job().spec().model();
        Span at = m.layers() != null ? m.layers().span() : m.hiddenSize() != null ? m.hiddenSize().span() : null;
        if (at == null) return Optional.empty();
        Layout l = x.layout();
        StageMemoryFact f = new StageMemoryFact(e.job().name(), e.job().spec().file(), x.gpu(), l::sizes, l.recompute().id(),
                s.stage(), l.pp(), s.weights(), s.gradients(), s.optimizer(), s.activations(), x.capacityBytes(), at);
        f.virtualPp(l.virtualPp());
        if (sized != null) f.sized(sized.fact());
        return Optional.of(account(f, e.inputs().bytes(), l, GpuMemory.of(e.job().group()).map(GpuMemory::overridesCatalog).orElse(false)));
    }

    /**
     * Whether check holds the job's estimated memory to the GPU's: its shape is written, or it is a torchtitan configuration
     * that names its flavor ({@link #namedTitan}), whose memory layout is written too.
     */
    public static boolean checked(Specs.Job j) {
        return JobInputs.shapeSource(j) == null || namedTitan(j);
    }

    /**
     * A torchtitan configuration whose shape is its {@code [model]} name and flavor's (the model catalog's): it states no
     * parameter count, but its memory layout is no default gpulint guesses — {@code [parallelism]} writes the degrees,
     * torchtitan always shards with FSDP2's fully_shard (apply_fsdp) and its own defaults are read as it sets them
     * (TorchtitanAdapter). Check's MEM001 (MemoryAnalysis#named) and MEM002/MEM003 take the plan's fullest stage for it.
     */
    public static boolean namedTitan(Specs.Job j) {
        return j.origin() != null && dev.gpulint.spec.Format.of(j.origin().format()) == dev.gpulint.spec.Format.TORCHTITAN
                && JobInputs.shapeSource(j) != null;
    }

    /**
     * Of stage {@code s}'s weights, the bytes of torchtitan's final norm + output unit and the block FSDP2 prefetches beside
     * it, whole at its peak ({@link MemoryModel#gatheredAtPeak}, the term MemoryModel adds on the last stage), 0 on any other
     * stage or job: for MEM001's message, which names it beside the sharded states.
     */
    public static double gatheredBytes(Estimate x, Variants v, MemoryModel.Stage s) {
        return s.stage() == x.layout().pp() - 1 ? MemoryModel.gatheredAtPeak(x.model(), x.layout(), v) : 0;
    }

    /** {@code f} with the accounting of {@code b} for layout {@code l}, as MEM002's and MEM003's messages name it. */
    public static StageMemoryFact account(StageMemoryFact f, StateBytes b, Layout l, boolean capacityOverridesCatalog) {
        return accounted(f, b.at(l.zeroStage(), l.distributedOptimizer()), l, capacityOverridesCatalog);
    }

    /**
     * {@link #account} with the job's accounting at the layout's sharding choice already taken ({@code at}: the
     * {@link StateBytes#at} of the job's for {@code l}'s ZeRO stage and distributed optimizer): for the plan's search,
     * which keeps the eight of them (plan/Pricer) instead of making one per memory fact (~190,000 a hybrid plan).
     */
    public static StageMemoryFact accounted(StageMemoryFact f, StateBytes at, Layout l, boolean capacityOverridesCatalog) {
        return f.accounting(at.accounting().id(), at.total(), at.where(), l.distributedOptimizer() && l.zeroStage() == 0, capacityOverridesCatalog);
    }
}
