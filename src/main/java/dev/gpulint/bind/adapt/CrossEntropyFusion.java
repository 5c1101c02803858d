package dev.gpulint.bind.adapt;

import dev.gpulint.spec.Located;
import dev.gpulint.core.Span;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;

import static dev.gpulint.bind.adapt.TreeValues.scalar;

/**
 * Which cross-entropy a Megatron-Core job's loss runs (JobDraft#teCrossEntropy, derive/estimate/LossKernel): Transformer
 * Engine's when {@code cross_entropy_loss_fusion} is on and {@code cross_entropy_fusion_impl} is {@code te}
 * (megatron/core/models/common/language_module/language_module.py, compute_language_model_loss); Megatron-Core's own
 * otherwise. The defaults are ModelParallelConfig's, {@code cross_entropy_loss_fusion = False} and
 * {@code cross_entropy_fusion_impl = 'native'} (megatron/core/model_parallel_config.py), so a job that writes neither is
 * left unstated (null) and priced natively.
 */
final class CrossEntropyFusion {
    private CrossEntropyFusion() {}

    /**
     * From the fusion switch and the implementation as written (either null when not written): true at the
     * implementation's place when the two make Transformer Engine's loss, false when one of them is written and they do
     * not, null when neither is written.
     */
    static Located<Boolean> of(Located<Boolean> fusion, String impl, Span implSpan) {
        boolean te = impl != null && impl.strip().equalsIgnoreCase("te");
        if (fusion != null && fusion.value() && te) return new Located<>(true, implSpan);
        if (fusion != null) return new Located<>(false, fusion.span());
        return impl != null ? new Located<>(false, implSpan) : null;
    }

    /**
     * NeMo 2's config classes that set Transformer Engine's loss as their default: DeepSeekConfig declares
     * {@code cross_entropy_loss_fusion: bool = True} and {@code cross_entropy_fusion_impl: str = "te"}, and DeepSeekV2Config,
     * DeepSeekV2LiteConfig and DeepSeekV3Config inherit them (github.com/NVIDIA/NeMo at 04e9360c117339b24c715080bae6ffb5c17fb2cc,
     * nemo/collections/llm/gpt/model/deepseek.py).
     */
    static final java.util.Set<String> NEMO2_TE_CLASSES = java.util.Set.of("DeepSeekConfig", "DeepSeekV2Config",
            "DeepSeekV2LiteConfig", "DeepSeekV3Config");

    /**
     * A Megatron-Bridge or NeMo 2 model config's {@code cross_entropy_loss_fusion} and {@code cross_entropy_fusion_impl};
     * each not written takes the config class's default when the class is in {@code teClasses} (fusion on, impl te, at its
     * {@code _target_}), else ModelParallelConfig's.
     */
    static Located<Boolean> of(MappingNode config, java.util.Set<String> teClasses) {
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
