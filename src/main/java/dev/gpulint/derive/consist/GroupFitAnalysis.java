package dev.gpulint.derive.consist;

import dev.gpulint.derive.Facts;
import dev.gpulint.derive.Resolved;
import dev.gpulint.facts.GroupFitFact;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;

/**
 * A job's nodes and GPUs per node beside the node group it runs on ({@link GroupFitFact}): for a job whose group is
 * known and says how many nodes it has. A group gpulint made for a job of another format from its own GPU request
 * (bind.adapt.Adapters.link) has the job's own counts, so it always fits.
 */
public final class GroupFitAnalysis {
    private GroupFitAnalysis() {}

    public static void job(Resolved.Job r, Facts out) {
        Resolved.Group g = r.group();
        if (g == null || g.spec().count() == null || g.spec().count().value() == null) return;
        Specs.Job j = r.spec();
        Located<Long> nodes = j.nodes(), gpus = j.gpusPerNode();
        Specs.Gpu gpu = g.spec().gpu();
        Located<Long> groupGpus = gpu == null ? null : gpu.count();
        out.add(new GroupFitFact(r.name(), g.name(), g.clusterName(),
                value(nodes), nodes == null ? null : nodes.span(), g.spec().count().value(), g.spec().count().span(),
                value(gpus), gpus == null ? null : gpus.span(), value(groupGpus), groupGpus == null ? null : groupGpus.span()));
    }

    private static long value(Located<Long> v) {
        return v == null || v.value() == null ? 0 : v.value();
    }
}
