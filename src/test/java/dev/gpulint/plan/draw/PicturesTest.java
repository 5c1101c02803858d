package dev.gpulint.plan.draw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.derive.estimate.Layout;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

/** Each picture format: exact text for a small layout, structure for large ones, hostile names escaped. */
class PicturesTest {
    static final Layout SMALL = new Layout(2, 2, 1, 1, 1, 1, 1, 8, 0, false, Layout.Recompute.NONE, true);
    static final Scene.Nodes TWO = new Scene.Nodes("g", 2, 2, "H100");

    static String draw(Pictures.Format f, Layout l, Scene.Nodes n) { return Pictures.draw(f, l, null, n, 0, "| a |\n|---|\n| 1 |"); }

    @Test
    void textIsAGridOfBoxes() {
        assertEquals("""
                tp 2, pp 2, dp 1: 4 GPUs on 2 nodes of node group 'g' (2 × H100 each, NVLink domain 2), rank order tp-cp-ep-dp-pp
                ┌─ g-0 ─────────────────────────────────┐
                │ A  r0 tp0 pp0 dp0   A  r1 tp1 pp0 dp0 │
                └───────────────────────────────────────┘
                ┌─ g-1 ─────────────────────────────────┐
                │ B  r2 tp0 pp1 dp0   B  r3 tp1 pp1 dp0 │
                └───────────────────────────────────────┘
                Letters: tensor-parallel groups; * after one: the group crosses the network
                Links between nodes:
                  g-0 → g-1  pp 0→1 ×2 (network)
                """, draw(Pictures.Format.TEXT, SMALL, TWO));
    }

    @Test
    void mermaidIsAFlowchartWithASubgraphPerNode() {
        assertEquals("""
                ---
                title: "tp 2, pp 2, dp 1: 4 GPUs on 2 nodes of node group 'g' (2 × H100 each, NVLink domain 2), rank order tp-cp-ep-dp-pp"
                ---
                flowchart TB
                  subgraph N0["g-0"]
                    direction LR
                    N0G0["r0 tp0 pp0 dp0 · A"]
                    N0G1["r1 tp1 pp0 dp0 · A"]
                    N0G0 ~~~ N0G1
                  end
                  subgraph N1["g-1"]
                    direction LR
                    N1G0["r2 tp0 pp1 dp0 · B"]
                    N1G1["r3 tp1 pp1 dp0 · B"]
                    N1G0 ~~~ N1G1
                  end
                  N0 ==>|"pp 0→1 ×2 #40;network#41;"| N1
                  classDef tp0 fill:#aec7e8,stroke:#1f77b4,color:#000
                  class N0G0,N0G1 tp0
                  classDef tp1 fill:#ffbb78,stroke:#ff7f0e,color:#000
                  class N1G0,N1G1 tp1
                  linkStyle 2 stroke:#d62728,stroke-width:3px
                """, draw(Pictures.Format.MERMAID, SMALL, TWO));
    }

    @Test
    void dotHasAClusterPerNodeAndACompoundEdgeForTheNetworkLink() {
        String dot = draw(Pictures.Format.DOT, SMALL, TWO);
        assertTrue(dot.startsWith("digraph placement {\n  graph [compound=true"), dot);
        assertTrue(dot.contains("  subgraph cluster_n0 {\n    label=\"g-0\";"), dot);
        assertTrue(dot.contains("    n1g1 [label=\"r3 tp1 pp1 dp0\\ntp group B\", fillcolor=\"#ffbb78\", color=\"#ff7f0e\"];"), dot);
        assertTrue(dot.contains("  n0g0 -> n1g0 [ltail=cluster_n0, lhead=cluster_n1, constraint=false, label=\"pp 0→1 ×2 (network)\", "
                + "color=\"#d62728\", fontcolor=\"#d62728\", style=dashed, penwidth=2];"), dot);
        assertTrue(dot.endsWith("}\n"));
    }

    @Test
    void svgIsStandaloneWellFormedXmlWithALegend() throws Exception {
        String svg = draw(Pictures.Format.SVG, SMALL, TWO);
        Document d = parse(svg);
        assertEquals("svg", d.getDocumentElement().getTagName());
        assertEquals(4, count(svg, "\">tp group "));
        assertTrue(svg.contains("<text x=\"20\" y=\"357\">1. g-0 → g-1: pp 0→1 ×2 (network)</text>"), svg);
        assertTrue(svg.contains("link over the network"));
        assertFalse(svg.contains("<script") || svg.contains("href") || svg.contains("@import") || svg.contains("url(http"), svg);
    }

    @Test
    void markdownIsTheTableThenTheMermaidBlock() {
        String md = draw(Pictures.Format.MARKDOWN, SMALL, TWO);
        assertTrue(md.startsWith("| a |\n|---|\n| 1 |\n\n**Placement**: tp 2, pp 2, dp 1: 4 GPUs"), md);
        assertTrue(md.endsWith("```mermaid\n" + draw(Pictures.Format.MERMAID, SMALL, TWO) + "```\n"), md);
    }

    @Test
    void everyFormatIsDeterministicAndBoundedForA1024GpuJob() throws Exception {
        Layout big = new Layout(8, 16, 8, 1, 1, 4, 1, 1024, 0, true, Layout.Recompute.SELECTIVE, true);
        Scene.Nodes dgx = new Scene.Nodes("dgx", 8, 8, "H100-SXM5-80GB");
        for (Pictures.Format f : Pictures.Format.values()) {
            String a = draw(f, big, dgx);
            assertEquals(a, draw(f, big, dgx), f.id());
            assertTrue(a.length() < 40_000, f.id() + ": " + a.length());
            assertTrue(a.contains("pp stages 2–16 of 16: 15 × 8 nodes, same pattern"), f.id());
            // Mermaid draws more than 16 GPUs one box per node (issue #37): 8 nodes of pp stage 1, each with its groups
            boolean summary = f == Pictures.Format.MERMAID || f == Pictures.Format.MARKDOWN;
            assertEquals(summary ? 0 : 64, count(a, " pp0 dp"), f.id());
            assertFalse(a.contains("dgx-8"), f.id());
        }
        parse(draw(Pictures.Format.SVG, big, dgx));
    }

    @Test
    void hostileNamesAreEscapedInEveryFormat() throws Exception {
        String name = "x\"<b>&amp;</b>\nend;%%{init: {}}%% A-->B[y] #quot; `c` \\N ' \u202e";
        Scene.Nodes n = new Scene.Nodes(name, 8, 8, "H\"<x>\nflowchart");
        Layout l = new Layout(4, 2, 2, 1, 1, 1, 1, 8, 0, false, Layout.Recompute.NONE, true);
        String text = draw(Pictures.Format.TEXT, l, n);
        assertTrue(text.contains("┌─ x\"<b>&amp;</b>\\nend;%%{init: {}}%% A-->B[y] #quot; `c` \\N ' \\u{202e}-0 "), text);
        assertFalse(text.contains("\u202e") || text.contains("\nend;") || text.contains("\nflowchart"));

        String mermaid = draw(Pictures.Format.MERMAID, l, n);
        for (String line : mermaid.split("\n")) {
            // every line is ours: front matter, the header, a subgraph, a cell, a link, a class or a style
            assertTrue(line.matches("---|title: \".*\"|flowchart TB|  subgraph N\\d+\\[\".*\"]|    direction LR|    N\\d+G\\d+\\[\"[^\"]*\"]"
                    + "|    N\\d+G\\d+( ~~~ N\\d+G\\d+)+|  end|  N\\d+ (==>|-->)\\|\"[^\"]*\"\\| (N\\d+|S0)|  S0\\[\"[^\"]*\"]"
                    + "|  classDef .*|  class [N0-9G,]+ \\w+|  linkStyle [0-9,]+ .*"), line);
            if (line.startsWith("  subgraph")) {
                String label = line.substring(line.indexOf("[\"") + 2, line.lastIndexOf("\"]"));
                assertFalse(label.contains("\"") || label.contains("<") || label.contains("&") || label.contains("%") || label.contains("`")
                        || label.contains("[") || label.contains("]"), label);
            }
            if (line.startsWith("title: ")) {
                String t = line.substring(8, line.length() - 1);
                assertFalse(t.replace("\\\\", "").replace("\\\"", "").contains("\""), t);
            }
        }

        String dot = draw(Pictures.Format.DOT, l, n);
        for (String line : dot.split("\n")) {
            String unescaped = line.replace("\\\\", "").replace("\\\"", "");
            assertEquals(0, count(unescaped, "\"") % 2, line);
        }
        assertTrue(dot.contains("label=\"x\\\"<b>&amp;</b>\\\\nend;"), dot);

        String svg = draw(Pictures.Format.SVG, l, n);
        Document d = parse(svg);
        assertTrue(d.getDocumentElement().getTextContent().contains("x\"<b>&amp;</b>\\nend;%%{init: {}}%% A-->B[y] #quot;"), svg);
        assertFalse(svg.contains("<b>"));

        String md = draw(Pictures.Format.MARKDOWN, l, n);
        assertFalse(md.contains("<b>") || md.contains("\nend;"), md);
        assertEquals(2, count(md, "```"), md);
        assertTrue(md.contains("x\"&lt;b&gt;&amp;amp;&lt;/b&gt;\\\\nend;"), md);
    }

    /** Issue #37: 64 GPUs a box each were shrunk to unreadable text at a job summary's width; above 16, a box per node. */
    @Test
    void mermaidSummarisesAbove16GpusOneBoxPerNodeWithItsGroups() {
        Layout l = new Layout(4, 4, 4, 1, 1, 1, 1, 512, 0, true, Layout.Recompute.SELECTIVE, true);
        String m = draw(Pictures.Format.MERMAID, l, new Scene.Nodes("dgx", 8, 8, "H100-SXM5-80GB"));
        assertTrue(m.contains("  N0[\"dgx-0: r0–7 · tp A, B · pp 0 · dp 0–1\"]\n"), m);
        assertTrue(m.contains("  N7[\"dgx-7: r56–63 · tp O, P · pp 3 · dp 2–3\"]\n"), m);
        assertEquals(8, count(m, "\"dgx-"), m);
        assertFalse(m.contains("subgraph"), "no box per GPU: " + m);
        assertTrue(m.contains("  N0 ==>|\"pp 0→1 ×8 #40;network#41;\"| N2\n"), m);
        // 16 GPUs stay a box each
        assertTrue(draw(Pictures.Format.MERMAID, new Layout(8, 2, 1, 1, 1, 1, 1, 512, 0, true, Layout.Recompute.SELECTIVE, true),
                new Scene.Nodes("dgx", 8, 8, "H100-SXM5-80GB")).contains("N1G7[\"r15 tp7 pp1 dp0 · B\"]"));
    }

    /**
     * Issue #37: a link's number sat on the middle of its curve, where the links that start at the node in between
     * run. Every sample's numbers (and a 64-GPU job's) keep 9 px (their radius) from every other link's path.
     */
    @Test
    void svgLinkNumbersSitOnNoOtherLink() throws Exception {
        List<String> svgs = new java.util.ArrayList<>();
        for (PictureSamples.Sample s : PictureSamples.samples()) svgs.add(Pictures.draw(Pictures.Format.SVG, s.layout(), s.order(), s.nodes(), 0, ""));
        svgs.add(draw(Pictures.Format.SVG, new Layout(4, 4, 4, 1, 1, 1, 1, 512, 0, true, Layout.Recompute.SELECTIVE, true),
                new Scene.Nodes("dgx", 8, 8, "H100-SXM5-80GB")));
        int checked = 0;
        for (String svg : svgs) {
            List<List<double[]>> paths = new java.util.ArrayList<>();
            java.util.regex.Matcher p = java.util.regex.Pattern.compile("<path d=\"(M[^\"]+)\" fill=\"none\"").matcher(svg);
            while (p.find()) paths.add(points(p.group(1)));
            java.util.regex.Matcher c = java.util.regex.Pattern.compile("<circle cx=\"([\\d.]+)\" cy=\"([\\d.]+)\" r=\"9\"").matcher(svg);
            int j = 0;
            while (c.find()) {
                double x = Double.parseDouble(c.group(1)), y = Double.parseDouble(c.group(2));
                for (int k = 0; k < paths.size(); k++) {
                    if (k == j) continue;
                    for (double[] q : paths.get(k)) {
                        assertTrue(Math.hypot(q[0] - x, q[1] - y) >= 9, "link " + (j + 1) + "'s number at " + x + "," + y
                                + " sits on link " + (k + 1) + " (" + q[0] + "," + q[1] + ")");
                    }
                }
                j++;
                checked++;
            }
            assertEquals(paths.size(), j, "one number per link");
        }
        assertTrue(checked > 20, "links checked: " + checked);
    }

    /** Points every pixel along a path of M, H, V, L and C commands (absolute). */
    private static List<double[]> points(String d) {
        List<double[]> out = new java.util.ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("([MHVLC])([^MHVLC]*)").matcher(d);
        double x = 0, y = 0;
        while (m.find()) {
            String[] v = m.group(2).trim().split("[ ,]+");
            double[] n = java.util.Arrays.stream(v).filter(t -> !t.isEmpty()).mapToDouble(Double::parseDouble).toArray();
            double nx = x, ny = y;
            switch (m.group(1)) {
                case "M" -> { x = n[0]; y = n[1]; out.add(new double[] {x, y}); continue; }
                case "H" -> nx = n[0];
                case "V" -> ny = n[0];
                case "L" -> { nx = n[0]; ny = n[1]; }
                case "C" -> {
                    for (int i = 1; i <= 400; i++) {
                        double t = i / 400.0, u = 1 - t;
                        out.add(new double[] {u * u * u * x + 3 * u * u * t * n[0] + 3 * u * t * t * n[2] + t * t * t * n[4],
                                u * u * u * y + 3 * u * u * t * n[1] + 3 * u * t * t * n[3] + t * t * t * n[5]});
                    }
                    x = n[4]; y = n[5];
                    continue;
                }
                default -> throw new IllegalArgumentException(d);
            }
            int steps = (int) Math.max(1, Math.ceil(Math.hypot(nx - x, ny - y)));
            for (int i = 1; i <= steps; i++) out.add(new double[] {x + (nx - x) * i / steps, y + (ny - y) * i / steps});
            x = nx; y = ny;
        }
        return out;
    }

    @Test
    void longNamesAreCut() {
        String name = "n".repeat(10_000);
        String text = draw(Pictures.Format.TEXT, SMALL, new Scene.Nodes(name, 2, 2, null));
        assertTrue(text.contains("'" + "n".repeat(Escape.MAX_NAME - 1) + "…'"), text);
        assertTrue(text.length() < 2_000);
    }

    @Test
    void theSamplesWriteEveryFormat(@TempDir Path dir) throws Exception {
        PictureSamples.main(new String[] {dir.toString()});
        try (var files = Files.list(dir)) {
            assertEquals(PictureSamples.samples().size() * Pictures.Format.values().length, files.count());
        }
        parse(Files.readString(dir.resolve("hostile-names.svg")));
        assertEquals(List.of("text", "mermaid", "dot", "svg", "markdown"),
                java.util.Arrays.stream(Pictures.Format.values()).map(Pictures.Format::id).toList());
        assertEquals(Pictures.Format.SVG, Pictures.Format.of("svg").orElseThrow());
        assertTrue(Pictures.Format.of("png").isEmpty());
    }

    static Document parse(String xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    static int count(String s, String part) {
        int n = 0;
        for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + part.length())) n++;
        return n;
    }
}
