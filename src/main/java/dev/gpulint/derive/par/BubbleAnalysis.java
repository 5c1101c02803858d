package dev.gpulint.derive.par;

import dev.gpulint.derive.Estimates;
import dev.gpulint.derive.Facts;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.estimate.Layout;
import dev.gpulint.facts.BubbleFact;
import dev.gpulint.spec.Specs;

/** PAR006's analysis: the pipeline bubble of a schedule, from pp, virtual stages and micro-batches per schedule (a step runs one, but torchtitan one per gradient-accumulation step). */
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
        // one pipeline schedule per gradient-accumulation step (torchtitan): m and the bubble are one schedule's (Layout.schedule),
        // on the schedule batch the plan's layout carries (JobInputs.scheduleBatch)
        long local = dev.gpulint.derive.estimate.JobInputs.scheduleBatch(b, pp);
        Layout.Schedule schedule = local > 0 ? Layout.schedule(global, micro, r.dpEffective(), local) : null;
        boolean accumulated = b != null && b.microBatches() == null && schedule != null && schedule.count() > 1;
        if (b != null && b.microBatches() != null) {
            m = b.microBatches().value();
        } else if (accumulated) {
            m = schedule.microBatches();
        } else if (global > 0 && micro > 0 && r.dpEffective() > 0 && quantum > 0 && global % quantum == 0) {
            m = global / quantum;
            derived = true;
        }
        if (m <= 0) return;
        // a local batch the pipeline schedule splits (torchtitan: m = local_batch_size ÷ pipeline_parallel_microbatch_size), m
        // stated: the message names both keys, and the fixes that exist there (a larger local batch, a smaller split)
        String localKey = derived || micro <= 0 || j.origin() == null ? null : j.origin().key(Specs.Origin.LOCAL_BATCH);
        // a schedule batch the format derives (torchtitan's num_pp_microbatches × the micro-batch's sequences): in parentheses,
        // so that "(a × b) 8 × dp 2" reads as the product's value
        if (localKey != null && localKey.contains(" × ")) localKey = "(" + localKey + ")";
        long split = localKey == null ? 0 : Placement.mulSat(m, micro);
        Specs.Parallelism p = j.parallelism();
        long v = r.virtualPp();
        if (v <= 0) return;
        double bubble = Estimates.bubble(pp, v, m);
        out.add(new BubbleFact(r.name(), j.file(), pp, v, m, derived ? global : 0, derived || split > 0 ? micro : 0,
                derived ? r.dpEffective() : 0, bubble, p == null || p.pp() == null ? null : p.pp().span(),
                WrittenKeys.of(j, Specs.Origin.MICRO_BATCH), WrittenKeys.of(j, Specs.Origin.GLOBAL_BATCH), split, localKey,
                WrittenKeys.of(j, Specs.Origin.MICRO_BATCHES), accumulated ? schedule.count() : 1, accumulated ? r.dpEffective() : 0));
    }
}
