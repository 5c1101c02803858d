package dev.gpulint.derive;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.derive.BandwidthCheck.Eightfold;
import dev.gpulint.derive.BandwidthCheck.Figure;
import dev.gpulint.facts.BandwidthFact;
import dev.gpulint.facts.ClusterFact;
import dev.gpulint.facts.EnvFact;
import dev.gpulint.facts.EstimateFact;
import dev.gpulint.facts.JobFact;
import dev.gpulint.facts.NicFact;
import dev.gpulint.facts.NodeGroupFact;
import dev.gpulint.facts.TpPlacementFact;
import dev.gpulint.spec.Bandwidth;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Quantities;
import dev.gpulint.spec.Specs;
import dev.gpulint.core.Span;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The derive stage: catalog lookups, reference resolution, GPU counts, rank
 * placement, bandwidth comparisons and estimates, turned into the few facts
 * the rules match. All arithmetic lives here (and in Placement, BandwidthCheck
 * and Estimates, which are unit-tested), not in DRL.
 */
public final class Deriver {

    private static final List<String> DEFAULT_ORDER = List.of("tp", "cp", "ep", "dp", "pp");

    private final Catalog catalog;
    private final List<Object> facts = new ArrayList<>();
    private final Map<String, NodeGroupFact> groupFacts = new LinkedHashMap<>();
    private final Map<String, ClusterFact> clusterFacts = new LinkedHashMap<>();
    private int ordinal;

    private final Thresholds thresholds;

    public Deriver(Catalog catalog) { this(catalog, Thresholds.DEFAULT); }

    public Deriver(Catalog catalog, Thresholds thresholds) {
        this.catalog = catalog;
        this.thresholds = thresholds;
    }

    public List<Object> derive(List<Specs.Cluster> clusters, List<Specs.Job> jobs) {
        return derive(clusters, jobs, List.of(), List.of());
    }

    /** With the GPU-monitoring configuration read by the adapters: counter lists and PromQL uses of DCGM fields. */
    public List<Object> derive(List<Specs.Cluster> clusters, List<Specs.Job> jobs, List<Specs.DcgmField> counters,
                               List<Specs.MetricQuery> queries) {
        specs(clusters, jobs);
        DcgmFields fields = DcgmFields.builtIn();
        for (Specs.DcgmField c : counters) {
            String n = c.name().value();
            facts.add(new dev.gpulint.facts.DcgmFieldFact(n, c.name().span(), c.file(), "COUNTER_LIST",
                    c.type() == null ? null : c.type().value().strip().toLowerCase(Locale.ROOT), c.type() == null ? null : c.type().span(),
                    "", "the counter list", fields.known(n), fields.misspeltFrom(n), fields.classOf(n)));
        }
        for (Specs.MetricQuery q : queries) {
            String n = q.metric().value();
            facts.add(new dev.gpulint.facts.DcgmFieldFact(n, q.metric().span(), q.file(), "QUERY", null, null, q.function(),
                    q.owner(), fields.known(n), fields.misspeltFrom(n), fields.classOf(n)));
        }
        return List.copyOf(facts);
    }

    /** The facts of clusters and jobs, added to {@link #facts}. */
    private void specs(List<Specs.Cluster> clusters, List<Specs.Job> jobs) {
        Map<String, Specs.Cluster> byName = new LinkedHashMap<>();
        for (Specs.Cluster c : clusters) {
            if (c.name() == null) continue;
            boolean first = byName.putIfAbsent(c.name().value(), c) == null;
            cluster(c, first);
        }
        for (Specs.Job j : jobs) {
            if (j.name() == null) continue;
            job(j, j.cluster() == null ? null : byName.get(j.cluster().value()));
        }
    }

    // ------------------------------------------------------------------ clusters

    private void cluster(Specs.Cluster c, boolean first) {
        String name = c.name().value();
        Specs.Fabric f = c.fabric();
        String fabricType = value(f == null ? null : f.type());
        boolean roce = "roce".equals(fabricType);
        Span roceSpan = roce ? f.type().span() : null;
        String roceSource = roce ? "fabric type roce" : null;
        boolean rdma = roce || "infiniband".equals(fabricType);
        for (Specs.NodeGroup g : c.nodeGroups()) {
            for (Specs.Nic n : g.nics()) {
                String p = n.protocol() != null ? n.protocol().value() : null;
                if ("infiniband".equals(p)) rdma = true;
                if ("roce".equals(p)) {
                    rdma = true;
                    if (!roce) {
                        roce = true;
                        roceSpan = n.protocol().span();
                        roceSource = "NIC " + (n.model() != null ? n.model().value() + " " : "") + "protocol roce";
                    }
                }
            }
        }
        ClusterFact cf = new ClusterFact(name, c.file(), c.name().span(), ordinal++, fabricType,
                value(f == null ? null : f.topology()), roce, roceSpan, roceSource,
                value(f == null ? null : f.pfcEnabled()), span(f == null ? null : f.pfcEnabled()),
                value(f == null ? null : f.ecnEnabled()), span(f == null ? null : f.ecnEnabled()),
                c.nodeGroups().size())
                .withExtras(f == null ? 0 : value(f.oversubscription(), 0.0), f == null ? null : span(f.oversubscription()),
                        rdma, f == null ? -1 : (int) (long) value(f.pfcPriority(), -1L), f == null ? null : span(f.pfcPriority()));
        facts.add(cf);
        if (first) clusterFacts.put(name, cf);
        if (f != null && f.linkSpeed() != null && fabricType != null) {
            List<Figure> figs = portFigures(fabricType, null);
            Figure max = figs.isEmpty() ? null : figs.get(figs.size() - 1);
            bandwidth(c.file(), f.linkSpeed(), null, "cluster:" + name + "/fabric/link_speed",
                    "the " + techName(fabricType) + " fabric link speed", BandwidthFact.NETWORK, "fabric", figs,
                    max == null ? null : new Figure(max.bytesPerSecond(), techName(fabricType) + " ports run at most "
                            + BandwidthCheck.bothBases(max.bytesPerSecond()) + " per direction (" + max.label() + ")"),
                    null, true, null, false, 0);
        }
        for (Specs.NodeGroup g : c.nodeGroups()) nodeGroup(c, g, fabricType, first);
    }

    private void nodeGroup(Specs.Cluster c, Specs.NodeGroup g, String fabricType, boolean first) {
        if (g.name() == null) return;
        String cluster = c.name().value();
        String id = "cluster:" + cluster + "/node_groups[" + g.name().value() + "]";
        String modelName = g.gpu() == null ? null : value(g.gpu().model());
        Catalog.Gpu gpu = modelName == null ? null : catalog.gpu(modelName).orElse(null);
        long gpn = g.gpu() == null ? 0 : value(g.gpu().count(), 0L);
        Specs.Nvlink nv = g.nvlink();
        boolean nvswitch = nv != null && Boolean.TRUE.equals(value(nv.nvswitch()));
        String bridge = nv == null ? null : value(nv.bridge());
        long declaredDomain = nv == null ? 0 : value(nv.domainSize(), 0L);
        boolean nvlinkDeclared = nv != null && (nvswitch || nv.bandwidth() != null || declaredDomain > 1
                || (bridge != null && !bridge.equals("none")));

        Domain d = domain(gpu, gpn, nvlinkDeclared, nvswitch, bridge, declaredDomain);
        Span domainSpan = declaredDomain > 0 ? nv.domainSize().span() : g.gpu() != null ? span(g.gpu().count()) : null;
        String domainText = declaredDomain > 0
                ? "domain_size " + declaredDomain + " in node group '" + g.name().value() + "' of cluster '" + cluster + "'"
                : gpn + " GPUs per node in node group '" + g.name().value() + "' of cluster '" + cluster + "'";

        // HW004: declared memory against the model's variants, in GB or GiB
        boolean memoryMismatch = false;
        String memoryText = null;
        Span memorySpan = null;
        if (gpu != null && g.gpu().memory() != null) {
            memorySpan = g.gpu().memory().span();
            double declared = g.gpu().memory().value().bytes();
            List<Double> variants = new ArrayList<>();
            variants.add(gpu.memoryBytes());
            variants.addAll(gpu.alternateMemoryBytes());
            boolean match = false;
            for (double v : variants) {
                double gib = v / (1L << 30);
                if (Math.abs(declared / v - 1) <= 0.02 || Math.abs(declared / (gib * 1e9) - 1) <= 0.02) match = true;
            }
            if (!match) {
                memoryMismatch = true;
                StringBuilder alt = new StringBuilder();
                for (Catalog.Gpu other : catalog.gpus()) {
                    if (other.family().equals(gpu.family()) && !other.name().equals(gpu.name())
                            && Math.abs(declared / other.memoryBytes() - 1) <= 0.05) {
                        alt.append("; ").append(other.name()).append(" has ").append(gib(other.memoryBytes()));
                    }
                }
                memoryText = g.gpu().memory().value().written() + " for " + gpu.name() + ", whose memory is "
                        + gib(gpu.memoryBytes()) + alt;
            }
        }
        long rdmaNics = 0;
        for (Specs.Nic n : g.nics()) {
            String p = n.protocol() != null ? n.protocol().value() : fabricType;
            if ("infiniband".equals(p) || "roce".equals(p)) rdmaNics += value(n.count(), 1L);
        }
        String closest = null;
        if (gpu == null && modelName != null) {
            List<String> names = new ArrayList<>();
            for (Catalog.Gpu x : catalog.gpus()) names.add(x.name());
            closest = String.join(", ", dev.gpulint.core.DidYouMean.closestN(modelName, names, 3));
        }

        NodeGroupFact ng = new NodeGroupFact(cluster, g.name().value(), c.file(), g.span(), value(g.count(), 0L), gpn,
                g.gpu() == null ? null : span(g.gpu().count()), modelName, g.gpu() == null ? null : span(g.gpu().model()),
                gpu != null, gpu == null ? null : gpu.name(), gpu != null && gpu.form() == Catalog.Form.PCIE,
                gpu == null ? 0 : gpu.nvlinkGeneration(), gpu == null ? 0 : gpu.bridgeMax(),
                nvlinkDeclared, nv == null ? null : nv.keySpan(), nvswitch, nv == null ? null : span(nv.nvswitch()),
                bridge, nv == null ? null : span(nv.bridge()), declaredDomain, nv == null ? null : span(nv.domainSize()),
                d.size, d.kind, domainSpan, domainText)
                .withExtras(closest, memoryMismatch, memoryText, memorySpan, rdmaNics, !g.nics().isEmpty());
        facts.add(ng);
        if (first) groupFacts.put(cluster + "/" + g.name().value(), ng);

        if (nv != null && nv.bandwidth() != null) {
            String dir = value(nv.direction());
            NvlinkExpectation x = nvlinkExpectation(gpu, dir);
            bandwidth(c.file(), nv.bandwidth(), nv.keySpan(), id + "/nvlink/bandwidth",
                    "the NVLink bandwidth of " + (gpu != null ? gpu.name() : "the GPU"), BandwidthFact.DEVICE, "nvlink",
                    x.figures(), x.limit(), x.expected(), false, dir, true, x.bidirectional());
        }
        Specs.Pcie pcie = g.pcie();
        if (pcie != null && pcie.bandwidth() != null) {
            long gen = value(pcie.generation(), gpu == null ? 0L : (long) gpu.pcieGeneration());
            long lanes = value(pcie.lanes(), 16L);
            String dir = value(pcie.direction());
            List<Figure> figs = new ArrayList<>();
            Figure limit = null;
            String expected = null;
            double bidir = 0;
            Optional<Catalog.Pcie> p = catalog.pcie((int) gen);
            if (p.isPresent()) {
                double scale = lanes / 16.0;
                double per = p.get().perDirection() * scale;
                bidir = p.get().bidirectional() * scale;
                if (!"bidirectional".equals(dir)) figs.add(new Figure(per, "per direction"));
                if (!"unidirectional".equals(dir)) figs.add(new Figure(bidir, "bidirectional"));
                String link = "PCIe Gen" + gen + " x" + lanes;
                expected = link + " carries " + gbs(per) + " per direction (" + gbs(bidir) + " bidirectional)";
                double max = "unidirectional".equals(dir) ? per : bidir;
                limit = new Figure(max, link + " carries at most " + gbs(max) + ("unidirectional".equals(dir) ? " per direction" : " bidirectional"));
            }
            bandwidth(c.file(), pcie.bandwidth(), null, id + "/pcie/bandwidth", "the PCIe bandwidth", BandwidthFact.DEVICE,
                    "pcie", figs, limit, expected, false, dir, true, bidir);
        }
        int i = 0;
        for (Specs.Nic n : g.nics()) {
            i++;
            String protocol = n.protocol() != null ? n.protocol().value() : fabricType;
            facts.add(new NicFact(cluster, g.name().value(), c.file(), i, value(n.model()), protocol,
                    value(n.gpudirectRdma()), n.span(), span(n.gpudirectRdma())));
            if (n.speed() == null) continue;
            Catalog.Nic nic = n.model() == null ? null : catalog.nic(n.model().value()).orElse(null);
            List<Figure> figs = protocol == null ? List.of() : portFigures(protocol, nic);
            String model = n.model() != null ? n.model().value() : "NIC #" + i;
            Figure limit = null;
            if (!figs.isEmpty()) {
                Figure max = figs.get(figs.size() - 1);
                limit = new Figure(max.bytesPerSecond(), (nic != null ? nic.name() + " " : "") + techName(protocol)
                        + " ports run at most " + BandwidthCheck.bothBases(max.bytesPerSecond()) + " per direction ("
                        + max.label() + ")");
            }
            bandwidth(c.file(), n.speed(), null, id + "/nics[" + (n.model() != null ? n.model().value() : i) + "]/speed",
                    "the " + model + (protocol != null ? " " + techName(protocol) : "") + " port speed",
                    BandwidthFact.NETWORK, "nic", figs, protocol == null ? List.of() : portFigures(protocol, null), limit,
                    null, true, null, false, 0);
        }
    }

    /** What the catalog says a GPU's NVLink carries: the figures a declared value may match, its limit, the phrase. */
    private record NvlinkExpectation(List<Figure> figures, Figure limit, String expected, double bidirectional) {}

    /** @param dir the declared direction, or null when either convention may be meant */
    private NvlinkExpectation nvlinkExpectation(Catalog.Gpu gpu, String dir) {
        if (gpu == null || !gpu.hasNvlink()) return new NvlinkExpectation(List.of(), null, null, 0);
        double bidir = catalog.nvlinkBidirectional(gpu);
        String gen = "NVLink" + gpu.nvlinkGeneration() + " on " + gpu.name();
        List<Figure> figs = new ArrayList<>();
        if (!"unidirectional".equals(dir)) figs.add(new Figure(bidir, "bidirectional"));
        if (!"bidirectional".equals(dir)) figs.add(new Figure(bidir / 2, "per direction"));
        double max = "unidirectional".equals(dir) ? bidir / 2 : bidir;
        Figure limit = new Figure(max, gen + " carries at most " + gbs(max) + " per GPU "
                + ("unidirectional".equals(dir) ? "per direction (" + gbs(bidir) + " is the bidirectional aggregate)" : "bidirectional"));
        String expected = gen + " carries " + gbs(bidir) + " per GPU bidirectional (" + gbs(bidir / 2) + " per direction)";
        return new NvlinkExpectation(List.copyOf(figs), limit, expected, bidir);
    }

    private static String gbs(double bytesPerSecond) { return Quantities.format(bytesPerSecond / 1e9) + " GB/s"; }

    /** Catalog memory, which is binary-sized: "80 GiB (85.9 GB)". */
    private static String gib(double bytes) {
        return Quantities.format(bytes / (1L << 30)) + " GiB (" + Quantities.format2(bytes / 1e9) + " GB)";
    }

    private record Domain(long size, String kind) {}

    /** The NVLink domain used for placement: FORMAT.md's domain_size, its default, or none. */
    private static Domain domain(Catalog.Gpu gpu, long gpn, boolean nvlinkDeclared, boolean nvswitch, String bridge,
                                 long declared) {
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
     * Adds a BandwidthFact: compares the value with the catalog figures for what it describes.
     *
     * @param port       the figures are port speeds ("InfiniBand NDR ports run at 400 Gb/s = 50 GB/s")
     * @param direction  the declared direction of an NVLink or PCIe value, or null
     * @param directional NVLink and PCIe values, where per direction and bidirectional differ
     * @param bidir      the bidirectional catalog figure of a directional value, 0 when unknown
     */
    private void bandwidth(String file, Located<Bandwidth> bw, Span keySpan, String identity, String subject, String cls,
                           String kind, List<Figure> figures, Figure limit, String expected, boolean port,
                           String direction, boolean directional, double bidir) {
        bandwidth(file, bw, keySpan, identity, subject, cls, kind, figures, List.of(), limit, expected, port, direction,
                directional, bidir);
    }

    /**
     * @param plausible figures of the same technology that the described part cannot reach (XDR
     *                  800 Gb/s on a ConnectX-7): a value matching one as written is no bit/byte
     *                  mix-up, only beyond the part (UNIT005)
     */
    private void bandwidth(String file, Located<Bandwidth> bw, Span keySpan, String identity, String subject, String cls,
                           String kind, List<Figure> figures, List<Figure> plausible, Figure limit, String expected,
                           boolean port, String direction, boolean directional, double bidir) {
        Bandwidth b = bw.value();
        double v = b.bytesPerSecond();
        BandwidthFact.Builder f = BandwidthFact.builder().at(file, bw.span(), keySpan, ordinal++, identity)
                .what(subject, cls, kind).value(b.bits(), b.written(), b.otherReading());
        boolean matched = figures.stream().anyMatch(x -> BandwidthCheck.matches(v, x));
        boolean technologyFigure = plausible.stream().anyMatch(x -> BandwidthCheck.matches(v, x));
        Optional<Eightfold> e = technologyFigure ? Optional.empty() : BandwidthCheck.eightfold(v, figures);
        if (e.isPresent()) {
            Figure fig = e.get().figure();
            String exp = port ? fig.label() + " ports run at " + BandwidthCheck.bothBases(fig.bytesPerSecond()) + " per direction" : expected;
            String suggestion = cls.equals(BandwidthFact.DEVICE) ? gbs(fig.bytesPerSecond()) : BandwidthCheck.suggestion(fig.bytesPerSecond());
            f.eightfold(e.get().above() ? "above" : "below", exp + "; write " + suggestion);
        } else if (!matched && limit != null && v > limit.bytesPerSecond() * (1 + BandwidthCheck.TOLERANCE)) {
            f.beyond(limit.label());
        } else if (!matched && !figures.isEmpty()) {
            f.mismatch(expected != null ? expected : port ? "the " + (figures.size() == 1 ? "port speed is " : "port speeds are ")
                    + portList(figures) : null);
        }
        if (directional) {
            String convention = null;
            String fix = null;
            if (bidir > 0) {
                if (BandwidthCheck.matches(v, new Figure(bidir, ""))) {
                    convention = "the bidirectional aggregate (" + gbs(bidir / 2) + " per direction)";
                    fix = "direction: bidirectional";
                } else if (BandwidthCheck.matches(v, new Figure(bidir / 2, ""))) {
                    convention = "the per-direction figure (" + gbs(bidir) + " bidirectional)";
                    fix = "direction: unidirectional";
                }
            }
            f.direction(true, direction != null, convention, fix);
        }
        facts.add(f.fact());
    }

    private static String portList(List<Figure> figs) {
        List<String> parts = new ArrayList<>();
        for (Figure x : figs) parts.add(Quantities.format(x.bytesPerSecond() * 8 / 1e9) + " Gb/s");
        return String.join(", ", parts);
    }

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
            if (group != null && group.name() == null) group = null;   // an invalid group was reported by the binder
        }
        NodeGroupFact ng = group == null || group.name() == null ? null
                : groupFacts.get(cluster.name().value() + "/" + group.name().value());
        ClusterFact cf = cluster == null ? null : clusterFacts.get(cluster.name().value());
        long nodes = value(j.nodes(), 0L);
        long gpn;
        Span gpnSpan;
        String gpnSource;
        if (j.gpusPerNode() != null) {
            gpn = j.gpusPerNode().value();
            gpnSpan = j.gpusPerNode().span();
            gpnSource = j.origin() != null && j.origin().gpusPerNodeWhere() != null
                    ? j.origin().gpusPerNodeWhere() + " of " + j.origin().format() + " file " + j.file()
                    : "gpus_per_node of job '" + name + "'";
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
        long ep = p == null ? 1 : value(p.ep(), 1L);
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
        long dpEff = dp > 0 ? dp : total > 0 && total % model == 0 ? total / model : 0;
        List<String> groupNames = new ArrayList<>();
        if (cluster != null) for (Specs.NodeGroup g : cluster.nodeGroups()) if (g.name() != null) groupNames.add(g.name().value());

        Specs.Model m = j.model();
        Specs.Batch b = j.batch();
        JobFact jf = JobFact.builder()
                .name(name, j.name().span(), j.file(), ordinal++)
                .cluster(value(j.cluster()), span(j.cluster()), cluster != null, groupNames.size(), String.join(", ", groupNames))
                .nodeGroup(value(j.nodeGroup()), span(j.nodeGroup()), group != null)
                .gpus(nodes, span(j.nodes()), gpn, gpnSpan, gpnSource, total)
                .parallelism(tp, pp, dp, cp, ep, dpEff, p == null ? null : p.keySpan(), stated)
                .spans(p == null ? null : span(p.tp()), p == null ? null : span(p.pp()), p == null ? null : span(p.dp()),
                        p == null ? null : span(p.cp()), p == null ? null : span(p.ep()))
                .product(mismatch, productText)
                .layers(m == null ? 0 : value(m.layers(), 0L), m == null ? null : span(m.layers()),
                        p == null ? 1 : value(p.virtualPp(), 1L), p == null ? null : span(p.virtualPp()))
                .heads(m == null ? 0 : value(m.attentionHeads(), 0L), m == null ? null : span(m.attentionHeads()),
                        m == null ? 0 : value(m.kvHeads(), 0L), m == null ? null : span(m.kvHeads()))
                .experts(m == null ? 0 : value(m.experts(), 0L), m == null ? null : span(m.experts()))
                .sequence(m == null ? 0 : value(m.seqLength(), 0L), m == null ? null : span(m.seqLength()),
                        p != null && Boolean.TRUE.equals(value(p.sequenceParallel())), p == null ? null : span(p.sequenceParallel()))
                .batch(b == null ? 0 : value(b.microBatchSize(), 0L), b == null ? null : span(b.microBatchSize()),
                        b == null ? 0 : value(b.globalBatchSize(), 0L), b == null ? null : span(b.globalBatchSize()))
                .fact();
        facts.add(jf);

        List<String> order = p != null && p.order() != null ? p.order().value() : DEFAULT_ORDER;
        if (ng != null && p != null && p.tp() != null && tp > 1 && gpn > 0) tpPlacement(j, group, ng, tp, pp, cp, dpEff, total, gpn, order);
        if (j.network() != null && group != null) jobNetwork(j, group);
        env(j, cluster, cf, group, ng, nodes);
        bubbleEstimate(jf, j);
        if (ng != null) memoryEstimate(jf, j, group, ng);
        if (ng != null) allReduceEstimate(jf, j, group, ng, order, gpn);
        if (j.origin() != null) origin(j, jf);
    }

    // ------------------------------------------------------------------ other formats

    private static final List<String> WORLD_QUANTITIES = List.of("world", "per_node", "nodes");
    private static final Map<String, String> LABELS = Map.ofEntries(
            Map.entry("world", "the number of ranks (GPUs) of the job"), Map.entry("per_node", "the number of ranks (GPUs) per node"),
            Map.entry("nodes", "the number of nodes"), Map.entry("tp", "tp (tensor-parallel size)"),
            Map.entry("pp", "pp (pipeline-parallel size)"), Map.entry("cp", "cp (context-parallel size)"),
            Map.entry("ep", "ep (expert-parallel size)"), Map.entry("etp", "etp (expert tensor-parallel size)"),
            Map.entry("vpp", "vpp (virtual pipeline stages)"), Map.entry("app_gpus_per_node", "GPUs per node"),
            Map.entry("comm_backend", "the communication backend"));

    /**
     * The cross-checks of a job read from another format: every place that states one of its
     * numbers is compared with the place that binds it (the pods' resources, else the
     * configuration), and the pods' RDMA resources with the NCCL settings that need them.
     */
    private void origin(Specs.Job j, JobFact jf) {
        Specs.Origin o = j.origin();
        String job = j.name().value();
        Map<String, List<Specs.Stated>> by = new LinkedHashMap<>();
        for (Specs.Stated s : o.stated()) by.computeIfAbsent(s.quantity(), k -> new ArrayList<>()).add(s);
        java.util.Set<String> reported = new java.util.HashSet<>();
        for (Map.Entry<String, List<Specs.Stated>> e : by.entrySet()) {
            String q = e.getKey();
            List<Specs.Stated> all = e.getValue();
            if (q.equals("app_gpus_per_node")) continue;      // compared with the pod's GPUs below
            Specs.Stated ref = reference(all);
            if (ref == null) continue;
            String label = LABELS.getOrDefault(q, q.startsWith("env:") ? q.substring(4) : q);
            for (Specs.Stated s : all) {
                if (s == ref || s.value().equals(ref.value())) continue;
                // a variable: only NCCL's own, and only where two kinds of place disagree (a script may re-export
                // a variable on purpose, and two containers of one pod may differ)
                if (q.startsWith("env:") && (!q.startsWith("env:NCCL_") || s.where().equals(ref.where()))) continue;
                if (!reported.add(q + "|" + s.where() + "|" + s.value())) continue;
                String kind = s.kind() == Specs.StatedKind.NAME ? "NAME" : WORLD_QUANTITIES.contains(q) ? "WORLD" : "SETTING";
                Span at = s.span() != null ? s.span() : ref.span();
                facts.add(new dev.gpulint.facts.ConsistencyFact(kind, job, o.format(), q, label, s.value(), s.where(), at,
                        ref.value(), ref.where(), ref.span()));
            }
        }
        // GPUs the program itself asks for, against what a pod gets
        Specs.Stated pod = null;
        for (Specs.Stated s : by.getOrDefault("per_node", List.of())) if (s.kind() == Specs.StatedKind.RESOURCE) { pod = s; break; }
        if (pod != null) {
            for (Specs.Stated s : by.getOrDefault("app_gpus_per_node", List.of())) {
                if (s.number() > pod.number() && pod.number() >= 0) {
                    facts.add(new dev.gpulint.facts.ConsistencyFact("APP_GPUS", job, o.format(), "app_gpus_per_node",
                            LABELS.get("app_gpus_per_node"), s.value(), s.where(), s.span(), pod.value(), pod.where(), pod.span()));
                }
            }
        }
        Located<String> hca = j.env().get("NCCL_IB_HCA");
        facts.add(new dev.gpulint.facts.OriginFact(job, o.format(), o.podsVisible(), o.rdmaResources().size(), o.rdmaByAccess(),
                hca == null ? null : hca.value(), hca == null ? null : hca.span()));
        Specs.DeepSpeedBatch ds = o.deepspeed();
        if (ds != null && ds.trainBatchSize() != null && ds.microBatchPerGpu() != null && ds.microBatchPerGpu().value() > 0
                && (ds.gradientAccumulation() == null || ds.gradientAccumulation().value() > 0)) {
            facts.add(new dev.gpulint.facts.DeepSpeedBatchFact(job, ds.trainBatchSize().value(), ds.trainBatchSize().span(),
                    ds.microBatchPerGpu().value(), ds.microBatchPerGpu().span(),
                    ds.gradientAccumulation() == null ? 0 : ds.gradientAccumulation().value(),
                    ds.gradientAccumulation() == null ? null : ds.gradientAccumulation().span(), jf.getDpEffective()));
        }
    }

    /** The statement the others are compared with: the pods' resources, else the configuration, else the first. */
    private static Specs.Stated reference(List<Specs.Stated> all) {
        for (Specs.StatedKind k : List.of(Specs.StatedKind.RESOURCE, Specs.StatedKind.CONFIG, Specs.StatedKind.LAUNCHER)) {
            for (Specs.Stated s : all) if (s.kind() == k) return s;
        }
        return null;
    }

    private static String big(long v) { return v == Long.MAX_VALUE ? "more than 9.2e18" : String.valueOf(v); }

    private void tpPlacement(Specs.Job j, Specs.NodeGroup group, NodeGroupFact ng, long tp, long pp, long cp, long dpEff,
                             long total, long gpn, List<String> order) {
        if (ng.getDomainKind().equals("UNKNOWN")) return;
        long domain = Math.max(1, ng.getDomainSize());
        long world = total > 0 ? total : Placement.mulSat(Placement.mulSat(tp, pp), Placement.mulSat(cp, Math.max(dpEff, 1)));
        long stride = Placement.tpStride(order, cp, Math.max(1, dpEff), pp);
        Optional<Placement.Crossing> crossing = Placement.firstCrossingTpGroup(world, gpn, domain, tp, stride);
        String ranks = null;
        String places = null;
        int spanned = 0;
        if (crossing.isPresent()) {
            Placement.Crossing c = crossing.get();
            ranks = Placement.ranks(c.ranks());
            spanned = c.domainCount();
            places = places(c, group.name().value(), gpn, ng.getDomainKind());
        }
        String domainText = ng.getDomainKind().equals("NONE")
                ? "no NVLink: " + ng.getCatalogName() + " GPUs talk over PCIe"
                : "the NVLink domain is " + domain + " GPUs (" + ng.getDomainText() + ")";
        String pcie = "PCIe";
        Catalog.Gpu gpu = ng.getCatalogName() == null ? null : catalog.gpu(ng.getCatalogName()).orElse(null);
        if (gpu != null && catalog.pcie(gpu.pcieGeneration()).isPresent()) {
            pcie = "PCIe Gen" + gpu.pcieGeneration() + " (" + gbs(catalog.pcie(gpu.pcieGeneration()).get().perDirection()) + " per direction)";
        }
        facts.add(new TpPlacementFact(j.name().value(), j.file(), tp, domain, ng.getDomainKind(), crossing.isPresent(),
                spanned, ranks, places, j.parallelism().tp().span(), ng.getDomainSpan(), domainText, stride,
                String.join("-", order)).withHardware((ng.getCatalogName() != null ? ng.getCatalogName() : ng.getGpuModel()) + " GPUs", pcie));
    }

    /** "dgx-0 (0-7) and dgx-1 (8-15)", "NVLink domain 0 (64-71) and ...", "bridged set 0 (0-1) and ...". */
    private static String places(Placement.Crossing c, String groupName, long gpn, String kind) {
        Map<Long, List<Long>> byPlace = new LinkedHashMap<>();
        for (int i = 0; i < c.ranks().length; i++) {
            long place = kind.equals("NODE") ? c.ranks()[i] / gpn : c.domains()[i];
            byPlace.computeIfAbsent(place, k -> new ArrayList<>()).add(c.ranks()[i]);
        }
        List<String> parts = new ArrayList<>();
        for (Map.Entry<Long, List<Long>> e : byPlace.entrySet()) {
            long[] rs = e.getValue().stream().mapToLong(Long::longValue).toArray();
            String label = switch (kind) {
                case "NODE" -> groupName + "-" + e.getKey();
                case "RACK" -> "NVLink domain " + e.getKey();
                case "BRIDGE" -> "bridged set " + e.getKey();
                default -> "GPU " + e.getKey();
            };
            parts.add(kind.equals("NONE") ? label : label + " (" + Placement.ranks(rs) + ")");
        }
        if (parts.size() > 4) {
            int n = parts.size();
            parts = List.of(parts.get(0), parts.get(1), "… " + (n - 3) + " more", parts.get(n - 1));
        }
        if (parts.size() == 1) return parts.get(0);
        return String.join(", ", parts.subList(0, parts.size() - 1)) + " and " + parts.get(parts.size() - 1);
    }

    private void jobNetwork(Specs.Job j, Specs.NodeGroup group) {
        String name = j.name().value();
        Specs.Network n = j.network();
        if (n.assumedInterNode() != null) {
            Specs.Nic nic = null;
            for (Specs.Nic x : group.nics()) if (x.speed() != null) { nic = x; break; }
            List<Figure> figs = new ArrayList<>();
            String expected = null;
            Figure limit = null;
            if (nic != null) {
                double per = nic.speed().value().bytesPerSecond();
                long count = value(nic.count(), 1L);
                figs.add(new Figure(per, "per NIC"));
                expected = "the cluster's " + (nic.model() != null ? nic.model().value() + " " : "") + "NICs run at "
                        + BandwidthCheck.bothBases(per) + " each" + (count > 1 ? " (" + count + " per node: "
                        + gbs(per * count) + " per node)" : "");
                limit = new Figure(per * count, "the node's " + count + " × " + Quantities.format(per * 8 / 1e9)
                        + " Gb/s NICs carry at most " + gbs(per * count) + " per direction");
                Bandwidth b = n.assumedInterNode().value();
                // a figure equal to the node's aggregate is right: no 8x comparison with one NIC then
                if (count > 1 && BandwidthCheck.matches(b.bytesPerSecond(), new Figure(per * count, ""))) figs.set(0, new Figure(per * count, "per node"));
                else if (count > 1) figs.add(new Figure(per * count, "per node"));
            }
            List<Figure> eightfoldFigures = figs.isEmpty() ? figs : List.of(figs.get(0));
            String id = "training_job:" + name + "/network/assumed_inter_node";
            int before = facts.size();
            bandwidth(j.file(), n.assumedInterNode(), null, id, "the job's assumed inter-node bandwidth", BandwidthFact.NETWORK,
                    "job-inter-node", eightfoldFigures, limit, expected, false, null, false, 0);
            if (nic != null) {
                // relate the finding to the NIC line it was compared with
                BandwidthFact f = (BandwidthFact) facts.remove(before);
                facts.add(rebuildWithRelated(f, nic.speed().span(), "NIC speed of node group '" + group.name().value() + "'", figs));
            }
        }
        if (n.assumedIntraNode() != null) {
            Catalog.Gpu gpu = group.gpu() == null || group.gpu().model() == null ? null
                    : catalog.gpu(group.gpu().model().value()).orElse(null);
            NvlinkExpectation x = nvlinkExpectation(gpu, null);
            bandwidth(j.file(), n.assumedIntraNode(), null, "training_job:" + name + "/network/assumed_intra_node",
                    "the job's assumed intra-node bandwidth", BandwidthFact.DEVICE, "job-intra-node", x.figures(), x.limit(),
                    x.expected(), false, null, false, x.bidirectional());
        }
    }

    /** The inter-node comparison: the 8× test uses one NIC, the rest of the verdict both figures. */
    private static BandwidthFact rebuildWithRelated(BandwidthFact f, Span related, String text, List<Figure> figs) {
        BandwidthFact.Builder b = BandwidthFact.builder().at(f.getFile(), f.getSpan(), f.getKeySpan(), f.getOrdinal(), f.getIdentity())
                .what(f.getSubject(), f.getBandwidthClass(), f.getKind())
                .value(f.isBits(), f.getWritten(), f.getOtherReading()).related(related, text);
        if (f.isEightfold()) b.eightfold(f.getEightfoldDirection(), f.getExpected());
        else if (f.isBeyond()) b.beyond(f.getLimitText());
        return b.fact();
    }

    private void env(Specs.Job j, Specs.Cluster cluster, ClusterFact cf, Specs.NodeGroup group, NodeGroupFact ng, long nodes) {
        if (j.env().isEmpty()) return;
        NcclVariables vars = NcclVariables.builtIn();
        boolean nvlink = ng != null && !ng.getDomainKind().equals("NONE") && !ng.getDomainKind().equals("UNKNOWN");
        boolean gdr = false;
        if (group != null) {
            String fabric = cluster.fabric() == null ? null : value(cluster.fabric().type());
            for (Specs.Nic n : group.nics()) {
                String proto = n.protocol() != null ? n.protocol().value() : fabric;
                if ("infiniband".equals(proto) || "roce".equals(proto) || Boolean.TRUE.equals(value(n.gpudirectRdma()))) gdr = true;
            }
        }
        int pfc = -1;
        String pfcText = null;
        Span pfcSpan = null;
        if (cf != null && cf.isRoce()) {
            if (cf.getPfcPriority() >= 0) {
                pfc = cf.getPfcPriority();
                pfcText = "fabric.roce.pfc.priority " + pfc + " of cluster '" + cf.getName() + "'";
                pfcSpan = cf.getPfcPrioritySpan();
            } else {
                pfc = 3;
                pfcText = "priority 3, NVIDIA's RoCE default (cluster '" + cf.getName() + "' states none)";
                pfcSpan = cf.getRoceSpan();
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
                    .of(j.name().value(), value(j.cluster()), nodes, j.file(), name, keySpanOf(e.getValue()), value, e.getValue().span())
                    .flags(on, loopback, gdrOff, p2pOff, vars.isDebugOnly(name))
                    .nccl(prefixed, vars.isKnown(name), prefixed ? vars.suggestion(name) : null)
                    .cluster(cf != null && cf.isRdma(), nvlink, gdr, pfc, pfcText, pfcSpan);
            if (name.equals("NCCL_IB_TC")) {
                Quantities.Parsed<Long> tc = Quantities.integer(value);
                if (tc.ok() && tc.value() >= 0 && tc.value() <= 255) {
                    long dscp = tc.value() >> 2;
                    f.trafficClass((int) (dscp >> 3), "traffic class " + tc.value() + " = DSCP " + dscp + ", priority " + (dscp >> 3));
                }
            }
            facts.add(f.fact());
        }
    }

    /** Env values keep their own span; the name's span is not bound separately, so the value's stands in. */
    private static Span keySpanOf(Located<String> v) { return v.span(); }

    private void bubbleEstimate(JobFact jf, Specs.Job j) {
        long pp = jf.getPp();
        if (pp <= 1) return;
        long m = 0;
        String source = null;
        Specs.Batch b = j.batch();
        if (b != null && b.microBatches() != null) {
            m = b.microBatches().value();
            source = "micro_batches";
        } else if (jf.getGlobalBatchSize() > 0 && jf.getMicroBatchSize() > 0 && jf.getDpEffective() > 0
                && jf.getGlobalBatchSize() % jf.getBatchQuantum() == 0) {
            m = jf.getGlobalBatchSize() / jf.getBatchQuantum();
            source = "global_batch_size " + jf.getGlobalBatchSize() + " ÷ (micro_batch_size " + jf.getMicroBatchSize()
                    + " × dp " + jf.getDpEffective() + ")";
        }
        if (m <= 0) return;
        long v = jf.getVirtualPp();
        double bubble = Estimates.bubble(pp, v, m);
        String formula = v > 1 ? "(pp−1)/(v·m+pp−1) = " + (pp - 1) + "/(" + v + "·" + m + "+" + (pp - 1) + ")"
                               : "(pp−1)/(m+pp−1) = " + (pp - 1) + "/(" + m + "+" + (pp - 1) + ")";
        String text = "pp=" + pp + " with " + m + " micro-batch" + (m == 1 ? "" : "es") + " per step (" + source + "): the pipeline bubble "
                + formula + " = " + Quantities.format(Math.round(bubble * 1000) / 10.0) + "% of each step, when GPUs wait for their stage's input";
        facts.add(new EstimateFact(jf.getName(), jf.getFile(), EstimateFact.BUBBLE, bubble, 1, text, jf.getPpSpan(), null, null)
                .withThresholds(thresholds.bubbleWarning(), thresholds.bubbleNote()));
    }

    private void memoryEstimate(JobFact jf, Specs.Job j, Specs.NodeGroup group, NodeGroupFact ng) {
        if (j.model() == null || j.model().parameters() == null) return;
        Catalog.Gpu gpu = ng.getCatalogName() == null ? null : catalog.gpu(ng.getCatalogName()).orElse(null);
        double capacity;
        Span capSpan;
        String capText;
        if (group.gpu().memory() != null && !ng.isMemoryMismatch()) {
            capacity = gpu != null ? gpu.memoryBytes() : group.gpu().memory().value().bytes();
            capSpan = group.gpu().memory().span();
            capText = "memory of the GPUs of node group '" + group.name().value() + "'";
        } else if (gpu != null) {
            capacity = gpu.memoryBytes();
            capSpan = ng.getGpuModelSpan();
            capText = gpu.name() + ": " + gib(gpu.memoryBytes()) + " of memory";
        } else {
            return;
        }
        double params = j.model().parameters().value();
        long zero = j.optimizer() == null ? 0 : value(j.optimizer().zeroStage(), 0L);
        boolean overridden = j.optimizer() != null && j.optimizer().bytesPerParameter() != null;
        double bpp = overridden ? j.optimizer().bytesPerParameter().value() : 16;
        long dp = jf.getDpEffective();
        if (zero > 0 && dp <= 0) return;
        Estimates.StateBytes sb = Estimates.StateBytes.of(bpp);
        double perGpu = Estimates.modelStatesPerGpu(params, sb, jf.getTp(), jf.getPp(), dp, zero);
        StringBuilder t = new StringBuilder();
        t.append("model states need ").append(gbDecimal(perGpu)).append(" per GPU: ").append(count(params))
         .append(" parameters × ").append(Quantities.format(bpp)).append(" bytes (")
         .append(Quantities.format(sb.weights())).append(" weights + ").append(Quantities.format(sb.gradients()))
         .append(" gradients + ").append(Quantities.format(sb.optimizer())).append(" optimizer states")
         .append(overridden ? ", from optimizer.bytes_per_parameter" : ", mixed-precision Adam per the ZeRO paper")
         .append(") ÷ (tp ").append(jf.getTp()).append(" × pp ").append(jf.getPp()).append(")");
        if (zero > 0) {
            t.append(", with ZeRO-").append(zero).append(" sharding the ")
             .append(zero == 1 ? "optimizer states" : zero == 2 ? "optimizer states and gradients" : "optimizer states, gradients and weights")
             .append(" over dp ").append(dp);
        }
        t.append("; the ").append(gpu != null ? gpu.name() : "GPU").append(" has ").append(gib(capacity))
         .append(", so that is ").append(Math.round(perGpu / capacity * 100))
         .append("% of its memory before activations, buffers and the CUDA context");
        facts.add(new EstimateFact(jf.getName(), jf.getFile(), EstimateFact.MEMORY, perGpu, capacity, t.toString(),
                j.model().parameters().span(), capSpan, capText).withThresholds(thresholds.memoryWarning(), 0));
    }

    private void allReduceEstimate(JobFact jf, Specs.Job j, Specs.NodeGroup group, NodeGroupFact ng, List<String> order, long gpn) {
        long n = jf.getDpEffective();
        if (n <= 1 || j.model() == null || j.model().parameters() == null || gpn <= 0) return;
        double params = j.model().parameters().value();
        String dtype = j.model().dtype() == null ? null : j.model().dtype().value().toLowerCase(Locale.ROOT);
        int bytesPerGrad = dtype != null && (dtype.equals("fp32") || dtype.equals("float32")) ? 4 : 2;
        String dtypeText = dtype == null ? "2-byte gradients (bf16 assumed: model.dtype is not given)" : dtype + " gradients";
        long zero = j.optimizer() == null ? 0 : value(j.optimizer().zeroStage(), 0L);
        double size = params / ((double) jf.getTp() * jf.getPp()) * bytesPerGrad;
        double volumeFactor = zero >= 3 ? 1.5 : 1;

        // where the first data-parallel group sits: ranks 0, s, 2s, ... with s the dp stride of the rank order
        long stride = 1;
        for (String dim : order) {
            if (dim.equals("dp")) break;
            stride = Placement.mulSat(stride, switch (dim) { case "tp" -> jf.getTp(); case "cp" -> jf.getCp(); case "pp" -> jf.getPp(); default -> 1; });
        }
        long domain = Math.max(1, ng.getDomainSize());
        boolean nvlinkDomain = ng.getDomainKind().equals("NODE") || ng.getDomainKind().equals("RACK");
        long last = Placement.mulSat(n - 1, stride);
        boolean crossesNodes = last >= gpn || last == Long.MAX_VALUE;
        boolean sameDomain = nvlinkDomain && Placement.domainOf(0, gpn, domain) == Placement.domainOf(last, gpn, domain);
        double bw;
        String link;
        Span related = null;
        String relatedText = null;
        Catalog.Gpu gpu = ng.getCatalogName() == null ? null : catalog.gpu(ng.getCatalogName()).orElse(null);
        if (sameDomain && gpu != null && gpu.hasNvlink()) {
            bw = catalog.nvlinkBidirectional(gpu) / 2;
            link = "NVLink" + gpu.nvlinkGeneration() + " (" + gbs(bw) + " per direction)";
        } else if (!crossesNodes) {
            if (gpu == null || catalog.pcie(gpu.pcieGeneration()).isEmpty()) return;
            bw = catalog.pcie(gpu.pcieGeneration()).get().perDirection();
            link = "PCIe Gen" + gpu.pcieGeneration() + " (" + gbs(bw) + " per direction)";
        } else {
            double nodeBw = 0;
            long nics = 0;
            String nicName = null;
            for (Specs.Nic x : group.nics()) {
                if (x.speed() == null) continue;
                long c = value(x.count(), 1L);
                nodeBw += x.speed().value().bytesPerSecond() * c;
                nics += c;
                if (nicName == null) {
                    nicName = x.speed().value().written() + (x.model() != null ? " " + x.model().value() : "");
                    related = x.speed().span();
                    relatedText = "NIC speed of node group '" + group.name().value() + "'";
                }
            }
            if (nodeBw <= 0) return;
            long membersPerNode = Math.max(1, Math.min(n, stride >= gpn ? 1 : gpn / stride));
            long ringsPerNode = Math.max(1, gpn / membersPerNode);
            bw = nodeBw / ringsPerNode;
            link = "the network (" + nics + " × " + nicName + " per node" + (ringsPerNode > 1 ? ", shared by "
                    + ringsPerNode + " data-parallel rings: " + gbs(bw) + " each" : ": " + gbs(bw)) + ")";
        }
        double seconds = Estimates.ringAllReduceSeconds(size, n, bw) * volumeFactor;
        double budget;
        String budgetText;
        if (j.stepTime() != null) {
            budget = j.stepTime().value();
            budgetText = "the step time of " + Quantities.format(budget) + " s";
        } else {
            budget = thresholds.allreduceSeconds();
            budgetText = Quantities.format(budget) + " s (no step_time given)";
        }
        String text = "each step all-reduces S = " + gbDecimal(size) + " of gradients per GPU (" + count(params)
                + " parameters ÷ (tp " + jf.getTp() + " × pp " + jf.getPp() + ") × " + bytesPerGrad + " bytes, " + dtypeText
                + ") over N = " + n + " data-parallel ranks; a ring all-reduce sends 2(N−1)/N × S = "
                + gbDecimal(2.0 * (n - 1) / n * size * volumeFactor) + (volumeFactor > 1 ? " (×1.5 for ZeRO-3)" : "")
                + " per GPU over " + link + ": about " + Quantities.format2(seconds) + " s, against " + budgetText;
        facts.add(new EstimateFact(jf.getName(), jf.getFile(), EstimateFact.ALLREDUCE, seconds, budget, text,
                jf.getDpSpan() != null ? jf.getDpSpan() : jf.getParallelismSpan() != null ? jf.getParallelismSpan() : j.model().parameters().span(),
                related, relatedText));
    }

    private static String gbDecimal(double bytes) { return Quantities.format2(bytes / 1e9) + " GB"; }

    /** 8e9 → "8B", 70e9 → "70B", 1.5e12 → "1.5T". */
    static String count(double v) {
        if (v >= 1e12) return Quantities.format(v / 1e12) + "T";
        if (v >= 1e9) return Quantities.format(v / 1e9) + "B";
        if (v >= 1e6) return Quantities.format(v / 1e6) + "M";
        return Quantities.format(v);
    }

    // ------------------------------------------------------------------ helpers

    private static <T> T value(Located<T> l) { return l == null ? null : l.value(); }

    private static <T> T value(Located<T> l, T dflt) { return l == null ? dflt : l.value(); }

    private static Span span(Located<?> l) { return l == null ? null : l.span(); }
}
