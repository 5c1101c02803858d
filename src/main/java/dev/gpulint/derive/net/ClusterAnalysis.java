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
                f == null ? null : span(f.ecnEnabled()), (int) Math.min(Integer.MAX_VALUE, c.spec().groupCount()),
                f == null || f.oversubscription() == null ? 0 : f.oversubscription().value(),
                        f == null ? null : span(f.oversubscription()), c.rdma(), c.pfcPriority(), c.pfcPrioritySpan(),
                f == null || f.dscp() == null ? -1 : (int) (long) f.dscp().value(), f == null ? null : span(f.dscp()),
                !c.roce() ? -1 : f != null && f.dscp() != null ? priority(f, (int) Math.min(63, Math.max(0, f.dscp().value())))
                        : remapsOntoPfc(f) ? -1 : priority(f, ROCE_DSCP),
                !c.roce() ? null : f != null && f.dscp() != null ? "fabric.roce.dscp " + f.dscp().value() : "DSCP 26, NVIDIA's RoCE default",
                c.spec().origin())
                .qos(f == null || f.dscp() == null ? -1 : priority(f, (int) Math.min(63, Math.max(0, f.dscp().value()))),
                        f != null && f.qos() != null && f.qos().partial(), f == null || f.qos() == null ? null : f.qos().pfcFlags(),
                        f == null || f.qos() == null || f.qos().trust() == null ? null : f.qos().trust().value())
                .dscpMap(mapped(f), f == null || f.qos() == null ? null : f.qos().dscpMapSpan())
                .firstOfName(c.spec().origin() != null ? null : out.earlierOfName("cluster", c.name(), c.spec().name().span())));
    }

    /** NVIDIA's RoCE DSCP (AF31), which lands on priority 3. */
    static final int ROCE_DSCP = 26;

    /**
     * The priority a DSCP lands on at the fabric's NICs: DSCP >> 3 under the usual trust-DSCP map, else
     * the NICs' own map (-1 where it is unknown); -1 when they trust PCP, where the DSCP picks no priority,
     * and -1 when host-tool settings (mlnx_qos lines, {@code partial}) do not set trust dscp: the NIC's trust
     * state is then whatever it was, which the script does not say.
     */
    public static int priority(Specs.Fabric f, int dscp) {
        Specs.NicQos q = f == null ? null : f.qos();
        if (q == null) return TrafficClass.priority(dscp);
        if (!trustsDscp(q)) return -1;
        return q.dscpPriority() == null ? TrafficClass.priority(dscp) : q.dscpPriority().get(dscp);
    }

    /**
     * Whether the NICs' DSCP picks the priority: not when they trust PCP; with host-tool settings, only when
     * they set trust dscp themselves (the ConnectX default is not one the sources state).
     */
    public static boolean trustsDscp(Specs.NicQos q) {
        if (q == null) return true;
        if (q.trust() != null && "pcp".equals(q.trust().value())) return false;
        return !q.partial() || q.trust() != null && "dscp".equals(q.trust().value());
    }

    /** The NICs' own DSCP map sends RoCE's default DSCP (26, no fabric.roce.dscp) to another priority than 26 >> 3. */
    private static boolean mapped(Specs.Fabric f) {
        if (f == null || f.dscp() != null || f.qos() == null || f.qos().dscpPriority() == null) return false;
        int p = priority(f, ROCE_DSCP);
        return p >= 0 && p != TrafficClass.priority(ROCE_DSCP);
    }

    /** The NICs' QoS settings chose the DSCP of the lossless class themselves (mlnx_qos --dscp2prio set,40,5 with PFC on 5). */
    private static boolean remapsOntoPfc(Specs.Fabric f) {
        return f != null && f.qos() != null && f.qos().losslessDscpChosen();
    }

    private static <T> T value(Located<T> l) { return l == null ? null : l.value(); }

    private static Span span(Located<?> l) { return l == null ? null : l.span(); }
}
