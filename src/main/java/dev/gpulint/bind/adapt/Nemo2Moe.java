package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.TreeValues.scalar;

import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;

/**
 * What `gpulint plan` reads of an MoE model and of the attention variant from a NeMo 2 / Megatron-Bridge recipe's
 * {@code model.config} (Megatron-Core's TransformerConfig names, the same as Megatron-LM's flags without the dashes):
 * moe_router_topk, moe_ffn_hidden_size, moe_shared_expert_intermediate_size, moe_layer_freq, moe_expert_capacity_factor,
 * moe_pad_expert_input_to_capacity, moe_token_dispatcher_type, moe_flex_dispatcher_backend, moe_router_num_groups,
 * moe_router_group_topk, moe_grouped_gemm, overlap_moe_expert_parallel_comm,
 * activation_func_clamp_value, add_bias_linear (the experts' clamped GLU and biases, ExpertPasses),
 * window_size, window_attn_skip_freq, multi_latent_attention with kv_lora_rank, attention_backend (AttentionBackends).
 * Each key is the value's key in messages.
 */
final class Nemo2Moe {
    private Nemo2Moe() {}

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

    /**
     * A config class's own {@code moe_token_dispatcher_type}: the value, the class that declares it (the class itself or a
     * parent), and where (the framework's file and the commit of the code index's stored version read).
     */
    record Declared(String value, String declarer, String source) {}

    private static Declared alltoall(String declarer, String source) {
        return new Declared("alltoall", declarer, source);
    }

    private static void all(java.util.Map<String, Declared> m, Declared d, String... classes) {
        for (String c : classes) m.put(c, d);
    }

    /**
     * NeMo 2's config classes that declare their dispatcher, each with its subclasses (nemo/collections/llm/gpt/model/, NVIDIA/NeMo):
     * MixtralConfig (mixtral.py at 02f25a80bb783e04558303bed0d967bbcc486bdb), Qwen3MoEConfig (qwen3.py at
     * 00558c4f408c02d133d51d4e756a0f970b445606), DeepSeekConfig, the parent of DeepSeekV2Config, DeepSeekV2LiteConfig and
     * DeepSeekV3Config (deepseek.py at 04e9360c117339b24c715080bae6ffb5c17fb2cc), GPTOSSConfig (gpt_oss.py at
     * 15253fa94ec3af9e3f29072a5501c747b4f41cb0), Llama4Config (llama.py, read in the code index's newest stored version, for
     * which the index gives no commit; the one version of llama.py it pins, 6130ca023b746ada345aaff9c7e8f136bc3af77b, predates
     * Llama4Config, so the commit is unverified, the class's text is not): all {@code moe_token_dispatcher_type: str = "alltoall"}.
     */
    static final java.util.Map<String, Declared> NEMO2_DECLARED = new java.util.HashMap<>();
    static {
        all(NEMO2_DECLARED, alltoall("MixtralConfig", "nemo/collections/llm/gpt/model/mixtral.py at 02f25a8"), "MixtralConfig",
                "MixtralConfig8x3B", "MixtralConfig8x7B", "MixtralConfig8x22B");
        all(NEMO2_DECLARED, alltoall("Qwen3MoEConfig", "nemo/collections/llm/gpt/model/qwen3.py at 00558c4"), "Qwen3MoEConfig",
                "Qwen3Config30B_A3B", "Qwen3Config235B_A22B");
        all(NEMO2_DECLARED, alltoall("DeepSeekConfig", "nemo/collections/llm/gpt/model/deepseek.py at 04e9360"), "DeepSeekConfig",
                "DeepSeekV2Config", "DeepSeekV2LiteConfig", "DeepSeekV3Config");
        all(NEMO2_DECLARED, alltoall("GPTOSSConfig", "nemo/collections/llm/gpt/model/gpt_oss.py at 15253fa"), "GPTOSSConfig",
                "GPTOSSConfig120B", "GPTOSSConfig20B");
        all(NEMO2_DECLARED, alltoall("Llama4Config", "nemo/collections/llm/gpt/model/llama.py as the code index stores it, commit unverified"),
                "Llama4Config", "Llama4Experts16Config", "Llama4Experts128Config");
    }

    /**
     * NeMo 2 classes whose dispatcher could not be verified, and why: the estimate's own default stays, said so. NemotronH's
     * configs (ssm.py: NemotronHConfigBase, as stored, declares no MoE field; NeMo 2's Nemotron 3 MoE config is not in the code
     * index); Qwen2's (qwen2.py at 6356bb81 has no MoE config: a Qwen2-MoE class named is no NeMo 2 class known here).
     */
    private static String nemo2Unverified(String cls) {
        if (cls.startsWith("NemotronH") || cls.startsWith("NemotronNano") || cls.startsWith("Nemotron3")) {
            return "nemo/collections/llm/gpt/model/ssm.py as stored declares no MoE field for the NemotronH configs, and no NeMo 2"
                    + " Nemotron 3 MoE config could be read";
        }
        if (cls.startsWith("Qwen2")) return "nemo/collections/llm/gpt/model/qwen2.py at 6356bb8 has no Qwen2 MoE config";
        return "a class not read here";
    }

    /**
     * The dispatcher a NeMo 2 recipe runs when its {@code model.config} does not write one: its config class's default, as
     * fiddle builds the class with only the fields the recipe sets ({@link #NEMO2_DECLARED}); GPTConfig declares none
     * (nemo/collections/llm/gpt/model/base.py, the code index's stored version), so Megatron-Core's TransformerConfig default,
     * allgather, stands ({@link #dispatcherDefault}). Another class (NemotronH's, a name not read) keeps the estimate's own
     * default, with an assumptions line naming the class at ep &gt; 1.
     */
    static void nemo2DispatcherDefault(JobDraft j, MappingNode config) {
        if (config == null || config.get("moe_token_dispatcher_type").isPresent() || j.dispatcher != null || statesDense(config)) return;
        String cls = Nemo2Configs.className(config);
        if (cls == null) return;
        String key = "model.config.moe_token_dispatcher_type";
        Declared d = NEMO2_DECLARED.get(cls);
        if (d != null) declared(j, key, d, "NeMo 2's " + cls, scalar(config, "_target_"));
        else if (cls.equals("GPTConfig")) dispatcherDefault(j, key, false, "NeMo 2 GPTConfig");
        else unverified(j, key, "NeMo 2's " + cls, nemo2Unverified(cls));
    }

    /**
     * Megatron-Bridge's providers that declare their dispatcher, each with its subclasses (src/megatron/bridge/models/,
     * NVIDIA-NeMo/Megatron-Bridge): Qwen3MoEModelProvider (Qwen3NextModelProvider is its subclass) and Qwen3NextMambaModelProvider
     * (qwen/qwen_provider.py at fb8a4d6bffdc62ddcd78fc520a4304353d52aca1), GPTOSSProvider (gpt_oss/gpt_oss_provider.py at
     * 355cef457010f70533a5c83f1ed97899d0e0af43), MixtralModelProvider (mixtral/mixtral_provider.py at
     * 556b474d34f88ccf7f4521bb6142c5c2a7ca809a), Llama4ModelProvider (llama/llama_provider.py at
     * 2afd2d34f7d7b2e84095af1a7fd7244902189ebc), NemotronHModelProvider with Nemotron 3 Nano's Nemotron3NanoProvider and the
     * deprecated aliases (nemotronh/nemotron_h_provider.py at d9f7643bb9609a6a6e0ea1439fb51d8669306434), the deprecated
     * DeepSeekModelProvider (deepseek/deepseek_provider.py at 355cef45): all "alltoall". GPTModelProvider declares none
     * (gpt_provider.py at 0254ddd4418307d47f3d5fab32cdfdb29926b4d6), nor MLAModelProvider (mla_provider.py at
     * 3605c63d190464209ec674bcb6141d48a4b7389d: MLATransformerConfig and GPTModelProvider, no field of its own): Megatron-Core's
     * allgather.
     */
    static final java.util.Map<String, Declared> BRIDGE_DECLARED = new java.util.HashMap<>();
    static {
        all(BRIDGE_DECLARED, alltoall("Qwen3MoEModelProvider", "qwen/qwen_provider.py at fb8a4d6"), "Qwen3MoEModelProvider",
                "Qwen3MoEModelProvider30B_A3B", "Qwen3MoEModelProvider235B_A22B", "Qwen3NextModelProvider", "Qwen3NextModelProvider80B_A3B");
        all(BRIDGE_DECLARED, alltoall("Qwen3NextMambaModelProvider", "qwen/qwen_provider.py at fb8a4d6"), "Qwen3NextMambaModelProvider",
                "Qwen3NextMambaModelProvider80B_A3B");
        all(BRIDGE_DECLARED, alltoall("GPTOSSProvider", "gpt_oss/gpt_oss_provider.py at 355cef4"), "GPTOSSProvider",
                "GPTOSSProvider120B", "GPTOSSProvider20B");
        all(BRIDGE_DECLARED, alltoall("MixtralModelProvider", "mixtral/mixtral_provider.py at 556b474"), "MixtralModelProvider");
        all(BRIDGE_DECLARED, alltoall("Llama4ModelProvider", "llama/llama_provider.py at 2afd2d3"), "Llama4ModelProvider",
                "Llama4Experts16ModelProvider", "Llama4Experts128ModelProvider");
        all(BRIDGE_DECLARED, alltoall("NemotronHModelProvider", "nemotronh/nemotron_h_provider.py at d9f7643"), "NemotronHModelProvider",
                "NemotronHModelProvider4B", "NemotronHModelProvider8B", "NemotronHModelProvider47B", "NemotronHModelProvider56B",
                "NemotronNanoModelProvider9Bv2", "NemotronNanoModelProvider12Bv2", "Nemotron3NanoProvider", "NemotronHModel4BProvider",
                "NemotronHModel8BProvider", "NemotronHModel47BProvider", "NemotronHModel56BProvider", "NemotronNano9Bv2Provider",
                "NemotronNano12Bv2Provider");
        all(BRIDGE_DECLARED, alltoall("DeepSeekModelProvider", "deepseek/deepseek_provider.py at 355cef4"), "DeepSeekModelProvider",
                "DeepSeekProvider");
    }

    /**
     * Bridge's DeepSeek V2 / V2-Lite / V3 / Moonlight providers changed parents between versions, each read at its commit
     * (src/megatron/bridge/models/deepseek/deepseek_provider.py): at 066adea0f066edb2684220822ad92bfedaadd043 they extend
     * DeepSeekModelProvider, which declares {@code moe_token_dispatcher_type: str = "alltoall"}; at
     * 355cef457010f70533a5c83f1ed97899d0e0af43 they extend MLAModelProvider (no dispatcher of its own: Megatron-Core's
     * allgather), DeepSeekModelProvider a deprecated alias beside them. A file names the class, not the Bridge version it runs,
     * so there is no one default: unverified, both versions said.
     */
    private static final java.util.Set<String> BRIDGE_BY_VERSION = java.util.Set.of("DeepSeekV2ModelProvider", "DeepSeekV2LiteModelProvider",
            "DeepSeekV3ModelProvider", "MoonlightModelProvider16B", "DeepSeekV2Provider", "DeepSeekV2LiteProvider", "DeepSeekV3Provider",
            "MoonlightProvider");

    /**
     * The dispatcher a Megatron-Bridge model runs when the file names its class and writes no dispatcher: the class is built
     * from the file's fields alone (ConfigContainer.from_yaml, or omegaconf_utils' apply_overrides instantiating a
     * {@code _target_} mapping): its own ({@link #BRIDGE_DECLARED}), or Megatron-Core's allgather for GPTModelProvider and
     * MLAModelProvider ({@link #dispatcherDefault}). A provider whose default changed between Bridge versions, or one not read
     * here, keeps the estimate's own default with an assumptions line naming it at ep &gt; 1. A run's dump writes the
     * dispatcher; an override file without a model {@code _target_} keeps its recipe's, which the file does not show: the
     * estimate's own default stays there, as before.
     */
    static void bridgeDispatcherDefault(JobDraft j, MappingNode model, String at) {
        if (model == null || model.get("moe_token_dispatcher_type").isPresent() || j.dispatcher != null || statesDense(model)) return;
        String t = TreeValues.text(model, "_target_");
        if (t == null || TreeValues.placeholder(t)) return;
        String cls = t.strip().substring(t.strip().lastIndexOf('.') + 1);
        String key = at + "moe_token_dispatcher_type";
        Declared d = BRIDGE_DECLARED.get(cls);
        if (d != null) declared(j, key, d, "Megatron-Bridge's " + cls, scalar(model, "_target_"));
        else if (cls.equals("GPTModelProvider") || cls.equals("MLAModelProvider")) dispatcherDefault(j, key, false, "Megatron-Bridge " + cls);
        else if (BRIDGE_BY_VERSION.contains(cls)) {
            unverified(j, key, "Megatron-Bridge's " + cls, "its parent changed between Bridge versions: DeepSeekModelProvider at"
                    + " deepseek_provider.py 066adea, alltoall; MLAModelProvider at 355cef4, Megatron-Core's allgather");
        } else if (cls.endsWith("Provider") || cls.contains("ModelProvider")) {
            unverified(j, key, "Megatron-Bridge's " + cls, "a provider not read here");
        }
    }

    /** A config class's own router group limit (moe_router_num_groups, moe_router_group_topk), the class and where it is read. */
    record Groups(long groups, long topk, String declarer, String source) {}

    /**
     * NeMo 2's config classes that declare the router's group fields (nemo/collections/llm/gpt/model/deepseek.py at
     * 3c02a3c06519cafb56db9b91543974022fef93c3): DeepSeekV2Config 8 / 3, DeepSeekV3Config 8 / 4, and DeepSeekV2LiteConfig,
     * a subclass of DeepSeekV2Config, 1 / 1 (one group: no limit, and not its parent's 8 / 3). A class is looked up with its
     * parents ({@link #NEMO2_PARENTS}, {@link #declared(String, java.util.Map, java.util.Map)}).
     */
    static final java.util.Map<String, Groups> NEMO2_GROUPS = java.util.Map.of(
            "DeepSeekV2Config", new Groups(8, 3, "DeepSeekV2Config", "nemo/collections/llm/gpt/model/deepseek.py at 3c02a3c"),
            "DeepSeekV2LiteConfig", new Groups(1, 1, "DeepSeekV2LiteConfig", "nemo/collections/llm/gpt/model/deepseek.py at 3c02a3c"),
            "DeepSeekV3Config", new Groups(8, 4, "DeepSeekV3Config", "nemo/collections/llm/gpt/model/deepseek.py at 3c02a3c"));

    /** NeMo 2's DeepSeek config classes' parents as deepseek.py at 3c02a3c writes them (DeepSeekConfig declares no group field). */
    static final java.util.Map<String, String> NEMO2_PARENTS = java.util.Map.of("DeepSeekV2LiteConfig", "DeepSeekV2Config",
            "DeepSeekV2Config", "DeepSeekConfig", "DeepSeekV3Config", "DeepSeekConfig");

    /**
     * Megatron-Bridge's providers that declare a group limit (src/megatron/bridge/models/deepseek/deepseek_provider.py at
     * 355cef457010f70533a5c83f1ed97899d0e0af43, each class's own fields, whatever its parent): DeepSeekV2ModelProvider 8 / 3,
     * DeepSeekV3ModelProvider 8 / 4, and their legacy aliases DeepSeekV2Provider, DeepSeekV3Provider; V2-Lite and Moonlight
     * declare 1 / 1 (no limit), their aliases too. KimiK2Provider declares 1 / 1 as well (src/megatron/bridge/models/kimi/
     * kimi_provider.py at 2afd2d34f7d7b2e84095af1a7fd7244902189ebc; it extends MLATransformerConfig and GPTModelProvider, not a
     * DeepSeek provider). A class is looked up with its parents ({@link #BRIDGE_PARENTS}).
     */
    static final java.util.Map<String, Groups> BRIDGE_GROUPS = java.util.Map.of(
            "DeepSeekV2LiteModelProvider", new Groups(1, 1, "DeepSeekV2LiteModelProvider", "deepseek/deepseek_provider.py at 355cef4"),
            "DeepSeekV2LiteProvider", new Groups(1, 1, "DeepSeekV2LiteModelProvider", "deepseek/deepseek_provider.py at 355cef4"),
            "MoonlightModelProvider16B", new Groups(1, 1, "MoonlightModelProvider16B", "deepseek/deepseek_provider.py at 355cef4"),
            "MoonlightProvider", new Groups(1, 1, "MoonlightModelProvider16B", "deepseek/deepseek_provider.py at 355cef4"),
            "DeepSeekV2ModelProvider", new Groups(8, 3, "DeepSeekV2ModelProvider", "deepseek/deepseek_provider.py at 355cef4"),
            "DeepSeekV2Provider", new Groups(8, 3, "DeepSeekV2ModelProvider", "deepseek/deepseek_provider.py at 355cef4"),
            "DeepSeekV3ModelProvider", new Groups(8, 4, "DeepSeekV3ModelProvider", "deepseek/deepseek_provider.py at 355cef4"),
            "DeepSeekV3Provider", new Groups(8, 4, "DeepSeekV3ModelProvider", "deepseek/deepseek_provider.py at 355cef4"),
            "KimiK2Provider", new Groups(1, 1, "KimiK2Provider", "kimi/kimi_provider.py at 2afd2d3"));

    /**
     * Megatron-Bridge providers' parents where a provider declares no group field of its own: DeepSeekV32ModelProvider
     * extends DeepSeekV3ModelProvider with the Lightning Indexer's fields only (src/megatron/bridge/models/deepseek/
     * deepseek_v32_bridge.py as the code index stores it; the index gives no commit for that version: at e4410af0 the file
     * holds the bridge alone). KimiK25VLModelProvider extends KimiK2Provider with vision fields only (src/megatron/bridge/
     * models/kimi_vl/kimi_k25_vl_provider.py at 016f7b7301cfd027f0269d4f0c4dd45ef8b62894): K2's 1 / 1, no limit.
     * The Moonlight-based KimiVLModelProvider (vision fields and token ids) extends DeepSeekV3ModelProvider and declares no
     * group field, so it takes its 8 / 4 (read as the code index stores it, with no path or commit it gives; to pin when a
     * stored version names one). GLM5ModelProvider is not listed: the code index holds at least five different versions of
     * it (extending DeepSeekV3ModelProvider, MLAModelProvider or HybridModelProvider; declaring 1 / 1 or no group field),
     * none from a pinned upstream commit, and GLM-5's Hugging Face configs write n_group 1, topk_group 1: a GLM5 dump
     * without group fields is read with no group limit (review24b).
     * Glm5NextModelProvider extends MLAModelProvider (glm/glm5_next_provider.py at 3b6bc980) and the DeepSeek providers of
     * deepseek_provider.py at 355cef4 extend MLAModelProvider too, which declares none.
     */
    static final java.util.Map<String, String> BRIDGE_PARENTS = java.util.Map.of("DeepSeekV32ModelProvider", "DeepSeekV3ModelProvider",
            "KimiVLModelProvider", "DeepSeekV3ModelProvider",
            "KimiK25VLModelProvider", "KimiK2Provider");

    /**
     * The group fields {@code cls} gets from the nearest class of its line that declares them ({@code parents} as the sources
     * write them): the class's own, else its parent's, and so on; null when none does. Bounded by the table's size (no cycle
     * in a class line).
     */
    static Groups declared(String cls, java.util.Map<String, Groups> table, java.util.Map<String, String> parents) {
        String c = cls;
        for (int i = 0; c != null && i <= parents.size(); i++, c = parents.get(c)) {
            Groups g = table.get(c);
            if (g != null) return g;
        }
        return null;
    }

    /**
     * The router's group limit a config class declares, for each of moe_router_num_groups and moe_router_group_topk the
     * file does not write: the class is built from the file's fields alone (as for the dispatcher, {@link
     * #bridgeDispatcherDefault}), so its own defaults stand, placed at its {@code _target_}. With the flex dispatcher at
     * ep &gt; 1, where the limit is priced (FlexDispatch), the assumptions name the class and the commit read.
     * {@code cls} the class the file names ({@code table}: {@link #NEMO2_GROUPS} or {@link #BRIDGE_GROUPS}).
     */
    static void groupDefaults(JobDraft j, MappingNode config, String cls, java.util.Map<String, Groups> table,
                              java.util.Map<String, String> parents, String at, String owner) {
        if (config == null || cls == null || statesDense(config)) return;
        Groups g = declared(cls, table, parents);
        ScalarNode target = scalar(config, "_target_");
        // a class that declares one group (V2-Lite, Moonlight) declares no limit: nothing to apply, and its parent's is not
        if (g == null || target == null || g.groups() <= 1 || g.topk() < 1 || g.topk() >= g.groups()) return;
        boolean groupsWritten = written(config, "moe_router_num_groups"), topkWritten = written(config, "moe_router_group_topk");
        if (groupsWritten && topkWritten) return;
        if (!groupsWritten && j.routerGroups == null) j.routerGroups = new Located<>(g.groups(), target.span());
        if (!topkWritten && j.routerGroupTopk == null) j.routerGroupTopk = new Located<>(g.topk(), target.span());
        boolean flex = j.dispatcher != null && "flex".equalsIgnoreCase(String.valueOf(j.dispatcher.value()).strip());
        if (flex && j.ep != null && j.ep.value() != null && j.ep.value() > 1) {
            String keys = !groupsWritten && !topkWritten ? "moe_router_num_groups / moe_router_group_topk"
                    : !groupsWritten ? "moe_router_num_groups" : "moe_router_group_topk";
            j.unpriced.add(at + keys + " not written: " + (groupsWritten ? "" : g.groups() + " groups")
                    + (groupsWritten || topkWritten ? "" : ", ") + (topkWritten ? "" : "top " + g.topk()) + ", " + owner + " default ("
                    + g.declarer() + ".moe_router_num_groups = " + g.groups() + ", moe_router_group_topk = " + g.topk() + ", "
                    + g.source() + "): the flex dispatcher's group-limited routing");
        }
    }

    /**
     * The flex backend a job runs, with older Megatron-Core's switch read as Megatron-Core reads it: {@code moe_enable_deepep}
     * ({@code --moe-enable-deepep}, "[Experimental] Enable DeepEP ... Only works with flex token dispatcher by setting
     * --moe-token-dispatcher-type=flex", megatron/training/arguments.py; NeMo 2's performance scripts and Megatron-Bridge's
     * {@code apply_deepep} write it beside {@code moe_token_dispatcher_type = "flex"}) names the deepep backend
     * (TransformerConfig.__post_init__ sets {@code moe_flex_dispatcher_backend = "deepep"} once the backend field exists) and
     * does not set the dispatcher: with another dispatcher Megatron-Core refuses the job ("DeepEP backend is only supported
     * with flex token dispatcher."), and beside a written hybridep or deepepv2 too ("Only one backend is supported for flex
     * token dispatcher.", Specs.Moe#refusedBesideDeepepSwitch); another written backend (ncclep) it replaces with deepep. So
     * the switch on with the flex dispatcher and no backend written, or another backend written, is the deepep backend, placed
     * at the switch; otherwise the backend as written stands and the assumptions say why the switch was not applied. Called
     * once, when the job is built: every format's dispatcher default is in by then.
     */
    static Located<String> enableDeepep(JobDraft j) {
        Located<Boolean> on = j.enableDeepep;
        if (on == null || !Boolean.TRUE.equals(on.value())) return j.flexBackend;
        String key = j.keyOf(on, "moe_enable_deepep");
        String d = j.dispatcher == null || j.dispatcher.value() == null ? null : String.valueOf(j.dispatcher.value()).strip();
        if (d == null || !d.equalsIgnoreCase("flex") && !d.equalsIgnoreCase("deepep")) {
            if (j.experts != null && j.experts.value() != null && j.experts.value() > 1) {
                j.unpriced.add(key + " set with the " + (d == null ? "default" : d) + " dispatcher: Megatron-Core refuses it"
                        + " (TransformerConfig: \"DeepEP backend is only supported with flex token dispatcher.\"); priced with the "
                        + (d == null ? "estimate's alltoall" : d + " dispatcher") + " as written; write the flex dispatcher to run DeepEP");
            }
            return j.flexBackend;
        }
        String written = j.flexBackend == null || j.flexBackend.value() == null ? null : j.flexBackend.value().strip();
        if (written == null) return j.key(key, new Located<>("deepep", on.span()));
        if (Specs.Moe.refusedBesideDeepepSwitch(written)) {
            j.unpriced.add(key + " set beside the " + written + " backend: Megatron-Core refuses the pair (TransformerConfig:"
                    + " \"Only one backend is supported for flex token dispatcher.\"); priced with " + written
                    + " as written; drop one of the two");
            return j.flexBackend;
        }
        if (written.equalsIgnoreCase("deepep")) return j.flexBackend;
        // another backend (ncclep): TransformerConfig.__post_init__ sets moe_flex_dispatcher_backend = "deepep" over it
        j.unpriced.add(key + " set beside the " + written + " backend: Megatron-Core's TransformerConfig sets the backend to"
                + " deepep over it (moe_enable_deepep is read after the written backend); priced as deepep");
        return j.key(key, new Located<>("deepep", on.span()));
    }

    /** Whether {@code config} writes {@code key} with a value (null and a placeholder are not written). */
    private static boolean written(MappingNode config, String key) {
        ScalarNode s = scalar(config, key);
        return s != null && !s.isNull() && !s.text().strip().equalsIgnoreCase("null") && !TreeValues.placeholder(s.text());
    }

    /** Whether {@code config} writes {@code num_moe_experts} as null or at most 1: a dense model, whatever its class. */
    static boolean statesDense(MappingNode config) {
        dev.gpulint.tree.Node stated = config.get("num_moe_experts").orElse(null);
        Located<Long> experts = stated instanceof ScalarNode se ? TreeValues.whole(se) : null;
        return stated instanceof ScalarNode se && (se.isNull() || se.text().strip().equalsIgnoreCase("null")
                || experts != null && experts.value() <= 1);
    }

    /** The class's own dispatcher, placed at its {@code _target_}; the assumptions name it at ep &gt; 1. */
    private static void declared(JobDraft j, String key, Declared d, String owner, ScalarNode target) {
        j.dispatcher = new Located<>(d.value(), target.span());
        if (j.ep != null && j.ep.value() != null && j.ep.value() > 1) {
            j.unpriced.add(key + " not written: " + d.value() + ", " + owner + " default (" + d.declarer() + ".moe_token_dispatcher_type"
                    + " = \"" + d.value() + "\", " + d.source() + ")");
        }
    }

    /** A class whose dispatcher is not verified: the estimate's own default stays, and at ep &gt; 1 the assumptions say why. */
    private static void unverified(JobDraft j, String key, String owner, String why) {
        if (j.ep != null && j.ep.value() != null && j.ep.value() > 1) {
            j.unpriced.add(key + " not written: " + owner + " default is not verified here (" + why + "); priced with the"
                    + " estimate's alltoall, as when no dispatcher is given; write the dispatcher to price what runs");
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
        boolean statedDense = statesDense(config);
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
        j.routerGroups = j.key(at + "moe_router_num_groups", TreeValues.whole(scalar(config, "moe_router_num_groups")));
        j.routerGroupTopk = j.key(at + "moe_router_group_topk", TreeValues.whole(scalar(config, "moe_router_group_topk")));
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
        dispatcher(j, config, at);
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

    /**
     * The token dispatcher as a Megatron-Core config's fields write it, each placed at its key under {@code at}:
     * {@code moe_token_dispatcher_type}, the flex dispatcher's {@code moe_flex_dispatcher_backend} and older Megatron-Core's
     * {@code moe_enable_deepep} switch ({@link #enableDeepep} reads it when the job is built). NeMo 2's and Megatron-Bridge's
     * model configs, and NeMo-RL's {@code policy.megatron_cfg}, whose keys NeMo-RL copies onto the Megatron-Bridge model
     * provider as they are (nemo_rl/models/megatron/setup.py's _apply_moe_config, NVIDIA-NeMo/RL at
     * 95d03a1aa12010e5d7a692eed32e9f1bd40ddcf1: {@code model_cfg.moe_token_dispatcher_type = config["megatron_cfg"]
     * ["moe_token_dispatcher_type"]}, the backend when the key is there).
     */
    static void dispatcher(JobDraft j, MappingNode config, String at) {
        j.dispatcher = j.key(at + "moe_token_dispatcher_type", text(scalar(config, "moe_token_dispatcher_type")));
        j.flexBackend = j.key(at + "moe_flex_dispatcher_backend", text(scalar(config, "moe_flex_dispatcher_backend")));
        j.enableDeepep = j.key(at + "moe_enable_deepep", TreeValues.bool(scalar(config, "moe_enable_deepep")));
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
