package dev.gpulint.derive.estimate;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.derive.Resolved;
import java.util.Map;

/**
 * A job as resolved, its estimate inputs and, when they are complete, its estimate: the fact `gpulint plan` starts
 * from (no rule matches it; MEM003's memory fact is made from it).
 *
 * @param estimate null when the inputs are incomplete ({@link JobInputs#missing()} says why)
 */
public record JobEstimate(Resolved.Job job, JobInputs inputs, Estimate estimate) {

    /** The estimate of a job as written, with the catalog's efficiencies and no measurement. */
    public static JobEstimate of(Resolved.Job r, Catalog catalog) {
        return of(r, catalog, 0, Map.of(), Map.of());
    }

    public static JobEstimate of(Resolved.Job r, Catalog catalog, long gpus, Map<Tier, Double> measured, Map<String, Double> overrides) {
        JobInputs in = JobInputs.of(r, catalog, gpus, measured, overrides);
        Estimate e = in.complete()
                ? Estimator.estimate(in.model(), in.layout(), in.hardware(), in.order(), in.bytes(), in.variants())
                : null;
        return new JobEstimate(r, in, e);
    }

    /** The job by name, not its spans: a manifest says the same in YAML and in the DSL, and so do its facts. */
    @Override public String toString() {
        return "JobEstimate[job=" + job.name() + ", inputs=" + inputs + ", estimate=" + estimate + "]";
    }
}
