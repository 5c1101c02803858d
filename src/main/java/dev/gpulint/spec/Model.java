package dev.gpulint.spec;

import dev.gpulint.core.Finding;
import java.util.List;

/**
 * What binding made of a run's files, in one immutable value: the middle product from bind to derive. The
 * schema binder and every adapter write into a {@link ModelSink}, which builds it; {@code derive.Deriver}
 * reads it whole. Each list keeps the order its items were written in (files, then documents).
 *
 * @param clusters    clusters: native ones, and a network operator's NIC settings or a script's mlnx_qos lines
 *                    as a cluster with a fabric and no node groups
 * @param jobs        jobs: native ones, and those the adapters bound from other formats
 * @param counters    dcgm-exporter's counter lists (the DCGM fields collected)
 * @param queries     the DCGM metrics Prometheus rules use, and the function applied to each
 * @param nicPolicies the NIC policies of the network operators (SriovNetworkNodePolicy, NicConfigurationTemplate...)
 * @param files       the display paths of the files of other formats an adapter recognised, each once
 * @param findings    the findings met binding (SYN002 for a value out of the schema's bounds, UNIT003, SYN007...)
 * @param unitless    the bandwidths the binder rejected for their unit (UNIT003), for the fix the catalog figure may
 *                    make certain once the node groups are resolved (derive.unit.UnitlessReadings)
 */
public record Model(List<Specs.Cluster> clusters, List<Specs.Job> jobs, List<Specs.DcgmField> counters,
                    List<Specs.MetricQuery> queries, List<Specs.NicPolicy> nicPolicies, List<String> files,
                    List<Finding> findings, List<Unitless> unitless) {

    /** Nothing bound. */
    public static final Model EMPTY = new Model(List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of());

    public Model {
        clusters = List.copyOf(clusters);
        jobs = List.copyOf(jobs);
        counters = List.copyOf(counters);
        queries = List.copyOf(queries);
        nicPolicies = List.copyOf(nicPolicies);
        files = List.copyOf(files);
        findings = List.copyOf(findings);
        unitless = List.copyOf(unitless);
    }

    /** Clusters and jobs alone, as native manifests bind them (tests, and the plan's candidate jobs). */
    public static Model of(List<Specs.Cluster> clusters, List<Specs.Job> jobs) {
        return new Model(clusters, jobs, List.of(), List.of(), List.of(), List.of(), List.of(), List.of());
    }

    /** The same model with other findings (UNIT003's, with the fixes derive found for them). */
    public Model withFindings(List<Finding> other) {
        return new Model(clusters, jobs, counters, queries, nicPolicies, files, other, unitless);
    }

    /** The same model with other clusters (a team's own rules see every node group, none folded). */
    public Model withClusters(List<Specs.Cluster> other) {
        return new Model(other, jobs, counters, queries, nicPolicies, files, findings, unitless);
    }
}
