package dev.gpulint.derive.par;

import dev.gpulint.derive.Facts;
import dev.gpulint.derive.Resolved;
import dev.gpulint.facts.StepGatherFact;
import dev.gpulint.spec.Format;
import dev.gpulint.spec.Specs;

/**
 * PAR017's analysis: a Megatron-LM or native job with {@code overlap_param_gather_with_optimizer_step} on, beside the
 * preconditions Megatron-LM's validate_args asserts ({@link StepGatherFact}). The distributed optimizer is Megatron's
 * {@code --use-distributed-optimizer} (the native optimizer.distributed) or ZeRO 1–2, as the estimate reads it
 * (derive/estimate/OptimizerStepGather); {@code --overlap-param-gather} is judged only where the format states it
 * (Megatron-LM; the native manifest has no such key). A job whose pp or virtual pp is not known gets no fact.
 */
public final class StepGatherAnalysis {
    private StepGatherAnalysis() {}

    public static void job(Resolved.Job r, Facts out) {
        Specs.Job j = r.spec();
        Specs.Optimizer o = j.optimizer();
        if (o == null || o.gatherWithStep() == null || !Boolean.TRUE.equals(o.gatherWithStep().value())) return;
        Format format = j.origin() == null ? Format.NATIVE : Format.of(j.origin().format());
        if (format != Format.NATIVE && format != Format.MEGATRON) return;
        if (r.pp() < 1 || r.virtualPp() < 1) return;
        boolean distributed = (o.distributed() != null && Boolean.TRUE.equals(o.distributed().value()))
                || (r.zeroStage() >= 1 && r.zeroStage() <= 2);
        boolean megatron = format == Format.MEGATRON;
        boolean opgOff = o.overlapParamGather() != null && Boolean.FALSE.equals(o.overlapParamGather().value());
        String key = j.origin() != null && j.origin().key(Specs.Origin.GATHER_WITH_STEP) != null
                ? j.origin().key(Specs.Origin.GATHER_WITH_STEP) : "optimizer.overlap_param_gather_with_step";
        Specs.Parallelism p = j.parallelism();
        out.add(new StepGatherFact(r.name(), j.file(), key, o.gatherWithStep().span(), distributed,
                megatron ? "--use-distributed-optimizer" : "optimizer.distributed: true", opgOff, r.pp(), r.virtualPp(),
                p == null || p.pp() == null ? null : p.pp().span()));
    }
}
