package dev.gpulint.derive;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.derive.BandwidthCheck.Eightfold;
import dev.gpulint.derive.BandwidthCheck.Figure;
import dev.gpulint.facts.BandwidthFact;
import dev.gpulint.facts.ClusterFact;
import dev.gpulint.facts.JobFact;
import dev.gpulint.facts.NodeGroupFact;
import dev.gpulint.facts.TpPlacementFact;
import dev.gpulint.model.Bandwidth;
import dev.gpulint.model.Located;
import dev.gpulint.model.Quantities;
import dev.gpulint.model.Specs;
import dev.gpulint.tree.Span;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The derive stage: catalog lookups, reference resolution, GPU counts, TP
 * placement and the bandwidth comparisons, turned into the few facts the rules
 * match. All arithmetic lives here (and is unit-tested), not in DRL.
 */
public final class Deriver {

    private final Catalog catalog;
    private final List<Object> facts = new ArrayList<>();
    private int ordinal;

    public Deriver(Catalog catalog) { this.catalog = catalog; }

    public List<Object> derive(List<Specs.Cluster> clusters, List<Specs.Job> jobs) {
        Map<String, Specs.Cluster> byName = new LinkedHashMap<>();
        for (Specs.Cluster c : clusters) {
            if (c.name() == null) continue;
            byName.putIfAbsent(c.name().value(), c);
            cluster(c);
        }
        for (Specs.Job j : jobs) {
            if (j.name() == null) continue;
            job(j, j.cluster() == null ? null : byName.get(j.cluster().value()));
        }
        return List.copyOf(facts);
    }

    // ------------------------------------------------------------------ clusters

    private void cluster(Specs.Cluster c) {
        String name = c.name().value();
        Specs.Fabric f = c.fabric();
        String fabricType = value(f == null ? null : f.type());
        boolean roce = "roce".equals(fabricType);
        Span roceSpan = roce ? f.type().span() : null;
        String roceSource = roce ? "fabric type roce" : null;
        if (!roce) {
            for (Specs.NodeGroup g : c.nodeGroups()) {
                for (Specs.Nic n : g.nics()) {
                    if (n.protocol() != null && n.protocol().value().equals("roce")) {
                        roce = true;
                        roceSpan = n.protocol().span();
                        roceSource = "NIC " + (n.model() != null ? n.model().value() + " " : "") + "protocol roce";
                        break;
                    }
                }
                if (roce) break;
            }
        }
        facts.add(new ClusterFact(name, c.file(), c.name().span(), ordinal++, fabricType,
                value(f == null ? null : f.topology()), roce, roceSpan, roceSource,
                value(f == null ? null : f.pfcEnabled()), span(f == null ? null : f.pfcEnabled()),
                value(f == null ? null : f.ecnEnabled()), span(f == null ? null : f.ecnEnabled()),
                c.nodeGroups().size()));
        if (f != null && f.linkSpeed() != null) {
            List<Figure> figures = fabricType == null ? List.of() : portFigures(fabricType, null);
            bandwidth(c.file(), f.linkSpeed(), "cluster:" + name + "/fabric/link_speed",
                    "the " + techName(fabricType) + " fabric link speed", BandwidthFact.NETWORK, figures,
                    " ports run at ", null, null);
        }
        for (Specs.NodeGroup g : c.nodeGroups()) nodeGroup(c, g);
    }

    private void nodeGroup(Specs.Cluster c, Specs.NodeGroup g) {
        if (g.name() == null) return;
        String cluster = c.name().value();
        String id = "cluster:" + cluster + "/node_groups[" + g.name().value() + "]";
        Catalog.Gpu gpu = g.gpu() == null || g.gpu().model() == null ? null : catalog.gpu(g.gpu().model().value()).orElse(null);
        long gpn = g.gpu() == null ? 0 : value(g.gpu().count(), 0L);
        Specs.Nvlink nv = g.nvlink();
        boolean nvswitch = nv != null && Boolean.TRUE.equals(value(nv.nvswitch()));
        String bridge = nv == null ? null : value(nv.bridge());
        long declaredDomain = nv == null ? 0 : value(nv.domainSize(), 0L);
        boolean nvlinkDeclared = nv != null && (nvswitch || nv.bandwidth() != null || declaredDomain > 1
                || (bridge != null && !bridge.equals("none")));

        Domain d = domain(gpu, gpn, nv, nvlinkDeclared, nvswitch, bridge, declaredDomain);
        Span domainSpan = declaredDomain > 0 ? nv.domainSize().span() : g.gpu() != null ? span(g.gpu().count()) : null;
        String domainText = declaredDomain > 0
                ? "domain_size " + declaredDomain + " in node group '" + g.name().value() + "' of cluster '" + cluster + "'"
                : gpn + " GPUs per node in node group '" + g.name().value() + "' of cluster '" + cluster + "'";

        facts.add(new NodeGroupFact(cluster, g.name().value(), c.file(), g.span(), value(g.count(), 0L), gpn,
                g.gpu() == null ? null : span(g.gpu().count()),
                g.gpu() == null ? null : value(g.gpu().model()), g.gpu() == null ? null : span(g.gpu().model()),
                gpu != null, gpu == null ? null : gpu.name(), gpu != null && gpu.form() == Catalog.Form.PCIE,
                gpu == null ? 0 : gpu.nvlinkGeneration(), gpu == null ? 0 : gpu.bridgeMax(),
                nvlinkDeclared, nv == null ? null : nv.keySpan(), nvswitch, nv == null ? null : span(nv.nvswitch()),
                bridge, nv == null ? null : span(nv.bridge()), declaredDomain, nv == null ? null : span(nv.domainSize()),
                d.size, d.kind, domainSpan, domainText));

        if (nv != null && nv.bandwidth() != null) {
            List<Figure> figs = new ArrayList<>();
            String expected = null;
            if (gpu != null && gpu.hasNvlink()) {
                double bidir = catalog.nvlinkBidirectional(gpu);
                figs.add(new Figure(bidir, Quantities.format(bidir / 1e9) + " GB/s bidirectional"));
                figs.add(new Figure(bidir / 2, Quantities.format(bidir / 2e9) + " GB/s per direction"));
                expected = "NVLink" + gpu.nvlinkGeneration() + " on " + gpu.name() + " carries "
                        + Quantities.format(bidir / 1e9) + " GB/s per GPU bidirectional ("
                        + Quantities.format(bidir / 2e9) + " GB/s per direction)";
            }
            bandwidth(c.file(), nv.bandwidth(), id + "/nvlink/bandwidth",
                    "the NVLink bandwidth of " + (gpu != null ? gpu.name() : "the GPU"), BandwidthFact.DEVICE, figs,
                    null, expected, null);
        }
        Specs.Pcie pcie = g.pcie();
        if (pcie != null && pcie.bandwidth() != null) {
            long gen = value(pcie.generation(), gpu == null ? 0L : (long) gpu.pcieGeneration());
            long lanes = value(pcie.lanes(), 16L);
            List<Figure> figs = new ArrayList<>();
            String expected = null;
            Optional<Catalog.Pcie> p = catalog.pcie((int) gen);
            if (p.isPresent()) {
                double f = lanes / 16.0;
                figs.add(new Figure(p.get().perDirection() * f, "per direction"));
                figs.add(new Figure(p.get().bidirectional() * f, "bidirectional"));
                expected = "PCIe Gen" + gen + " x" + lanes + " carries " + Quantities.format(p.get().perDirection() * f / 1e9)
                        + " GB/s per direction (" + Quantities.format(p.get().bidirectional() * f / 1e9) + " GB/s bidirectional)";
            }
            bandwidth(c.file(), pcie.bandwidth(), id + "/pcie/bandwidth", "the PCIe bandwidth", BandwidthFact.DEVICE,
                    figs, null, expected, null);
        }
        int i = 0;
        for (Specs.Nic n : g.nics()) {
            i++;
            if (n.speed() == null) continue;
            String protocol = n.protocol() != null ? n.protocol().value()
                    : c.fabric() != null && c.fabric().type() != null ? c.fabric().type().value() : null;
            Catalog.Nic nic = n.model() == null ? null : catalog.nic(n.model().value()).orElse(null);
            List<Figure> figs = protocol == null ? List.of() : portFigures(protocol, nic);
            String model = n.model() != null ? n.model().value() : "NIC #" + i;
            bandwidth(c.file(), n.speed(), id + "/nics[" + (n.model() != null ? n.model().value() : i) + "]/speed",
                    "the " + model + (protocol != null ? " " + techName(protocol) : "") + " port speed",
                    BandwidthFact.NETWORK, figs, " ports run at ", null, null);
        }
    }

    private record Domain(long size, String kind) {}

    /** The NVLink domain used for placement: FORMAT.md's domain_size, its default, or none. */
    private static Domain domain(Catalog.Gpu gpu, long gpn, Specs.Nvlink nv, boolean nvlinkDeclared,
                                 boolean nvswitch, String bridge, long declared) {
        boolean bridgedCard = gpu != null && gpu.bridged();
        if (declared > 0) {
            if (declared > gpn && gpn > 0) return new Domain(declared, "RACK");
            if (declared < gpn || bridgedCard) return new Domain(declared, "BRIDGE");
            return new Domain(declared, "NODE");
        }
        if (gpu != null) {
            if (gpu.rackDomain() > 0) return new Domain(gpu.rackDomain(), "RACK");
            if (bridgedCard) {
                int join = bridge == null ? 0 : switch (bridge) { case "pairs" -> 2; case "quads" -> 4; default -> 0; };
                return join > 0 ? new Domain(join, "BRIDGE") : new Domain(1, "NONE");
            }
            if (gpu.hasNvlink()) return new Domain(gpn, "NODE");
            return new Domain(1, "NONE");
        }
        if (nvswitch || nvlinkDeclared) return new Domain(gpn, "NODE");
        return new Domain(0, "UNKNOWN");
    }

    private List<Figure> portFigures(String protocol, Catalog.Nic nic) {
        List<Figure> figs = new ArrayList<>();
        String tech = protocol.equals("infiniband") ? "infiniband" : "ethernet";
        double max = nic == null ? Double.MAX_VALUE : tech.equals("infiniband") ? nic.maxInfiniband() : nic.maxEthernet();
        for (Catalog.LinkSpeed s : catalog.linkSpeeds(protocol)) {
            if (s.bytesPerSecond() <= max * 1.0001) figs.add(new Figure(s.bytesPerSecond(),
                    (tech.equals("infiniband") ? "InfiniBand " : "") + s.name()));
        }
        return figs;
    }

    private static String techName(String protocol) {
        return switch (protocol) {
            case "infiniband" -> "InfiniBand";
            case "roce" -> "RoCE";
            case "ethernet" -> "Ethernet";
            default -> protocol;
        };
    }

    /**
     * Adds a BandwidthFact. {@code portPhrase} non-null: the figures are port
     * speeds and the expectation reads "InfiniBand NDR ports run at 400 Gb/s = 50 GB/s".
     */
    private void bandwidth(String file, Located<Bandwidth> bw, String identity, String subject, String cls,
                           List<Figure> figures, String portPhrase, String expected, Related related) {
        Bandwidth b = bw.value();
        Optional<Eightfold> e = BandwidthCheck.eightfold(b.bytesPerSecond(), figures);
        String exp = expected;
        String suggestion = null;
        if (e.isPresent()) {
            Figure f = e.get().figure();
            if (portPhrase != null) exp = f.label() + portPhrase + BandwidthCheck.bothBases(f.bytesPerSecond()) + " per direction";
            suggestion = cls.equals(BandwidthFact.DEVICE) ? Quantities.format(f.bytesPerSecond() / 1e9) + " GB/s"
                    : BandwidthCheck.suggestion(f.bytesPerSecond());
        }
        facts.add(new BandwidthFact(file, bw.span(), ordinal++, identity, subject, cls, b.bits(), b.written(),
                b.otherReading(), e.isPresent(), e.map(x -> x.above() ? "above" : "below").orElse(null),
                exp == null ? null : exp + (suggestion != null ? "; write " + suggestion : ""),
                related == null ? null : related.span, related == null ? null : related.text));
    }

    private record Related(Span span, String text) {}

    // ------------------------------------------------------------------ jobs

    private void job(Specs.Job j, Specs.Cluster cluster) {
        String name = j.name().value();
        Specs.NodeGroup group = null;
        if (cluster != null) {
            if (j.nodeGroup() != null) {
                for (Specs.NodeGroup g : cluster.nodeGroups()) {
                    if (g.name() != null && g.name().value().equals(j.nodeGroup().value())) { group = g; break; }
                }
            } else if (cluster.nodeGroups().size() == 1) {
                group = cluster.nodeGroups().get(0);
            }
        }
        long nodes = value(j.nodes(), 0L);
        long gpn;
        Span gpnSpan;
        String gpnSource;
        if (j.gpusPerNode() != null) {
            gpn = j.gpusPerNode().value();
            gpnSpan = j.gpusPerNode().span();
            gpnSource = "gpus_per_node of job '" + name + "'";
        } else if (group != null && group.gpu() != null && group.gpu().count() != null) {
            gpn = group.gpu().count().value();
            gpnSpan = group.gpu().count().span();
            gpnSource = gpn + " GPUs per node in node group '" + group.name().value() + "' of cluster '"
                    + cluster.name().value() + "'";
        } else {
            gpn = 0; gpnSpan = null; gpnSource = null;
        }
        long total = nodes > 0 && gpn > 0 ? Placement.mulSat(nodes, gpn) : 0;

        Specs.Parallelism p = j.parallelism();
        long tp = p == null ? 1 : value(p.tp(), 1L);
        long pp = p == null ? 1 : value(p.pp(), 1L);
        long cp = p == null ? 1 : value(p.cp(), 1L);
        long dp = p == null ? 0 : value(p.dp(), 0L);
        boolean stated = p != null && (p.tp() != null || p.pp() != null || p.cp() != null || p.dp() != null);
        long model = Placement.mulSat(Placement.mulSat(tp, pp), cp);
        boolean mismatch = false;
        String productText = null;
        if (stated && total > 0) {
            if (dp > 0) {
                long product = Placement.mulSat(model, dp);
                mismatch = product != total;
                productText = "tp×pp×dp×cp = " + tp + "×" + pp + "×" + dp + "×" + cp + " = " + big(product);
            } else {
                mismatch = total % model != 0;
                productText = "tp×pp×cp = " + tp + "×" + pp + "×" + cp + " = " + big(model);
            }
        }
        List<String> groupNames = new ArrayList<>();
        if (cluster != null) for (Specs.NodeGroup g : cluster.nodeGroups()) if (g.name() != null) groupNames.add(g.name().value());
        facts.add(new JobFact(name, j.file(), j.name().span(), ordinal++, value(j.cluster()), span(j.cluster()),
                value(j.nodeGroup()), span(j.nodeGroup()), cluster != null, groupNames.size(), String.join(", ", groupNames),
                nodes, gpn, gpnSpan, gpnSource, total, tp, pp, dp, cp, p == null ? null : span(p.tp()),
                p == null ? null : p.keySpan(), stated, mismatch, productText));

        if (group != null && p != null && p.tp() != null && tp > 1 && gpn > 0) {
            tpPlacement(j, cluster, group, tp, pp, cp, dp, total, gpn);
        }
        if (j.network() != null && group != null) jobNetwork(j, cluster, group);
    }

    private static String big(long v) { return v == Long.MAX_VALUE ? "more than 9.2e18" : String.valueOf(v); }

    private void tpPlacement(Specs.Job j, Specs.Cluster cluster, Specs.NodeGroup group, long tp, long pp, long cp,
                             long dp, long total, long gpn) {
        NodeGroupFact ng = null;
        for (Object o : facts) {
            if (o instanceof NodeGroupFact f && f.getClusterName().equals(cluster.name().value())
                    && f.getName().equals(group.name().value())) { ng = f; break; }
        }
        if (ng == null || !(ng.getDomainKind().equals("NODE") || ng.getDomainKind().equals("RACK"))) return;
        long domain = ng.getDomainSize();
        List<String> order = j.parallelism().order() != null ? j.parallelism().order().value() : List.of("tp", "cp", "ep", "dp", "pp");
        long world = total > 0 ? total : Placement.mulSat(Placement.mulSat(tp, pp), Placement.mulSat(cp, Math.max(dp, 1)));
        long dpEff = dp > 0 ? dp : Math.max(1, world / Math.max(1, Placement.mulSat(Placement.mulSat(tp, pp), cp)));
        long stride = Placement.tpStride(order, cp, dpEff, pp);
        Optional<Placement.Crossing> crossing = Placement.firstCrossingTpGroup(world, gpn, domain, tp, stride);
        String ranks = null;
        String places = null;
        int spanned = 0;
        if (crossing.isPresent()) {
            Placement.Crossing c = crossing.get();
            ranks = Placement.ranks(c.ranks());
            spanned = c.domainCount();
            places = places(c, group.name().value(), gpn, domain, ng.getDomainKind());
        }
        String domainText = "the NVLink domain is " + domain + " GPUs (" + ng.getDomainText() + ")";
        facts.add(new TpPlacementFact(j.name().value(), j.file(), tp, domain, ng.getDomainKind(), crossing.isPresent(),
                spanned, ranks, places, j.parallelism().tp().span(), ng.getDomainSpan(), domainText, stride,
                String.join("-", order)));
    }

    /** "dgx-0 (0-7) and dgx-1 (8-15)", or "NVLink domain 0 (64-71) and NVLink domain 1 (72-79)". */
    private static String places(Placement.Crossing c, String groupName, long gpn, long domain, String kind) {
        Map<Long, List<Long>> byPlace = new LinkedHashMap<>();
        for (int i = 0; i < c.ranks().length; i++) {
            long place = kind.equals("NODE") ? c.ranks()[i] / gpn : c.domains()[i];
            byPlace.computeIfAbsent(place, k -> new ArrayList<>()).add(c.ranks()[i]);
        }
        List<String> parts = new ArrayList<>();
        for (Map.Entry<Long, List<Long>> e : byPlace.entrySet()) {
            long[] rs = e.getValue().stream().mapToLong(Long::longValue).toArray();
            String label = kind.equals("NODE") ? groupName + "-" + e.getKey() : "NVLink domain " + e.getKey();
            parts.add(label + " (" + Placement.ranks(rs) + ")");
        }
        if (parts.size() > 4) {
            int n = parts.size();
            parts = List.of(parts.get(0), parts.get(1), "… " + (n - 3) + " more", parts.get(n - 1));
        }
        if (parts.size() == 1) return parts.get(0);
        return String.join(", ", parts.subList(0, parts.size() - 1)) + " and " + parts.get(parts.size() - 1);
    }

    private void jobNetwork(Specs.Job j, Specs.Cluster cluster, Specs.NodeGroup group) {
        String name = j.name().value();
        Specs.Network n = j.network();
        if (n.assumedInterNode() != null) {
            Specs.Nic nic = null;
            for (Specs.Nic x : group.nics()) if (x.speed() != null) { nic = x; break; }
            List<Figure> figs = new ArrayList<>();
            String expected = null;
            Related rel = null;
            if (nic != null) {
                double per = nic.speed().value().bytesPerSecond();
                long count = value(nic.count(), 1L);
                figs.add(new Figure(per, "per NIC"));
                figs.add(new Figure(per * count, "per node"));
                expected = "the cluster's " + (nic.model() != null ? nic.model().value() + " " : "") + "NICs run at "
                        + BandwidthCheck.bothBases(per) + " each" + (count > 1 ? " (" + count + " per node: "
                        + Quantities.format(per * count / 1e9) + " GB/s per node)" : "");
                rel = new Related(nic.speed().span(), "NIC speed of node group '" + group.name().value() + "'");
            }
            // An assumed figure equal to the node's aggregate is right; compare 8x only with one NIC.
            List<Figure> eightfoldFigures = figs.isEmpty() ? figs : List.of(figs.get(0));
            Bandwidth b = n.assumedInterNode().value();
            boolean aggregate = figs.size() > 1 && BandwidthCheck.matches(b.bytesPerSecond(), figs.get(1));
            bandwidth(j.file(), n.assumedInterNode(), "training_job:" + name + "/network/assumed_inter_node",
                    "the job's assumed inter-node bandwidth", BandwidthFact.NETWORK,
                    aggregate ? List.of() : eightfoldFigures, null, expected, rel);
        }
        if (n.assumedIntraNode() != null) {
            Catalog.Gpu gpu = group.gpu() == null || group.gpu().model() == null ? null
                    : catalog.gpu(group.gpu().model().value()).orElse(null);
            List<Figure> figs = new ArrayList<>();
            String expected = null;
            if (gpu != null && gpu.hasNvlink()) {
                double bidir = catalog.nvlinkBidirectional(gpu);
                figs.add(new Figure(bidir, "bidirectional"));
                figs.add(new Figure(bidir / 2, "per direction"));
                expected = "NVLink" + gpu.nvlinkGeneration() + " on " + gpu.name() + " carries "
                        + Quantities.format(bidir / 1e9) + " GB/s per GPU bidirectional ("
                        + Quantities.format(bidir / 2e9) + " GB/s per direction)";
            }
            bandwidth(j.file(), n.assumedIntraNode(), "training_job:" + name + "/network/assumed_intra_node",
                    "the job's assumed intra-node bandwidth", BandwidthFact.DEVICE, figs, null, expected, null);
        }
    }

    // ------------------------------------------------------------------ helpers

    private static <T> T value(Located<T> l) { return l == null ? null : l.value(); }

    private static <T> T value(Located<T> l, T dflt) { return l == null ? dflt : l.value(); }

    private static Span span(Located<?> l) { return l == null ? null : l.span(); }

    static String lower(String s) { return s.toLowerCase(Locale.ROOT); }
}
