package dev.gpulint.plan.draw;

import dev.gpulint.derive.estimate.Layout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The placement as a Mermaid flowchart (renders in GitHub and GitLab markdown): a subgraph per node, a box per GPU
 * coloured by its tensor-parallel group, and node-to-node links (thick red over the network, slate over NVLink).
 * The title is the front matter's, a YAML double-quoted string. Identifiers are generated (N0, N0G3, S0), never taken from the manifest, so no name can be a reserved word
 * ("end", "graph", "style") or open an edge ("o", "x"); every label is quoted and escaped ({@link Escape#mermaid}).
 * Above {@link #MAX_DETAILED_GPUS} drawn GPUs the picture is a summary, one box per node with the groups it holds
 * ("dgx-3: r24–31 · tp C, D · pp 1 · dp 0–1"): a box per GPU of 64 GPUs is shrunk to unreadable text at the width
 * GitHub gives a job summary (~1,012 px); the text, DOT and SVG pictures keep every GPU.
 */
public final class MermaidPicture {
    private MermaidPicture() {}

    /** The most GPUs drawn one box each: two 8-GPU nodes, whose boxes stay readable at a job summary's width. */
    public static final int MAX_DETAILED_GPUS = 16;

    public static String draw(Scene s, Layout layout) {
        int gpus = 0;
        for (Scene.Node n : s.nodes()) gpus += n.cells().size();
        if (gpus > MAX_DETAILED_GPUS) return summary(s, layout);
        StringBuilder out = new StringBuilder("---\ntitle: \"").append(Escape.yaml(s.title())).append("\"\n---\nflowchart TB\n");
        Map<Integer, List<String>> byColour = new TreeMap<>();
        int edge = 0;
        List<String> crossing = new ArrayList<>();
        for (int i = 0; i < s.nodes().size(); i++) {
            Scene.Node n = s.nodes().get(i);
            out.append("  subgraph N").append(i).append("[\"").append(Escape.mermaid(n.name())).append("\"]\n    direction LR\n");
            for (int k = 0; k < n.cells().size(); k++) {
                Scene.Cell c = n.cells().get(k);
                String id = "N" + i + "G" + k;
                String mark = c.tpTier() == Scene.Tier.NETWORK ? " *" : c.tpTier() == Scene.Tier.NVLINK ? " ~" : "";
                out.append("    ").append(id).append("[\"").append(c.label(layout)).append(" · ").append(c.tag()).append(mark)
                        .append("\"]\n");
                byColour.computeIfAbsent(Palette.index(c.tpGroup()), x -> new ArrayList<>()).add(id);
                if (c.tpTier() == Scene.Tier.NETWORK) crossing.add(id);
            }
            // rows of four held together by invisible links: a subgraph linked to others keeps its direction only so
            for (int r = 0; r < n.cells().size(); r += TextPicture.COLUMNS) {
                int last = Math.min(n.cells().size(), r + TextPicture.COLUMNS) - 1;
                if (last == r) continue;
                out.append("    N").append(i).append('G').append(r);
                for (int k = r + 1; k <= last; k++) out.append(" ~~~ N").append(i).append('G').append(k);
                out.append('\n');
                edge += last - r;
            }
            out.append("  end\n");
        }
        links(s, out, edge, byColour, crossing);
        return out.toString();
    }

    /**
     * One box per node, labelled with what it holds: its ranks, its tensor-parallel groups (their tags, * when the group
     * crosses the network, ~ when it spans nodes over NVLink) and the coordinates of the other dimensions; coloured by
     * its tp group when it holds one. The links between nodes are the detailed picture's.
     */
    static String summary(Scene s, Layout layout) {
        StringBuilder out = new StringBuilder("---\ntitle: \"").append(Escape.yaml(s.title())).append("\"\n---\nflowchart TB\n");
        Map<Integer, List<String>> byColour = new TreeMap<>();
        List<String> crossing = new ArrayList<>();
        for (int i = 0; i < s.nodes().size(); i++) {
            Scene.Node n = s.nodes().get(i);
            java.util.Set<String> tags = new java.util.LinkedHashSet<>();
            java.util.Set<Integer> groups = new java.util.TreeSet<>();
            boolean network = false;
            for (Scene.Cell c : n.cells()) {
                tags.add(c.tag() + (c.tpTier() == Scene.Tier.NETWORK ? "*" : c.tpTier() == Scene.Tier.NVLINK ? "~" : ""));
                groups.add(c.tpGroup());
                network |= c.tpTier() == Scene.Tier.NETWORK;
            }
            List<Scene.Cell> cells = n.cells();
            StringBuilder label = new StringBuilder(Escape.mermaid(n.name())).append(": r").append(cells.get(0).rank());
            if (cells.size() > 1) label.append('–').append(cells.get(cells.size() - 1).rank());
            label.append(" · tp ").append(String.join(", ", tags));
            label.append(" · pp ").append(values(cells, Scene.Cell::pp)).append(" · dp ").append(values(cells, Scene.Cell::dp));
            if (layout.cp() > 1) label.append(" · cp ").append(values(cells, Scene.Cell::cp));
            if (layout.ep() > 1) label.append(" · ep ").append(values(cells, Scene.Cell::ep));
            out.append("  N").append(i).append("[\"").append(label).append("\"]\n");
            if (groups.size() == 1) byColour.computeIfAbsent(Palette.index(groups.iterator().next()), x -> new ArrayList<>()).add("N" + i);
            if (network) crossing.add("N" + i);
        }
        links(s, out, 0, byColour, crossing);
        return out.toString();
    }

    /** The distinct coordinates of the cells, ascending, runs written "0–3": "0", "0–1", "0, 2". */
    private static String values(List<Scene.Cell> cells, java.util.function.ToLongFunction<Scene.Cell> f) {
        java.util.TreeSet<Long> v = new java.util.TreeSet<>();
        for (Scene.Cell c : cells) v.add(f.applyAsLong(c));
        StringBuilder b = new StringBuilder();
        Long start = null, prev = null;
        for (long x : v) {
            if (start == null) { start = prev = x; continue; }
            if (x == prev + 1) { prev = x; continue; }
            b.append(b.length() == 0 ? "" : ", ").append(start).append(prev.equals(start) ? "" : "–" + prev);
            start = prev = x;
        }
        if (start != null) b.append(b.length() == 0 ? "" : ", ").append(start).append(prev.equals(start) ? "" : "–" + prev);
        return b.toString();
    }

    /** What is not drawn, the links between nodes (edge numbers from {@code edge}), the tp colours and the link styles. */
    private static void links(Scene s, StringBuilder out, int edge, Map<Integer, List<String>> byColour, List<String> crossing) {
        if (!s.notDrawn().isEmpty()) {
            out.append("  S0[\"").append(Escape.mermaid(String.join("; ", s.notDrawn()))).append("\"]\n");
        }
        List<Integer> network = new ArrayList<>();
        List<Integer> nvlink = new ArrayList<>();
        for (Scene.Link l : s.links()) {
            String to = l.to() < 0 ? "S0" : "N" + l.to();
            out.append("  N").append(l.from()).append(l.tier() == Scene.Tier.NETWORK ? " ==>|\"" : " -->|\"")
                    .append(Escape.mermaid(l.text())).append("\"| ").append(to).append('\n');
            (l.tier() == Scene.Tier.NETWORK ? network : nvlink).add(edge++);
        }
        for (Map.Entry<Integer, List<String>> e : byColour.entrySet()) {
            int c = e.getKey();
            out.append("  classDef tp").append(c).append(" fill:").append(Palette.fill(c)).append(",stroke:").append(Palette.stroke(c))
                    .append(",color:#000\n");
            out.append("  class ").append(String.join(",", e.getValue())).append(" tp").append(c).append('\n');
        }
        if (!crossing.isEmpty()) {
            out.append("  classDef crosses stroke:").append(Palette.NETWORK).append(",stroke-width:3px,stroke-dasharray:4 2\n");
            out.append("  class ").append(String.join(",", crossing)).append(" crosses\n");
        }
        if (!network.isEmpty()) out.append("  linkStyle ").append(join(network)).append(" stroke:").append(Palette.NETWORK).append(",stroke-width:3px\n");
        if (!nvlink.isEmpty()) out.append("  linkStyle ").append(join(nvlink)).append(" stroke:").append(Palette.NVLINK).append(",stroke-width:2px\n");
    }

    private static String join(List<Integer> xs) {
        StringBuilder b = new StringBuilder();
        for (int x : xs) b.append(b.length() == 0 ? "" : ",").append(x);
        return b.toString();
    }
}
