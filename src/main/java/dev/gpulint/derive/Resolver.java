package dev.gpulint.derive;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.catalog.Catalog;
import dev.gpulint.core.Span;
import dev.gpulint.derive.par.Placement;
import dev.gpulint.spec.DomainKind;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Protocol;
import dev.gpulint.spec.Specs;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Resolves bound specs once: each node group against the catalog (its GPU, its NVLink domain),
 * each cluster's fabric to a {@link Protocol}, each job against its cluster and node group (GPU
 * counts, parallel sizes, dp as the frameworks derive it). The analyses read these records only.
 */
public final class Resolver {

    private final Catalog catalog;
    private final Map<String, Resolved.Cluster> byName = new LinkedHashMap<>();

    public Resolver(Catalog catalog) { this.catalog = catalog; }

    public Catalog catalog() { return catalog; }

    /** The named clusters, in input order; jobs later resolve against the first of each name. */
    public List<Resolved.Cluster> clusters(List<Specs.Cluster> clusters) {
        List<Resolved.Cluster> out = new ArrayList<>();
        for (Specs.Cluster c : clusters) {
            if (c.name() == null) continue;
            boolean first = !byName.containsKey(c.name().value());
            Resolved.Cluster rc = cluster(c, first);
            if (first) byName.put(rc.name(), rc);
            out.add(rc);
        }
        return out;
    }

    /** The protocol of a NIC: its own, else the fabric's. */
    public static Protocol protocol(Specs.Nic n, Protocol fabric) {
        Protocol p = n.protocol() == null ? null : Protocol.of(n.protocol().value());
        return p != null ? p : fabric;
    }

    private Resolved.Cluster cluster(Specs.Cluster c, boolean first) {
        String name = c.name().value();
        Specs.Fabric f = c.fabric();
        Protocol fabric = f == null || f.type() == null ? null : Protocol.of(f.type().value());
        boolean roce = fabric == Protocol.ROCE;
        Span roceSpan = roce ? f.type().span() : null;
        String roceSource = roce ? (c.origin() != null ? c.origin() : "fabric type roce") : null;
        boolean rdma = fabric != null && fabric.rdma();
        for (Specs.NodeGroup g : c.nodeGroups()) {
            for (Specs.Nic n : g.nics()) {
                Protocol p = n.protocol() == null ? null : Protocol.of(n.protocol().value());
                if (p != null && p.rdma()) rdma = true;
                if (p == Protocol.ROCE && !roce) {
                    roce = true;
                    roceSpan = n.protocol().span();
                    roceSource = "NIC " + (n.model() != null ? n.model().value() + " " : "") + "protocol roce";
                }
            }
        }
        int pfc = f == null || f.pfcPriority() == null ? -1 : (int) (long) f.pfcPriority().value();
        List<Resolved.Group> groups = new ArrayList<>();
        for (Specs.NodeGroup g : c.nodeGroups()) if (g.name() != null) groups.add(group(c, g));
        return new Resolved.Cluster(c, name, c.file(), fabric, first, roce, roceSpan, roceSource, rdma, pfc,
                f == null || f.pfcPriority() == null ? null : f.pfcPriority().span(), List.copyOf(groups));
    }

    private Resolved.Group group(Specs.Cluster c, Specs.NodeGroup g) {
        String cluster = c.name().value();
        String modelName = g.gpu() == null || g.gpu().model() == null ? null : g.gpu().model().value();
        Catalog.Gpu gpu = modelName == null ? null : catalog.gpu(modelName).orElse(null);
        long gpn = g.gpu() == null || g.gpu().count() == null ? 0 : g.gpu().count().value();
        Specs.Nvlink nv = g.nvlink();
        boolean nvswitch = nv != null && nv.nvswitch() != null && Boolean.TRUE.equals(nv.nvswitch().value());
        String bridge = nv == null || nv.bridge() == null ? null : nv.bridge().value();
        long declared = nv == null || nv.domainSize() == null ? 0 : nv.domainSize().value();
        boolean nvlinkDeclared = nv != null && (nvswitch || nv.bandwidth() != null || declared > 1
                || (bridge != null && !bridge.equals("none")));
        long size;
        DomainKind kind;
        boolean bridgedCard = gpu != null && gpu.bridged();
        if (declared > 0) {
            size = declared;
            kind = declared > gpn && gpn > 0 ? DomainKind.RACK : declared < gpn || bridgedCard ? DomainKind.BRIDGE : DomainKind.NODE;
        } else if (gpu != null) {
            int join = bridge == null ? 0 : switch (bridge) { case "pairs" -> 2; case "quads" -> 4; default -> 0; };
            if (gpu.rackDomain() > 0) { size = gpu.rackDomain(); kind = DomainKind.RACK; }
            else if (bridgedCard) { size = join > 0 ? join : 1; kind = join > 0 ? DomainKind.BRIDGE : DomainKind.NONE; }
            else if (gpu.hasNvlink()) { size = gpn; kind = DomainKind.NODE; }
            else if (gpu.infinityFabric()) {
                size = gpn > 0 && gpu.scaleUpDomain() > 0 ? Math.min(gpn, gpu.scaleUpDomain()) : gpn;
                kind = DomainKind.INFINITY_FABRIC;
            }
            else { size = 1; kind = DomainKind.NONE; }
        } else if (nvswitch || nvlinkDeclared) {
            size = gpn; kind = DomainKind.NODE;
        } else {
            size = 0; kind = DomainKind.UNKNOWN;
        }
        Span domainSpan = declared > 0 ? nv.domainSize().span() : g.gpu() != null && g.gpu().count() != null ? g.gpu().count().span() : null;
        boolean memoryDeclared = g.gpu() != null && g.gpu().memory() != null;
        double memory = memoryDeclared ? g.gpu().memory().value().bytes() : 0;
        double nearest = 0;
        if (memoryDeclared && gpu != null) {
            List<Double> variants = new ArrayList<>();
            variants.add(gpu.memoryBytes());
            variants.addAll(gpu.alternateMemoryBytes());
            nearest = nearestMemoryReading(memory, variants);
        }
        return new Resolved.Group(c, g, cluster, g.name().value(), "cluster:" + cluster + "/node_groups[" + g.name().value() + "]",
                gpu, gpn, nvlinkDeclared, nvswitch, bridge, declared, size, kind, domainSpan, memoryDeclared, memory, nearest);
    }

    /**
     * Of the memory variants (bytes), each read as is or with its GiB figure written as GB (80 GiB read
     * as 80e9 bytes), the reading nearest to the declared bytes by relative distance |declared / r - 1|:
     * the declared memory is within x% of some reading exactly when it is within x% of this one.
     * 0 when there are no variants.
     */
    public static double nearestMemoryReading(double declared, List<Double> variants) {
        double best = 0;
        double distance = Double.POSITIVE_INFINITY;
        for (double v : variants) {
            double gib = v / (1L << 30);
            for (double reading : new double[] {v, gib * 1e9}) {
                double d = Math.abs(declared / reading - 1);
                if (d < distance) { distance = d; best = reading; }
            }
        }
        return best;
    }

    /** Each cluster's node groups by name, the first of a name kept: a lookup per job, not a scan of a fleet's groups. */
    private final Map<Resolved.Cluster, Map<String, Named>> groupsByName = new java.util.IdentityHashMap<>();

    /** A node group by its name: {@code member} of a folded one (made a node group of its own when asked for), or -1. */
    private record Named(Resolved.Group group, int member) {}

    private static Map<String, Named> groupIndex(Resolved.Cluster c) {
        Map<String, Named> index = new java.util.HashMap<>();
        boolean folded = false;
        for (Resolved.Group g : c.groups()) {
            if (g.spec().fold() == null) index.putIfAbsent(g.name(), new Named(g, -1)); else folded = true;
        }
        if (!folded) return index;
        // folded node groups by their members' names; the first of a name in source order wins
        Map<String, Span> where = new java.util.HashMap<>();
        for (Map.Entry<String, Named> e : index.entrySet()) where.put(e.getKey(), e.getValue().group().spec().span());
        for (Resolved.Group g : c.groups()) {
            dev.gpulint.core.Fold fold = g.spec().fold();
            if (fold == null) continue;
            for (int i = 0; i < fold.size(); i++) {
                String name = fold.name(i);
                Span at = fold.span(g.spec().span(), i);
                Span before = where.get(name);
                if (before != null && (at == null || before.compareTo(at) <= 0)) continue;
                where.put(name, at);
                index.put(name, new Named(g, i));
            }
        }
        return index;
    }

    /** The first node group of this name in the cluster (a member of a folded one made a node group of its own), or null. */
    public Resolved.Group group(Resolved.Cluster c, String name) {
        Named n = groupsByName.computeIfAbsent(c, Resolver::groupIndex).get(name);
        // a job names few node groups: a member is made a node group of its own only when asked for
        return n == null ? null : n.member() < 0 ? n.group() : group(c.spec(), n.group().spec().member(n.member()));
    }

    /** A job against the first cluster of the name it references. */
    public Resolved.Job job(Specs.Job j) {
        String name = j.name().value();
        Resolved.Cluster cluster = j.cluster() == null ? null : byName.get(j.cluster().value());
        Resolved.Group group = null;
        if (cluster != null) {
            if (j.nodeGroup() != null) {
                group = group(cluster, j.nodeGroup().value());
            } else if (cluster.spec().groupCount() == 1 && !cluster.groups().isEmpty()) {
                group = cluster.groups().get(0);
            }
        }
        long nodes = j.nodes() == null ? 0 : j.nodes().value();
        long gpn;
        Span gpnSpan;
        String gpnSource;
        if (j.gpusPerNode() != null) {
            gpn = j.gpusPerNode().value();
            gpnSpan = j.gpusPerNode().span();
            gpnSource = j.origin() != null && j.origin().gpusPerNodeWhere() != null
                    ? j.origin().gpusPerNodeWhere() + " of " + j.origin().format() + " file " + j.file()
                    : "gpus_per_node of job '" + name + "'";
        } else if (group != null && group.spec().gpu() != null && group.spec().gpu().count() != null) {
            gpn = group.gpusPerNode();
            gpnSpan = group.spec().gpu().count().span();
            gpnSource = gpn + " GPUs per node in node group '" + group.name() + "' of cluster '" + cluster.name() + "'";
        } else {
            gpn = 0; gpnSpan = null; gpnSource = null;
        }
        long total = nodes > 0 && gpn > 0 ? Placement.mulSat(nodes, gpn) : 0;
        Specs.Parallelism p = j.parallelism();
        long tp = size(p, ParallelDim.TP, 1L);
        long pp = size(p, ParallelDim.PP, 1L);
        long cp = size(p, ParallelDim.CP, 1L);
        long ep = size(p, ParallelDim.EP, 1L);
        long dp = size(p, ParallelDim.DP, 0L);
        long vpp = size(p, ParallelDim.VPP, 1L);
        if (p != null && p.virtualPp() == null && p.layersPerVirtualStage() != null && vpp == 1) {
            vpp = virtualFromLayers(splitLayers(j), pp, p.layersPerVirtualStage().value());
        }
        boolean stated = p != null && (p.tp() != null || p.pp() != null || p.cp() != null || p.dp() != null);
        long model = Placement.mulSat(Placement.mulSat(tp, pp), cp);
        // dp as the frameworks derive it needs every model-parallel size; an unknown dp stays unknown
        long dpEff = dp > 0 ? dp : p != null && p.isUnknown(ParallelDim.DP) || model <= 0 ? 0
                : total > 0 && total % model == 0 ? total / model : 0;
        Specs.Optimizer o = j.optimizer();
        long zero = o == null ? 0 : o.zeroStageUnknown() ? -1 : o.zeroStage() == null ? 0 : o.zeroStage().value();
        List<ParallelDim> order = p != null && p.order() != null ? p.order().value() : ParallelDim.DEFAULT_ORDER;
        return new Resolved.Job(j, name, cluster, group, nodes, gpn, gpnSpan, gpnSource, total, tp, pp, cp, ep, dp, dpEff,
                stated, order, vpp, zero);
    }

    /**
     * Layers as Megatron splits them over the pipeline: the model's layers, plus one each for the
     * embedding and the loss when --account-for-embedding/loss-in-pipeline-split count them; 0 when unknown.
     */
    public static long splitLayers(Specs.Job j) {
        if (j.model() == null || j.model().layers() == null) return 0;
        Specs.Parallelism p = j.parallelism();
        long extra = p == null ? 0 : (p.embeddingInSplit() != null ? 1 : 0) + (p.lossInSplit() != null ? 1 : 0);
        return j.model().layers().value() + extra;
    }

    /** vpp as Megatron derives it from --num-layers-per-virtual-pipeline-stage: layers ÷ pp ÷ that; 1 when it does not divide. */
    private static long virtualFromLayers(long layers, long pp, long perStage) {
        if (layers <= 0 || pp <= 0 || perStage <= 0 || layers % pp != 0 || (layers / pp) % perStage != 0) return 1;
        return layers / pp / perStage;
    }

    /** A parallel size: as written; the default when it is not written; 0 when written but unknown (a placeholder). */
    private static long size(Specs.Parallelism p, ParallelDim d, long dflt) {
        Located<Long> l = p == null ? null : p.size(d);
        if (l != null) return l.value();
        return p != null && p.isUnknown(d) ? 0 : dflt;
    }

    private static <T> T value(Located<T> l, T dflt) { return l == null ? dflt : l.value(); }
}
