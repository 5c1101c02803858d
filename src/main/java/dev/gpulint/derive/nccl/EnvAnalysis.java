package dev.gpulint.derive.nccl;

import dev.gpulint.core.Span;
import dev.gpulint.derive.Facts;
import dev.gpulint.derive.nccl.NcclVariables;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.Resolver;
import dev.gpulint.facts.EnvFact;
import dev.gpulint.spec.DomainKind;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Protocol;
import dev.gpulint.spec.Quantities;
import dev.gpulint.spec.Specs;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The NCCL family's analysis: each environment variable of a job, read against the job's cluster. */
public final class EnvAnalysis {
    private EnvAnalysis() {}

    public static void job(Resolved.Job r, Facts out) {
        Specs.Job j = r.spec();
        if (j.env().isEmpty()) return;
        NcclVariables vars = NcclVariables.builtIn();
        Resolved.Group group = r.group();
        Resolved.Cluster cf = r.cluster();
        boolean nvlink = group != null && group.domainKind() != DomainKind.NONE && group.domainKind() != DomainKind.UNKNOWN;
        boolean gdr = false;
        if (group != null) {
            for (Specs.Nic n : group.spec().nics()) {
                Protocol proto = Resolver.protocol(n, cf.fabric());
                if ((proto != null && proto.rdma()) || (n.gpudirectRdma() != null && Boolean.TRUE.equals(n.gpudirectRdma().value()))) gdr = true;
            }
        }
        int pfc = -1;
        String pfcText = null;
        Span pfcSpan = null;
        if (cf != null && cf.roce()) {
            if (cf.pfcPriority() >= 0) {
                pfc = cf.pfcPriority();
                pfcText = "fabric.roce.pfc.priority " + pfc + " of cluster '" + cf.name() + "'";
                pfcSpan = cf.pfcPrioritySpan();
            } else {
                pfc = 3;
                pfcText = "priority 3, NVIDIA's RoCE default (cluster '" + cf.name() + "' states none)";
                pfcSpan = cf.roceSpan();
            }
        }
        for (Map.Entry<String, Located<String>> e : j.env().entrySet()) {
            String name = e.getKey();
            String value = e.getValue().value().strip();
            String upper = value.toUpperCase(Locale.ROOT);
            boolean on = List.of("1", "TRUE", "YES", "ON").contains(upper);
            boolean loopback = false;
            if (name.equals("NCCL_SOCKET_IFNAME") && !value.isEmpty() && !value.startsWith("^")) {
                loopback = true;
                for (String part : value.split(",")) {
                    String iface = part.strip().replaceFirst("^=", "");
                    if (!iface.startsWith("lo")) loopback = false;
                }
            }
            boolean gdrOff = name.equals("NCCL_NET_GDR_LEVEL") && (upper.equals("LOC") || upper.equals("0"));
            boolean p2pOff = (name.equals("NCCL_P2P_DISABLE") && on)
                    || (name.equals("NCCL_P2P_LEVEL") && (upper.equals("LOC") || upper.equals("0")));
            boolean prefixed = name.startsWith("NCCL_");
            EnvFact.Builder f = EnvFact.builder()
                    .of(r.name(), j.cluster() == null ? null : j.cluster().value(), r.nodes(), j.file(), name,
                            e.getValue().span(), value, e.getValue().span())
                    .flags(on, loopback, gdrOff, p2pOff, vars.isDebugOnly(name))
                    .nccl(prefixed, vars.isKnown(name), prefixed ? vars.suggestion(name) : null)
                    .cluster(cf != null && cf.rdma(), nvlink, gdr, pfc, pfcText, pfcSpan);
            if (name.equals("NCCL_IB_TC")) {
                Quantities.Parsed<Long> tc = Quantities.integer(value);
                if (tc.ok() && tc.value() >= 0 && tc.value() <= 255) {
                    long dscp = tc.value() >> 2;
                    f.trafficClass((int) (dscp >> 3), "traffic class " + tc.value() + " = DSCP " + dscp + ", priority " + (dscp >> 3));
                }
            }
            out.add(f.fact());
        }
    }
}
