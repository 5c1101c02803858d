package dev.gpulint.derive.net;

import dev.gpulint.core.Span;
import dev.gpulint.derive.Facts;
import dev.gpulint.derive.Resolved;
import dev.gpulint.facts.ClusterFact;
import dev.gpulint.facts.TrafficClass;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;

/** The NET family's cluster facts: the fabric's protocol, topology and lossless settings. */
public final class ClusterAnalysis {
    private ClusterAnalysis() {}

    public static void cluster(Resolved.Cluster c, Facts out) {
        Specs.Fabric f = c.spec().fabric();
        out.add(new ClusterFact(c.name(), c.file(), c.spec().name().span(), out.ordinal(),
                f == null || f.type() == null ? null : f.type().value(), f == null ? null : value(f.topology()),
                c.roce(), c.roceSpan(), c.roceSource(), f == null ? null : value(f.pfcEnabled()),
                f == null ? null : span(f.pfcEnabled()), f == null ? null : value(f.ecnEnabled()),
                f == null ? null : span(f.ecnEnabled()), c.spec().nodeGroups().size(),
                f == null || f.oversubscription() == null ? 0 : f.oversubscription().value(),
                        f == null ? null : span(f.oversubscription()), c.rdma(), c.pfcPriority(), c.pfcPrioritySpan(),
                f == null || f.dscp() == null ? -1 : (int) (long) f.dscp().value(), f == null ? null : span(f.dscp()),
                !c.roce() ? -1 : f != null && f.dscp() != null ? TrafficClass.priority((int) Math.min(63, Math.max(0, f.dscp().value()))) : 3,
                !c.roce() ? null : f != null && f.dscp() != null ? "fabric.roce.dscp " + f.dscp().value() : "DSCP 26, NVIDIA's RoCE default",
                c.spec().origin())
                .firstOfName(c.spec().origin() != null ? null : out.earlierOfName("cluster", c.name(), c.spec().name().span())));
    }

    private static <T> T value(Located<T> l) { return l == null ? null : l.value(); }

    private static Span span(Located<?> l) { return l == null ? null : l.span(); }
}
