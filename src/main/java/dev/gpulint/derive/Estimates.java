package dev.gpulint.derive;

/**
 * The estimates behind PAR006 and NET003, as plain functions (unit-tested against hand-computed examples). Model
 * states per GPU have one home: derive.estimate.StateBytes.
 */
public final class Estimates {
    private Estimates() {}

    /**
     * Pipeline bubble as a fraction of the step (1F1B, Narayanan et al. 2021, sec. 2.2):
     * (p − 1) / (v·m + p − 1) for p stages, m micro-batches and v virtual stages per GPU.
     */
    public static double bubble(long pp, long virtualPp, long microBatches) {
        return dev.gpulint.facts.BatchFit.bubble(pp, virtualPp, microBatches);   // one formula for PAR006 and PAR007's fix
    }
}
