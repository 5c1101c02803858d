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

    /** A Megatron-Bridge or NeMo 2 model config's {@code cross_entropy_loss_fusion} and {@code cross_entropy_fusion_impl}. */
    static Located<Boolean> of(MappingNode config) {
        ScalarNode impl = scalar(config, "cross_entropy_fusion_impl");
        boolean written = impl != null && !impl.isNull();
        return of(TreeValues.bool(scalar(config, "cross_entropy_loss_fusion")), written ? impl.text() : null,
                written ? impl.span() : null);
    }
}
