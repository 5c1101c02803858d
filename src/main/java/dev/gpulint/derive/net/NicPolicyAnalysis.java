package dev.gpulint.derive.net;

import dev.gpulint.derive.Facts;
import dev.gpulint.facts.NicPolicyFact;
import dev.gpulint.spec.Specs;
import java.util.Locale;

/** The NET family's NIC policies: link type as a protocol, the MTU, the node selector. */
public final class NicPolicyAnalysis {
    private NicPolicyAnalysis() {}

    public static void policy(Specs.NicPolicy p, Facts out) {
        String written = p.linkType() == null ? null : p.linkType().value();
        String link = null;
        if (written != null) {
            String l = written.strip().toLowerCase(Locale.ROOT);
            if (l.equals("ib") || l.equals("infiniband")) link = "infiniband";
            else if (l.equals("eth") || l.equals("ethernet") || l.equals("ether")) link = "ethernet";   // ether: a net device's link type
        }
        out.add(new NicPolicyFact(p.kind(), p.name().value(), p.file(), p.name().span(), link, written,
                p.linkType() == null ? null : p.linkType().span(), p.mtu() == null ? -1 : p.mtu().value(),
                p.mtu() == null ? null : p.mtu().span(), p.rdma() != null && p.rdma().value(), p.nodeSelector() != null,
                p.nodeSelectorRequired()).resource(p.resource()));
    }
}
