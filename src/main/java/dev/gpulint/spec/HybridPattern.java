package dev.gpulint.spec;

import java.util.ArrayList;
import java.util.List;

/**
 * A hybrid Mamba model's layer pattern as Megatron-Core reads it (NVIDIA/Megatron-LM
 * megatron/core/models/hybrid/hybrid_layer_allocation.py at 7acb0753da6321bec5986eb9c619609f2f3c1598: {@code Symbols},
 * {@code parse_hybrid_pattern}, {@code select_pipeline_segment}): one character per decoder layer ({@code M} Mamba-2,
 * {@code *} attention, {@code -} MLP, {@code E} MoE), {@code |} ({@code Symbols.PIPE}) between pipeline stages, and after
 * the first {@code /} ({@code Symbols.MTP_SEPARATOR}) the MTP layers' blocks, which are not the decoder's.
 *
 * <p>With a {@code |}, Megatron-Core splits the decoder part at each {@code |} and builds segment
 * {@code vp_stage × pp + pp_rank} on each rank: the segments' lengths are the stages' layers, in the same order as
 * {@code --pipeline-model-parallel-layout}'s ({@link PipelineLayout}), and a segment may be empty ({@code "||M"} is three
 * segments). Without one, the layers are sliced evenly (or by {@code --decoder-first/last-pipeline-num-layers}).
 *
 * @param decoder the decoder's layers: the characters before the first '/', without '|'
 * @param stages  each '|'-delimited segment's layers, in order; empty when the pattern has no '|'
 */
public record HybridPattern(String decoder, List<Long> stages) {
    public HybridPattern {
        stages = List.copyOf(stages);
    }

    /**
     * Reads {@code text} (already stripped): null unless its decoder part (before the first '/') is layer characters and
     * '|' with at least one layer. What follows the first '/' is not read here (the MTP blocks). One pass over the text.
     */
    public static HybridPattern read(String text) {
        if (text == null) return null;
        int slash = text.indexOf('/');
        String main = slash < 0 ? text : text.substring(0, slash);
        StringBuilder decoder = new StringBuilder(main.length());
        List<Long> stages = new ArrayList<>();
        long segment = 0;
        boolean piped = false;
        for (int i = 0; i < main.length(); i++) {
            char c = main.charAt(i);
            if (c == '|') {
                piped = true;
                stages.add(segment);
                segment = 0;
            } else if (c == 'M' || c == '*' || c == '-' || c == 'E') {
                decoder.append(c);
                segment++;
            } else {
                return null;
            }
        }
        if (decoder.length() == 0) return null;
        if (piped) stages.add(segment);
        return new HybridPattern(decoder.toString(), piped ? stages : List.of());
    }

    /**
     * {@code text} reads ({@link #read}) and what follows its first '/' is MTP blocks as Megatron-Core reads them
     * ({@link #mtpProblem}), as the native manifest's {@code model.hybrid.pattern} accepts it.
     */
    public static boolean valid(String text) {
        return read(text) != null && mtpProblem(text) == null;
    }

    /** The most MTP layers, and blocks in one, a pattern's '/' groups give (the bound of model.mtp_layers, MtpLayers.MAX). */
    public static final int MAX_MTP = 64;

    /**
     * The MTP layers a pattern writes after its first '/', as Megatron-Core's parse_hybrid_pattern reads them: each
     * '/'-separated group one MTP layer (depth), its letters that layer's blocks ({@code ...EME/*E/*E}: 2 MTP layers of an
     * attention and an MoE block). Megatron-LM's validate_args (megatron/training/arguments.py, "Infer mtp_num_layers from
     * unified pattern") takes the groups' count as --mtp-num-layers, over a different count written beside it ("Using the
     * inferred value"), so the groups are the job's MTP layers whatever else it writes.
     *
     * @param layers the groups, 1 to {@link #MAX_MTP}
     * @param blocks the letters of one group, 1 to {@link #MAX_MTP}
     * @param letters those letters (every group's, as parse_hybrid_pattern requires them identical): each block's kind
     */
    public record MtpGroups(long layers, long blocks, String letters) {}

    /**
     * {@code text}'s MTP groups, or null: no '/', only empty groups after it (parse_hybrid_pattern: no MTP), or groups Megatron
     * refuses or past the bounds ({@link #mtpProblem} says which). One pass over the text.
     */
    public static MtpGroups mtp(String text) {
        if (text == null || text.indexOf('/') < 0 || mtpProblem(text) != null) return null;
        String[] groups = text.substring(text.indexOf('/') + 1).split("/", -1);
        if (groups[0].isEmpty()) return null;          // all empty: mtpProblem refuses any other empty group
        return new MtpGroups(groups.length, groups[0].length(), groups[0]);
    }

    /**
     * Why Megatron-Core refuses what follows {@code text}'s first '/' (null: nothing to refuse): parse_hybrid_pattern (at
     * 7acb0753) raises "All MTP patterns must be identical" when the groups differ (an empty group among others included),
     * and _validate_pattern refuses a character other than a layer's there ('|' among them: no pipeline split in the MTP
     * blocks); more than {@link #MAX_MTP} groups or letters in one are past the bound the estimate reads.
     */
    public static String mtpProblem(String text) {
        int slash = text == null ? -1 : text.indexOf('/');
        if (slash < 0) return null;
        String after = text.substring(slash + 1);
        String[] groups = after.split("/", -1);
        boolean allEmpty = true;
        for (String g : groups) allEmpty &= g.isEmpty();
        if (allEmpty) return null;
        String first = groups[0];
        for (int i = 0; i < first.length(); i++) {
            char c = first.charAt(i);
            if (c != 'M' && c != '*' && c != '-' && c != 'E') {
                return "its MTP blocks after '/' hold '" + c + "', not a layer (M, *, - or E); Megatron-Core's parse_hybrid_pattern"
                        + " refuses it";
            }
        }
        for (int i = 1; i < groups.length; i++) {
            if (!groups[i].equals(first)) {
                return "its MTP groups after '/' differ (group 1 is '" + Quantities.shortText(first) + "', group " + (i + 1) + " '"
                        + Quantities.shortText(groups[i]) + "'); Megatron-Core's parse_hybrid_pattern raises \"All MTP patterns must be"
                        + " identical\"";
            }
        }
        if (groups.length > MAX_MTP || first.length() > MAX_MTP) {
            return "it writes " + groups.length + " MTP layer" + (groups.length == 1 ? "" : "s") + " of " + first.length()
                    + " block" + (first.length() == 1 ? "" : "s") + " after '/', past the " + MAX_MTP + " the estimate reads";
        }
        return null;
    }

    /**
     * What Megatron-Core refuses in the pattern's stages on {@code pp} pipeline ranks (0: pp not known, not checked), or
     * null: select_pipeline_segment raises when '|' is combined with a hand-sized first or last stage, when the segments
     * are not a multiple of pp, with more than one segment on pp 1 (no virtual stages without pipeline parallelism:
     * _validate_direct_pipeline raises, megatron/core/pipeline_parallel/schedules.py forward_backward_no_pipelining asserts
     * one model chunk, and with no virtual stage only segment 0 is built), and when a rank's virtual stage has no segment (fewer segments than pp × vpp); more segments
     * than pp × vpp leave the ones past them built by no rank (Megatron-Core's direct form, _validate_direct_pipeline in
     * megatron/core/models/hybrid/hybrid_architecture.py at 26f7d124, refuses a vpp other than segments ÷ pp). With no vpp
     * written, vpp is segments ÷ pp, as that form infers it.
     *
     * @param vpp    the virtual stages per rank the job writes ({@code --num-virtual-stages-per-pipeline-rank},
     *               virtual_pp); 0 when it writes none (the segments give it)
     * @param uneven the job writes {@code --decoder-first-pipeline-num-layers} or {@code --decoder-last-pipeline-num-layers}
     *               (first_stage_layers / last_stage_layers)
     */
    public String problem(long pp, long vpp, boolean uneven) {
        return problem(stages, pp, vpp, uneven);
    }

    /** {@link #problem(long, long, boolean)} of a pattern whose segments hold {@code stages} layers (empty: no '|'). */
    public static String problem(List<Long> stages, long pp, long vpp, boolean uneven) {
        if (stages.isEmpty()) {
            // no '|': select_pipeline_segment slices the layers evenly, and refuses virtual stages (vp_stage not None)
            return pp > 1 && vpp > 1 ? "it has no '|', so Megatron-Core slices its layers evenly over the pp " + pp + " ranks, and the job"
                    + " writes " + vpp + " virtual stages per rank; Megatron-Core's select_pipeline_segment raises \"Virtual pipeline"
                    + " parallelism (vp_stage != None) is not supported when hybrid_layer_pattern has no pipe ('|') separators\"" : null;
        }
        int n = stages.size();
        if (uneven) {
            return "its " + n + " segments between '|' lay out the pipeline stage by stage, and the job also sizes its first or last"
                    + " stage by hand; Megatron-Core's select_pipeline_segment raises \"Cannot specify num_layers_in_first_pipeline_stage"
                    + " or num_layers_in_last_pipeline_stage when hybrid_layer_pattern contains pipe ('|') separators\"";
        }
        if (pp > 0 && n % pp != 0) {
            return "it has " + n + " segment" + (n == 1 ? "" : "s") + " between '|' (" + describe(stages) + " layers), not a multiple of the"
                    + " pipeline size " + pp + "; Megatron-Core's select_pipeline_segment raises \"The number of pipe-delimited segments ("
                    + n + ") in hybrid_layer_pattern must be evenly divisible by pipeline_model_parallel_size (" + pp + ")\"";
        }
        if (pp == 1 && n > 1) {
            // one pipeline rank: no virtual stages to hold the segments past the first (vpp would be n ÷ 1 = n)
            return "it has " + n + " segments between '|' (" + describe(stages) + " layers) on one pipeline rank (pp 1), each segment"
                    + " past the first a virtual stage, and Megatron-Core has no virtual stages without pipeline parallelism: its direct"
                    + " form raises \"Virtual pipeline parallelism requires pipeline_model_parallel_size > 1\" (_validate_direct_pipeline),"
                    + " its schedule without pipelining asserts \"non-pipeline-parallel schedule does not support model chunking\""
                    + " (schedules.py forward_backward_no_pipelining), and with no virtual stage select_pipeline_segment builds segment 0"
                    + " only, leaving the other segments' layers built by no rank";
        }
        if (pp > 0 && vpp > 0 && n > pp * vpp) {
            return "it has " + n + " segments between '|', more than the " + pp * vpp + " stages of pp " + pp + " × " + vpp + " virtual"
                    + " stage" + (vpp == 1 ? "" : "s") + "; Megatron-Core's select_pipeline_segment builds segment vp_stage × pp + pp_rank,"
                    + " so no rank builds the segments past them and their layers are not trained (its direct form raises"
                    + " \"PipelineSplit() nodes imply virtual_pipeline_model_parallel_size=" + n / pp + ", but the config specifies " + vpp
                    + "\")";
        }
        if (pp > 0 && vpp > 0 && n < pp * vpp) {
            return "it has " + n + " segment" + (n == 1 ? "" : "s") + " between '|', fewer than the " + pp * vpp + " stages of pp " + pp
                    + " × " + vpp + " virtual stages; Megatron-Core's select_pipeline_segment builds segment vp_stage × pp + pp_rank and"
                    + " raises \"Pipeline segment index " + n + " ... is out of range for " + n + " segments\" on the first virtual stage"
                    + " past them";
        }
        return null;
    }

    /**
     * The SYN002 message of a pattern written as {@code key} that Megatron-Core refuses for {@code why} ({@link #problem}), with
     * or without '|' ({@code stages} empty), and how to fix it.
     */
    public static String refusal(String key, List<Long> stages, String why) {
        return "'" + key + "' " + (stages.isEmpty() ? "lays out no pipeline stage: " : "splits the decoder at '|': ") + why
                + "; the job stops at start-up. " + (stages.isEmpty()
                ? "Write the pp × virtual stages as segments between '|', or drop the virtual stages; the estimate prices them as written"
                : "Write one segment per pipeline stage (pp × virtual stages), or drop the '|' for Megatron's even split; the pattern's"
                + " split is left out of the estimate");
    }

    /** The stages' layers as "5, 4, 4" (the first 8, then "…"). */
    public static String describe(List<Long> stages) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < stages.size() && i < 8; i++) b.append(i > 0 ? ", " : "").append(stages.get(i));
        return stages.size() > 8 ? b.append(", …").toString() : b.toString();
    }
}
