package dev.gpulint.bind.adapt;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Level;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.PipelineLayout;
import dev.gpulint.spec.Quantities;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * SYN010: a --pipeline-model-parallel-layout that only an open (unmerged) Megatron-LM pull request runs. gpulint's
 * {@link PipelineLayout#problem} accepts the union of the versions' rules, so these layouts are priced; released
 * Megatron-Core and its main branch (github.com/NVIDIA/Megatron-LM, megatron/core/transformer/pipeline_parallel_layer_layout.py
 * at 00caa53af30912914981c86f39db123961678bbd, validate_layer_layout) stop at start-up on them:
 * <ul>
 *   <li>{@code m} on more than one stage ({@link PipelineLayout#mtpSplit}): "All of the MTP layers must be in the same one
 *       virtual pipeline stage"; Megatron-LM pull request #5329 (mtp_split, github.com/shifangx/Megatron-LM at
 *       71ffeae2deb4036b9802c47b26bd78216f5ed1d9) runs it;</li>
 *   <li>{@code L} more than once ({@link PipelineLayout#losses} &gt; 1): "Loss must be specified exactly once"; pull request
 *       #5318 (mtp_loss_split) reads 1 + mtp_num_layers slots as the split MTP loss.</li>
 * </ul>
 * A warning at the layout's value; the plan's assumptions still say how the estimate prices them (DraftBounds). The native
 * manifest's {@code parallelism.pipeline_layout} reports the same findings (bind.SpecBuilder): one policy for the layout
 * wherever it is written.
 */
public final class NewerLayouts {
    private NewerLayouts() {}

    /** The most stage numbers a message lists (counted from 1: "stages 31, 32 of 32" are the last two). */
    private static final int MAX_LISTED = 6;

    private static final String MAIN = "Megatron-Core's releases and its main branch stop at start-up on it (validate_layer_layout,"
            + " megatron/core/transformer/pipeline_parallel_layer_layout.py at NVIDIA/Megatron-LM 00caa53a: ";

    /**
     * The layout places m on several stages: runs only with pull request #5329. Over {@code pp} pipeline ranks (0: not
     * known), a layout of more stages than pp has pp × vp virtual ones (Megatron-Core takes vp from the layout), and the message says so and on which pipeline ranks they sit (virtual stage
     * s, counted from 0, is chunk s ÷ pp of rank s mod pp: Megatron's interleaved order), so that its numbers are not read as
     * the pipeline stages MEM003 and `gpulint plan` count (ranks).
     */
    public static Finding mtpSplit(String owner, String key, Located<String> v, PipelineLayout layout, long pp) {
        List<Integer> at = stagesWith(layout, PipelineLayout.Stage::mtp);
        String message = head(key, v) + "it places the MTP layers (m) on " + at.size() + " " + stages(layout, pp, true) + " (" + listed(at)
                + " of " + layout.stages().size() + ranks(layout, pp, at) + "); " + MAIN
                + "\"All of the MTP layers must be in the same one virtual pipeline stage\"), and only a Megatron-LM build with the open,"
                + " unmerged pull request NVIDIA/Megatron-LM#5329 (mtp_split) runs it; put every m on one stage, the last virtual chunk of"
                + " its pipeline rank (as \"…|mm|L\" or \"…|mmL\"), or suppress SYN010 here if you run a build with that pull request";
        return new Finding("SYN010", Level.WARNING, v.span(), message, List.of(), owner + "#mtp_split");
    }

    /**
     * The layout names the loss more than once: runs only with pull request #5318. Over {@code pp} pipeline ranks (0: not
     * known), the virtual stages named as such ({@link #mtpSplit}).
     */
    public static Finding lossSplit(String owner, String key, Located<String> v, PipelineLayout layout, long pp) {
        List<Integer> at = stagesWith(layout, PipelineLayout.Stage::loss);
        String message = head(key, v) + "it names the loss (L) " + layout.losses() + " times, on " + stages(layout, pp, at.size() != 1) + " "
                + listed(at) + " of " + layout.stages().size() + ranks(layout, pp, at) + ", which only Megatron-LM's mtp_loss_split reads (one loss slot per hidden-state chunk); " + MAIN
                + "\"Loss must be specified exactly once\"), and only a Megatron-LM build with the open, unmerged pull request"
                + " NVIDIA/Megatron-LM#5318 (mtp_loss_split) runs it; write one L, at the end of the last stage, or suppress SYN010"
                + " here if you run a build with that pull request";
        return new Finding("SYN010", Level.WARNING, v.span(), message, List.of(), owner + "#mtp_loss_split");
    }

    /** A layout of more stages than pp ranks: its stages are virtual ones. */
    private static boolean virtual(PipelineLayout layout, long pp) {
        return pp > 0 && layout.stages().size() > pp && layout.stages().size() % pp == 0;
    }

    private static String stages(PipelineLayout layout, long pp, boolean plural) {
        return (virtual(layout, pp) ? "virtual " : "") + (plural ? "stages" : "stage");
    }

    /** ": pp 16 × 2 virtual stages per rank, on pipeline ranks 15, 16" for virtual stages; "" otherwise. */
    private static String ranks(PipelineLayout layout, long pp, List<Integer> at) {
        if (!virtual(layout, pp)) return "";
        java.util.TreeSet<Integer> ranks = new java.util.TreeSet<>();
        for (int s : at) ranks.add((int) ((s - 1) % pp) + 1);      // counted from 1, as the virtual stages are
        List<Integer> listedRanks = new ArrayList<>(ranks);
        return ": pp " + pp + " × " + layout.stages().size() / pp + " virtual stages per rank, on pipeline rank" + (ranks.size() == 1 ? " " : "s ")
                + listed(listedRanks) + " of " + pp;
    }

    private static String head(String key, Located<String> v) {
        return "'" + key + "' is '" + Quantities.shortText(v.value()) + "': ";
    }

    private static List<Integer> stagesWith(PipelineLayout layout, ToIntFunction<PipelineLayout.Stage> count) {
        List<Integer> at = new ArrayList<>();
        for (int s = 0; s < layout.stages().size(); s++) if (count.applyAsInt(layout.stages().get(s)) > 0) at.add(s + 1);     // counted from 1, as messages name stages
        return at;
    }

    private static String listed(List<Integer> at) {
        List<String> shown = new ArrayList<>();
        for (int i = 0; i < Math.min(at.size(), MAX_LISTED); i++) shown.add(String.valueOf(at.get(i)));
        String text = String.join(", ", shown);
        return at.size() > MAX_LISTED ? text + ", … " + at.get(at.size() - 1) : text;
    }
}
