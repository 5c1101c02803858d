package dev.gpulint.bind.adapt;

import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import dev.gpulint.core.Span;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;

import static dev.gpulint.bind.adapt.TreeValues.scalar;

/**
 * Which cross-entropy a Megatron-Core job's loss runs (JobDraft#teCrossEntropy, derive/estimate/LossKernel): Transformer
 * Engine's when {@code cross_entropy_loss_fusion} is on and {@code cross_entropy_fusion_impl} is {@code te}
 * (megatron/core/models/common/language_module/language_module.py, compute_language_model_loss), the fused linear
 * cross-entropy when it is {@code linear} (megatron/core/models/gpt/gpt_model.py's fuse_linear_cross_entropy); Megatron-Core's
 * own otherwise. The defaults are ModelParallelConfig's, {@code cross_entropy_loss_fusion = False} and
 * {@code cross_entropy_fusion_impl = 'native'} (megatron/core/model_parallel_config.py), so a job that writes neither is
 * left unstated (null) and priced natively.
 */
final class CrossEntropyFusion {
    private CrossEntropyFusion() {}

    /**
     * {@code ce} with the key its implementation is written under recorded ({@link JobDraft#key}) when it is the fused linear
     * cross-entropy, whose span is the implementation's (PAR022 names it); else {@code ce} as it is.
     */
    static Located<Specs.CrossEntropy> keyed(JobDraft j, String implKey, Located<Specs.CrossEntropy> ce) {
        return ce != null && ce.value() == Specs.CrossEntropy.LINEAR ? j.key(implKey, ce) : ce;
    }

    /**
     * From the fusion switch and the implementation as written (either null when not written): TE or LINEAR at the
     * implementation's place when the fusion is on and the impl says te or linear ({@code _compute_linear_and_cross_entropy_loss}
     * asserts both), NATIVE when one of them is written and they make neither, null when neither is written.
     */
    static Located<Specs.CrossEntropy> of(Located<Boolean> fusion, String impl, Span implSpan) {
        Specs.CrossEntropy kind = impl == null ? Specs.CrossEntropy.NATIVE : switch (impl.strip().toLowerCase(java.util.Locale.ROOT)) {
            case "te" -> Specs.CrossEntropy.TE;
            case "linear" -> Specs.CrossEntropy.LINEAR;
            default -> Specs.CrossEntropy.NATIVE;
        };
        if (fusion != null && fusion.value() && kind != Specs.CrossEntropy.NATIVE) return new Located<>(kind, implSpan);
        if (fusion != null) return new Located<>(Specs.CrossEntropy.NATIVE, fusion.span());
        return impl != null ? new Located<>(Specs.CrossEntropy.NATIVE, implSpan) : null;
    }

    /**
     * NeMo 2's config classes that set Transformer Engine's loss as their default: DeepSeekConfig declares
     * {@code cross_entropy_loss_fusion: bool = True} and {@code cross_entropy_fusion_impl: str = "te"}, and DeepSeekV2Config,
     * DeepSeekV2LiteConfig and DeepSeekV3Config inherit them (github.com/NVIDIA/NeMo at 04e9360c117339b24c715080bae6ffb5c17fb2cc,
     * nemo/collections/llm/gpt/model/deepseek.py).
     */
    static final java.util.Set<String> NEMO2_TE_CLASSES = java.util.Set.of("DeepSeekConfig", "DeepSeekV2Config",
            "DeepSeekV2LiteConfig", "DeepSeekV3Config");

    /** Where the Llama 3 providers' default is declared ({@link #BRIDGE_TE_DEFAULTS}); {@code %s} the class. */
    private static final String LLAMA3_SOURCE = "%s.cross_entropy_fusion_impl = \"te\", llama/llama_provider.py at 2afd2d3, with"
            + " GPTModelProvider.cross_entropy_loss_fusion = True, gpt_provider.py at 0254ddd";

    /** Where the Step-3.5 providers' default is declared ({@link #BRIDGE_TE_DEFAULTS}). */
    private static final String STEP3P5_SOURCE = "Step3p5ModelProvider.cross_entropy_fusion_impl = \"te\" and"
            + " cross_entropy_loss_fusion = True, step3p5/step3p5_provider.py at fc29f8b in the yevvonlim/Megatron-Bridge fork";

    /**
     * Megatron-Bridge's providers that default to Transformer Engine's loss, each with where its default is declared (the
     * assumptions line cites it): one table, read by {@link #bridge}.
     * <ul>
     * <li>Llama3ModelProvider8B, Llama3ModelProvider70B and Llama31ModelProvider405B declare {@code cross_entropy_fusion_impl:
     *     str = "te"} (NVIDIA-NeMo/Megatron-Bridge src/megatron/bridge/models/llama/llama_provider.py at
     *     2afd2d34f7d7b2e84095af1a7fd7244902189ebc) beside GPTModelProvider's {@code cross_entropy_loss_fusion: bool = True}
     *     (gpt_provider.py at 0254ddd4418307d47f3d5fab32cdfdb29926b4d6); the other Llama sizes (3.1 8B and 70B, 3.2, Llama 2,
     *     Llama 4) keep ModelParallelConfig's impl, native.
     * <li>SarvamMoEModelProvider(GPTModelProvider) declares {@code cross_entropy_fusion_impl: str = "te"} and inherits the fusion
     *     on (sarvam/sarvam_provider.py at da98e6cdd2727c47816ce6b1220cba626471705d). Its sibling SarvamMLAModelProvider(
     *     MLATransformerConfig, GPTModelProvider) declares the same impl but not the fusion, and ends with it off as
     *     MLAModelProvider does (see {@link #bridge}: MLATransformerConfig's fields come last in the reversed MRO; Bridge's
     *     transformer_config.py at 03ea4c18b6800169f618e66d64a4c3f14833a193 redeclares only multi_latent_attention "so the
     *     reverse-MRO dataclass field walk cannot revert" it): its impl is never used, Megatron-Core's unfused loss, not here.
     * <li>Step3p5ModelProvider(GPTModelProvider) and its Step3p5ModelProviderMini3B, the SwiGLU-clamp models, declare
     *     {@code cross_entropy_fusion_impl: str = "te"} and {@code cross_entropy_loss_fusion: bool = True} (the
     *     yevvonlim/Megatron-Bridge fork, src/megatron/bridge/models/step3p5/step3p5_provider.py at
     *     fc29f8be1c5c85f6b1b64966b60c8d59288cd558; not in NVIDIA-NeMo/Megatron-Bridge).
     * </ul>
     * KimiK25VLModelProvider is not here: at NVIDIA-NeMo/Megatron-Bridge 016f7b7301cfd027f0269d4f0c4dd45ef8b62894
     * (kimi_vl/kimi_k25_vl_provider.py) it extends KimiK2Provider, an MLAModelProvider that declares neither key
     * (kimi/kimi_provider.py at 2afd2d34f7d7b2e84095af1a7fd7244902189ebc), so the fusion is off; a stored version of the same
     * file that extends MLAModelProvider and declares fusion True with impl te could not be tied to a commit, and is not applied.
     */
    private static final java.util.Map<String, String> BRIDGE_TE_DEFAULTS = java.util.Map.of(
            "Llama3ModelProvider8B", LLAMA3_SOURCE, "Llama3ModelProvider70B", LLAMA3_SOURCE, "Llama31ModelProvider405B", LLAMA3_SOURCE,
            "SarvamMoEModelProvider", "SarvamMoEModelProvider.cross_entropy_fusion_impl = \"te\", sarvam/sarvam_provider.py at da98e6c,"
                    + " with GPTModelProvider.cross_entropy_loss_fusion = True, gpt_provider.py at 0254ddd",
            "Step3p5ModelProvider", STEP3P5_SOURCE, "Step3p5ModelProviderMini3B", STEP3P5_SOURCE);

    /** The classes of {@link #BRIDGE_TE_DEFAULTS}. */
    static final java.util.Set<String> BRIDGE_TE_CLASSES = BRIDGE_TE_DEFAULTS.keySet();

    /**
     * Megatron-Bridge's DeepSeek providers, whose loss changed between Bridge versions: at 066adea0f066edb2684220822ad92bfedaadd043
     * (deepseek/deepseek_provider.py) DeepSeekModelProvider declares {@code cross_entropy_loss_fusion: bool = True} and
     * {@code cross_entropy_fusion_impl: str = "te"} and V2, V2-Lite, V3 and Moonlight inherit them; at
     * 355cef457010f70533a5c83f1ed97899d0e0af43 every one of them extends MLAModelProvider and declares neither, so the loss is
     * Megatron-Core's unfused one (see {@link #bridge}). The newer is priced, and the assumptions say so.
     */
    private static boolean bridgeByVersion(String cls) {
        return BRIDGE_BY_VERSION.contains(cls);
    }

    /** The classes (and deprecated aliases) both versions of deepseek_provider.py define. */
    private static final java.util.Set<String> BRIDGE_BY_VERSION = java.util.Set.of("DeepSeekModelProvider", "DeepSeekProvider",
            "DeepSeekV2ModelProvider", "DeepSeekV2Provider", "DeepSeekV2LiteModelProvider", "DeepSeekV2LiteProvider",
            "DeepSeekV3ModelProvider", "DeepSeekV3Provider", "MoonlightModelProvider16B", "MoonlightProvider");

    /**
     * A Megatron-Bridge model's loss: {@link #of(MappingNode, java.util.Set)} as written, each key not written taking the
     * default of the provider class its {@code _target_} names (the class is built from the file's fields alone, as for
     * the dispatcher, Nemo2Moe#bridgeDispatcherDefault): {@link #BRIDGE_TE_CLASSES} Transformer Engine's, with a line of the
     * assumptions naming the class and commit. GPTModelProvider's subclasses and MambaModelProvider's (NemotronH, Nemotron 3
     * Nano) turn the fusion on with ModelParallelConfig's impl, native (gpt_provider.py at 0254ddd, mamba_provider.py at
     * 094446322fad67c029b0b3f82c3f5f866ccd209f: {@code cross_entropy_loss_fusion: bool = True}): fused_vocab_parallel_cross_entropy,
     * priced as the unfused one. MLAModelProvider(MLATransformerConfig, GPTModelProvider) (mla_provider.py at
     * 3605c63d190464209ec674bcb6141d48a4b7389d) ends with the fusion off: the dataclass fields are collected over the reversed
     * MRO (MLAModelProvider, MLATransformerConfig, GPTModelProvider, TransformerConfig, ...), and MLATransformerConfig's field
     * set, ModelParallelConfig's {@code cross_entropy_loss_fusion = False} among them, comes after GPTModelProvider's True, as
     * Bridge's own MLATransformerConfig comment says of multi_latent_attention. A DeepSeek provider ({@link #bridgeByVersion})
     * is priced natively with a line; another class keeps what the file writes.
     */
    static Located<Specs.CrossEntropy> bridge(JobDraft j, MappingNode model, String at) {
        Located<Specs.CrossEntropy> stated = of(model, java.util.Set.of());
        if (model == null) return stated;
        boolean fusionWritten = written(model, "cross_entropy_loss_fusion"), implWritten = written(model, "cross_entropy_fusion_impl");
        if (fusionWritten && implWritten) return stated;
        ScalarNode target = scalar(model, "_target_");
        String t = target == null || target.isNull() ? null : target.text().strip();
        if (t == null || TreeValues.placeholder(t)) return stated;
        String cls = t.substring(t.lastIndexOf('.') + 1);
        if (BRIDGE_TE_CLASSES.contains(cls)) {
            Located<Specs.CrossEntropy> te = of(model, BRIDGE_TE_CLASSES);
            if (te != null && te.value() == Specs.CrossEntropy.TE) {
                j.unpriced.add(at + (fusionWritten ? "cross_entropy_fusion_impl" : implWritten ? "cross_entropy_loss_fusion"
                        : "cross_entropy_loss_fusion / cross_entropy_fusion_impl") + " not written: Transformer Engine's loss,"
                        + " Megatron-Bridge's " + cls + " default (" + BRIDGE_TE_DEFAULTS.get(cls).replace("%s", cls) + ")");
            }
            return te;
        }
        Located<Boolean> fusion = TreeValues.bool(scalar(model, "cross_entropy_loss_fusion"));
        if (bridgeByVersion(cls) && !implWritten && (fusion == null || fusion.value())) {
            j.unpriced.add(at + "cross_entropy_fusion_impl not written: Megatron-Bridge's " + cls + " default changed between"
                    + " versions: Transformer Engine's loss at deepseek_provider.py 066adea (DeepSeekModelProvider: fusion True, impl"
                    + " te), Megatron-Core's native loss at 355cef4 (MLAModelProvider's defaults); priced with the native loss, the"
                    + " newer; write cross_entropy_fusion_impl to price the other");
        }
        return stated;
    }

    /** Whether {@code model} writes {@code key} with a value (null and a placeholder are not written). */
    private static boolean written(MappingNode model, String key) {
        ScalarNode s = scalar(model, key);
        return s != null && !s.isNull() && !s.text().strip().equalsIgnoreCase("null") && !TreeValues.placeholder(s.text());
    }

    /**
     * A Megatron-Bridge or NeMo 2 model config's {@code cross_entropy_loss_fusion} and {@code cross_entropy_fusion_impl};
     * each not written takes the config class's default when the class is in {@code teClasses} (fusion on, impl te, at its
     * {@code _target_}), else ModelParallelConfig's.
     */
    static Located<Specs.CrossEntropy> of(MappingNode config, java.util.Set<String> teClasses) {
        ScalarNode impl = scalar(config, "cross_entropy_fusion_impl");
        boolean written = impl != null && !impl.isNull();
        Located<Boolean> fusion = TreeValues.bool(scalar(config, "cross_entropy_loss_fusion"));
        String implText = written ? impl.text() : null;
        Span implSpan = written ? impl.span() : null;
        ScalarNode target = scalar(config, "_target_");
        if (target != null && teClasses.contains(Nemo2Configs.className(config))) {
            if (fusion == null) fusion = new Located<>(true, target.span());
            if (implText == null) {
                implText = "te";
                implSpan = target.span();
            }
        }
        return of(fusion, implText, implSpan);
    }
}
