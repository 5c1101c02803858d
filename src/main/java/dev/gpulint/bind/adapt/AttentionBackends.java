package dev.gpulint.bind.adapt;

import dev.gpulint.spec.Located;
import java.util.Locale;

/**
 * Megatron-Core's attention backend ({@code --attention-backend}; NeMo 2 and Megatron-Bridge {@code attention_backend},
 * written {@code flash} or {@code AttnBackend.flash}) as the kernel the estimate prices (model.attention.kernel,
 * derive/estimate/AttentionKernel). Megatron-Core's AttnBackend: {@code flash} Transformer Engine's FlashAttention
 * (the flash-attn package: FlashAttention-2, or 3 on Hopper when flash-attn 3 is installed), {@code fused} its cuDNN
 * fused attention, {@code auto} Transformer Engine's own choice (the fused kernel of the calibration), {@code unfused}
 * and {@code local} attention in plain PyTorch ops.
 */
final class AttentionBackends {
    private AttentionBackends() {}

    /** The kernel for a written backend, or null (absent, or one the estimate does not price apart: a line of {@code j.unpriced}). */
    static Located<String> kernel(JobDraft j, String key, Located<String> written) {
        if (written == null || written.value() == null) return null;
        String v = written.value().strip().toLowerCase(Locale.ROOT);
        if (v.startsWith("attnbackend.")) v = v.substring("attnbackend.".length());
        switch (v) {
            case "flash":
                j.unpriced.add("attention backend flash (" + key + "): Transformer Engine's FlashAttention, priced as FlashAttention-2"
                        + " (FlashAttention-3 when the flash-attn 3 package is installed on Hopper is not told apart; write"
                        + " model.attention.kernel: flash3 in a native manifest)");
                return j.key(key, new Located<>("flash2", written.span()));
            case "fused", "auto":
                return j.key(key, new Located<>("fused", written.span()));
            case "unfused", "local":
                j.unpriced.add("attention backend " + v + " (" + key + "): attention in plain PyTorch ops, not priced apart: priced"
                        + " at the fused kernel's rate (no kernel-level table of it), so the estimate is a floor on its time");
                return null;
            default:
                return null;
        }
    }
}
