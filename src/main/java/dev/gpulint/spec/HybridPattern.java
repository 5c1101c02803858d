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
 * <p>Megatron-Core's newer letters ({@code Symbols} in megatron/core/models/hybrid/layers/utils.py at
 * 089b33b8104aa3ddf10d97e601ab03eaf6836ae2, its {@code LAYER_CONFIG_MAP}) are read and priced as the kind the estimate has
 * nearest them, and {@link #priced} says so for the plan's assumptions: {@code G} (GDN, a gated delta net:
 * megatron/core/ssm/gated_delta_net.py, a linear-time recurrent sequence mixer) as {@code M} in {@link #decoder} (a Megatron
 * script's G layers are priced as gated delta nets of its {@code --linear-*} sizes, beside any M's Mamba-2, from where
 * {@link #withGdn} places them: bind/adapt/HybridLayers, derive/estimate/MambaLayers.Gdn); {@code D} (DeepSeek sparse
 * attention, DSALayerConfig), {@code +} (multi-latent attention, MLALayerConfig), {@code C}, {@code H} and {@code W}
 * (DeepSeek-V4 compressed sparse, heavily compressed and window-only attention, CSALayerConfig of compress ratio 4, 128 and 0)
 * as {@code *}, attention of the job's own variant. A bracketed group {@code [M*E]} (GROUP_START / GROUP_END, one nested
 * logical layer) is read as its letters: get_hybrid_layer_counts and get_layer_type_physical_count count each letter inside
 * as a layer at 089b33b8 (at 7acb0753 a "fusion" group was one physical block for the pipeline's count, its letters still
 * counted one each for FLOPs). What parse_segment_layers refuses is no pattern ({@link #read} null, {@link #firstBad} says
 * where and why): another character, a '[' without its ']', an empty or nested group, an {@code E} before a group's last
 * letter, two layers of one checkpoint namespace in a group (validate_layer_group_checkpoint_namespaces), and {@code *} beside an MLA-kind letter ("Not supported to have both Attention and MLA/DSA/CSA/HCA/Window in one
 * model").
 *
 * <p>With a {@code |}, Megatron-Core splits the decoder part at each {@code |} and builds segment
 * {@code vp_stage × pp + pp_rank} on each rank: the segments' lengths are the stages' layers, in the same order as
 * {@code --pipeline-model-parallel-layout}'s ({@link PipelineLayout}), and a segment may be empty ({@code "||M"} is three
 * segments). Without one, the layers are sliced evenly (or by {@code --decoder-first/last-pipeline-num-layers}).
 *
 * <p>One value per written pattern: {@link #read} makes one pass over the decoder part and splits what follows the first
 * '/' once, and spec building reads the decoder, the stages and the MTP groups from it.
 *
 * @param decoder    the decoder's layers as the estimate prices them (M, *, - and E): the characters before the first '/',
 *                   without '|' or brackets, each newer letter as the kind it is priced as
 * @param stages     each '|'-delimited segment's layers, in order; empty when the pattern has no '|'
 * @param mtp        the MTP groups after the first '/' ({@link #mtp(String)}), null when none or refused
 * @param mtpProblem why Megatron-Core refuses what follows the first '/' ({@link #mtpProblem(String)}), null when nothing
 * @param priced     which written letters are priced as another kind ("G (gated delta net) as M (Mamba-2)", ...), null when
 *                   every letter is one the estimate prices as written
 */
public record HybridPattern(String decoder, List<Long> stages, MtpGroups mtp, String mtpProblem, String priced) {
    public HybridPattern {
        stages = List.copyOf(stages);
    }

    /** A place a pattern does not read, as parse_segment_layers refuses it: the character's index in the text and why. */
    public record Bad(int index, String why) {}

    /**
     * The most characters a written pattern has once {@link #strip stripped} ('|' and what follows '/' counted): 65,536, the
     * native {@code model.hybrid.pattern}'s bound and a Megatron script's, far above any published model's (Nemotron-H 56B:
     * 118 layers), so what the input drives stays bounded.
     */
    public static final int MAX_CHARS = 1 << 16;

    /**
     * Whether gpulint trims {@code c} around a pattern: ASCII's whitespace (Python's {@code string.whitespace}: space, tab,
     * line feed, carriage return, U+000B and U+000C), what a shell's word splitting and YAML's plain scalars take off before
     * Megatron reads the value. Megatron-Core strips nothing itself: its _validate_pattern (hybrid_layer_allocation.py at
     * 7acb0753) checks {@code for char in pattern: if char not in valid_chars: raise ValueError}, with no {@code str.strip()}
     * (which would also take U+00A0 and the other spaces Python's {@code str.isspace()} counts). So a no-break space (U+00A0),
     * U+2007, U+202F, U+3000, U+FEFF or any other non-ASCII space is a character Megatron refuses, wherever it stands.
     */
    public static boolean blank(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == 0x0B || c == 0x0C;
    }

    /** {@code text} without the ASCII whitespace around it ({@link #blank}); other spaces stay, as Megatron-Core reads them. */
    public static String strip(String text) {
        int a = leading(text), b = text.length();
        while (b > a && blank(text.charAt(b - 1))) b--;
        return text.substring(a, b);
    }

    /** The ASCII whitespace characters before {@code text}'s first other one ({@link #blank}). */
    public static int leading(String text) {
        int a = 0;
        while (a < text.length() && blank(text.charAt(a))) a++;
        return a;
    }

    /**
     * The index of the first space in {@code text} (ASCII's or any other: {@link Character#isWhitespace}, a Unicode space
     * separator, U+FEFF), or -1: Megatron-Core refuses each as "not a valid layer symbol" ({@link #blank}).
     */
    public static int firstSpace(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c) || Character.isSpaceChar(c) || c == '\uFEFF') return i;
        }
        return -1;
    }

    /**
     * The gated delta nets ({@code G}) of a pattern's decoder part (before the first '/'), which {@link #decoder} holds as
     * {@code M}: Megatron-Core builds them as GatedDeltaNet, not MambaMixer, so MambaMixer's asserts on heads and groups do
     * not apply to them (PAR015, derive/par/HybridLayersAnalysis).
     */
    public static long gdnLayers(String text) {
        if (text == null) return 0;
        long n = 0;
        for (int i = 0; i < text.length() && text.charAt(i) != '/'; i++) if (text.charAt(i) == 'G') n++;
        return n;
    }

    /** The places of {@code letter} in {@code text}, '/' groups included (a loop: the plan counts them for each candidate job). */
    public static long count(String text, char letter) {
        long n = 0;
        for (int i = 0; i < text.length(); i++) if (text.charAt(i) == letter) n++;
        return n;
    }

    /**
     * The decoder part of {@code text} (before the first '/') as {@link #decoder} holds it, but each {@code G} kept as
     * {@code G}: where a pattern's gated delta nets stand, which derive/estimate/MambaLayers prices as Megatron-Core's
     * GatedDeltaNet beside the pattern's Mamba-2 {@code M} layers (each stage's slice by its own kinds). Null when the text
     * holds no G before '/', or does not read ({@link #read}). One pass.
     */
    public static String withGdn(String text) {
        if (gdnLayers(text) == 0) return null;
        HybridPattern read = read(text);
        if (read == null) return null;
        StringBuilder b = new StringBuilder(read.decoder().length());
        for (int i = 0; i < text.length() && text.charAt(i) != '/'; i++) {
            char c = text.charAt(i);
            if (c == '|' || c == '[' || c == ']') continue;
            b.append(c == 'G' ? 'G' : kind(c));
        }
        return b.toString();
    }

    /** A character as a message shows it: itself, or its code point when it does not show (a space, a control, U+FEFF). */
    public static String shown(char c) {
        boolean invisible = Character.isWhitespace(c) || Character.isSpaceChar(c) || Character.isISOControl(c)
                || Character.getType(c) == Character.FORMAT;
        return invisible ? String.format(java.util.Locale.ROOT, "U+%04X", (int) c) + (Character.isSpaceChar(c) || Character.isWhitespace(c)
                || c == '\uFEFF' ? " (a space)" : "") : "'" + c + "'";
    }

    /** The kind the estimate prices a layer letter as (M, *, - or E), or 0: not a letter Megatron-Core knows. */
    static char kind(char c) {
        return switch (c) {
            case 'M', '*', '-', 'E' -> c;
            case 'G' -> 'M';
            case 'D', '+', 'C', 'H', 'W' -> '*';
            default -> 0;
        };
    }

    /**
     * {@link #priced}'s words for {@code G} priced as Mamba-2, which a Megatron script's reader takes out when the job writes the
     * gated delta net's own sizes and the G layers are priced as Megatron-Core builds them (bind/adapt/HybridLayers).
     */
    public static final String GDN_AS_MAMBA = "G (gated delta net, GDN) as M (Mamba-2)";

    /** What a newer letter is, as Megatron-Core's Symbols names it. */
    private static String name(char c) {
        return switch (c) {
            case 'G' -> "G (gated delta net, GDN)";
            case 'D' -> "D (DeepSeek sparse attention, DSA)";
            case '+' -> "+ (multi-latent attention, MLA)";
            case 'C' -> "C (DeepSeek-V4 compressed sparse attention)";
            case 'H' -> "H (DeepSeek-V4 heavily compressed attention)";
            case 'W' -> "W (DeepSeek-V4 window-only attention)";
            default -> String.valueOf(c);
        };
    }

    /**
     * Reads {@code text} (already stripped): null unless its decoder part (before the first '/') is layer letters, brackets
     * and '|' as Megatron-Core's parse_segment_layers accepts them, with at least one layer. What follows the first '/' (the
     * MTP blocks) is split once ({@link #mtp}, {@link #mtpProblem}). One pass over the text.
     */
    public static HybridPattern read(String text) {
        if (text == null || firstBad(text) != null) return null;
        int slash = text.indexOf('/');
        String main = slash < 0 ? text : text.substring(0, slash);
        StringBuilder decoder = new StringBuilder(main.length());
        List<Long> stages = new ArrayList<>();
        java.util.TreeSet<Character> newer = new java.util.TreeSet<>();
        boolean grouped = false;
        long segment = 0;
        boolean piped = false;
        for (int i = 0; i < main.length(); i++) {
            char c = main.charAt(i);
            if (c == '|') {
                piped = true;
                stages.add(segment);
                segment = 0;
            } else if (c == '[' || c == ']') {
                grouped = true;
            } else {
                char k = kind(c);
                if (k != c) newer.add(c);
                decoder.append(k);
                segment++;
            }
        }
        if (decoder.length() == 0) return null;
        if (piped) stages.add(segment);
        String after = slash < 0 ? null : text.substring(slash + 1);
        MtpRead m = mtpRead(after);
        if (m.problem == null && m.groups != null) for (char c : after.toCharArray()) if (c != '/' && kind(c) != c) newer.add(c);
        List<String> said = new ArrayList<>();
        for (char c : newer) said.add(c == 'G' ? GDN_AS_MAMBA : name(c) + " as " + (kind(c) == 'M' ? "M (Mamba-2)" : "* (attention of the job's variant)"));
        if (grouped) said.add("each bracketed group [...] as its letters, one layer each");
        return new HybridPattern(decoder.toString(), piped ? stages : List.of(), m.groups, m.problem,
                said.isEmpty() ? null : String.join(", ", said));
    }

    /**
     * Where the decoder part of {@code text} (before the first '/') does not read, as Megatron-Core's parse_segment_layers
     * and _validate_pattern refuse it (null: it reads, or it holds no layer, which {@link #read} refuses without a place).
     * One pass.
     */
    public static Bad firstBad(String text) {
        if (text == null) return null;
        int slash = text.indexOf('/');
        int end = slash < 0 ? text.length() : slash;
        int open = -1, inGroup = 0, star = -1, mla = -1;
        for (int i = 0; i < end; i++) {
            char c = text.charAt(i);
            if (c == '[') {
                if (open >= 0) return new Bad(i, "a '[' inside the group opened at character " + (open + 1) + "; Megatron-Core's"
                        + " parse_segment_layers raises \"Nested layer groups are not supported.\"");
                open = i;
                inGroup = 0;
            } else if (c == ']') {
                if (open < 0) return new Bad(i, "a ']' closing no group; Megatron-Core's parse_segment_layers raises \"']' closes a"
                        + " layer group that was not opened.\"");
                if (inGroup == 0) return new Bad(i, "an empty group '[]'; Megatron-Core's parse_segment_layers raises \"Layer groups"
                        + " cannot be empty.\"");
                int e = text.substring(open + 1, i - 1).indexOf('E');
                if (e >= 0) {
                    return new Bad(open + 1 + e, "an E before its group's last letter; Megatron-Core's"
                            + " validate_layer_group raises \"MoE layer 'E' must be the last symbol inside a layer group.\"");
                }
                String group = text.substring(open + 1, i);
                int twice = sameNamespace(group);
                if (twice >= 0) {
                    return new Bad(open + 1 + twice, "a second layer of one checkpoint namespace in the group '[" + group + "]' (one"
                            + " mixer M, one attention-kind layer of G, *, D, +, C, H, W, one MLP or MoE); Megatron-Core's"
                            + " validate_layer_group_checkpoint_namespaces raises \"Layer group ... contains multiple layers in checkpoint"
                            + " namespace\"");
                }
                open = -1;
            } else if (c == '|') {
                if (open >= 0) return new Bad(open, "a '[' whose group a '|' crosses; Megatron-Core's parse_segment_layers raises"
                        + " \"'[' starts a layer group without a matching ']'.\" in that segment");
            } else {
                char k = kind(c);
                if (k == 0) return new Bad(i, shown(c) + ", not a layer symbol Megatron-Core knows (M Mamba-2, G gated delta net, * attention,"
                        + " D DeepSeek sparse attention, + MLA, C, H and W DeepSeek-V4 attention, - MLP, E MoE, '[' ']' a group, '|' a"
                        + " stage boundary, '/' the MTP blocks); its parse_segment_layers raises \"" + shown(c) + " is not a valid layer symbol\"");
                if (c == '*' && star < 0) star = i;
                if (k == '*' && c != '*' && mla < 0) mla = i;
                if (open >= 0) inGroup++;
            }
        }
        if (open >= 0) return new Bad(open, "a '[' without its ']'; Megatron-Core's parse_segment_layers raises \"'[' starts a layer"
                + " group without a matching ']'.\"");
        if (star >= 0 && mla >= 0) return new Bad(Math.max(star, mla), "both attention '*' and an MLA-kind layer ('" + text.charAt(mla)
                + "'); Megatron-Core's parse_segment_layers raises \"Not supported to have both Attention and MLA/DSA/CSA/HCA/Window in"
                + " one model\"");
        return null;
    }

    /**
     * The index in {@code group} of its first letter whose checkpoint namespace an earlier letter already holds (Megatron-Core's
     * Symbols.CHECKPOINT_NAMESPACE_MAP at 089b33b8: M "mixer"; G, *, D, +, C, H, W "self_attention"; - and E "mlp"), or -1.
     */
    private static int sameNamespace(String group) {
        boolean mixer = false, attention = false, mlp = false;
        for (int i = 0; i < group.length(); i++) {
            char k = kind(group.charAt(i));
            boolean seen = group.charAt(i) == 'M' ? mixer : k == 'M' || k == '*' ? attention : mlp;
            if (seen) return i;
            if (group.charAt(i) == 'M') mixer = true;
            else if (k == 'M' || k == '*') attention = true;
            else mlp = true;
        }
        return -1;
    }

    /**
     * {@code text} reads ({@link #read}) and what follows its first '/' is MTP blocks as Megatron-Core reads them
     * ({@link #mtpProblem}), of the five kinds the estimate prices as written (no letter or bracket {@link #priced} names, but G:
     * a gated delta net of the manifest's {@code linear_*} sizes, Megatron-Core's defaults where not written, which the
     * estimate prices as such), as the native manifest's {@code model.hybrid.pattern} accepts it: a Megatron script's other
     * newer letters are read there, where the plan's assumptions say how they are priced, and a native job has no such line.
     */
    public static boolean valid(String text) {
        HybridPattern p = read(text);
        return p != null && p.mtpProblem() == null && (p.priced() == null || p.priced().equals(GDN_AS_MAMBA));
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
     * @param letters those letters (every group's, as parse_hybrid_pattern requires them identical), each as the kind it is
     *                priced as (a newer letter as {@link #priced} says: G as M, D, +, C, H, W as *): each block's kind
     */
    public record MtpGroups(long layers, long blocks, String letters) {}

    /**
     * {@code text}'s MTP groups, or null: no '/', only empty groups after it (parse_hybrid_pattern: no MTP), or groups Megatron
     * refuses or past the bounds ({@link #mtpProblem} says which). One split of the text.
     */
    public static MtpGroups mtp(String text) {
        int slash = text == null ? -1 : text.indexOf('/');
        return slash < 0 ? null : mtpRead(text.substring(slash + 1)).groups;
    }

    /**
     * Why Megatron-Core refuses what follows {@code text}'s first '/' (null: nothing to refuse): parse_hybrid_pattern (at
     * 7acb0753) raises "All MTP patterns must be identical" when the groups differ (an empty group among others included),
     * and _validate_pattern refuses a character other than a layer's there ('|' among them: no pipeline split in the MTP
     * blocks; '[' too: "layer groups ... are not supported" in an MTP pattern at 089b33b8); more than {@link #MAX_MTP} groups
     * or letters in one are past the bound the estimate reads. One split of the text.
     */
    public static String mtpProblem(String text) {
        int slash = text == null ? -1 : text.indexOf('/');
        return slash < 0 ? null : mtpRead(text.substring(slash + 1)).problem;
    }

    /** What follows the first '/' read once: its groups or why Megatron refuses them (both null: no MTP block). */
    private record MtpRead(MtpGroups groups, String problem) {}

    private static MtpRead mtpRead(String after) {
        if (after == null) return new MtpRead(null, null);
        String[] groups = after.split("/", -1);
        boolean allEmpty = true;
        for (String g : groups) allEmpty &= g.isEmpty();
        if (allEmpty) return new MtpRead(null, null);
        String first = groups[0];
        for (int i = 0; i < first.length(); i++) {
            char c = first.charAt(i);
            if (kind(c) == 0) {
                return new MtpRead(null, "its MTP blocks after '/' hold " + shown(c) + ", not a layer (M, G, *, D, +, C, H, W, - or E);"
                        + " Megatron-Core's parse_hybrid_pattern refuses it");
            }
        }
        for (int i = 1; i < groups.length; i++) {
            if (!groups[i].equals(first)) {
                return new MtpRead(null, "its MTP groups after '/' differ (group 1 is '" + Quantities.shortText(first) + "', group "
                        + (i + 1) + " '" + Quantities.shortText(groups[i]) + "'); Megatron-Core's parse_hybrid_pattern raises \"All MTP"
                        + " patterns must be identical\"");
            }
        }
        if (groups.length > MAX_MTP || first.length() > MAX_MTP) {
            return new MtpRead(null, "it writes " + groups.length + " MTP layer" + (groups.length == 1 ? "" : "s") + " of "
                    + first.length() + " block" + (first.length() == 1 ? "" : "s") + " after '/', past the " + MAX_MTP
                    + " the estimate reads");
        }
        StringBuilder kinds = new StringBuilder(first.length());
        for (int i = 0; i < first.length(); i++) kinds.append(kind(first.charAt(i)));
        return new MtpRead(new MtpGroups(groups.length, first.length(), kinds.toString()), null);
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
