package dev.gpulint.derive.estimate;

import dev.gpulint.spec.Specs;

/**
 * Which cross-entropy computes a loss, for what the stage computing it holds ({@link MemoryModel#lossBytes}).
 * <ul>
 * <li>{@link #NATIVE}: Megatron-Core's own, unfused ({@code tensor_parallel.vocab_parallel_cross_entropy}, its default) or
 *     fused ({@code fused_vocab_parallel_cross_entropy}, {@code cross_entropy_fusion_impl = "native"}): both upcast the
 *     logits and save their fp32 softmax.
 * <li>{@link #TE}: Transformer Engine's ({@code cross_entropy_loss_fusion} with {@code cross_entropy_fusion_impl = "te"}:
 *     language_module.py's compute_language_model_loss calls {@code te_parallel_cross_entropy}, github.com/NVIDIA/Megatron-LM
 *     megatron/core/models/common/language_module/language_module.py and megatron/core/extensions/transformer_engine.py).
 *     Its Triton kernels (transformer_engine/pytorch/triton/cross_entropy.py) read the logits in their own dtype and upcast
 *     them block by block in registers (an online softmax), writing 3 fp32 statistics per row (max, sum, the target's
 *     logit), all-gathered over tp; no fp32 copy of the logits is made. What it keeps for backward is the logits tensor
 *     itself: in github.com/NVIDIA/TransformerEngine at 02965d2eba9d93d129f25942f8ef1352f2eefd2d
 *     (transformer_engine/pytorch/cross_entropy.py, CrossEntropyFunction.forward: {@code ctx.save_for_backward(_input.detach(),
 *     target.detach(), m_d_X_y.detach())}) the backward kernel writes the gradient into it in place ("performed in-place on
 *     the tensor pointed by X_ptr"); in the earlier form (github.com/cuichenx/TransformerEngine, a fork, at
 *     066bb380d1a03e0c312ca4ce6612625d07e2fa35, same files) the forward kernel already writes the gradient into the logits
 *     and returns them to be saved, the backward only scales them (element_mul_kernel). Either way the stage holds the
 *     logits' s·b·V ÷ tp elements in the activations' dtype from the loss's forward to its backward, and the statistics'
 *     12·tp bytes per row (12·s·b·tp, against 2·s·b·V ÷ tp for the logits: 0.3 % at V 128k and tp 8) are not priced.
 * </ul>
 */
public enum LossKernel {
    NATIVE, TE;

    /** The job's: TE when its model states Transformer Engine's cross-entropy, else native (Megatron-Core's default). */
    public static LossKernel of(Specs.Job j) {
        Specs.Model m = j == null ? null : j.model();
        return m != null && m.teCrossEntropy() != null && Boolean.TRUE.equals(m.teCrossEntropy().value()) ? TE : NATIVE;
    }

    /** The plan's words for what this kernel changes in {@link MemoryModel#LOSS_BYTES}, empty for the native one. */
    public String describe() {
        return this == NATIVE ? "" : "; the job's loss is Transformer Engine's fused cross-entropy (cross_entropy_fusion_impl te:"
                + " te_parallel_cross_entropy): it keeps the 16-bit logits themselves for backward and writes the gradient into"
                + " them in place, no fp32 softmax nor fp32 copy, so per loss and micro-batch (4·s·b·h + 2·s·b·V) ÷ tp and nothing"
                + " more while it runs (TransformerEngine transformer_engine/pytorch/triton/cross_entropy.py)";
    }
}
