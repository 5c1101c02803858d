package dev.gpulint.derive;

import dev.gpulint.derive.estimate.JobEstimate;
import java.util.List;

/**
 * What the derive stage makes ({@link Deriver#derive}): the facts the rules match, and beside them, as a value, each
 * job's estimate (its inputs, memory per stage, step time per tier), which the plan, diagnose and the layout fixes
 * read. No rule matches an estimate: the rules read what they need of it from the facts made from it
 * (StageMemoryFact), so the estimates never enter the rule engine's session.
 *
 * @param facts     the facts, in the order derive made them
 * @param estimates one per job with a model and a cluster node group, in the order of the jobs (empty when the
 *                  Deriver was made without estimates)
 */
public record Derived(List<Object> facts, List<JobEstimate> estimates) {
    public Derived {
        facts = List.copyOf(facts);
        estimates = List.copyOf(estimates);
    }
}
