package dev.gpulint.plan.draw;

import dev.gpulint.derive.estimate.Layout;
import java.util.List;

/**
 * The placement in Graphviz DOT: a cluster per node, a box per GPU filled by its tensor-parallel group (four a row),
 * node-to-node links between the clusters (compound edges: red and dashed over the network, slate over NVLink).
 * Identifiers are generated; every label is a quoted, escaped string ({@link Escape#dot}).
 */
public final class DotPicture {
    private DotPicture() {}

    public static String draw(Scene s, Layout layout) {
        StringBuilder out = new StringBuilder("digraph placement {\n");
        out.append("  graph [compound=true, rankdir=TB, nodesep=0.15, ranksep=0.5, fontname=\"Helvetica\", labelloc=t, label=\"")
                .append(Escape.dot(s.title())).append("\"];\n");
        out.append("  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\", fontsize=10, penwidth=1.2];\n");
        out.append("  edge [fontname=\"Helvetica\", fontsize=10];\n");
        int cols = TextPicture.COLUMNS;
        for (int i = 0; i < s.nodes().size(); i++) {
            Scene.Node n = s.nodes().get(i);
            out.append("  subgraph cluster_n").append(i).append(" {\n");
            out.append("    label=\"").append(Escape.dot(n.name())).append("\"; style=\"rounded\"; color=\"#444444\";\n");
            List<Scene.Cell> cells = n.cells();
            for (int k = 0; k < cells.size(); k++) {
                Scene.Cell c = cells.get(k);
                boolean crosses = c.tpTier() == Scene.Tier.NETWORK;
                out.append("    n").append(i).append('g').append(k).append(" [label=\"").append(c.label(layout)).append("\\n")
                        .append("tp group ").append(c.tag()).append(crosses ? " *" : c.tpTier() == Scene.Tier.NVLINK ? " ~" : "")
                        .append("\", fillcolor=\"").append(Palette.fill(c.tpGroup())).append("\", color=\"")
                        .append(crosses ? Palette.NETWORK : Palette.stroke(c.tpGroup())).append('"')
                        .append(crosses ? ", penwidth=2.5, style=\"rounded,filled,dashed\"" : "").append("];\n");
            }
            for (int r = 0; r < cells.size(); r += cols) {
                out.append("    { rank=same;");
                for (int k = r; k < Math.min(cells.size(), r + cols); k++) out.append(" n").append(i).append('g').append(k).append(';');
                out.append(" }\n");
                if (Math.min(cells.size(), r + cols) - r > 1) {    // left to right in rank order
                    out.append("    n").append(i).append('g').append(r);
                    for (int k = r + 1; k < Math.min(cells.size(), r + cols); k++) out.append(" -> n").append(i).append('g').append(k);
                    out.append(" [style=invis];\n");
                }
                if (r + cols < cells.size()) {
                    out.append("    n").append(i).append('g').append(r).append(" -> n").append(i).append('g').append(r + cols)
                            .append(" [style=invis];\n");
                }
            }
            out.append("  }\n");
        }
        if (!s.notDrawn().isEmpty()) {
            out.append("  s0 [shape=note, style=filled, fillcolor=\"#f5f5f5\", label=\"")
                    .append(String.join("\\n", s.notDrawn().stream().map(Escape::dot).toList())).append("\"];\n");
        }
        for (int i = 0; i + 1 < s.nodes().size(); i++) {     // nodes one under another: last row's first GPU to the next node's first
            int lastRow = (s.nodes().get(i).cells().size() - 1) / cols * cols;
            out.append("  n").append(i).append('g').append(lastRow).append(" -> n").append(i + 1).append("g0 [style=invis];\n");
        }
        for (Scene.Link l : s.links()) {
            boolean net = l.tier() == Scene.Tier.NETWORK;
            out.append("  n").append(l.from()).append("g0 -> ").append(l.to() < 0 ? "s0" : "n" + l.to() + "g0")
                    .append(" [ltail=cluster_n").append(l.from()).append(l.to() < 0 ? "" : ", lhead=cluster_n" + l.to())
                    .append(", constraint=false, label=\"").append(Escape.dot(l.text())).append("\", color=\"")
                    .append(net ? Palette.NETWORK : Palette.NVLINK).append("\", fontcolor=\"").append(net ? Palette.NETWORK : Palette.NVLINK)
                    .append(net ? "\", style=dashed, penwidth=2];\n" : "\", penwidth=1.5];\n");
        }
        return out.append("}\n").toString();
    }
}
