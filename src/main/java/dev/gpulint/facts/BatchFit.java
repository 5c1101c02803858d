package dev.gpulint.facts;

/**
 * PAR007's fix value: a global batch that is a multiple of micro batch × dp (the quantum). The nearest one, unless
 * the pipeline bubble it gives would make PAR006 report: then the nearest, upward, whose bubble stays within
 * PAR006's thresholds (the rule hands them in from its RuleParam facts), searched over at most
 * 64 multiples ({@code MAX_STEPS}). 0 means no fix.
 */
public final class BatchFit {
    private BatchFit() {}

    /** The most multiples of the quantum past the nearest one above that the search tries before it gives up. */
    static final int MAX_STEPS = 64;

    /** The pipeline bubble of a step, (pp−1)/(v·m+pp−1): Megatron-LM's interleaved 1F1B (PAR006's Estimates.bubble). */
    public static double bubble(long pp, long virtualPp, long microBatches) {
        if (pp <= 1 || microBatches <= 0) return 0;
        double v = Math.max(1, virtualPp);
        return (pp - 1) / (v * microBatches + pp - 1);
    }

    /** The multiple of q nearest global (q itself below it); 0 when global is one already, two tie, or it overflows. */
    static long nearest(long global, long q) {
        if (global <= 0 || q <= 0 || q == Long.MAX_VALUE) return 0;
        long r = global % q, below = global - r;
        if (r == 0) return 0;
        if (below == 0) return q;
        if (r == q - r) return 0;
        if (r > q - r) return below > Long.MAX_VALUE - q ? 0 : below + q;
        return below;
    }

    /**
     * The multiple of q nearest global whose m = batch ÷ q micro-batches per step keep the bubble of pp stages
     * (v virtual) at or below noteAt and below warnAt (PAR006 reports neither). Without a bubble to keep (pp ≤ 1,
     * v unknown, or m stated apart from the batch) the plain nearest; 0 when none is found within MAX_STEPS.
     */
    static long quiet(long global, long q, long pp, long v, boolean mStated, double noteAt, double warnAt) {
        if (global <= 0 || q <= 0 || q == Long.MAX_VALUE || global % q == 0) return 0;
        if (pp <= 1 || v <= 0 || mStated) return nearest(global, q);
        long k = global / q;
        // the bubble shrinks as m grows: when the multiple below is quiet so is the one above, and the plain nearest
        // stands (a tie still offers none); else the nearest quiet multiple lies above the stated batch
        if (k >= 1 && quiet(k, pp, v, noteAt, warnAt)) return nearest(global, q);
        k++;
        for (int step = 0; step < MAX_STEPS; step++, k++) {
            if (k > Long.MAX_VALUE / q) return 0;
            if (quiet(k, pp, v, noteAt, warnAt)) return k * q;
        }
        return 0;
    }

    private static boolean quiet(long m, long pp, long v, double noteAt, double warnAt) {
        double b = bubble(pp, v, m);
        return b <= noteAt && b < warnAt;
    }
}
