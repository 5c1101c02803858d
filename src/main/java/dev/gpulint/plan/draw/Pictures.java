package dev.gpulint.plan.draw;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.derive.estimate.Layout;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The pictures of a layout's placement, as `gpulint plan -f text|mermaid|dot|svg|markdown` prints them
 * (../spec/PLAN.md "Pictures"): each node a box, each GPU a cell labelled with its rank and coordinates, tensor-parallel
 * groups coloured, and every group that crosses the network drawn as such. Large jobs draw the first pipeline stage's
 * nodes (at most {@link Scene#MAX_NODES}) and say the rest in words. Same input, same bytes.
 */
public final class Pictures {
    private Pictures() {}

    /** The picture formats. */
    public enum Format {
        TEXT, MERMAID, DOT, SVG, MARKDOWN;

        public String id() { return name().toLowerCase(Locale.ROOT); }

        /** The format named {@code id} ("svg"), if it is one. */
        public static Optional<Format> of(String id) {
            for (Format f : values()) if (f.id().equals(id)) return Optional.of(f);
            return Optional.empty();
        }

        /** The file extension for this format. */
        public String extension() {
            return switch (this) { case TEXT -> "txt"; case MERMAID -> "mmd"; case DOT -> "dot"; case SVG -> "svg"; case MARKDOWN -> "md"; };
        }
    }

    /**
     * The placement of {@code layout} on {@code nodes} under {@code order} (the job's rank order, fastest first; null
     * for Megatron's default tp-cp-ep-dp-pp), in {@code format}. {@code table}: the text put before the picture in
     * the markdown format (the plan's table, already markdown; ignored by the other formats). {@code etp}: the experts'
     * tensor-parallel size (0: tp), which places the ep groups ({@link Scene#of}).
     */
    public static String draw(Format format, Layout layout, List<ParallelDim> order, Scene.Nodes nodes, long etp, String table) {
        Scene s = Scene.of(layout, order == null ? ParallelDim.DEFAULT_ORDER : order, nodes, etp);
        return switch (format) {
            case TEXT -> TextPicture.draw(s, layout);
            case MERMAID -> MermaidPicture.draw(s, layout);
            case DOT -> DotPicture.draw(s, layout);
            case SVG -> SvgPicture.draw(s, layout);
            case MARKDOWN -> markdown(s, layout, table);
        };
    }

    /** The caller's table, then the placement as a Mermaid block (GitHub and GitLab render it) and what it leaves out. */
    static String markdown(Scene s, Layout layout, String table) {
        StringBuilder out = new StringBuilder();
        if (table != null && !table.isBlank()) out.append(table.strip()).append("\n\n");
        out.append("**Placement**: ").append(Escape.markdown(s.title())).append("\n\n");
        out.append("```mermaid\n").append(MermaidPicture.draw(s, layout)).append("```\n");
        if (!s.notDrawn().isEmpty()) {
            out.append('\n');
            for (String w : s.notDrawn()) out.append("- ").append(Escape.markdown(w)).append('\n');
        }
        return out.toString();
    }
}
