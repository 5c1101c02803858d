package dev.gpulint.plan.draw;

import dev.gpulint.derive.estimate.Layout;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The placement as a standalone SVG: well-formed XML, no script, no external font or image (the generic
 * {@code monospace} family), laid out by hand. Nodes are boxes stacked top to bottom, GPUs cells four a row filled by
 * their tensor-parallel group; a cell whose group crosses the network has a red dashed border. Each link between
 * nodes is a numbered bracket on the right, in a lane of its own (red and dashed over the network, slate over
 * NVLink), listed under the legend with its number. A link's number sits on its own lane where no other link's
 * horizontal run crosses it ({@link #labelY}): a number on a curve's middle sat on the links that start there.
 * Every manifest name is escaped ({@link Escape#xml}).
 */
public final class SvgPicture {
    private SvgPicture() {}

    private static final double CHAR = 7.4;    // width of one character of 12 px monospace, with a margin
    private static final int MARGIN = 20, CELL_H = 38, GAP = 8, HEADER = 24, PAD = 10, BETWEEN = 28, LINE = 18, LANE = 24;

    public static String draw(Scene s, Layout layout) {
        int chars = 0;
        for (Scene.Node n : s.nodes()) {
            for (Scene.Cell c : n.cells()) chars = Math.max(chars, Math.max(c.label(layout).length(), group(c).length()));
        }
        int cellW = (int) Math.ceil(Math.max(chars, 14) * CHAR) + 16;
        int cols = 1;
        for (Scene.Node n : s.nodes()) cols = Math.max(cols, Math.min(TextPicture.COLUMNS, n.cells().size()));
        int boxW = cols * cellW + (cols - 1) * GAP + 2 * PAD;
        for (Scene.Node n : s.nodes()) boxW = Math.max(boxW, width(Escape.xml(n.name())) + 2 * PAD);
        StringBuilder body = new StringBuilder();
        int y = MARGIN + 34;
        int[] top = new int[s.nodes().size()];
        int[] bottom = new int[s.nodes().size()];
        for (int i = 0; i < s.nodes().size(); i++) {
            Scene.Node n = s.nodes().get(i);
            int rows = (n.cells().size() + cols - 1) / cols;
            int h = HEADER + rows * CELL_H + Math.max(0, rows - 1) * GAP + PAD;
            top[i] = y; bottom[i] = y + h;
            body.append("<g class=\"node\"><rect x=\"").append(MARGIN).append("\" y=\"").append(y).append("\" width=\"").append(boxW)
                    .append("\" height=\"").append(h).append("\" rx=\"6\" fill=\"#fafafa\" stroke=\"#444\"/>")
                    .append("<text x=\"").append(MARGIN + PAD).append("\" y=\"").append(y + 17).append("\" font-weight=\"bold\">")
                    .append(Escape.xml(n.name())).append("</text>\n");
            for (int k = 0; k < n.cells().size(); k++) {
                Scene.Cell c = n.cells().get(k);
                int cx = MARGIN + PAD + (k % cols) * (cellW + GAP);
                int cy = y + HEADER + (k / cols) * (CELL_H + GAP);
                boolean net = c.tpTier() == Scene.Tier.NETWORK;
                body.append("  <rect x=\"").append(cx).append("\" y=\"").append(cy).append("\" width=\"").append(cellW)
                        .append("\" height=\"").append(CELL_H).append("\" rx=\"4\" fill=\"").append(Palette.fill(c.tpGroup()))
                        .append("\" stroke=\"").append(net ? Palette.NETWORK : Palette.stroke(c.tpGroup())).append('"')
                        .append(net ? " stroke-width=\"2.5\" stroke-dasharray=\"5 3\"" : " stroke-width=\"1.2\"").append("/>")
                        .append("<text x=\"").append(cx + 8).append("\" y=\"").append(cy + 16).append("\">").append(c.label(layout))
                        .append("</text><text x=\"").append(cx + 8).append("\" y=\"").append(cy + 31).append("\" fill=\"#333\">").append(group(c))
                        .append("</text>\n");
            }
            body.append("</g>\n");
            y += h + BETWEEN;
        }
        int summaryTop = y;
        int summaryRight = MARGIN + boxW;
        int width = MARGIN + boxW;
        if (!s.notDrawn().isEmpty()) {
            int w = 0;
            for (String t : s.notDrawn()) w = Math.max(w, width(Escape.xml(t)));
            int h = PAD + s.notDrawn().size() * LINE + 4;
            body.append("<g class=\"not-drawn\"><rect x=\"").append(MARGIN).append("\" y=\"").append(y).append("\" width=\"")
                    .append(w + 2 * PAD).append("\" height=\"").append(h).append("\" rx=\"6\" fill=\"#f0f0f0\" stroke=\"#888\" stroke-dasharray=\"3 3\"/>\n");
            for (int i = 0; i < s.notDrawn().size(); i++) {
                body.append("  <text x=\"").append(MARGIN + PAD).append("\" y=\"").append(y + PAD + 3 + LINE * i + 9).append("\">")
                        .append(Escape.xml(s.notDrawn().get(i))).append("</text>\n");
            }
            body.append("</g>\n");
            width = Math.max(width, MARGIN + w + 2 * PAD);
            summaryRight = MARGIN + w + 2 * PAD;
            y += h + BETWEEN;
        }
        int right = MARGIN + boxW;
        int links = s.links().size();
        double[] ya = new double[links], yb = new double[links], xb = new double[links];
        for (int j = 0; j < links; j++) {
            Scene.Link l = s.links().get(j);
            double laneX = right + 30 + j * LANE;
            ya[j] = (top[l.from()] + bottom[l.from()]) / 2.0 + (j % 5 - 2) * 4;
            if (l.to() >= 0) {
                yb[j] = (top[l.to()] + bottom[l.to()]) / 2.0 + (j % 5 - 2) * 4;
                xb[j] = right;
            } else if (laneX <= summaryRight - 10) {
                yb[j] = summaryTop - 1;      // down the lane onto the top of the box of what is not drawn
                xb[j] = laneX;
            } else {
                yb[j] = summaryTop + 12;     // along the lane, then left into that box's side
                xb[j] = summaryRight;
            }
        }
        for (int j = 0; j < links; j++) {
            Scene.Link l = s.links().get(j);
            boolean net = l.tier() == Scene.Tier.NETWORK;
            double laneX = right + 30 + j * LANE;
            String colour = net ? Palette.NETWORK : Palette.NVLINK;
            // out of the node to the link's own lane, along it, and back in: only the runs cross other lanes
            body.append("<path d=\"M").append(right).append(',').append(num(ya[j])).append(" H").append(num(laneX))
                    .append(" V").append(num(yb[j])).append(xb[j] == laneX ? "" : " H" + num(xb[j]))
                    .append("\" fill=\"none\" stroke=\"").append(colour).append("\" stroke-width=\"2\" stroke-linejoin=\"round\"")
                    .append(net ? " stroke-dasharray=\"6 4\"" : "").append(" marker-end=\"url(#").append(net ? "net" : "nvl").append(")\"/>");
            double ax = laneX, ay = labelY(j, ya, yb);
            body.append("<circle cx=\"").append(num(ax)).append("\" cy=\"").append(num(ay)).append("\" r=\"9\" fill=\"#fff\" stroke=\"")
                    .append(colour).append("\"/><text x=\"").append(num(ax)).append("\" y=\"").append(num(ay + 4))
                    .append("\" text-anchor=\"middle\" font-size=\"10\">").append(j + 1).append("</text>\n");
            width = Math.max(width, (int) Math.ceil(laneX) + 16);
        }
        List<String> legend = legend(s);
        body.append("<g class=\"legend\">\n");
        int ly = y;
        body.append("  <rect x=\"").append(MARGIN).append("\" y=\"").append(ly).append("\" width=\"28\" height=\"14\" rx=\"3\" fill=\"")
                .append(Palette.fill(0)).append("\" stroke=\"").append(Palette.stroke(0)).append("\"/><rect x=\"").append(MARGIN + 32)
                .append("\" y=\"").append(ly).append("\" width=\"28\" height=\"14\" rx=\"3\" fill=\"").append(Palette.fill(1))
                .append("\" stroke=\"").append(Palette.stroke(1)).append("\"/><text x=\"").append(MARGIN + 70).append("\" y=\"")
                .append(ly + 11).append("\">fill: tensor-parallel group (colours repeat every ").append(Palette.size())
                .append(" groups)</text>\n");
        ly += LINE + 4;
        body.append("  <rect x=\"").append(MARGIN).append("\" y=\"").append(ly).append("\" width=\"60\" height=\"14\" rx=\"3\" fill=\"#fff\" stroke=\"")
                .append(Palette.NETWORK).append("\" stroke-width=\"2.5\" stroke-dasharray=\"5 3\"/><text x=\"").append(MARGIN + 70)
                .append("\" y=\"").append(ly + 11).append("\">red dashed border: the GPU's tp group crosses the network</text>\n");
        ly += LINE + 4;
        body.append("  <path d=\"M").append(MARGIN).append(',').append(ly + 7).append(" h60\" stroke=\"").append(Palette.NETWORK)
                .append("\" stroke-width=\"2\" stroke-dasharray=\"6 4\"/><text x=\"").append(MARGIN + 70).append("\" y=\"").append(ly + 11)
                .append("\">link over the network</text>\n");
        ly += LINE + 4;
        body.append("  <path d=\"M").append(MARGIN).append(',').append(ly + 7).append(" h60\" stroke=\"").append(Palette.NVLINK)
                .append("\" stroke-width=\"2\"/><text x=\"").append(MARGIN + 70).append("\" y=\"").append(ly + 11)
                .append("\">link over NVLink between nodes</text>\n");
        ly += LINE + 8;
        for (String t : legend) {
            body.append("  <text x=\"").append(MARGIN).append("\" y=\"").append(ly + 11).append("\">").append(t).append("</text>\n");
            width = Math.max(width, MARGIN + width(t));
            ly += LINE;
        }
        body.append("</g>\n");
        String title = Escape.xml(s.title());
        width = Math.max(width, MARGIN + (int) Math.ceil(title.length() * CHAR * 14 / 12)) + MARGIN;
        int height = ly + MARGIN;
        StringBuilder out = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        out.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width).append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(width).append(' ').append(height)
                .append("\" font-family=\"monospace\" font-size=\"12\">\n<title>").append(title).append("</title>\n");
        out.append("<defs>").append(marker("net", Palette.NETWORK)).append(marker("nvl", Palette.NVLINK)).append("</defs>\n");
        out.append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
        out.append("<text x=\"").append(MARGIN).append("\" y=\"").append(MARGIN + 10).append("\" font-size=\"14\" font-weight=\"bold\">")
                .append(title).append("</text>\n");
        return out.append(body).append("</svg>\n").toString();
    }

    /**
     * Where link {@code j}'s number goes on its lane: the point of the lane's run, kept 12 px from its ends, farthest
     * from every run of the links in outer lanes (only they cross this lane, at their end heights).
     */
    static double labelY(int j, double[] ya, double[] yb) {
        double lo = Math.min(ya[j], yb[j]) + 12, hi = Math.max(ya[j], yb[j]) - 12;
        if (hi <= lo) return (ya[j] + yb[j]) / 2;
        double best = (lo + hi) / 2, bestGap = -1;
        for (int step = 0; step <= 32; step++) {
            double y = lo + (hi - lo) * step / 32;
            double gap = Double.MAX_VALUE;
            for (int k = j + 1; k < ya.length; k++) gap = Math.min(gap, Math.min(Math.abs(ya[k] - y), Math.abs(yb[k] - y)));
            // the middle wins ties: it reads as the link's centre
            if (gap > bestGap + 1e-9 || (Math.abs(gap - bestGap) < 1e-9 && Math.abs(y - (lo + hi) / 2) < Math.abs(best - (lo + hi) / 2))) {
                best = y;
                bestGap = gap;
            }
        }
        return best;
    }

    /** A cell's second line: its tp group, and how the group travels when it leaves the node. */
    private static String group(Scene.Cell c) {
        return "tp group " + c.tag() + (c.tpTier() == Scene.Tier.NETWORK ? " (network)" : c.tpTier() == Scene.Tier.NVLINK ? " (NVLink, nodes)" : "");
    }

    /** The numbered links, as lines of escaped text. */
    private static List<String> legend(Scene s) {
        List<String> out = new ArrayList<>();
        for (int j = 0; j < s.links().size(); j++) {
            Scene.Link l = s.links().get(j);
            out.add((j + 1) + ". " + Escape.xml(s.nodes().get(l.from()).name()) + " → "
                    + (l.to() < 0 ? "(not drawn)" : Escape.xml(s.nodes().get(l.to()).name())) + ": " + Escape.xml(l.text()));
        }
        if (s.linksLeftOut() > 0) out.add("… and " + s.linksLeftOut() + " more rank pairs between other nodes");
        return out;
    }

    private static String marker(String id, String colour) {
        return "<marker id=\"" + id + "\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\">"
                + "<path d=\"M0,0 L10,5 L0,10 z\" fill=\"" + colour + "\"/></marker>";
    }

    /** Approximate width in pixels of escaped text (an entity counts as one character). */
    private static int width(String xml) {
        String plain = xml.replaceAll("&[#a-z0-9]+;", "x");
        return (int) Math.ceil(plain.codePointCount(0, plain.length()) * CHAR);
    }

    private static String num(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.format(Locale.ROOT, "%.1f", d);
    }
}
