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
     * {@code text} reads ({@link #read}) and what follows its first '/' is MTP blocks of layer characters, '/' between them
     * (Megatron-Core's parse_hybrid_pattern allows no '|' there, and raises "All MTP patterns must be identical" unless every
     * block after the first '/' is the same, or all are empty: no MTP), as the native manifest's {@code model.hybrid.pattern}
     * accepts it.
     */
    public static boolean valid(String text) {
        if (read(text) == null) return false;
        int slash = text.indexOf('/');
        for (int i = slash < 0 ? text.length() : slash; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '/' && c != 'M' && c != '*' && c != '-' && c != 'E') return false;
        }
        if (slash < 0) return true;
        String[] blocks = text.substring(slash + 1).split("/", -1);
        boolean none = true;
        for (String b : blocks) none &= b.isEmpty();
        if (none) return true;
        for (String b : blocks) if (!b.equals(blocks[0])) return false;
        return true;
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
