package dev.gpulint.derive;

/**
 * The estimates behind PAR006, MEM001/MEM002 and NET003, as plain functions
 * (unit-tested against hand-computed examples).
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

    /** Bytes of model state per parameter, split as ZeRO counts it: 16-bit weights, gradients, optimizer states. */
    public record StateBytes(double weights, double gradients, double optimizer) {
        public double total() { return weights + gradients + optimizer; }

        /**
         * The split of a total: 2 bytes of 16-bit weights, 12 of fp32 Adam states (master weights,
         * momentum, variance), the rest gradients (2 for fp16/bf16 gradients: 16 in all per the
         * ZeRO paper; 4 for Megatron's fp32 main gradients: 18). Totals under 14 (8-bit optimizers,
         * inference) keep the ZeRO proportions 2:2:12.
         */
        public static StateBytes of(double total) {
            if (total >= 14) return new StateBytes(2, total - 14, 12);
            return new StateBytes(total * 2 / 16, total * 2 / 16, total * 12 / 16);
        }
    }

    /**
     * Model states per GPU: parameters ÷ (tp × pp), with ZeRO stage 1 sharding the optimizer
     * states over dp, stage 2 also the gradients, stage 3 also the weights (Rajbhandari et al.
     * 2020, sec. 3.1: 7.5B parameters, 64 GPUs: 120 → 31.4 → 16.6 → 1.9 GB).
     */
    public static double modelStatesPerGpu(double parameters, StateBytes b, long tp, long pp, long dp, long zeroStage) {
        double perGpu = parameters / ((double) Math.max(1, tp) * Math.max(1, pp));
        double d = Math.max(1, dp);
        double w = b.weights(), g = b.gradients(), o = b.optimizer();
        if (zeroStage >= 1) o /= d;
        if (zeroStage >= 2) g /= d;
        if (zeroStage >= 3) w /= d;
        return perGpu * (w + g + o);
    }
}
