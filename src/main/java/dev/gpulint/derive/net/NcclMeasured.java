package dev.gpulint.derive.net;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.estimate.Links;
import dev.gpulint.derive.estimate.Tier;
import dev.gpulint.facts.NcclTestsFact;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The nccl-tests bus bandwidths a job's collectives are priced at instead of line rate × efficiency: the runs linked
 * to its cluster and node group, several hosts measuring the network, one host the tier inside the node a group of its
 * ranks runs on ({@link #tier}: NVLink, or PCIe on a node without it) (each the busbw of the run's largest row, GB/s;
 * the highest of several runs). One home for `gpulint plan` (plan.Planner), NET003 (AllReduceAnalysis) and diagnose.
 */
public final class NcclMeasured {
    private NcclMeasured() {}

    /** The measurements linked to {@code job}'s cluster and node group (none when either is not known). */
    public static Map<Tier, Double> of(List<?> facts, Resolved.Job job, Catalog catalog) {
        Map<Tier, Double> m = new EnumMap<>(Tier.class);
        Resolved.Group g = job.group();
        if (job.cluster() == null || g == null) return m;
        String cluster = job.cluster().name(), group = g.name();
        if (cluster == null || group == null) return m;
        // the node's links only when a run is linked to the group: derive asks for every job, the plan's candidate search
        // for each of its candidate jobs, and most have no nccl-tests run (Links.of reads every NIC: 6 % of a plan-hybrid profile)
        Links links = null;
        boolean linksMade = false;
        for (Object f : facts) {
            if (!(f instanceof NcclTestsFact n) || !n.isLinked() || n.getPeakBusbw() <= 0) continue;
            if (!cluster.equals(n.getCluster()) || !group.equals(n.getNodeGroup())) continue;
            if (!linksMade) {
                long gpn = job.gpusPerNode() > 0 ? job.gpusPerNode() : g.gpusPerNode();
                links = g.gpu() == null ? null : Links.of(catalog, g.gpu(), g, gpn);
                linksMade = true;
            }
            m.merge(tier(n, links), n.getPeakBusbw() * 1e9, Math::max);
        }
        return m;
    }

    /**
     * The tier a run measures, the key the estimate looks its bus bandwidth up by (CollectiveCost): several hosts the
     * network; one host the tier {@link Tier#of} puts a group of the run's ranks on inside the node of these links:
     * NVLink where NVLink (or Infinity Fabric) joins them, PCIe on a node without it (an L40S's, "NVLink Support: No")
     * or past an NVLink bridge's pair (H100 PCIe, bridge_max 2: eight ranks ride PCIe). Filed under NVLink whatever the
     * node, a PCIe node's run was never read. {@code links} null (the GPU is not known): NVLink.
     */
    public static Tier tier(NcclTestsFact n, Links links) {
        if (n.getHosts() > 1) return Tier.NETWORK;
        if (links == null) return Tier.NVLINK;
        long ranks = Math.max(1, n.getRanks());
        Tier t = Tier.of(ranks, 1, Math.max(ranks, links.gpusPerNode()), links.domainSize(), links.scaleUp(), 0);
        return t == Tier.NETWORK ? Tier.PCIE : t;
    }
}
