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
 */
public final class MermaidPicture {
    private MermaidPicture() {}

    public static String draw(Scene s, Layout layout) {
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
        return out.toString();
    }

    private static String join(List<Integer> xs) {
        StringBuilder b = new StringBuilder();
        for (int x : xs) b.append(b.length() == 0 ? "" : ",").append(x);
        return b.toString();
    }
}
