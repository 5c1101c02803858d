package dev.gpulint.plan.search;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.Resolver;
import dev.gpulint.derive.estimate.Layout;
import dev.gpulint.spec.Specs;
import java.util.List;
import java.util.Optional;

/**
 * A job's own layout and its search space, read as derive reads the job ({@link Resolver}: dp as the frameworks derive
 * it, vpp from --num-layers-per-virtual-pipeline-stage, the ZeRO stage). Empty when a size the layout needs is unknown
 * (a placeholder, no GPU count, no global batch). {@link #current} is the sizes only (no recompute, no distributed
 * optimizer): the plan's own job layout is JobInputs', which reads both.
 */
public final class JobLayouts {
    private JobLayouts() {}

    /** The job resolved against the clusters. */
    public static Resolved.Job resolve(Specs.Job job, List<Specs.Cluster> clusters, Catalog catalog) {
        Resolver r = new Resolver(catalog);
        r.clusters(clusters);
        return r.job(job);
    }

    /** The job's layout as written. */
    public static Optional<Layout> current(Resolved.Job r) {
        Specs.Batch b = r.spec().batch();
        long micro = b == null || b.microBatchSize() == null ? 1 : b.microBatchSize().value();
        long global = b == null || b.globalBatchSize() == null ? 0 : b.globalBatchSize().value();
        long[] sizes = {r.tp(), r.pp(), r.dpEffective(), r.cp(), r.ep(), r.virtualPp(), micro, global};
        for (long s : sizes) if (s < 1 || s > Integer.MAX_VALUE) return Optional.empty();
        if (r.zeroStage() < 0 || r.zeroStage() > 3) return Optional.empty();
        Specs.Parallelism p = r.spec().parallelism();
        // written, else the format's default (spec.Format#sequenceParallelDefault), as the plan's own layout reads it
        boolean sp = dev.gpulint.derive.estimate.JobInputs.sequenceParallel(r.spec(), r.tp());
        return Optional.of(new Layout((int) r.tp(), (int) r.pp(), (int) r.dpEffective(), (int) r.cp(), (int) r.ep(), (int) r.virtualPp(),
                (int) micro, global, (int) r.zeroStage(), false, Layout.Recompute.NONE, sp,
                dev.gpulint.derive.estimate.PipelineSplit.of(p),
                r.spec().offload() == null || r.spec().offload().activationLayers() == null ? 0
                        : (int) Math.max(0, Math.min(Integer.MAX_VALUE, r.spec().offload().activationLayers().value()))));
    }

    /**
     * The layouts of a job's space as the job runs them: a torchtitan job runs one pipeline schedule per gradient-accumulation
     * step on its written local batch, which a candidate keeps (another dp changes the accumulation, not local_batch_size), so
     * every candidate at pp above 1 carries the job's schedule batch (JobInputs.scheduleBatch, the written layout's own);
     * the list itself when the job's step is one schedule.
     */
    public static List<Layout> scheduled(List<Layout> layouts, Specs.Job job) {
        Specs.Batch b = job.batch();
        if (dev.gpulint.derive.estimate.JobInputs.scheduleBatch(b, 2) == 0) return layouts;
        List<Layout> out = new java.util.ArrayList<>(layouts.size());
        for (Layout l : layouts) out.add(l.withScheduleBatch(dev.gpulint.derive.estimate.JobInputs.scheduleBatch(b, l.pp())));
        return out;
    }

    /** The layouts to consider for the job on {@code gpus} GPUs (its own count, or another for `plan --gpus`). */
    public static Optional<SearchSpace> space(Resolved.Job r, long gpus) {
        Specs.Job j = r.spec();
        Specs.Batch b = j.batch();
        long global = b == null || b.globalBatchSize() == null ? 0 : b.globalBatchSize().value();
        if (gpus < 1 || gpus > SearchSpace.MAX_GPUS || global < 1) return Optional.empty();
        Specs.Model m = j.model();
        long experts = m == null || m.experts() == null ? 0 : m.experts().value();
        long seq = m == null || m.seqLength() == null ? 0 : m.seqLength().value();
        boolean zero = j.optimizer() != null && j.optimizer().zeroStage() != null;
        long micro = b.microBatchSize() == null || b.microBatchSize().value() == null ? 0 : b.microBatchSize().value();
        long vpp = Math.max(0, r.virtualPp());
        // gpt-neox: DeepSpeed's PipelineModule splits any block count, so its uneven candidates are priced with that split
        boolean deepSpeed = j.origin() != null && dev.gpulint.spec.Format.of(j.origin().format()) == dev.gpulint.spec.Format.GPT_NEOX;
        return Optional.of(SearchSpace.whole(gpus, Resolver.splitLayers(j), experts, seq, global, zero, vpp, micro, deepSpeed));
    }
}
