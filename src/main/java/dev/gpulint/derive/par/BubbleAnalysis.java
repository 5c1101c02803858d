package dev.gpulint.derive.par;

import dev.gpulint.derive.Estimates;
import dev.gpulint.derive.Facts;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.Thresholds;
import dev.gpulint.facts.EstimateFact;
import dev.gpulint.spec.Quantities;
import dev.gpulint.spec.Specs;

/** PAR006's analysis: the pipeline bubble of a step, from pp, virtual stages and micro-batches per step. */
public final class BubbleAnalysis {
    private BubbleAnalysis() {}

    public static void job(Resolved.Job r, Thresholds thresholds, Facts out) {
        long pp = r.pp();
        if (pp <= 1) return;
        Specs.Job j = r.spec();
        Specs.Batch b = j.batch();
        long micro = b == null || b.microBatchSize() == null ? 0 : b.microBatchSize().value();
        long global = b == null || b.globalBatchSize() == null ? 0 : b.globalBatchSize().value();
        long quantum = micro * r.dpEffective();
        long m = 0;
        String source = null;
        if (b != null && b.microBatches() != null) {
            m = b.microBatches().value();
            source = "micro_batches";
        } else if (global > 0 && micro > 0 && r.dpEffective() > 0 && global % quantum == 0) {
            m = global / quantum;
            source = "global_batch_size " + global + " ÷ (micro_batch_size " + micro + " × dp " + r.dpEffective() + ")";
        }
        if (m <= 0) return;
        Specs.Parallelism p = j.parallelism();
        long v = p == null || p.virtualPp() == null ? 1 : p.virtualPp().value();
        double bubble = Estimates.bubble(pp, v, m);
        String formula = v > 1 ? "(pp−1)/(v·m+pp−1) = " + (pp - 1) + "/(" + v + "·" + m + "+" + (pp - 1) + ")"
                               : "(pp−1)/(m+pp−1) = " + (pp - 1) + "/(" + m + "+" + (pp - 1) + ")";
        String text = "pp=" + pp + " with " + m + " micro-batch" + (m == 1 ? "" : "es") + " per step (" + source + "): the pipeline bubble "
                + formula + " = " + Quantities.format(Math.round(bubble * 1000) / 10.0) + "% of each step, when GPUs wait for their stage's input";
        out.add(new EstimateFact(r.name(), j.file(), EstimateFact.BUBBLE, bubble, 1, text, p == null ? null : p.pp() == null ? null : p.pp().span(),
                null, null).withThresholds(thresholds.bubbleWarning(), thresholds.bubbleNote()));
    }
}
