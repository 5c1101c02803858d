package dev.gpulint.derive.net;

import dev.gpulint.derive.estimate.Tier;
import dev.gpulint.facts.NcclTestsFact;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The nccl-tests bus bandwidths a job's collectives are priced at instead of line rate × efficiency: the runs linked
 * to its cluster and node group, one host measuring the scale-up tier, several hosts the network (each the busbw of
 * the run's largest row, GB/s; the highest of several runs). One home for `gpulint plan` (plan.Planner) and NET003
 * (AllReduceAnalysis).
 */
public final class NcclMeasured {
    private NcclMeasured() {}

    /** @param cluster the job's cluster's name, group its node group's (null: nothing is linked to the job) */
    public static Map<Tier, Double> of(List<?> facts, String cluster, String group) {
        Map<Tier, Double> m = new EnumMap<>(Tier.class);
        if (cluster == null || group == null) return m;
        for (Object f : facts) {
            if (!(f instanceof NcclTestsFact n) || !n.isLinked() || n.getPeakBusbw() <= 0) continue;
            if (!cluster.equals(n.getCluster()) || !group.equals(n.getNodeGroup())) continue;
            Tier t = n.getHosts() > 1 ? Tier.NETWORK : Tier.NVLINK;
            m.merge(t, n.getPeakBusbw() * 1e9, Math::max);
        }
        return m;
    }
}
