package dev.gpulint.derive.net;

import dev.gpulint.derive.Facts;
import dev.gpulint.derive.Resolved;
import dev.gpulint.facts.NicPolicyFact;
import dev.gpulint.spec.Specs;
import java.util.List;
import java.util.Locale;

/** The NET family's NIC policies: link type as a protocol, the MTU, the node selector. */
public final class NicPolicyAnalysis {
    private NicPolicyAnalysis() {}

    public static void policy(Specs.NicPolicy p, Facts out) { policy(p, List.of(), out); }

    /**
     * A policy, and for a device-plugin resource that selects its NICs by link type alone, the first cluster (by file and name)
     * whose fabric is of the other link type when no fabric is of the selected one: among the clusters in the
     * policy's folder when there are some (a repository of several clusters keeps each one's objects together),
     * else among the run's.
     */
    public static void policy(Specs.NicPolicy p, List<Resolved.Cluster> clusters, Facts out) {
        String written = p.linkType() == null ? null : p.linkType().value();
        String link = null;
        if (written != null) {
            String l = written.strip().toLowerCase(Locale.ROOT);
            if (l.equals("ib") || l.equals("infiniband")) link = "infiniband";
            else if (l.equals("eth") || l.equals("ethernet") || l.equals("ether")) link = "ethernet";   // ether: a net device's link type
        }
        NicPolicyFact fact = new NicPolicyFact(p.kind(), p.name().value(), p.file(), p.name().span(), link, written,
                p.linkType() == null ? null : p.linkType().span(), p.mtu() == null ? -1 : p.mtu().value(),
                p.mtu() == null ? null : p.mtu().span(), p.rdma() != null && p.rdma().value(), p.nodeSelector() != null,
                p.nodeSelectorRequired()).resource(p.resource()).narrowed(p.narrowed());
        out.add(fact);
        if (link == null || p.resource() == null || p.narrowed()) return;
        Resolved.Cluster other = null;
        List<Resolved.Cluster> near = clusters.stream().filter(c -> folder(c.file()).equals(folder(p.file()))).toList();
        for (Resolved.Cluster c : near.isEmpty() ? clusters : near) {
            if (fabricIs(c, link)) return;                            // a fabric of the run has NICs of that link type
            if (fabricIs(c, link.equals("ethernet") ? "infiniband" : "ethernet") && (other == null || before(c, other))) other = c;
        }
        if (other == null) return;
        fact.otherFabric(other.name(), other.spec().name().span(), link.equals("infiniband") ? other.roceSource()
                : other.spec().origin() != null ? other.spec().origin() : "fabric type infiniband");
    }

    /** The folder part of a file's path ("" for none): a policy is judged against the clusters beside it when it has some. */
    private static String folder(String file) {
        if (file == null) return "";
        int i = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
        return i < 0 ? "" : file.substring(0, i);
    }

    /** The order clusters are named in: by file, then by name (whatever order the files were given in). */
    private static boolean before(Resolved.Cluster a, Resolved.Cluster b) {
        int byFile = String.valueOf(a.file()).compareTo(String.valueOf(b.file()));
        return byFile != 0 ? byFile < 0 : String.valueOf(a.name()).compareTo(String.valueOf(b.name())) < 0;
    }

    /** Whether the cluster's fabric is of the link type: ethernet is RoCE, infiniband is InfiniBand. */
    private static boolean fabricIs(Resolved.Cluster c, String link) {
        Specs.Fabric f = c.spec().fabric();
        return link.equals("ethernet") ? c.roce()
                : f != null && f.type() != null && "infiniband".equals(f.type().value());
    }
}
