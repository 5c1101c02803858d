package dev.gpulint.derive.estimate;

import dev.gpulint.core.Span;
import dev.gpulint.facts.StageMemoryFact;
import dev.gpulint.spec.Specs;
import java.util.Optional;

/**
 * MEM003's fact: a job's fullest stage by the estimate, when the job states its model's shape. A shape taken from the
 * model's name (the model catalog, a config.json: JobInputs' model shape source) is the plan's, not check's: such jobs
 * (fine-tunes launched with an accelerate or FSDP configuration gpulint does not read, recipes whose sharding is the
 * framework's default) leave the memory layout unwritten, and a finding on the defaults would be a guess.
 */
public final class StageMemory {
    private StageMemory() {}

    public static Optional<StageMemoryFact> fact(JobEstimate e) {
        if (e.estimate() == null || JobInputs.shapeSource(e.job().spec()) != null) return Optional.empty();
        Estimate x = e.estimate();
        MemoryModel.Stage s = x.largestStage();
        Specs.Model m = e.job().spec().model();
        Span at = m.layers() != null ? m.layers().span() : m.hiddenSize() != null ? m.hiddenSize().span() : null;
        if (at == null) return Optional.empty();
        Layout l = x.layout();
        StageMemoryFact f = new StageMemoryFact(e.job().name(), e.job().spec().file(), x.gpu(), l::sizes, l.recompute().id(),
                s.stage(), l.pp(), s.weights(), s.gradients(), s.optimizer(), s.activations(), x.capacityBytes(), at);
        return Optional.of(account(f, e.inputs().bytes(), l, GpuMemory.of(e.job().group()).map(GpuMemory::overridesCatalog).orElse(false)));
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
