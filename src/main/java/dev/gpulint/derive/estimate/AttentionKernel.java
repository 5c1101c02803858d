package dev.gpulint.derive.estimate;

import dev.gpulint.spec.Format;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The flash-attention kernel a job runs, which sets the rate its attention term is priced at (docs/plan.md,
 * "Attention"). The GPU family's {@code attention} efficiency is the rate of the fused kernel its calibration ran —
 * Transformer Engine's choice, cuDNN's fused attention on Hopper and Blackwell, FlashAttention-2 on Ampere (the NeMo
 * 24.09 table); a family states another kernel's rate as {@code attention_<kernel>} (catalog compute efficiencies,
 * {@link Hardware#attention}), set from kernel-level tables only, never from an end-to-end run.
 */
public enum AttentionKernel {
    /** Transformer Engine's fused attention (cuDNN on Hopper and Blackwell, FlashAttention-2 on Ampere): the family's {@code attention}. */
    FUSED("fused", null, "Transformer Engine's fused attention: cuDNN on Hopper and Blackwell, FlashAttention-2 on Ampere"),
    /** FlashAttention-2 (Dao 2023), as PyTorch's SDPA flash backend and the flash-attn 2 package run it. */
    FLASH2("flash2", "attention_flash2", "FlashAttention-2"),
    /** FlashAttention-3 (Shah et al. 2024), Hopper only (the flash-attn 3 package; Transformer Engine when it is installed). */
    FLASH3("flash3", "attention_flash3", "FlashAttention-3"),
    /**
     * Attention outside a flash kernel: batched GEMMs over all s² scores, a fused scale-mask-softmax and dropout between
     * them in HBM (Megatron-LM before {@code --use-flash-attn}, Megatron-Core's {@code unfused}/{@code local} backend);
     * priced by {@link UnfusedAttention} at the GEMM and HBM rates, not at an attention rate.
     */
    UNFUSED("unfused", null, "attention in plain ops: batched GEMMs over the s × s scores, softmax and dropout through HBM");

    private final String id, catalogKey, title;

    AttentionKernel(String id, String catalogKey, String title) {
        this.id = id;
        this.catalogKey = catalogKey;
        this.title = title;
    }

    /** The name the native manifest writes ({@code model.attention.kernel}). */
    public String id() { return id; }

    /** The catalog efficiency that states this kernel's rate per family, or null for the family's own {@code attention}. */
    public String catalogKey() { return catalogKey; }

    /** The kernel by its manifest name, or null. */
    public static AttentionKernel parse(String s) {
        if (s == null) return null;
        String k = s.strip().toLowerCase(Locale.ROOT);
        for (AttentionKernel a : values()) if (a.id.equals(k)) return a;
        return null;
    }

    /**
     * The kernel a job runs: the one it states (model.attention.kernel, or what an adapter read into it: Megatron's
     * {@code --attention-backend}, NeMo 2's {@code attention_backend}), else its format's: torchtitan calls
     * {@code F.scaled_dot_product_attention}, whose flash backend is FlashAttention-2 (cuDNN's SDPA backend has been
     * opt-in since PyTorch 2.5.1, pytorch/pytorch#138522, until a bundled cuDNN above 9.15 on sm90/sm100; its context
     * parallelism admits only the flash and memory-efficient backends); else the kernel the job's environment leaves
     * Transformer Engine ({@link #ofEnvironment}); every other job the fused kernel. One line of {@code as} says which, and
     * at what rate on {@code hw}.
     */
    public static AttentionKernel of(Specs.Job j, Hardware hw, List<String> as) {
        Specs.Attention a = j.model() == null ? null : j.model().attention();
        Located<String> stated = a == null ? null : a.kernel();
        AttentionKernel k = stated == null ? null : parse(stated.value());
        String why;
        if (k != null) {
            why = "as the job states it";
        } else if (j.origin() != null && Format.of(j.origin().format()) == Format.TORCHTITAN) {
            k = FLASH2;
            why = "not stated: torchtitan's F.scaled_dot_product_attention runs PyTorch's flash backend, FlashAttention-2 (cuDNN's"
                    + " backend is opt-in since PyTorch 2.5.1, pytorch/pytorch#138522; model.attention.kernel in a native manifest"
                    + " states another)";
        } else if ((k = ofEnvironment(j.env())) != null) {
            why = "not stated, the job's environment: NVTE_FUSED_ATTN=0" + (k == UNFUSED ? " and NVTE_FLASH_ATTN=0 turn off both"
                    + " of Transformer Engine's flash kernels" : " turns off Transformer Engine's cuDNN fused attention, so it runs"
                    + " the flash-attn package, priced as FlashAttention-2 (FlashAttention-3 where flash-attn 3 is installed on Hopper"
                    + " is not told apart: model.attention.kernel: flash3 in a native manifest states it)");
        } else {
            k = FUSED;
            why = "not stated, the calibration's kernel";
        }
        if (hw != null && k == UNFUSED) {
            as.add("attention kernel unfused (" + k.title + "), " + why + ": priced by its passes (unfused-attention term: the GEMMs"
                    + " over the full square at the GEMM rate or their score bytes at the HBM rate, whichever is longer, the softmax's and"
                    + " dropout's 9 bytes a 16-bit score forward and 11 backward at the HBM rate; Megatron's default attention dropout assumed),"
                    + " its 5·a·s²·b bytes a layer kept unless the core is recomputed (docs/plan.md)");
        } else if (hw != null) {
            boolean own = k == FUSED || hw.attentionKernels().containsKey(k);
            as.add(String.format(Locale.ROOT, "attention kernel %s (%s), %s: %.3f of the 16-bit peak on the FLOPs it executes (%s)",
                    k.id, k.title, why, hw.attention(k),
                    k == FUSED ? "catalog attention" : own ? "catalog " + k.catalogKey
                            : "the family states no " + k.catalogKey + ": its attention, the fused kernel's rate"));
        }
        return k;
    }

    /**
     * The kernel Transformer Engine's environment switches leave a job that names none, or null when they leave its own
     * choice (the fused kernel). Its DotProductAttention chooses among the flash-attn package, cuDNN's fused attention and
     * plain ops those its variables leave on ("0" turns one off, both on by default), preferring cuDNN on Hopper and later
     * when both apply (NeMo's memory-optimizations guide, NVIDIA/NeMo#9188: "Transformer Engine prefers cuDNN flash
     * attention on Hopper+ architectures"; users "disable Flash Attention by setting the environment variable
     * NVTE_FLASH_ATTN=0"): {@code NVTE_FUSED_ATTN=0} is the flash-attn package, FLASH2; with {@code NVTE_FLASH_ATTN=0}
     * too, UNFUSED; {@code NVTE_FLASH_ATTN=0} alone keeps the fused kernel, as the defaults do. NVIDIA's DGX Cloud Grok-1
     * recipe runs with {@code NVTE_FUSED_ATTN=0} (NVIDIA/dgxc-benchmarking grok1/configure.sh at 143b90d), its Llama 3.1
     * recipes with NVTE_FLASH_ATTN=0 and NVTE_FUSED_ATTN=1 (llama3.1/configure.sh).
     */
    static AttentionKernel ofEnvironment(Map<String, Located<String>> env) {
        if (env == null || !off(env.get("NVTE_FUSED_ATTN"))) return null;
        return off(env.get("NVTE_FLASH_ATTN")) ? UNFUSED : FLASH2;
    }

    private static boolean off(Located<String> v) {
        return v != null && v.value() != null && v.value().strip().equals("0");
    }
}
