package dev.gpulint.plan.draw;

import dev.gpulint.derive.estimate.Layout;
import java.util.ArrayList;
import java.util.List;

/**
 * The placement as plain text to print under a table: each node a box drawn with UTF-8 box characters, four GPUs a
 * row, each GPU "A  r0 tp0 pp0 dp0" (A: its tensor-parallel group; A* when the group crosses the network, A~ when it
 * spans nodes over NVLink), then the links between nodes and what is not drawn. Deterministic: same scene, same text.
 */
public final class TextPicture {
    private TextPicture() {}

    static final int COLUMNS = 4;

    public static String draw(Scene s, Layout layout) {
        StringBuilder out = new StringBuilder();
        out.append(Escape.text(s.title())).append('\n');
        int width = 0;
        for (Scene.Node n : s.nodes()) for (Scene.Cell c : n.cells()) width = Math.max(width, cell(c, layout).length());
        for (Scene.Node n : s.nodes()) box(out, n, layout, width);
        out.append("Letters: tensor-parallel groups; * after one: the group crosses the network");
        if (anyNvlinkSpan(s)) out.append("; ~: it spans nodes over NVLink");
        out.append('\n');
        if (!s.links().isEmpty()) {
            out.append("Links between nodes:\n");
            List<String[]> rows = new ArrayList<>();
            int w = 0;
            for (Scene.Link l : s.links()) {
                String ends = name(s, l.from()) + " → " + (l.to() < 0 ? "(not drawn)" : name(s, l.to()));
                w = Math.max(w, length(ends));
                rows.add(new String[] {ends, l.text()});
            }
            for (String[] r : rows) out.append("  ").append(pad(r[0], w)).append("  ").append(r[1]).append('\n');
            if (s.linksLeftOut() > 0) out.append("  … and ").append(s.linksLeftOut()).append(" more rank pairs between other nodes\n");
        }
        if (!s.notDrawn().isEmpty()) {
            out.append("Not drawn:\n");
            for (String w : s.notDrawn()) out.append("  ").append(Escape.text(w)).append('\n');
        }
        return out.toString();
    }

    private static boolean anyNvlinkSpan(Scene s) {
        for (Scene.Node n : s.nodes()) for (Scene.Cell c : n.cells()) if (c.tpTier() == Scene.Tier.NVLINK) return true;
        return false;
    }

    private static String name(Scene s, int node) { return Escape.text(s.nodes().get(node).name()); }

    static String cell(Scene.Cell c, Layout layout) {
        String mark = c.tpTier() == Scene.Tier.NETWORK ? "*" : c.tpTier() == Scene.Tier.NVLINK ? "~" : "";
        return pad(c.tag() + mark, 3) + c.label(layout);
    }

    private static void box(StringBuilder out, Scene.Node n, Layout layout, int width) {
        int cols = Math.min(COLUMNS, Math.max(1, n.cells().size()));
        String name = Escape.text(n.name());
        int inner = Math.max(cols * width + (cols - 1) * 3 + 2, length(name) + 4);
        out.append("┌─ ").append(name).append(' ').append("─".repeat(inner - length(name) - 3)).append("┐\n");
        List<Scene.Cell> cells = n.cells();
        for (int i = 0; i < cells.size(); i += cols) {
            StringBuilder row = new StringBuilder(" ");
            for (int k = i; k < Math.min(cells.size(), i + cols); k++) {
                if (k > i) row.append("   ");
                row.append(pad(cell(cells.get(k), layout), width));
            }
            out.append('│').append(pad(row.toString(), inner)).append("│\n");
        }
        out.append('└').append("─".repeat(inner)).append("┘\n");
    }

    private static int length(String s) { return s.codePointCount(0, s.length()); }

    private static String pad(String s, int w) {
        int n = length(s);
        return n >= w ? s : s + " ".repeat(w - n);
    }
}
