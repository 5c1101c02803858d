package dev.gpulint.derive.par;

import dev.gpulint.derive.Estimates;
import dev.gpulint.derive.Facts;
import dev.gpulint.derive.Resolved;
import dev.gpulint.facts.BubbleFact;
import dev.gpulint.spec.Specs;

/** PAR006's analysis: the pipeline bubble of a step, from pp, virtual stages and micro-batches per step. */
public final class BubbleAnalysis {
    private BubbleAnalysis() {}

    public static void job(Resolved.Job r, Facts out) {
        long pp = r.pp();
        if (pp <= 1) return;
        Specs.Job j = r.spec();
        Specs.Batch b = j.batch();
        long micro = b == null || b.microBatchSize() == null ? 0 : b.microBatchSize().value();
        long global = b == null || b.globalBatchSize() == null ? 0 : b.globalBatchSize().value();
        long quantum = Placement.mulSat(micro, r.dpEffective());   // saturates: no product wraps to 0
        long m = 0;
        boolean derived = false;
        if (b != null && b.microBatches() != null) {
            m = b.microBatches().value();
        } else if (global > 0 && micro > 0 && r.dpEffective() > 0 && quantum > 0 && global % quantum == 0) {
            m = global / quantum;
            derived = true;
        }
        if (m <= 0) return;
        // a local batch the pipeline schedule splits (torchtitan: m = local_batch_size ÷ pipeline_parallel_microbatch_size), m
        // stated: the message names both keys, and the fixes that exist there (a larger local batch, a smaller split)
        String localKey = derived || micro <= 0 || j.origin() == null ? null : j.origin().key(Specs.Origin.LOCAL_BATCH);
        long local = localKey == null ? 0 : Placement.mulSat(m, micro);
        Specs.Parallelism p = j.parallelism();
        long v = r.virtualPp();
        if (v <= 0) return;
        double bubble = Estimates.bubble(pp, v, m);
        out.add(new BubbleFact(r.name(), j.file(), pp, v, m, derived ? global : 0, derived || local > 0 ? micro : 0,
                derived ? r.dpEffective() : 0, bubble, p == null || p.pp() == null ? null : p.pp().span(),
                WrittenKeys.of(j, Specs.Origin.MICRO_BATCH), WrittenKeys.of(j, Specs.Origin.GLOBAL_BATCH), local, localKey,
                WrittenKeys.of(j, Specs.Origin.MICRO_BATCHES)));
    }
}
