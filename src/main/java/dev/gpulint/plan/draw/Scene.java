package dev.gpulint.plan.draw;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.derive.estimate.Layout;
import dev.gpulint.derive.par.Placement;
import dev.gpulint.derive.par.RankGrid;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a picture of a layout shows, whatever its format: the nodes drawn (each GPU with its rank, coordinates and
 * tensor-parallel group), the links between nodes (a tp group spanning nodes, pp and dp neighbours on other nodes;
 * cp and ep too), and the words for what is not drawn. Names are cut to {@link Escape#MAX_NAME} characters. Bounded: at most {@link #MAX_NODES} nodes and
 * {@link #MAX_GPUS} GPUs are drawn and at most {@link #MAX_LINKS} links listed, however large the job. Names from the
 * manifest are kept raw here: each format escapes them.
 *
 * <p>Ranks sit on nodes and NVLink domains as the PAR rules place them ({@link Placement}), and coordinates come from
 * the rank order ({@link RankGrid}).
 */
public record Scene(String title, String group, List<Node> nodes, List<Link> links, List<String> notDrawn, int linksLeftOut) {

    public static final int MAX_NODES = 16;
    public static final int MAX_GPUS = 128;
    public static final int MAX_LINKS = 64;

    /** How a group or a link travels: inside one node, over NVLink between nodes of one NVLink domain, or over the network. */
    public enum Tier {
        NODE, NVLINK, NETWORK;

        public String id() { return name().toLowerCase(java.util.Locale.ROOT); }
    }

    /** A node drawn: its index in the node group, its name ("dgx-3"), its GPUs in rank order. */
    public record Node(long index, String name, List<Cell> cells) {}

    /**
     * A GPU: its rank, its coordinates, its tensor-parallel group ({@code tpGroup}: 0, 1, ... in order of first
     * appearance in the picture; {@code tag}: "A", "B", ...) and how that group travels.
     */
    public record Cell(long rank, long tp, long cp, long ep, long dp, long pp, int tpGroup, String tag, Tier tpTier) {
        /** "r12 tp4 pp1 dp0", with cp and ep when they are above 1. */
        public String label(Layout l) {
            StringBuilder b = new StringBuilder("r").append(rank).append(" tp").append(tp).append(" pp").append(pp).append(" dp").append(dp);
            if (l.cp() > 1) b.append(" cp").append(cp);
            if (l.ep() > 1) b.append(" ep").append(ep);
            return b.toString();
        }
    }

    /**
     * Neighbours of one dimension on two nodes: {@code from} and {@code to} index {@link #nodes()}; {@code to} is −1
     * for a node not drawn. {@code label}: "pp 0→1", "dp", "tp group A"; {@code count}: how many rank pairs.
     */
    public record Link(ParallelDim kind, String label, int from, int to, int count, Tier tier) {
        /** "pp 0→1 ×8 (network)". */
        public String text() {
            return label + (count > 1 ? " ×" + count : "") + " (" + (tier == Tier.NETWORK ? "network" : "NVLink") + ")";
        }
    }

    /** The node group a layout runs on: its name as the manifest writes it, GPUs per node, NVLink domain size, GPU model. */
    public record Nodes(String name, int gpusPerNode, long domainSize, String gpu) {
        public Nodes {
            if (gpusPerNode < 1) throw new IllegalArgumentException("a node has at least one GPU");
            name = name == null ? "node" : Escape.bounded(name);
            gpu = gpu == null ? null : Escape.bounded(gpu);
            domainSize = domainSize < 1 ? gpusPerNode : domainSize;
        }
    }

    /**
     * The layout's placement on the node group, under the rank order (fastest first); {@code etp}, the experts'
     * tensor-parallel size (0: tp), places the ep groups on the expert grid ({@link RankGrid}).
     */
    public static Scene of(Layout layout, List<ParallelDim> order, Nodes group, long etp) {
        RankGrid grid = new RankGrid(order, layout.tp(), layout.cp(), layout.ep(), layout.dp(), layout.pp(), etp);
        long world = layout.gpus();
        int gpn = group.gpusPerNode();
        long nodeCount = (world + gpn - 1) / gpn;
        int cap = (int) Math.max(1, Math.min(MAX_NODES, MAX_GPUS / gpn));
        List<String> notDrawn = new ArrayList<>();
        int drawn = drawnNodes(grid, world, nodeCount, gpn, cap, group.name(), notDrawn);
        Builder b = new Builder(layout, grid, group, world, drawn);
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < drawn; i++) nodes.add(b.node(i));
        return new Scene(title(layout, grid, group, world, nodeCount), group.name(), List.copyOf(nodes), b.links(),
                List.copyOf(notDrawn), b.linksLeftOut);
    }

    /**
     * Nodes drawn from node 0: all of them when few; else the first pipeline stage's (when pp is the slowest dimension
     * and a stage fills whole nodes), at most {@code cap}; what is left out is said in words.
     */
    private static int drawnNodes(RankGrid grid, long world, long nodeCount, int gpn, int cap, String group, List<String> words) {
        if (nodeCount <= cap) return (int) nodeCount;
        long pp = grid.size(ParallelDim.PP);
        long perStage = world / pp;
        boolean stages = pp > 1 && grid.order().get(grid.order().size() - 1) == ParallelDim.PP && perStage % gpn == 0;
        long stageNodes = stages ? perStage / gpn : nodeCount;
        int drawn = (int) Math.min(stageNodes, cap);
        if (drawn < stageNodes) {
            words.add(range("nodes", group, drawn, stageNodes - 1) + " (" + (stageNodes - drawn) + " nodes, ranks "
                    + (long) drawn * gpn + "–" + (stages ? perStage - 1 : world - 1) + "): "
                    + (stages ? "the rest of pp stage 1 of " + pp + ", same pattern" : "the same rank order, not drawn"));
        }
        if (stages) {
            // stages counted from 1, as the plan's memory table and check's messages name them (the ranks' pp0... are coordinates)
            words.add((pp == 2 ? "pp stage 2 of 2: " : "pp stages 2–" + pp + " of " + pp + ": ") + (pp - 1) + " × " + stageNodes
                    + (stageNodes == 1 ? " node" : " nodes") + ", same pattern (ranks " + perStage + "–" + (world - 1) + ")");
        }
        return drawn;
    }

    private static String range(String what, String group, long from, long to) {
        return from == to ? what.substring(0, what.length() - 1) + " " + Placement.nodeName(group, from)
                : what + " " + Placement.nodeName(group, from) + "–" + Placement.nodeName(group, to);
    }

    private static String title(Layout l, RankGrid grid, Nodes g, long world, long nodeCount) {
        return l.sizes() + ": " + world + (world == 1 ? " GPU" : " GPUs") + " on " + nodeCount + (nodeCount == 1 ? " node" : " nodes")
                + " of node group '" + g.name() + "' (" + g.gpusPerNode() + (g.gpu() == null ? " GPUs" : " × " + g.gpu())
                + " each, NVLink domain " + g.domainSize() + "), rank order " + ParallelDim.orderText(grid.order());
    }

    /** Builds the drawn nodes and collects their links. */
    private static final class Builder {
        private static final List<ParallelDim> LINKED = ParallelDim.DEFAULT_ORDER;
        private final Layout layout;
        private final RankGrid grid;
        private final Nodes group;
        private final long world;
        private final int drawn;
        private final Map<Long, Integer> tpGroups = new LinkedHashMap<>();
        private final Map<Long, Tier> tpTiers = new java.util.HashMap<>();
        private final Map<List<Object>, int[]> links = new LinkedHashMap<>();
        private final Map<List<Object>, Tier> linkTiers = new java.util.HashMap<>();
        int linksLeftOut;

        Builder(Layout layout, RankGrid grid, Nodes group, long world, int drawn) {
            this.layout = layout; this.grid = grid; this.group = group; this.world = world; this.drawn = drawn;
        }

        Node node(int index) {
            int gpn = group.gpusPerNode();
            List<Cell> cells = new ArrayList<>();
            long first = (long) index * gpn;
            for (long r = first; r < Math.min(world, first + gpn); r++) {
                long leader = grid.first(r, ParallelDim.TP);
                int g = tpGroups.computeIfAbsent(leader, k -> tpGroups.size());
                Tier tier = tpTiers.computeIfAbsent(leader, this::tpTier);
                cells.add(new Cell(r, grid.coordinate(r, ParallelDim.TP), grid.coordinate(r, ParallelDim.CP), grid.coordinate(r, ParallelDim.EP),
                        grid.coordinate(r, ParallelDim.DP), grid.coordinate(r, ParallelDim.PP), g, tag(g), tier));
                for (ParallelDim kind : LINKED) link(r, kind, tag(g));
            }
            return new Node(index, Placement.nodeName(group.name(), index), List.copyOf(cells));
        }

        /** How the tp group led by {@code leader} travels: its members' nodes and NVLink domains. */
        private Tier tpTier(long leader) {
            Tier t = Tier.NODE;
            long node = leader / group.gpusPerNode(), domain = domain(leader);
            for (long m = leader; m >= 0 && m < world; m = grid.next(m, ParallelDim.TP)) {
                if (domain(m) != domain) return Tier.NETWORK;
                if (m / group.gpusPerNode() != node) t = Tier.NVLINK;
            }
            return t;
        }

        private long domain(long rank) { return Placement.domainOf(rank, group.gpusPerNode(), group.domainSize()); }

        private void link(long r, ParallelDim kind, String tag) {
            if (grid.size(kind) < 2 || (kind == ParallelDim.EP && layout.ep() < 2)) return;
            long n = grid.next(r, kind);
            if (n < 0 || n >= world) return;
            long a = r / group.gpusPerNode(), b = n / group.gpusPerNode();
            if (a == b) return;
            String label = switch (kind) {
                case PP -> "pp " + grid.coordinate(r, ParallelDim.PP) + "→" + (grid.coordinate(r, ParallelDim.PP) + 1);
                case TP -> "tp group " + tag;
                default -> kind.label();
            };
            int to = b < drawn ? (int) b : -1;
            List<Object> key = List.of(kind, label, (int) a, to);
            int[] count = links.get(key);
            if (count == null) {
                if (links.size() >= MAX_LINKS) { linksLeftOut++; return; }
                links.put(key, count = new int[1]);
                linkTiers.put(key, domain(r) != domain(n) ? Tier.NETWORK : Tier.NVLINK);
            } else if (domain(r) != domain(n)) {
                linkTiers.put(key, Tier.NETWORK);
            }
            count[0]++;
        }

        List<Link> links() {
            List<Link> out = new ArrayList<>();
            for (Map.Entry<List<Object>, int[]> e : links.entrySet()) {
                List<Object> k = e.getKey();
                out.add(new Link((ParallelDim) k.get(0), (String) k.get(1), (Integer) k.get(2), (Integer) k.get(3), e.getValue()[0],
                        linkTiers.get(k)));
            }
            return List.copyOf(out);
        }
    }

    /** "A", "B", ..., "Z", "AA", "AB", ...: a tensor-parallel group's tag. */
    static String tag(int g) {
        StringBuilder b = new StringBuilder();
        int n = g;
        do { b.insert(0, (char) ('A' + n % 26)); n = n / 26 - 1; } while (n >= 0);
        return b.toString();
    }

    /** Tensor-parallel groups drawn. */
    public int tpGroups() {
        int max = -1;
        for (Node n : nodes) for (Cell c : n.cells()) max = Math.max(max, c.tpGroup());
        return max + 1;
    }
}
