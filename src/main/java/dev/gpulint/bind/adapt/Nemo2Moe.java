package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.TreeValues.scalar;

import dev.gpulint.spec.Located;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;

/**
 * What `gpulint plan` reads of an MoE model and of the attention variant from a NeMo 2 / Megatron-Bridge recipe's
 * {@code model.config} (Megatron-Core's TransformerConfig names, the same as Megatron-LM's flags without the dashes):
 * moe_router_topk, moe_ffn_hidden_size, moe_shared_expert_intermediate_size, moe_layer_freq, moe_expert_capacity_factor,
 * moe_pad_expert_input_to_capacity, moe_token_dispatcher_type, moe_grouped_gemm, overlap_moe_expert_parallel_comm,
 * activation_func_clamp_value, add_bias_linear (the experts' clamped GLU and biases, ExpertPasses),
 * window_size, window_attn_skip_freq, multi_latent_attention with kv_lora_rank, attention_backend (AttentionBackends).
 * Each key is the value's key in messages.
 */
final class Nemo2Moe {
    private Nemo2Moe() {}

    static void read(JobDraft j, MappingNode config) {
        read(j, config, "model.config.", NemoNumbers.Reader.NEMO2);
    }

    /**
     * An MoE job that does not write its token dispatcher runs Megatron-Core's default, allgather: TransformerConfig's
     * {@code moe_token_dispatcher_type: str = "allgather"} ("The default is 'allgather'", megatron/core/transformer/
     * transformer_config.py in every NVIDIA/Megatron-LM version the code index holds) and Megatron-LM's
     * {@code --moe-token-dispatcher-type} (megatron/training/arguments.py, {@code default='allgather'}). So a Megatron-LM
     * script without the flag and a NeMo 1 config without the key (its build_transformer_config copies only the keys
     * written, megatron_base_model.py; megatron_gpt_config.yaml writes none) are priced with the allgather dispatcher, placed
     * at the expert count, and the assumptions say so. {@code written}: the setting is written (a placeholder too), so no
     * default stands in. NeMo 2 recipes and Megatron-Bridge files take their config class's: {@link #nemo2DispatcherDefault}, {@link #bridgeDispatcherDefault}.
     */
    static void dispatcherDefault(JobDraft j, String key, boolean written, String framework) {
        if (written || j.dispatcher != null || j.experts == null || j.experts.value() == null || j.experts.value() <= 1) return;
        j.dispatcher = new Located<>("allgather", j.experts.span());
        if (j.ep != null && j.ep.value() != null && j.ep.value() > 1) {
            j.unpriced.add(key + " not written: the allgather dispatcher, " + framework + "'s default (Megatron-Core's"
                    + " TransformerConfig.moe_token_dispatcher_type = \"allgather\"): every expert-parallel rank all-gathers the"
                    + " group's tokens and reduce-scatters the outputs; write alltoall (or flex) for the all-to-all dispatch");
        }
    }

    /** NeMo 2's config classes that declare their own dispatcher: MixtralConfig and its sizes, "alltoall" (mixtral.py). */
    private static final java.util.Set<String> NEMO2_ALLTOALL = java.util.Set.of("MixtralConfig", "MixtralConfig8x3B",
            "MixtralConfig8x7B", "MixtralConfig8x22B");

    /**
     * The dispatcher a NeMo 2 recipe runs when its {@code model.config} does not write one: its config class's default, as
     * fiddle builds the class with only the fields the recipe sets. MixtralConfig (and 8x3B, 8x7B, 8x22B) declares
     * {@code moe_token_dispatcher_type: str = "alltoall"} (nemo/collections/llm/gpt/model/mixtral.py, NVIDIA/NeMo at commit
     * 02f25a80bb783e04558303bed0d967bbcc486bdb); GPTConfig declares none (nemo/collections/llm/gpt/model/base.py, the code
     * index's stored version), so Megatron-Core's TransformerConfig default, allgather, stands ({@link #dispatcherDefault}).
     * Another class is not known here: the estimate's own default stays, said in the assumptions as before.
     */
    static void nemo2DispatcherDefault(JobDraft j, MappingNode config) {
        if (config == null || config.get("moe_token_dispatcher_type").isPresent() || j.dispatcher != null) return;
        String cls = Nemo2Configs.className(config);
        if (cls == null) return;
        String key = "model.config.moe_token_dispatcher_type";
        if (NEMO2_ALLTOALL.contains(cls)) {
            ScalarNode target = scalar(config, "_target_");
            j.dispatcher = new Located<>("alltoall", target.span());
            if (j.ep != null && j.ep.value() != null && j.ep.value() > 1) {
                j.unpriced.add(key + " not written: alltoall, NeMo 2's " + cls + " default (MixtralConfig.moe_token_dispatcher_type"
                        + " = \"alltoall\", nemo/collections/llm/gpt/model/mixtral.py)");
            }
        } else if (cls.equals("GPTConfig")) {
            dispatcherDefault(j, key, false, "NeMo 2 GPTConfig");
        }
    }

    /**
     * The dispatcher a Megatron-Bridge model runs when the file names its class and writes no dispatcher: the class is built
     * from the file's fields alone (ConfigContainer.from_yaml, or omegaconf_utils' apply_overrides instantiating a
     * {@code _target_} mapping), and GPTModelProvider declares no dispatcher (src/megatron/bridge/models/gpt_provider.py,
     * NVIDIA-NeMo/Megatron-Bridge at commit 0254ddd4418307d47f3d5fab32cdfdb29926b4d6), so Megatron-Core's allgather stands
     * ({@link #dispatcherDefault}). A run's dump writes the dispatcher; an override file without a model {@code _target_}
     * keeps its recipe's, which the file does not show: the estimate's own default stays there.
     */
    static void bridgeDispatcherDefault(JobDraft j, MappingNode model, String at) {
        if (model == null || model.get("moe_token_dispatcher_type").isPresent()) return;
        String t = TreeValues.text(model, "_target_");
        if (t != null && t.strip().substring(t.strip().lastIndexOf('.') + 1).equals("GPTModelProvider")) {
            dispatcherDefault(j, at + "moe_token_dispatcher_type", false, "Megatron-Bridge GPTModelProvider");
        }
    }

    /**
     * As {@link #read(JobDraft, MappingNode)}, each key named under {@code at} (Megatron-Bridge writes the config as
     * {@code model.}, NeMo 1 as {@code model.}), its whole numbers read as {@code r}'s framework gets them ({@link NemoNumbers}:
     * a quoted '8', a list, a float is SYN002 at the value, as the adapters' own sizes). The MoE sizes of a config that states
     * no experts ({@code num_moe_experts} null or at most 1: a dense model's dump still writes moe_router_topk) are read as
     * before, not judged: no MoE layer computes with them.
     */
    static void read(JobDraft j, MappingNode config, String at, NemoNumbers.Reader r) {
        if (config == null) return;
        dev.gpulint.tree.Node stated = config.get("num_moe_experts").orElse(null);
        Located<Long> statedExperts = stated instanceof ScalarNode se ? TreeValues.whole(se) : null;
        boolean statedDense = stated instanceof ScalarNode se && (se.isNull() || se.text().strip().equalsIgnoreCase("null")
                || statedExperts != null && statedExperts.value() <= 1);
        java.util.function.Function<String, Located<Long>> moeInt = k -> j.key(at + k, statedDense
                ? TreeValues.whole(scalar(config, k)) : NemoNumbers.read(j, config.get(k).orElse(null), k, at + k, r));
        if (j.topK == null) j.topK = moeInt.apply("moe_router_topk");
        j.moeFfn = moeInt.apply("moe_ffn_hidden_size");
        j.sharedFfn = moeInt.apply("moe_shared_expert_intermediate_size");
        j.moeLayerFreq = j.key(at + "moe_layer_freq", text(scalar(config, "moe_layer_freq")));
        Located<String> cf = text(scalar(config, "moe_expert_capacity_factor"));
        if (cf != null) {
            try {
                double v = Double.parseDouble(cf.value().strip());
                if (v > 0 && v < 1e6) j.capacityFactor = j.key(at + "moe_expert_capacity_factor", new Located<>(v, cf.span()));
            } catch (NumberFormatException e) {
                // null or text: dropless, as absent
            }
        }
        j.padToCapacity = TreeValues.bool(scalar(config, "moe_pad_expert_input_to_capacity"));
        // the experts' clamped GLU and biases (GPT-OSS: activation_func_clamp_value 7.0, add_bias_linear True), as stated
        Located<Long> experts = TreeValues.whole(scalar(config, "num_moe_experts"));
        boolean moe = experts != null && experts.value() != null && experts.value() > 1;
        Located<String> clamp = moe ? text(scalar(config, "activation_func_clamp_value")) : null;
        if (clamp != null) {
            try {
                double v = Double.parseDouble(clamp.value().strip());
                if (v > 0 && v < 1e6) j.activationClamp = j.key(at + "activation_func_clamp_value", new Located<>(v, clamp.span()));
            } catch (NumberFormatException e) {
                // null or text: not clamped, as absent
            }
        }
        // add_bias_linear as stated, true or false: a stated false wins over the model catalog's expert_bias (ModelNames fills
        // only what the files leave unsaid; NeMo 2's GPT-OSS config may state it off); read unless the config states no experts
        boolean dense = experts != null && experts.value() != null && experts.value() <= 1;
        Located<Boolean> bias = dense ? null : TreeValues.bool(scalar(config, "add_bias_linear"));
        if (bias != null && bias.value() != null) j.expertBias = j.key(at + "add_bias_linear", bias);
        j.dispatcher = j.key(at + "moe_token_dispatcher_type", text(scalar(config, "moe_token_dispatcher_type")));
        Located<String> backend = AttentionBackends.kernel(j, at + "attention_backend", text(scalar(config, "attention_backend")));
        if (backend != null) j.attentionKernel = backend;
        j.groupedGemm = TreeValues.bool(scalar(config, "moe_grouped_gemm"));
        j.moeOverlap = TreeValues.bool(scalar(config, "overlap_moe_expert_parallel_comm"));
        // window_size: [w, 0] or "(w, 0)"; the first number is the window a query looks back
        ScalarNode w = scalar(config, "window_size");
        if (w == null && config.get("window_size").orElse(null) instanceof dev.gpulint.tree.ListNode l && !l.items().isEmpty()
                && l.items().get(0) instanceof ScalarNode first) {
            w = first;
        }
        Located<String> window = text(w);
        if (window != null) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\s*[\\[(]?\\s*([0-9]+)\\b.*").matcher(window.value().length() <= 64 ? window.value() : "");
            Located<Long> left = m.matches() ? TreeValues.whole(m.group(1), window.span()) : null;
            if (left != null && left.value() > 0) j.window = j.key(at + "window_size", left);
        }
        j.fullEvery = j.key(at + "window_attn_skip_freq", TreeValues.whole(scalar(config, "window_attn_skip_freq")));
        Located<Boolean> mla = TreeValues.bool(scalar(config, "multi_latent_attention"));
        java.util.function.Function<String, Located<Long>> dim = k -> j.key(at + k, NemoNumbers.read(j, config.get(k).orElse(null), k, at + k, r));
        boolean ranked = config.get("kv_lora_rank").orElse(null) instanceof ScalarNode kr && !kr.isNull()
                && !kr.text().strip().equalsIgnoreCase("null") && !TreeValues.placeholder(kr.text());
        if (ranked || mla != null && mla.value()) {
            Located<Long> rank = ranked ? dim.apply("kv_lora_rank") : null;
            if (rank != null) j.kvLoraRank = rank;
            else if (mla != null && mla.value()) j.kvLoraRank = j.key(at + "kv_lora_rank", new Located<>(0L, mla.span()));
            // NeMo 2's MLATransformerConfig names (Megatron-Core's): q_lora_rank, qk_head_dim, qk_pos_emb_head_dim, v_head_dim
            j.qLoraRank = dim.apply("q_lora_rank");
            j.qkHeadDim = dim.apply("qk_head_dim");
            j.qkRopeHeadDim = dim.apply("qk_pos_emb_head_dim");
            j.vHeadDim = dim.apply("v_head_dim");
        }
    }

    /** A scalar's text, unless null or a placeholder. */
    private static Located<String> text(ScalarNode s) {
        if (s == null || s.isNull() || s.text().strip().equalsIgnoreCase("null") || s.text().strip().equalsIgnoreCase("none")
                || TreeValues.placeholder(s.text())) {
            return null;
        }
        return new Located<>(s.text().strip(), s.span());
    }
}
