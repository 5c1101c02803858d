package dev.gpulint.spec;

import dev.gpulint.core.Finding;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Where binding writes what it makes, item by item, in the order it meets them; {@link #build()} gives the
 * {@link Model}. The schema binder writes native clusters and jobs into one, each adapter what its format holds
 * (the adapters' own sink, {@code bind.adapt.DraftSink}, takes jobs as drafts first); {@link #addAll(Model)} joins
 * models made apart (file by file, when binding them together failed).
 */
public class ModelSink {
    private final List<Specs.Cluster> clusters = new ArrayList<>();
    private final List<Specs.Job> jobs = new ArrayList<>();
    private final List<Specs.DcgmField> counters = new ArrayList<>();
    private final List<Specs.MetricQuery> queries = new ArrayList<>();
    private final List<Specs.NicPolicy> nicPolicies = new ArrayList<>();
    private final Set<String> files = new LinkedHashSet<>();
    private final List<Finding> findings = new ArrayList<>();
    private final List<Unitless> unitless = new ArrayList<>();

    public final ModelSink cluster(Specs.Cluster c) { clusters.add(c); return this; }

    public final ModelSink job(Specs.Job j) { jobs.add(j); return this; }

    /** A DCGM field of a counter list. */
    public final ModelSink counter(Specs.DcgmField f) { counters.add(f); return this; }

    /** A DCGM metric a Prometheus rule uses. */
    public final ModelSink query(Specs.MetricQuery q) { queries.add(q); return this; }

    public final ModelSink nicPolicy(Specs.NicPolicy p) { nicPolicies.add(p); return this; }

    /** A file of another format an adapter recognised (once, however often it is named). */
    public final ModelSink file(String displayPath) { files.add(displayPath); return this; }

    public final ModelSink finding(Finding f) { findings.add(f); return this; }

    public final ModelSink findings(Collection<Finding> fs) { findings.addAll(fs); return this; }

    /** A bandwidth the binder rejected for its unit (UNIT003). */
    public final ModelSink unitless(Unitless u) { unitless.add(u); return this; }

    /** Everything {@code m} holds, after what this sink holds already. */
    public final ModelSink addAll(Model m) {
        clusters.addAll(m.clusters());
        jobs.addAll(m.jobs());
        counters.addAll(m.counters());
        queries.addAll(m.queries());
        nicPolicies.addAll(m.nicPolicies());
        files.addAll(m.files());
        findings.addAll(m.findings());
        unitless.addAll(m.unitless());
        return this;
    }

    /** Whether nothing was bound: no cluster, job, counter, metric query or NIC policy (findings and files aside). */
    public boolean bindsNothing() {
        return clusters.isEmpty() && jobs.isEmpty() && counters.isEmpty() && queries.isEmpty() && nicPolicies.isEmpty();
    }

    public final Model build() {
        return new Model(clusters, jobs, counters, queries, nicPolicies, List.copyOf(files), findings, unitless);
    }
}
