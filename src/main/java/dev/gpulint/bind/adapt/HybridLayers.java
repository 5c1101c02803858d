package dev.gpulint.bind.adapt;

import dev.gpulint.bind.adapt.shell.Shell.Word;
import dev.gpulint.catalog.Models;
import dev.gpulint.spec.HybridPattern;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import java.util.Map;

/**
 * Megatron's hybrid Mamba models as a launch command or MODEL_ARGS writes them ({@code --is-hybrid-model} with
 * {@code --hybrid-layer-pattern}, formerly {@code --hybrid-override-pattern}: one character per layer, {@code M} Mamba-2,
 * {@code *} self-attention, {@code -} MLP, {@code E} MoE; {@code |} between pipeline stages is no layer but lays out the
 * pipeline, each segment one stage's layers ({@link HybridPattern}), and what follows the first
 * {@code /} are the MTP layers' blocks, one '/'-separated group per MTP layer: Nemotron 3 Super writes {@code ...EME/*E/*E} with
 * {@code --mtp-num-layers 2}, each MTP layer an attention and an MoE block; they are not decoder layers, the job's
 * {@link Specs.Mtp} counts them, its blocks per MTP layer the first group's letters). The pattern is the job's {@link Specs.Hybrid}, with the mixer's sizes {@code --mamba-num-heads},
 * {@code --mamba-head-dim}, {@code --mamba-state-dim}, {@code --mamba-num-groups} (each null when not written: the estimate
 * takes Megatron-LM's default and says so; derive/estimate/MambaLayers prices the layers by kind, its E layers as MoE layers
 * of the job's {@code --num-experts}, {@code --moe-router-topk}, {@code --moe-ffn-hidden-size} and
 * {@code --moe-shared-expert-intermediate-size}). A job without a pattern is priced as written, every one of its
 * {@code --num-layers} as attention + MLP (or MoE), and the plan says so in its assumptions; so is Nemotron 3 Super's
 * {@code --moe-latent-size} (experts on a latent projection of h), which the estimate does not price. Megatron-Core's newer
 * letters (D, +, C, H, W and {@code [...]} groups) are priced as the kind {@link HybridPattern} names for each, said in the
 * assumptions, but G: its layers are Megatron-Core's GatedDeltaNet of the {@code --linear-*} sizes (each not written the
 * default), beside any M's Mamba-2 mixer of the {@code --mamba-*} sizes ({@link Specs.Gdn}, priced by derive/estimate/MambaLayers.Gdn); a pattern past
 * {@link HybridPattern#MAX_CHARS} characters is SYN002 at the flag, and only ASCII blanks around it are trimmed; a character its parse_segment_layers refuses is SYN002 at that character ({@link HybridPattern#firstBad}).
 * Bounded: one pass over the pattern.
 */
final class HybridLayers {
    private HybridLayers() {}

    /**
     * Reads the switch, the pattern and the mixer's sizes of a Megatron job into the draft. A pattern written without the
     * switch is a hybrid too (Megatron-LM's is_hybrid_model is {@code args.hybrid_layer_pattern is not None}, and
     * pretrain_mamba.py builds a MambaModel without the switch: Megatron-LM's hybrid functional tests write the pattern with
     * {@code --export-model-type MambaModel} alone).
     */
    static void read(JobDraft j, Located<Boolean> hybrid, Word pattern, String patternFlag, Map<String, Word> flags) {
        read(j, hybrid, pattern, patternFlag, flags, java.util.function.UnaryOperator.identity());
    }

    /**
     * {@link #read(JobDraft, Located, Word, String, Map)} for a format that writes the sizes under other keys (Megatron-Bridge's
     * model provider: TransformerConfig's {@code mamba_num_heads}, {@code linear_num_key_heads}, ...): {@code flags} keyed by the
     * Megatron flag each one is, {@code named} the key the file writes for a flag, which the job's origin and SYN002 name.
     */
    static void read(JobDraft j, Located<Boolean> hybrid, Word pattern, String patternFlag, Map<String, Word> flags,
                     java.util.function.UnaryOperator<String> named) {
        boolean on = hybrid != null && Boolean.TRUE.equals(hybrid.value());
        if (!on && (pattern == null || !pattern.known() || pattern.text().isBlank())) return;
        // the layers as the file names them: --num-layers, a provider's model.num_layers, NeMo 2's model.config.num_layers
        String numLayers = named.apply("--num-layers");
        String kinds = null, layers = null;
        Specs.Gdn gdn = null;
        long gdnLayers = 0;
        String gdnPattern = null;
        if (pattern != null && pattern.known()) {
            // unquoted already: the shell's words and YAML's scalars come without their quotes (HybridLayersTest); ASCII blanks
            // around it trimmed, any other space kept, as Megatron-Core refuses it (HybridPattern.blank)
            String p = HybridPattern.strip(pattern.text());
            if (p.length() > HybridPattern.MAX_CHARS) {
                // the native field's bound (Schema.HYBRID_LAYERS): checked before any pass over the text, so the work stays linear in
                // what was read and the estimate never holds a pattern past it
                DraftValues.refuse(j, pattern.span(), patternFlag, p, "at most " + HybridPattern.MAX_CHARS + " characters (layer symbols,"
                        + " '|' and the MTP blocks after '/'; it has " + p.length() + "), the bound model.hybrid.pattern has, far above any"
                        + " published model's 118 layers", "every layer of " + numLayers + " is priced as attention + MLP (MoE where the job"
                        + " states experts), its Mamba-2 layers included");
                return;
            }
            // the decoder's layers: before the first '/' (what follows are the MTP layers' blocks), '|' between stages,
            // each segment a stage's layers (DraftBounds checks them against pp and makes them the job's split)
            // one read of the pattern: its decoder, stages, MTP groups and the letters priced as another kind
            HybridPattern read = HybridPattern.read(p);
            if (p.indexOf('/') >= 0) {
                String why = read != null ? read.mtpProblem() : HybridPattern.mtpProblem(p);
                mtp(j, p, pattern, patternFlag, why, read != null ? read.mtp() : HybridPattern.mtp(p));
            }
            HybridPattern.Bad bad = read == null ? HybridPattern.firstBad(p) : null;
            if (bad != null) {
                // a character Megatron-Core's parse_segment_layers refuses: SYN002 at it, and the job is priced without the pattern
                int lead = HybridPattern.leading(pattern.text());
                DraftValues.refuse(j, DraftBounds.at(new Located<>(pattern.text(), pattern.span()), lead + bad.index()), patternFlag, p,
                        "layer symbols Megatron-Core knows, one per layer (character " + (bad.index() + 1) + " is " + bad.why() + ")",
                        "every layer of " + numLayers + " is priced as attention + MLP (MoE where the job states experts), its Mamba-2"
                        + " layers included, and Megatron stops at start-up");
                return;
            }
            if (read == null && bad == null && !p.isEmpty()) {
                // every character reads, but no layer stands before the first '/' ("/*E", "|", "||/M"): Megatron-Core's decoder
                // has 0 layers, and allocation raises "The hybrid override pattern is the wrong length: got 0, expected N"
                DraftValues.refuse(j, pattern.span(), patternFlag, p, "one layer symbol per decoder layer before the first '/' (it holds"
                        + " none: '|' and what follows '/' are not decoder layers; Megatron-Core raises \"The hybrid override pattern is the"
                        + " wrong length: got 0, expected\" the " + numLayers + ")", "every layer of " + numLayers + " is priced as attention + MLP (MoE"
                        + " where the job states experts), its Mamba-2 layers included, and Megatron stops at start-up");
                return;
            }
            if (read != null) {
                layers = read.decoder();
                gdn = gdn(j, flags, p, named);
                gdnLayers = HybridPattern.gdnLayers(p);
                gdnPattern = HybridPattern.withGdn(p);
                // the kinds as priced: each G a gated delta net, each M a Mamba-2 mixer
                kinds = Models.Hybrid.kinds(gdnPattern != null ? gdnPattern : layers);
                String priced = read.priced();
                if (gdn != null) {
                    // the G layers priced as Megatron-Core's GatedDeltaNet (MambaLayers.Gdn), not as Mamba-2: not a stand-in's
                    priced = without(priced, HybridPattern.GDN_AS_MAMBA);
                }
                // without '|' too: DraftBounds checks the virtual stages written against the even split
                j.hybridStages = j.key(patternFlag, new Located<>(read.stages(), pattern.span()));
                if (priced != null) {
                    j.unpriced.add(patternFlag + " (" + kinds + " as priced): Megatron-Core's newer layer symbols are priced as the kind"
                            + " the estimate has nearest them: " + priced + "; the layer count is the pattern's, each such layer's"
                            + " time and memory are its stand-in's");
                }
            }
        }
        if (layers != null) {
            // the keys of the mixer sizes as the file writes them, written or not, which PAR015 names (JobDraft.hybridKeys)
            for (String flag : HYBRID_FLAGS) j.hybridKeys.put(field(flag), named.apply(flag));
            // Mamba-2 (or gated-delta-net), attention, MLP and MoE layers: priced by kind (MambaLayers), the defaults said there
            j.hybrid = new Specs.Hybrid(j.key(patternFlag, new Located<>(layers, pattern.span())), size(j, flags, "--mamba-num-heads", named),
                    size(j, flags, "--mamba-head-dim", named), size(j, flags, "--mamba-state-dim", named),
                    size(j, flags, "--mamba-num-groups", named), null,
                    gdn, gdnLayers, gdnPattern, java.util.Set.of());
            layersFromPattern(j, layers.length(), pattern, patternFlag, numLayers, kinds);
            Word latent = flags.get("--moe-latent-size");
            if (layers.indexOf('E') >= 0 && latent != null && latent.known()) {
                j.unpriced.add("--moe-latent-size " + latent.text() + " (" + kinds + "): the MoE layers' experts run on a latent"
                        + " projection of the hidden size (latent MoE), which the estimate does not price: the experts are priced at"
                        + " the hidden size, so their time and memory are overstated");
            }
            return;
        }
        j.unpriced.add((on ? "--is-hybrid-model" : patternFlag) + ": the estimate prices Mamba-2, attention, MLP and MoE layers by kind, not a job without"
                + " a " + patternFlag + " of M, *, - and E, so every layer of " + numLayers + " is priced as attention + MLP (MoE"
                + " where the job states experts), its Mamba-2 layers included: time and memory are overstated for them");
    }

    /**
     * The MTP layers after the pattern's first '/' ({@code *E/*E}: two MTP layers of two blocks), read as Megatron-Core reads
     * them ({@link HybridPattern#mtp}): the groups are the job's MTP layers, over a --mtp-num-layers written beside them, as
     * Megatron-LM's validate_args takes "the inferred value"; groups Megatron refuses are SYN002 at the pattern and read as no
     * MTP layers. Megatron-LM's num_floating_point_operations counts the pattern's letters after '/' as layers of their kind
     * (tests/unit_tests/test_training.py, expected_hybrid_flops: {@code hybrid_layer_pattern.replace("/", "")}).
     */
    private static void mtp(JobDraft j, String p, Word pattern, String patternFlag, String why, HybridPattern.MtpGroups g) {
        if (why != null) {
            DraftValues.refuse(j, pattern.span(), patternFlag, p, "after its first '/' one group of M, *, - and E per MTP layer, every"
                    + " group the same, at most " + HybridPattern.MAX_MTP + " (" + why + ")", "the job's MTP layers are left out of the"
                    + " estimate (the decoder's layers before '/' are read); Megatron stops at start-up");
            return;
        }
        if (g == null) return;
        j.mtpBlocks = new Located<>(g.blocks(), pattern.span());
        j.mtpLetters = new Located<>(g.letters(), pattern.span());
        j.mtpLayers = j.key(patternFlag, new Located<>(g.layers(), pattern.span()));
        j.unknownShape.remove("model.mtp_layers");      // a placeholder --mtp-num-layers: the groups are the count Megatron takes
    }

    /**
     * The model's layers counted from the pattern when the file states none ({@code numLayers}, as the file names it, absent
     * or a placeholder), as the framework counts them: Megatron-Core's get_hybrid_total_layer_count takes the layer symbols
     * before the first '/' and counts no '|' (NVIDIA/Megatron-LM megatron/core/models/hybrid/hybrid_layer_allocation.py at
     * 7acb0753da6321bec5986eb9c619609f2f3c1598; its tests count "M-M-|M-M*-" as 9 layers, and the same followed by two MTP groups after a '/' as 9 too), so the MTP blocks after '/'
     * are not decoder layers. Megatron-LM derives --num-layers from the pattern since its --hybrid-layer-pattern rename
     * (NVIDIA/Megatron-LM pull request 3377, which deprecated --hybrid-override-pattern: Megatron-Bridge's
     * src/megatron/bridge/training/mlm_compat/arguments.py, mirroring Megatron-LM's load_args_from_checkpoint, notes "num_layers
     * is now derived from hybrid_layer_pattern in validate_args and should not be set at the same time", and Megatron-LM's own
     * hybrid functional test hybrid_nemotron_v3_pico_7b_a1b_tp1_ep8_QAD writes the pattern and no --num-layers; the
     * validate_args revision itself is not among the stored sources, so no Megatron-LM commit is named), and Megatron-Bridge's
     * HybridModelProvider.finalize does the same (src/megatron/bridge/models/hybrid/hybrid_provider.py at
     * eddbe88e3983d5e8b60ac12fa5cdb13d18bb1f05: {@code self.num_layers = get_hybrid_total_layer_count(...)}, asserting a
     * written num_layers equal); a provider of the older {@code hybrid_override_pattern} is not given the count, for
     * MambaModelProvider derives it in some versions and not in others (src/megatron/bridge/models/mamba/mamba_provider.py at
     * 2a25139dcff6cfdfb7492caf782facf66841e67a has no finalize and keeps its own num_layers). NeMo 2's SSMConfig derives nothing (its num_layers is a field of its own, default 2:
     * nemo/collections/llm/gpt/model/ssm.py at 5d0e0cef406b19bf0019eaf64f257d0971dda782), so a NeMo 2 recipe is left as it
     * writes it. A count written beside the pattern is kept: PAR014 checks it against the pattern. A group {@code [M-]} counts
     * its letters, as {@link HybridPattern#decoder} prices them (at 7acb0753 a group was one block for this count).
     */
    private static void layersFromPattern(JobDraft j, long count, Word pattern, String patternFlag, String numLayers, String kinds) {
        boolean flags = numLayers.startsWith("--");
        // NeMo 2's SSMConfig derives none; nor Megatron-Bridge's MambaModelProvider of hybrid_override_pattern in every version
        if (j.layers != null || numLayers.startsWith("model.config.") || !flags && patternFlag.endsWith("hybrid_override_pattern")) return;
        boolean placeholder = j.unknownShape.remove("model.layers");
        j.layers = j.key(patternFlag, new Located<>(count, pattern.span()));
        j.unpriced.add(numLayers + " " + count + " from " + patternFlag + " (" + kinds + "): the job "
                + (placeholder ? "writes " + numLayers + " as a value gpulint cannot read" : "writes no " + numLayers) + ", and "
                + (flags ? "Megatron-LM derives it from the pattern (validate_args, since the --hybrid-layer-pattern rename of"
                        + " NVIDIA/Megatron-LM pull request 3377; an older Megatron-LM needs --num-layers equal to it)"
                        : "Megatron-Bridge's HybridModelProvider.finalize derives it from the pattern, asserting a written one equal")
                + " as Megatron-Core's get_hybrid_total_layer_count counts it: the layer symbols before the first '/', '|' not counted");
    }

    /** The gated delta net's size flags, in Specs.Gdn's order (Megatron-Core TransformerConfig's linear_* fields as arguments.py exposes them). */
    static final java.util.List<String> GDN_FLAGS = java.util.List.of("--linear-num-key-heads", "--linear-num-value-heads",
            "--linear-key-head-dim", "--linear-value-head-dim", "--linear-conv-kernel-dim");

    /**
     * The gated delta net's sizes when the pattern {@code p} (as written, its MTP blocks included) builds its mixers as
     * Megatron-Core's GatedDeltaNet ({@code G}): each {@code --linear-*} size written read (SYN002 past the bounds, as a
     * Mamba-2 size), the others Megatron-Core's defaults (MambaLayers, said there), for Megatron-Core builds every G layer
     * as a GatedDeltaNet of its TransformerConfig's linear_* sizes, written or not (hybrid_layer_specs.py's gdn_layer).
     * Null when the pattern holds no G (the flags then size a GPT model's linear attention, --experimental-attention-variant,
     * not read here). A pattern of both M and G has both mixers (hybrid_layer_specs.py builds an M as MambaMixer of the
     * --mamba-* sizes and a G as GatedDeltaNet of the --linear-* sizes, each from one TransformerConfig): each is priced with
     * its own sizes (MambaLayers) and PAR015 checks both against tp.
     */
    private static Specs.Gdn gdn(JobDraft j, Map<String, Word> flags, String p, java.util.function.UnaryOperator<String> named) {
        if (p.indexOf('G') < 0) return null;
        String why = "(" + takesAnInt(named) + "; its GatedDeltaNet divides its heads and widths by tp)";
        return new Specs.Gdn(size(j, flags, GDN_FLAGS.get(0), why, named), size(j, flags, GDN_FLAGS.get(1), why, named),
                size(j, flags, GDN_FLAGS.get(2), why, named), size(j, flags, GDN_FLAGS.get(3), why, named),
                size(j, flags, GDN_FLAGS.get(4), why, named));
    }

    /** {@code list} (entries joined by ", ") without the entry {@code entry}; null when nothing is left. */
    private static String without(String list, String entry) {
        if (list == null || list.equals(entry)) return null;
        return list.replace(entry + ", ", "").replace(", " + entry, "");
    }

    /** The largest Mamba-2 size read (heads, head dimension, state, groups): 2^16, far above any published mixer's (128 heads of 64, state 256, 8 groups), and its products stay well inside a long. */
    static final long MAX_SIZE = 1L << 16;

    /**
     * A mixer size as written: a whole number from 1 to {@link #MAX_SIZE}. Megatron's argparse takes only an int and its
     * MambaMixer divides by heads and groups, so 0, a negative number or a word is SYN002 at the value, as is a size past
     * the bound (it would overflow the estimate), and the size is read as not written: Megatron-LM's default, said in the
     * assumptions.
     */
    private static Located<Long> size(JobDraft j, Map<String, Word> flags, String flag, java.util.function.UnaryOperator<String> named) {
        return size(j, flags, flag, "(" + takesAnInt(named) + "; its MambaMixer divides by heads and groups)", named);
    }

    /**
     * What takes the sizes, in the words of the file's format: Megatron's argparse for its flags ({@code named} keeps them),
     * else the model config's TransformerConfig fields, typed int (Megatron-Bridge's providers, NeMo 2's SSMConfig).
     */
    private static String takesAnInt(java.util.function.UnaryOperator<String> named) {
        return named.apply("--num-layers").startsWith("--") ? "Megatron's argparse takes an int"
                : "Megatron-Core's TransformerConfig field is an int";
    }

    /** Whose default a size not read takes, in the file's words: Megatron-LM's for its flags, else TransformerConfig's field's. */
    private static String whoseDefault(java.util.function.UnaryOperator<String> named) {
        return named.apply("--num-layers").startsWith("--") ? "Megatron-LM's default" : "Megatron-Core's default";
    }

    /** {@link #size(JobDraft, Map, String)}, {@code why} saying why a whole number from 1 is needed. */
    private static Located<Long> size(JobDraft j, Map<String, Word> flags, String flag, String why,
                                      java.util.function.UnaryOperator<String> named) {
        Word w = flags.get(flag);
        if (w == null || !w.known()) return null;
        Located<Long> n = MegatronAdapter.located(w);
        if (n != null && n.value() >= 1 && n.value() <= MAX_SIZE) return j.key(named.apply(flag), n);
        DraftValues.refuse(j, w.span(), named.apply(flag), w.text(), "a whole number from 1 to " + MAX_SIZE + " " + why,
                "the estimate takes " + whoseDefault(named) + " for it");
        return null;
    }

    /**
     * A hybrid model's layers as a Megatron-Core TransformerConfig written as YAML states them (Megatron-Bridge's model provider,
     * {@code model.}; NeMo 2's SSMConfig, {@code model.config.}, nemo/collections/llm/gpt/model/ssm.py: its
     * {@code hybrid_override_pattern} and mamba_* fields; the older {@code mamba_ssm_ngroups} is not read): {@code hybrid_layer_pattern} (HybridModelProvider,
     * megatron/bridge/models/hybrid/hybrid_provider.py; Qwen3-Next's and Qwen3.5's {@code G*}/{@code GE} blocks are built there,
     * NVIDIA-NeMo/Megatron-Bridge src/megatron/bridge/models/qwen/qwen_hybrid.py at 6cf7525d66de464fb3ddbe0e2f7b5c593ea7e113,
     * {@code qwen_hybrid_layer_pattern}), formerly {@code hybrid_override_pattern} (MambaModelProvider, Nemotron-H), with the
     * mixers' sizes as TransformerConfig's fields ({@code mamba_num_heads}, {@code mamba_head_dim}, {@code mamba_state_dim},
     * {@code mamba_num_groups}; {@code linear_num_key_heads}, {@code linear_num_value_heads}, {@code linear_key_head_dim},
     * {@code linear_value_head_dim}, {@code linear_conv_kernel_dim}), read as a Megatron script's flags are
     * ({@link HybridLayers}: G layers gated delta nets, each size not written Megatron-Core's default; refused sizes SYN002 at
     * the value, named by their key as the file writes it, {@code at} and the field: {@code model.mamba_num_groups},
     * {@code model.config.mamba_num_groups}, which PAR015 names too, and which the job's origin records written or not,
     * JobDraft#hybridKeys). None written: nothing read.
     */
    static void config(JobDraft j, dev.gpulint.tree.MappingNode model, String at) {
        String key = null;
        dev.gpulint.tree.ScalarNode pattern = null;
        for (String k : new String[] {"hybrid_layer_pattern", "hybrid_override_pattern"}) {
            dev.gpulint.tree.Node n = model == null ? null : model.get(k).orElse(null);
            // a list or a mapping is no pattern (the provider's field is a str): SYN002, not a job silently priced as transformer layers
            if (n instanceof dev.gpulint.tree.ListNode || n instanceof dev.gpulint.tree.MappingNode) {
                DraftValues.refuse(j, n.span(), at + k, n instanceof dev.gpulint.tree.ListNode ? "a list" : "a mapping",
                        "one string of layer symbols (Megatron-Core's " + k + " is a str)", "every layer is priced as attention + MLP");
                return;
            }
            dev.gpulint.tree.ScalarNode s = TreeValues.scalar(model, k);
            if (s != null && !s.isNull() && !s.text().strip().equalsIgnoreCase("null")) { key = k; pattern = s; break; }
        }
        if (pattern == null) return;
        Map<String, Word> flags = new java.util.HashMap<>();
        for (String flag : HYBRID_FLAGS) {
            dev.gpulint.tree.ScalarNode s = TreeValues.scalar(model, field(flag));
            if (s != null && !s.isNull()) flags.put(flag, new Word(s.text(), !TreeValues.placeholder(s.text()), s.span()));
        }
        HybridLayers.read(j, null, new Word(pattern.text(), !TreeValues.placeholder(pattern.text()),
                pattern.span()), at + key, flags, flag -> at + field(flag));
    }

    /** The Megatron flags of the hybrid's mixer sizes, each TransformerConfig's field of that name ({@link #field}). */
    private static final String[] HYBRID_FLAGS = {"--mamba-num-heads", "--mamba-head-dim", "--mamba-state-dim", "--mamba-num-groups",
            "--linear-num-key-heads", "--linear-num-value-heads", "--linear-key-head-dim", "--linear-value-head-dim", "--linear-conv-kernel-dim"};

    /** TransformerConfig's field a Megatron flag sets (megatron/training/arguments.py builds the flags from the fields): "--mamba-num-heads" → "mamba_num_heads". */
    private static String field(String flag) {
        return flag.substring(2).replace('-', '_');
    }
}
