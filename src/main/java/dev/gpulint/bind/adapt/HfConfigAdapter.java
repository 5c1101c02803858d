package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.scalar;

import dev.gpulint.catalog.Models;
import dev.gpulint.spec.Located;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A Hugging Face model configuration ({@code config.json}): not a job, but the shape of the model a job names by its
 * folder ({@code --model_name_or_path ./llama-ckpt}). Recognised by {@code architectures} or {@code model_type} with a
 * hidden size and a layer count under any of the names the architectures use (hidden_size, n_embd, d_model;
 * num_hidden_layers, n_layer, n_layers), at the top or in {@code text_config} (Gemma 3, Llama 4). It is read into a
 * {@link Models.Entry} whose source is the file; {@link ModelNames} gives it to the jobs that name its folder.
 */
final class HfConfigAdapter implements FormatAdapter {
    /** model_type values whose MLP is gated (SwiGLU, GeGLU: three matrices). */
    private static final Set<String> GATED = Set.of("llama", "llama4", "llama4_text", "mistral", "mixtral", "qwen2", "qwen2_moe",
            "qwen3", "qwen3_moe", "gemma", "gemma2", "gemma3", "gemma3_text", "deepseek_v2", "deepseek_v3", "olmo", "olmo2", "olmoe",
            "gpt_oss", "phi3", "granite", "granitemoe", "cohere", "internlm2", "baichuan", "exaone", "glm", "glm4", "glm4_moe");
    /** model_type values whose MLP is not gated (GeLU or ReLU², two matrices). */
    private static final Set<String> PLAIN = Set.of("gpt2", "gpt_neox", "gptj", "falcon", "mpt", "opt", "bloom", "nemotron", "nemotron_h",
            "gpt_bigcode", "starcoder2", "phi");

    @Override public String id() { return "hf-config"; }

    @Override public String displayName() { return "Hugging Face config.json"; }

    @Override public boolean accepts(ForeignDocument doc) { return accepts(doc.root()); }

    @Override public void bind(ForeignDocument doc, DraftSink sink) {
        java.util.Set<String> unknown = new java.util.TreeSet<>();
        List<dev.gpulint.core.Finding> beyond = beyondBounds(doc.root(), doc.file(), unknown);
        beyond.forEach(sink::finding);
        // no model shape built on a number the schema does not admit: a job naming this folder takes those sizes as unknown
        if (!beyond.isEmpty()) { sink.refusedConfig(doc.file(), unknown); return; }
        Models.Entry e = read(doc.root(), doc.file());
        if (e != null) sink.modelConfig(doc.file(), e);
        Models.Hybrid h = e == null ? null : hybrid(doc.root());
        if (h != null) sink.hybridConfig(doc.file(), h);
    }

    /**
     * A NemotronH config's layer kinds and Mamba-2 sizes (hybrid_override_pattern of M, *, - and E, one per layer;
     * mamba_num_heads, mamba_head_dim, ssm_state_size, n_groups, conv_kernel; the E layers' experts are {@link #read}'s
     * n_routed_experts, num_experts_per_tok, moe_intermediate_size and moe_shared_expert_intermediate_size), or null: no
     * pattern, or one {@link #read} refuses (other characters, another length than the layers, a Mamba size missing or past
     * {@link HybridLayers#MAX_SIZE}).
     */
    static Models.Hybrid hybrid(MappingNode root) {
        MappingNode m = body(root);
        String p = text(m, "hybrid_override_pattern");
        if (p == null || !p.matches("[M*\\-E]+") || p.length() != first(m, "num_hidden_layers", "n_layer", "n_layers", "num_layers")) return null;
        long heads = first(m, "mamba_num_heads"), headDim = first(m, "mamba_head_dim"), state = first(m, "ssm_state_size"),
                groups = first(m, "n_groups");
        // a size past HybridLayers' bound (the reader takes up to 15 digits): heads × head dimension could pass a long
        if (heads <= 0 || headDim <= 0 || state <= 0 || groups <= 0
                || Math.max(Math.max(heads, headDim), Math.max(state, groups)) > HybridLayers.MAX_SIZE) return null;
        return new Models.Hybrid(p, heads, headDim, state, groups, Math.max(1, first(m, "conv_kernel")));
    }

    /** The config.json keys read as a size, and the native schema's field each becomes ({@link #read}). */
    private static final List<Map.Entry<List<String>, dev.gpulint.bind.Schema.Field>> BOUNDED = List.of(
            bounded(List.of("hidden_size", "n_embd", "d_model"), "hidden_size"),
            bounded(List.of("num_hidden_layers", "n_layer", "n_layers", "num_layers"), "layers"),
            bounded(List.of("num_attention_heads", "n_head", "n_heads", "num_heads"), "attention_heads"),
            bounded(List.of("num_key_value_heads", "num_kv_heads", "n_head_kv"), "kv_heads"),
            bounded(List.of("intermediate_size", "ffn_hidden_size", "n_inner", "ffn_dim"), "ffn_hidden_size"),
            bounded(List.of("vocab_size", "padded_vocab_size"), "vocab_size"),
            bounded(List.of("max_position_embeddings", "n_positions", "max_seq_len", "seq_length"), "seq_length"),
            bounded(List.of("num_local_experts", "num_experts", "n_routed_experts"), "experts"),
            bounded(List.of("num_experts_per_tok", "experts_per_token", "num_experts_per_token", "moe_top_k"), "top_k"));

    private static Map.Entry<List<String>, dev.gpulint.bind.Schema.Field> bounded(List<String> keys, String field) {
        return Map.entry(keys, dev.gpulint.bind.Schema.field(dev.gpulint.bind.Schema.JOB, "model", field));
    }

    /**
     * SYN002 at each size written above its schema field's bound (a hidden size of 10^11, a head count of 21 digits, which
     * were read as unbounded longs or dropped unread). Only values above the bound: a config's 0 or -1 means "none" for
     * some keys, and is not a size gpulint takes.
     */
    static List<dev.gpulint.core.Finding> beyondBounds(MappingNode root, String file) {
        return beyondBounds(root, file, new java.util.HashSet<>());
    }

    /** As {@link #beyondBounds(MappingNode, String)}, adding to {@code unknown} each size's manifest path ("model.vocab_size"). */
    static List<dev.gpulint.core.Finding> beyondBounds(MappingNode root, String file, java.util.Set<String> unknown) {
        List<dev.gpulint.core.Finding> out = new java.util.ArrayList<>();
        MappingNode m = body(root);
        for (Map.Entry<List<String>, dev.gpulint.bind.Schema.Field> b : BOUNDED) {
            for (String k : b.getKey()) {
                ScalarNode s = scalar(m, k);
                Located<Long> v = s == null ? null : TreeValues.whole(s);
                if (v == null || v.value() <= b.getValue().max()) continue;
                String message = v.value() == Long.MAX_VALUE ? b.getValue().outOfRange(k, s.text()) : b.getValue().outOfRange(k, v.value());
                out.add(dev.gpulint.core.Finding.of("SYN002", s.span(), "hf-config:" + file + "/" + k, message));
                unknown.add("model." + b.getValue().name());
            }
        }
        return out;
    }

    /** layer_types names a layer that is not attention (Qwen3-Next's "linear_attention", a "mamba" layer). */
    private static boolean hybridLayerTypes(MappingNode m) {
        if (!(m.get("layer_types").orElse(null) instanceof dev.gpulint.tree.ListNode l)) return false;
        for (var i : l.items()) {
            if (i instanceof ScalarNode s && (s.text().contains("linear") || s.text().contains("mamba"))) return true;
        }
        return false;
    }

    static boolean accepts(MappingNode root) {
        if (root.get("architectures").isEmpty() && root.get("model_type").isEmpty()) return false;
        MappingNode m = body(root);
        return first(m, "hidden_size", "n_embd", "d_model") > 0 && first(m, "num_hidden_layers", "n_layer", "n_layers", "num_layers") > 0;
    }

    /** The shape a config states, or null when it lacks the hidden size, layers or heads. */
    static Models.Entry read(MappingNode root, String file) {
        MappingNode m = body(root);
        long hidden = first(m, "hidden_size", "n_embd", "d_model"), layers = first(m, "num_hidden_layers", "n_layer", "n_layers", "num_layers"),
                heads = first(m, "num_attention_heads", "n_head", "n_heads", "num_heads");
        if (hidden <= 0 || layers <= 0 || heads <= 0) return null;
        // a hybrid model is not transformer layers: NemotronH's Mamba-2, attention, MLP and MoE layers are read with their kinds
        // (hybrid, priced by MambaLayers); one hybrid() refuses, or Qwen3-Next's linear attention, is not priced, and
        // every layer priced as attention + MLP would overstate it (docs/plan.md, named models)
        if ((!m.get("hybrid_override_pattern").isEmpty() && hybrid(root) == null) || hybridLayerTypes(m)) return null;
        long kv = first(m, "num_key_value_heads", "num_kv_heads", "n_head_kv");
        if (kv <= 0 && bool(m, "multi_query") == Boolean.TRUE) kv = 1;
        if (kv <= 0) kv = first(map(m, "attn_config"), "kv_n_heads");                     // MPT
        long ffn = first(m, "intermediate_size", "ffn_hidden_size", "n_inner", "ffn_dim");
        long ratio = first(m, "expansion_ratio");                                          // MPT
        if (ffn <= 0 && ratio > 0) ffn = ratio * hidden;
        if (ffn <= 0) ffn = 4 * hidden;
        long dense = first(m, "intermediate_size_mlp");                                   // Llama 4: the dense layers' MLP
        long experts = Math.max(1, first(m, "num_local_experts", "num_experts", "n_routed_experts"));
        long moeFfn = experts > 1 ? first(m, "moe_intermediate_size") : 0;
        if (experts > 1 && moeFfn <= 0) moeFfn = ffn;
        long shared = first(m, "n_shared_experts", "num_shared_experts");
        long sharedSize = first(m, "shared_expert_intermediate_size", "moe_shared_expert_intermediate_size");
        // the shared experts' width, where stated, in experts' widths: NemotronH's one shared expert of 3712 beside experts of
        // 1856 (n_shared_experts 1) is two
        if (sharedSize > 0 && moeFfn > 0) shared = Math.max(1, Math.round((double) sharedSize / moeFfn));
        String type = text(m, "model_type");
        if (type == null) type = text(root, "model_type");
        Boolean tied = bool(m, "tie_word_embeddings");
        if (tied == null) tied = bool(root, "tie_word_embeddings");
        return new Models.Entry(file, List.of(), file, hidden, layers, heads, kv, first(m, "head_dim"), dense > 0 ? dense : ffn,
                first(m, "vocab_size", "padded_vocab_size"), first(m, "max_position_embeddings", "n_positions", "max_seq_len", "seq_length"),
                experts, experts > 1 ? Math.max(1, first(m, "num_experts_per_tok", "experts_per_token", "num_experts_per_token", "moe_top_k")) : 1,
                moeFfn, shared, first(m, "first_k_dense_replace"), Math.max(1, first(m, "interleave_moe_layer_step")),
                gated(type, text(m, "hidden_act"), text(m, "activation_function")), tied == null || tied,
                window(m), fullEvery(m, type), "gpt_oss".equals(type), first(m, "kv_lora_rank"),
                Models.Mla.of(first(m, "q_lora_rank"), first(m, "qk_nope_head_dim"), first(m, "qk_rope_head_dim"), first(m, "v_head_dim")),
                // GPT-OSS: swiglu_limit clamps the experts' GLU; its experts' projections carry biases (GptOssExperts'
                // gate_up_proj_bias and down_proj_bias, no config key)
                experts > 1 ? Math.max(0, decimal(m, "swiglu_limit")) : 0, experts > 1 && "gpt_oss".equals(type),
                // multi-token prediction: DeepSeek-V3's num_nextn_predict_layers, Qwen3-Next's mtp_num_hidden_layers (the MTP
                // modules its weights hold; ModelNames takes them for the Megatron-Bridge jobs that build from the config)
                Math.min(64, Math.max(0, first(m, "num_nextn_predict_layers", "mtp_num_hidden_layers"))));
    }

    /** sliding_window, unless use_sliding_window says it is off (Qwen 2 and 3 write a window they do not use). */
    private static long window(MappingNode m) {
        if (bool(m, "use_sliding_window") == Boolean.FALSE) return 0;
        return first(m, "sliding_window");
    }

    /**
     * Every n-th layer with full attention: Gemma 3's sliding_window_pattern; layer_types with full_attention every n-th
     * entry (GPT-OSS alternates: 2); Gemma 2 alternates by its architecture; 0 (every layer windowed) otherwise.
     */
    private static long fullEvery(MappingNode m, String type) {
        long pattern = first(m, "sliding_window_pattern");
        if (pattern > 0) return pattern;
        if (m.get("layer_types").orElse(null) instanceof dev.gpulint.tree.ListNode l && !l.items().isEmpty()) {
            long full = l.items().stream().filter(i -> i instanceof dev.gpulint.tree.ScalarNode s && s.text().contains("full")).count();
            return full == 0 ? 0 : Math.max(1, Math.round((double) l.items().size() / full));
        }
        return "gemma2".equals(type) ? 2 : 0;
    }

    /** Three MLP matrices: by the architecture, else by the activation (silu and the *glu names: gated). */
    private static boolean gated(String type, String act, String fn) {
        String t = type == null ? "" : type.toLowerCase(Locale.ROOT);
        if (GATED.contains(t)) return true;
        if (PLAIN.contains(t)) return false;
        String a = (act != null ? act : fn != null ? fn : "").toLowerCase(Locale.ROOT);
        return a.equals("silu") || a.equals("swish") || a.endsWith("glu");
    }

    /** The text model's configuration: {@code text_config} when the top level has no hidden size (multimodal configs). */
    private static MappingNode body(MappingNode root) {
        MappingNode t = map(root, "text_config");
        return t != null && first(root, "hidden_size", "n_embd", "d_model") <= 0 ? t : root;
    }

    private static long first(MappingNode m, String... keys) {
        if (m == null) return 0;
        for (String k : keys) {
            var v = TreeValues.integer(scalar(m, k));
            if (v != null && v.value() > 0) return v.value();
        }
        return 0;
    }

    /** A positive finite number (swiglu_limit: 7.0), 0 when absent or not one. */
    private static double decimal(MappingNode m, String key) {
        String t = text(m, key);
        if (t == null) return 0;
        try {
            double v = Double.parseDouble(t.strip());
            return Double.isFinite(v) && v > 0 ? v : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String text(MappingNode m, String key) {
        ScalarNode s = m == null ? null : scalar(m, key);
        return s == null || s.isNull() ? null : s.text();
    }

    private static Boolean bool(MappingNode m, String key) {
        var b = m == null ? null : TreeValues.bool(scalar(m, key));
        return b == null ? null : b.value();
    }
}
