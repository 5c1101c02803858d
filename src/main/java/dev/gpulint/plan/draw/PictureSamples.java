package dev.gpulint.plan.draw;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.derive.estimate.Layout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes every picture format of a few fixed layouts into a directory, for CI to check with the real tools
 * (.ci/plan-pictures: Graphviz renders the DOT, the SVG parses as XML and renders in headless Chromium, the Mermaid
 * text passes Mermaid's own parser). Run: {@code java -cp src/target/classes dev.gpulint.plan.draw.PictureSamples DIR}.
 * The layouts: two 8-GPU servers with tp 8 × pp 2; tp 16 across them; 64 GPUs (tp 4, pp 4, dp 4: Mermaid's summary, a
 * box per node); 1,024 GPUs (tp 8, pp 16, dp 8); a MoE with
 * cp and ep; a GB200 NVL72 rack whose tp groups span nodes over NVLink; and a node group with a hostile name.
 */
public final class PictureSamples {
    private PictureSamples() {}

    /** A sample: its file name stem, layout, rank order and node group. */
    public record Sample(String stem, Layout layout, List<ParallelDim> order, Scene.Nodes nodes) {}

    private static Layout layout(int tp, int pp, int dp, int cp, int ep, int vpp) {
        return new Layout(tp, pp, dp, cp, ep, vpp, 1, 512, 0, true, Layout.Recompute.SELECTIVE, tp > 1);
    }

    public static final String HOSTILE = "dgx\"<b>&amp;</b>\nend;%%{init: {}}%% A-->B[x] #quot; `cmd` \\N ' \u202e";

    public static List<Sample> samples() {
        Scene.Nodes h100 = new Scene.Nodes("dgx", 8, 8, "H100-SXM5-80GB");
        return List.of(
                new Sample("h100x16-tp8-pp2", layout(8, 2, 1, 1, 1, 1), null, h100),
                new Sample("h100x16-tp16", layout(16, 1, 1, 1, 1, 1), null, h100),
                new Sample("h100x64-tp4-pp4-dp4", layout(4, 4, 4, 1, 1, 1), null, h100),
                new Sample("h100x1024-tp8-pp16-dp8", layout(8, 16, 8, 1, 1, 4), null, h100),
                new Sample("h100x32-moe-cp2-ep4", layout(2, 2, 4, 2, 4, 1), null, h100),
                new Sample("gb200-nvl72-tp8", layout(8, 1, 9, 1, 1, 1), null, new Scene.Nodes("nvl72", 4, 72, "GB200")),
                new Sample("hostile-names", layout(4, 2, 2, 1, 1, 1), List.of(ParallelDim.TP, ParallelDim.DP, ParallelDim.PP), new Scene.Nodes(HOSTILE, 8, 8, "H100\"<x>")));
    }

    /** The markdown format's table in the samples: a small plan table, as the plan command would give. */
    static final String TABLE = "| layout | tokens/s/GPU |\n|---|---|\n| tp 8, pp 2 | 1,234 |";

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: PictureSamples DIR");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        Files.createDirectories(dir);
        for (Sample s : samples()) {
            for (Pictures.Format f : Pictures.Format.values()) {
                Files.writeString(dir.resolve(s.stem() + "." + f.extension()),
                        Pictures.draw(f, s.layout(), s.order(), s.nodes(), 0, TABLE), StandardCharsets.UTF_8);
            }
        }
        System.out.println("wrote " + samples().size() * Pictures.Format.values().length + " pictures to " + dir);
    }
}
