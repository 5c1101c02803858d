package dev.gpulint.derive.mem;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.core.Span;
import dev.gpulint.derive.Estimates;
import dev.gpulint.derive.Facts;
import dev.gpulint.derive.Resolved;
import dev.gpulint.facts.MemoryFact;
import dev.gpulint.spec.Specs;

/** The MEM family's analysis: model states per GPU (weights, gradients, optimizer states) against GPU memory. */
public final class MemoryAnalysis {
    private MemoryAnalysis() {}

    /** A job on a known node group only (no catalog to find the largest GPU in). */
    public static void job(Resolved.Job r, Facts out) {
        job(r, null, out);
    }

    /**
     * A job's model states against its node group's GPU memory; with no node group known, against
     * the largest memory of the catalog's GPUs (when {@code catalog} is given).
     */
    public static void job(Resolved.Job r, Catalog catalog, Facts out) {
        Specs.Job j = r.spec();
        Resolved.Group g = r.group();
        if (j.model() == null || j.model().parameters() == null) return;
        Catalog.Gpu gpu;
        double capacity;
        Span capSpan;
        boolean declared = false, anyGpu = false;
        String groupName = null;
        if (g == null || g.spec().gpu() == null) {
            // no GPU known: the largest memory of any GPU the catalog knows, so "does not fit" means on no GPU at all
            gpu = null;
            if (catalog == null) return;
            for (Catalog.Gpu c : catalog.gpus()) if (gpu == null || c.memoryBytes() > gpu.memoryBytes()) gpu = c;
            if (gpu == null) return;
            capacity = gpu.memoryBytes();
            capSpan = null;
            anyGpu = true;
        } else {
            gpu = g.gpu();
            Specs.NodeGroup group = g.spec();
            groupName = g.name();
            declared = group.gpu().memory() != null && g.memoryMatches();
            if (declared) {
                capacity = gpu != null ? gpu.memoryBytes() : group.gpu().memory().value().bytes();
                capSpan = group.gpu().memory().span();
            } else if (gpu != null) {
                capacity = gpu.memoryBytes();
                capSpan = group.gpu().model() == null ? null : group.gpu().model().span();
            } else {
                return;
            }
        }
        double params = j.model().parameters().value();
        long zero = r.zeroStage();
        if (zero < 0 || r.tp() <= 0 || r.pp() <= 0) return;   // written as a placeholder: unknown
        boolean overridden = j.optimizer() != null && j.optimizer().bytesPerParameter() != null;
        double bpp = overridden ? j.optimizer().bytesPerParameter().value() : 16;
        long dp = r.dpEffective();
        // dp not known (no GPU count) and no GPU known: the floor, as if ZeRO's shards were spread over unboundedly many ranks
        boolean dpUnbounded = zero > 0 && dp <= 0;
        if (dpUnbounded && !anyGpu) return;          // on a known node group dp is known, or the job is not sized yet
        Estimates.StateBytes sb = Estimates.StateBytes.of(bpp);
        // Mixture of experts: Megatron divides expert parameters by ep × expert tp (= tp by default) × pp and
        // shards their optimizer states over the expert data-parallel size GPUs ÷ (ep × tp × pp); the shared
        // ones by tp × pp over dp (hardware-facts §6, MEG). Without the expert count the dense estimate overstates
        // an expert-parallel job: stay quiet.
        long experts = j.model().experts() == null ? 0 : j.model().experts().value();
        double expertParams = j.model().expertParameters() == null ? -1 : j.model().expertParameters().value();
        long ep = r.ep();
        if (experts > 1 && ep > 1 && expertParams < 0) return;
        long dpOrAll = dpUnbounded ? Long.MAX_VALUE : dp;
        double perGpu;
        long expertDp = 0;
        if (expertParams >= 0 && expertParams <= params && ep >= 1) {
            if (dpUnbounded) return;                 // the expert split needs the job's GPU count
            long expertTp = dev.gpulint.facts.Sizes.product(ep, r.tp());
            long grid = dev.gpulint.facts.Sizes.product(expertTp, r.pp());
            long world = r.totalGpus();
            expertDp = grid > 0 && world > 0 && world % grid == 0 ? world / grid : 0;
            if (zero > 0 && expertDp <= 0) return;
            perGpu = Estimates.modelStatesPerGpu(params - expertParams, sb, r.tp(), r.pp(), dp, zero)
                    + Estimates.modelStatesPerGpu(expertParams, sb, expertTp, r.pp(), expertDp, zero);
        } else {
            expertParams = -1;
            perGpu = Estimates.modelStatesPerGpu(params, sb, r.tp(), r.pp(), dpOrAll, zero);
        }
        String note = null;
        if (j.origin() != null) {
            for (Specs.Stated s : j.origin().stated()) if (s.quantity().equals("parameters")) note = s.where();
        }
        MemoryFact f = new MemoryFact(r.name(), j.file(), params, j.model().parameters().span(), bpp, overridden, sb.weights(),
                sb.gradients(), sb.optimizer(), r.tp(), r.pp(), dpUnbounded ? 0 : dp, zero, perGpu, capacity,
                gpu == null ? null : gpu.name(), groupName, declared, capSpan, anyGpu, dpUnbounded, note);
        if (expertParams >= 0) {
            f.experts(expertParams, ep, expertDp, Estimates.modelStatesPerGpu(params - expertParams, sb, r.tp(), r.pp(), dp, zero),
                    perGpu - Estimates.modelStatesPerGpu(params - expertParams, sb, r.tp(), r.pp(), dp, zero));
        }
        out.add(f);
    }
}
