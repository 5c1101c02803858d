package dev.gpulint.derive.estimate;

import dev.gpulint.core.Span;
import dev.gpulint.facts.StageMemoryFact;
import dev.gpulint.spec.Specs;
import java.util.Optional;

/** MEM003's fact: a job's fullest stage by the estimate, when the job states its model's shape. */
public final class StageMemory {
    private StageMemory() {}

    public static Optional<StageMemoryFact> fact(JobEstimate e) {
        if (e.estimate() == null) return Optional.empty();
        Estimate x = e.estimate();
        MemoryModel.Stage s = x.largestStage();
        Specs.Model m = e.job().spec().model();
        Span at = m.layers() != null ? m.layers().span() : m.hiddenSize() != null ? m.hiddenSize().span() : null;
        if (at == null) return Optional.empty();
        Layout l = x.layout();
        return Optional.of(new StageMemoryFact(e.job().name(), e.job().spec().file(), x.gpu(), l.sizes(), l.recompute().id(),
                s.stage(), l.pp(), s.weights(), s.gradients(), s.optimizer(), s.activations(), x.capacityBytes(), at));
    }
}
