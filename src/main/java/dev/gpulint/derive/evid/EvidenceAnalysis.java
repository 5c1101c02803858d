package dev.gpulint.derive.evid;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.core.DidYouMean;
import dev.gpulint.core.Span;
import dev.gpulint.derive.Facts;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.Resolver;
import dev.gpulint.facts.EvidenceFact;
import dev.gpulint.read.evidence.Evidence;
import dev.gpulint.spec.EvidenceLink;
import dev.gpulint.spec.Specs;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The EVID family's analysis: links each captured tool output to the node group it belongs to
 * (configuration {@code evidence}, else the one node group of the run whose GPU model and counts
 * it matches), then turns what it shows into facts beside what that node group declares. Evidence
 * that belongs to no node group still gets its facts: the checks that need no declaration
 * (wrong results, ports down, inactive links, NCCL warnings) run on it alone.
 */
public final class EvidenceAnalysis {
    private final Catalog catalog;
    private final List<Specs.Cluster> specs;
    /** The run's clusters resolved, the first time evidence needs them (most runs have no evidence; a fleet file is large). */
    private List<Resolved.Cluster> clusters;
    private Resolver resolver;
    private final List<Specs.Job> jobs;
    private final Function<String, Optional<EvidenceLink>> configured;

    public EvidenceAnalysis(Catalog catalog, List<Specs.Cluster> clusters, List<Specs.Job> jobs,
                            Function<String, Optional<EvidenceLink>> configured) {
        this.catalog = catalog;
        this.specs = clusters;
        this.jobs = jobs;
        this.configured = configured;
    }

    /** The facts of all evidence read in the run. */
    public List<Object> facts(List<Evidence> evidence) {
        Facts out = new Facts();
        java.util.Set<Integer> fullLinks = new java.util.TreeSet<>();
        for (Catalog.Nvlink n : catalog.nvlinks()) fullLinks.add(n.links());
        if (!evidence.isEmpty()) {
            resolver = new Resolver(catalog);
            clusters = resolver.clusters(specs).stream().filter(Resolved.Cluster::first).toList();
        }
        for (Evidence e : evidence) {
            Seen seen = Seen.of(e, catalog);
            String[] unknown = {"", "", "", ""};
            List<String> jobGroups = new ArrayList<>();
            Span[] linkSpan = {null};
            Target t = target(e.file(), seen, unknown, linkSpan, jobGroups);
            out.add(new EvidenceFact(e.file(), e.kind().tool(), e.kind().name(), Span.at(e.file(), 1, 1), t.linked(), t.cluster(), t.group(),
                    t.linkedBy(), unknown[0], unknown[1], linkSpan[0], seen.gpus(), seen.gpusSpan(), t.linked() ? t.gpus() : -1,
                    seen.nics(), seen.nicsSpan(), t.linked() ? t.nics() : -1, seen.modelKnown() ? seen.model() : "", seen.modelSpan(), t.gpuModel(),
                    t.declaredSpan(), unknown[2], unknown[3], jobGroups));
            if (e instanceof Evidence.Topology m) TopologyAnalysis.facts(m, t, fullLinks, out);
            else if (e instanceof Evidence.IbPorts p) PortAnalysis.facts(p, t, out);
            else if (e instanceof Evidence.NcclTests n) NcclAnalysis.tests(n, t, out);
            else if (e instanceof Evidence.NcclLog l) NcclAnalysis.log(l, t, out);
            else if (e instanceof Evidence.NvlinkStatus s) PortAnalysis.nvlinks(s, t, out);
            else if (e instanceof Evidence.DcgmNvlinkStatus s) PortAnalysis.nvlinks(s, t, out);
            else if (e instanceof Evidence.DcgmDiag d) DiagAnalysis.facts(d, t, out);
            if (Captured.kept(e)) out.add(new Captured(e, t.linked(), t.cluster(), t.group()));
        }
        return out.list();
    }

    /**
     * The node group the file belongs to; {@code unknown} receives a configured name that names nothing and the
     * closest, or (2, 3) a configured job that names no node group of a cluster of several, and its cluster, whose
     * node groups go to {@code jobGroups}.
     */
    private Target target(String file, Seen seen, String[] unknown, Span[] linkSpan, List<String> jobGroups) {
        Optional<EvidenceLink> link = configured.apply(file);
        if (link.isPresent()) {
            EvidenceLink l = link.get();
            linkSpan[0] = l.at();
            String clusterName = l.cluster(), groupName = l.nodeGroup();
            if (l.job() != null) {
                Specs.Job j = jobs.stream().filter(x -> x.name() != null && l.job().equals(x.name().value())).findFirst().orElse(null);
                if (j == null || j.cluster() == null) {
                    unknown[0] = "job '" + l.job() + "'";
                    unknown[1] = closest(l.job(), jobs.stream().filter(x -> x.name() != null).map(x -> x.name().value()).toList());
                    return Target.NONE;
                }
                clusterName = j.cluster().value();
                groupName = j.nodeGroup() == null ? null : j.nodeGroup().value();
            }
            String cn = clusterName;
            Resolved.Cluster c = clusters.stream().filter(x -> x.name().equals(cn)).findFirst().orElse(null);
            if (c == null) {
                if (l.job() != null) return Target.NONE;   // the job's own cluster reference is reported by the job's rules
                unknown[0] = "cluster '" + cn + "'";
                unknown[1] = closest(cn, clusters.stream().map(Resolved.Cluster::name).toList());
                return Target.NONE;
            }
            String gn = groupName;
            // by name (a folded node group's members too), or the cluster's only one
            long count = c.groupCount();
            Resolved.Group group = gn != null ? resolver.group(c, gn) : count == 1 ? c.groups().get(0) : null;
            if (group == null) {
                if (gn == null && l.job() != null && count > 1) {
                    unknown[2] = l.job();
                    unknown[3] = cn;
                    jobGroups.addAll(c.spec().groupNames(Integer.MAX_VALUE));
                } else if (gn == null) {
                    unknown[0] = "a node group of cluster '" + cn + "' (it has " + count + "; name one with node_group)";
                } else {
                    unknown[0] = "node group '" + gn + "' of cluster '" + cn + "'";
                    unknown[1] = closest(gn, c.spec().groupNames(Integer.MAX_VALUE));
                }
                return Target.NONE;
            }
            return Target.of(c, group, catalog, "configuration");
        }
        Target match = null;
        long matches = 0;
        for (Resolved.Cluster c : clusters) {
            for (Resolved.Group g : c.groups()) {
                Target t = Target.of(c, g, catalog, "match");
                if (!seen.matches(t)) continue;
                match = t;
                matches += g.spec().multiplicity();   // a folded node group matches once per member
            }
        }
        return matches == 1 ? match : Target.NONE;
    }

    private static String closest(String name, List<String> names) {
        String c = DidYouMean.closest(name, names);
        return c == null ? "" : c;
    }
}
