package dev.gpulint.derive.estimate;

import dev.gpulint.derive.estimate.Layout.Recompute;
import dev.gpulint.spec.Recomputation;
import dev.gpulint.spec.RecomputeModule;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Megatron-Core's selective recompute by module ({@code --recompute-granularity selective} with {@code --recompute-modules};
 * TransformerConfig {@code recompute_modules}, which NeMo 2 and Megatron-Bridge recipes set on the model provider; the native
 * manifest's {@code recompute_modules} beside {@code recompute: selective}): per module, the activation bytes per layer it no
 * longer keeps and the forward it runs again in backward (docs/plan.md, "Selective recompute by module"). No constant of its
 * own: bytes are {@link MemoryModel#perLayer}'s terms, FLOPs run at the GEMM rate, elementwise bytes at the HBM rate. Pure.
 *
 * <p>What each module does, from Megatron-Core's code (megatron/core/transformer/transformer_layer.py, moe/experts.py,
 * multi_latent_attention.py, transformer_config.py; "moe_act", "layernorm" and "mla_up_proj" checkpoint without their
 * output — {@code CheckpointWithoutOutput}: the output's storage is freed once its consumer ran and refilled by re-running
 * the module before backward reaches it —, "core_attn", "mlp", "moe" and "shared_experts" are checkpointed as a whole):
 * <ul>
 * <li>{@code core_attn}: the attention core; with flash attention it stores no s² scores, so nothing is saved
 *     ({@link Checkpointing}: "selective", priced as before);</li>
 * <li>{@code layernorm}: the outputs of the norms that are modules of their own. Transformer Engine's layer spec fuses the
 *     input norm into the QKV projection and a dense layer's pre-MLP norm into fc1 ({@code LayerNormLinear}: the layer's
 *     norms are then {@code IdentityOp}, and TransformerLayer recomputes only norms that are not); an MoE layer's pre-MLP
 *     norm (the router's and dispatcher's input) and multi-latent attention's input norm (the down-projections' input) are
 *     {@code TENorm}s. So: the fc1 input (2 per s·b·h, 1 in fp8) on MoE layers and the QKV input on every MLA layer;
 *     the recomputed forward reads and writes T'·h (fused RMSNorm: 4 bytes per element) per recomputed norm;</li>
 * <li>{@code moe_act}: the experts' activation output (fc2's input: 2·ffn/h, ffn/h in fp8) on MoE layers; the activation
 *     runs again on the routed rows (SwiGLU reads gate and up and writes their product: 3 elements per row and ffn/etp,
 *     GeLU 2) and, with a clamped GLU ({@link ExpertPasses}), its clamps and concatenation (8 more);</li>
 * <li>{@code mla_up_proj}: multi-latent attention's Q, K and V (the up-projections' outputs with RoPE applied:
 *     2·a·(d_h + d_hR) twice and 2·a·d_v per s·b·h, ÷ tp); the up-projections run again:
 *     2·(d'c·a·(d_h + d_hR) + dc·a·(d_h + d_v)) FLOPs per token ÷ tp (2·h·a·(d_h + d_hR) for the query without compression);</li>
 * <li>{@code mlp}: a dense layer's MLP (MoE layers are not recomputed by it): its fc1 input, fc1 output and activation
 *     output; its forward runs again, 2·(2 or 3)·h·ffn FLOPs per token ÷ tp and the activation's forward bytes;</li>
 * <li>{@code moe}: an MoE layer's experts' fc1 output and activation output (its input, the pre-MLP norm's output, is the
 *     checkpoint's and stays); the MoE layer's forward runs again, a third of its forward and backward;</li>
 * <li>{@code shared_experts}: the shared experts' activations, which {@link MemoryModel} does not count (nothing saved
 *     here); their forward runs again, 2·(2 or 3)·h·ffn_shared FLOPs per token ÷ tp.</li>
 * </ul>
 * While a layer runs backward its recomputed part is held again: one layer's worth, as full recompute counts it. Not priced:
 * the tensor-parallel all-gather a recomputed mlp or moe forward runs again, and the moe module's all-to-alls again.
 *
 * @param modules the modules recomputed (Megatron's default, core_attn, when selective is stated without them)
 */
public record RecomputeModules(Set<RecomputeModule> modules) {

    /** Megatron's default, {@code ["core_attn"]}: what Megatron's and NeMo's selective recompute always did. */
    public static final RecomputeModules DEFAULT = new RecomputeModules(EnumSet.of(RecomputeModule.CORE_ATTN));

    public RecomputeModules {
        modules = modules.isEmpty() ? Set.of() : java.util.Collections.unmodifiableSet(EnumSet.copyOf(modules));
    }

    /**
     * The modules of a job whose recompute is {@code rc} as written ({@code written}); {@code as} gets the assumption when
     * selective recompute names none (Megatron's default core_attn) and the line naming the modules priced.
     */
    public static RecomputeModules of(Recomputation written, Recompute rc, List<String> as) {
        if (rc != Recompute.SELECTIVE) return DEFAULT;
        if (written == null || written.modules() == null) {
            if (written != null && "selective".equals(written.granularity().value().trim().toLowerCase(Locale.ROOT))) {
                as.add("recompute selective without recompute_modules: Megatron-Core's default [core_attn] (TransformerConfig"
                        + " recompute_modules; with flash attention it keeps what no recompute keeps)");
            }
            return DEFAULT;
        }
        RecomputeModules r = new RecomputeModules(written.modules());
        as.add("recompute selective with recompute_modules [" + r.text() + "]: " + (r.priced() ? "each module's activations dropped"
                + " and its forward run again in backward are priced (RecomputeModules, docs/plan.md)"
                : "nothing recomputed beyond what flash attention already leaves out"));
        return r;
    }

    /** The modules as Megatron writes them, in its order: "layernorm, moe_act". */
    public String text() {
        List<String> out = new ArrayList<>();
        for (RecomputeModule m : RecomputeModule.values()) if (modules.contains(m)) out.add(m.id());
        return String.join(", ", out);
    }

    /** Whether any module changes memory or time (core_attn alone does not, with flash attention). */
    public boolean priced() {
        for (RecomputeModule m : modules) if (m != RecomputeModule.CORE_ATTN) return true;
        return false;
    }

    /** The share of the layers that are MoE layers (0 for a dense model). */
    static double moeShare(ModelShape m, MoeShape s) {
        if (m.experts() <= 1) return 0;
        return (s != null ? s.moeLayers() : m.layers()) / (double) m.layers();
    }

    /**
     * Bytes per s·b·h (16-bit, as {@link MemoryModel#perLayer}'s terms) one layer no longer keeps, averaged over the model's
     * layers (MoE and dense), split as {replicated over tp, divided by tp}; {0, 0} unless the layout's recompute is selective.
     */
    double[] savedParts(ModelShape m, Layout l, MoeShape s) {
        return savedParts(m, l, moeShare(m, s));
    }

    /** {@link #savedParts} of layers of which {@code moe} are MoE layers (1: an MoE layer, 0: a dense one; else a share). */
    private double[] savedParts(ModelShape m, Layout l, double moe) {
        if (l.recompute() != Recompute.SELECTIVE || !priced()) return new double[] {0, 0};
        double h = m.hidden(), dense = 1 - moe;
        boolean q = m.dtype().quantized();
        double gemmInput = q ? 1 : 2;                                        // a GEMM input as MemoryModel keeps it
        double mlp = (m.gatedMlp() ? 6.0 : 4.0) * m.ffn() / h - (q ? (double) m.ffn() / h : 0);   // fc1 and activation outputs
        double actOut = (q ? 1.0 : 2.0) * m.ffn() / h;                       // the activation's output, fc2's input
        double replicated = 0, split = 0;
        if (modules.contains(RecomputeModule.LAYERNORM)) replicated += gemmInput * (moe + (m.mla() != null ? 1 : 0));
        if (modules.contains(RecomputeModule.MOE)) split += moe * mlp;
        else if (modules.contains(RecomputeModule.MOE_ACT)) split += moe * actOut;
        if (modules.contains(RecomputeModule.MLP)) { replicated += dense * gemmInput; split += dense * mlp; }
        if (modules.contains(RecomputeModule.MLA_UP_PROJ) && m.mla() != null) {
            LatentAttention a = m.mla();
            split += (4.0 * m.heads() * a.qkDim() + 2.0 * m.heads() * a.vHeadDim()) / h;
        }
        return new double[] {replicated, split};
    }

    /** Activation bytes one layer no longer keeps per micro-batch per GPU (what {@link MemoryModel#activations} subtracts). */
    public double savedBytes(ModelShape m, Layout l, MoeShape s) {
        return savedBytes(m, l, moeShare(m, s));
    }

    /**
     * {@link #savedBytes} of a layer of one kind, {@code moe} 1 an MoE layer, 0 a dense one (an MTP layer's transformer layer
     * at the kind Megatron-Core builds it, {@link MtpLayers#kindBlocks}); a share between them for the model's mean layer.
     */
    public double savedBytes(ModelShape m, Layout l, double moe) {
        double[] p = savedParts(m, l, moe);
        if (p[0] == 0 && p[1] == 0) return 0;
        double sbh = (double) m.seq() / l.cp() * l.microBatchSize() * m.hidden(), t = l.tp();
        double per = (l.sequenceParallel() || l.tp() == 1 ? (p[0] + p[1]) / t : p[0] + p[1] / t) * sbh;
        return per * m.dtype().activationBytes() / 2.0;
    }

    /**
     * The forward the modules run again, per layer and micro-batch on one GPU averaged over the model's layers, or null when
     * none is priced (not selective, or core_attn alone).
     *
     * @param tokens T = b·s/cp
     * @param moe    the MoE layer's pricing (null for a dense model)
     * @param gemmRate the achieved GEMM rate, FLOP/s
     * @param hbm    the achieved HBM rate, bytes/s
     */
    public Term.Recompute price(ModelShape m, Layout l, MoeShape s, MoeCost.Priced moe, double tokens, double gemmRate,
                                double kernelS, double hbm) {
        if (l.recompute() != Recompute.SELECTIVE || !priced()) return null;
        double h = m.hidden(), tp = l.tp(), ab = m.dtype().activationBytes();
        double moeShare = moeShare(m, s), dense = 1 - moeShare, gate = m.gatedMlp() ? 3 : 2;
        double normTokens = l.sequenceParallel() ? tokens / tp : tokens;
        double normBytes = 0, actBytes = 0, flops = 0, kernels = 0, moeS = 0;
        if (modules.contains(RecomputeModule.LAYERNORM)) normBytes = (moeShare + (m.mla() != null ? 1 : 0)) * 2 * normTokens * h * 2;
        if (modules.contains(RecomputeModule.MOE) && moe != null) {
            moeS = moeShare * moe.moeLayerS() / 3;
        } else if (modules.contains(RecomputeModule.MOE_ACT) && s != null && moeShare > 0) {
            int etp = s.etp(l);
            double cf = s.capacityFactor() > 0 && s.padToCapacity() ? s.capacityFactor() : 1;
            double rows = tokens * m.topK() * etp / tp * cf, f = (double) m.ffn() / etp;
            double clamp = s.activationClamp() > 0 && m.gatedMlp() ? ExpertPasses.CLAMP_FORWARD : 0;
            actBytes += moeShare * rows * f * ((m.gatedMlp() ? 3 : 2) + clamp) * ab;
        }
        if (modules.contains(RecomputeModule.MLP) && dense > 0) {
            double ffn = s != null && m.experts() > 1 ? s.denseFfn() : m.ffn();
            flops += dense * tokens * 2 * gate * h * ffn / tp;
            kernels += dense * 2;
            actBytes += dense * tokens * ffn / tp * (m.gatedMlp() ? 3 : 2) * ab;
        }
        if (modules.contains(RecomputeModule.MLA_UP_PROJ) && m.mla() != null) {
            LatentAttention a = m.mla();
            double heads = m.heads();
            double q = a.qLoraRank() > 0 ? a.qLoraRank() * heads * a.qkDim() : h * heads * a.qkDim();
            flops += tokens * 2 * (q + a.kvLoraRank() * heads * (a.qkHeadDim() + a.vHeadDim())) / tp;
            kernels += 2;
        }
        if (modules.contains(RecomputeModule.SHARED_EXPERTS) && s != null && s.sharedFfn() > 0) {
            flops += moeShare * tokens * 2 * gate * h * s.sharedFfn() / tp;
            kernels += moeShare * 2;
        }
        double seconds = flops / gemmRate + kernels * kernelS + (normBytes + actBytes) / hbm + moeS;
        if (seconds <= 0) return null;          // modules the model has nothing of (layernorm on a dense model's fused norms)
        return new Term.Recompute(text(), normBytes, actBytes, flops, gemmRate, kernels, kernelS, hbm, moeS, seconds);
    }
}
