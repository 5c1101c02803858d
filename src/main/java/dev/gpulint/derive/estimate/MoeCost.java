package dev.gpulint.derive.estimate;

import dev.gpulint.derive.estimate.ModelShape.Dtype;

/**
 * What an MoE model's MLP side costs per layer and micro-batch on one GPU, forward and backward (docs/plan.md, "MoE"):
 * the routed experts as grouped GEMMs whose efficiency falls with the tokens each local expert gets, the router,
 * token permutation and un-permutation (memory-bound), the experts' extra activations, the shared experts and the dense
 * layers' MLP. Every rate is the catalog's (the dense GEMM rate and fixed kernel time, HBM bandwidth): no constant
 * of its own is fitted. Pure.
 *
 * <p>Per GPU and micro-batch, with T = b·s/cp tokens, tp the attention's tensor-parallel size, etp the experts', ep the
 * expert-parallel size and E experts, k of them per token (Megatron-Core's parallel folding: the expert grid etp × ep
 * lies inside tp·cp·dp, so the routed work per GPU stays T·k·6·P/tp whatever etp and ep are; they decide its shape):
 * <ul>
 * <li>local experts L = E/ep, each a GEMM of M = T·k·ep·etp/(tp·E) tokens (× the capacity factor when inputs are padded
 *     to it) by h × ffn/etp;</li>
 * <li>its time, by the roofline: the longer of FLOPs / (GEMM rate × tile fill M/(128·⌈M/128⌉)) and the experts' weights
 *     read forward and backward and their gradients written (3 × L·P/etp·bytes) at the HBM rate; plus 6 kernels
 *     (grouped) or 6·L kernels (one GEMM per expert) × the fixed time per kernel, and 6·L expert GEMMs × the catalog's
 *     {@code expert_gemm_s} ({@link Efficiency#expertGemmS(Dtype)}: each local expert's GEMM, grouped or not, has its own set-up and tail: Transformer Engine's GroupedLinear runs one
 *     GEMM per expert on several streams);</li>
 * <li>router: 6·(T/tp)·h·E FLOPs at the GEMM rate, its fp32 logits (softmax, top-k, the auxiliary loss and their
 *     gradients, 8 passes of (T/tp)·E·4 bytes) at the HBM rate;</li>
 * <li>permutation and un-permutation, forward and backward: 8 passes (read and write) of the R = T·k·etp/tp rows of h
 *     the GPU's experts take, at the HBM rate;</li>
 * <li>the activation function of the routed rows beyond the one MLP per token the layer's elementwise term moves:
 *     (R·ffn/etp − T·ffn/tp) × 8 elements (SwiGLU: gate and up read, product written forward; both and the gradient
 *     read, two gradients written backward; GeLU 5) at the HBM rate;</li>
 * <li>on a quantized GEMM path, the casts of the routed rows' GEMM inputs ({@link MoeCasts}).</li>
 * </ul>
 * The 128-row tile is the M tile of the Hopper and Blackwell grouped GEMMs (CUTLASS's and cuBLASLt's 128 × 128 and
 * 128 × 256 tiles, Transformer Engine's GroupedLinear); an expert with 64 tokens fills half of one.
 *
 * <p>One constant is MoE's own, the catalog's {@code expert_gemm_s} (26 µs per local expert's GEMM), fitted on the two MoE
 * figures the calibration rule allows (Liu et al. 2025, arXiv:2504.14960, H100 bf16, Megatron-Core: Mixtral 8x22B 49.3 % MFU,
 * Qwen2-57B-A14B 39.0 %; bench/plan/moe.tsv; docs/plan.md, "MoE") in Hopper's row; every other family and fp8 borrow it until
 * a kernel-level measurement sets theirs. Every rate is the catalog's.
 */
public final class MoeCost {
    /** Rows of the grouped GEMM's tile along the tokens. */
    static final int TILE_M = 128;


    /**
     * @param perLayerS     the MLP side's seconds per layer and micro-batch, averaged over the model's layers
     * @param moeLayerS     one MoE layer's seconds (routed and shared experts, router, permutation, extra activations)
     * @param denseLayerS   one dense layer's MLP seconds (its own MLP instead of the experts)
     * @param tokensPerExpert M, the tokens one local expert's GEMM takes
     * @param tileFill      M/(128·⌈M/128⌉)
     * @param routedEfficiency the routed experts' achieved FLOP rate as a fraction of the dense GEMM rate (1: as a dense GEMM)
     * @param a2aBytes      bytes per rank of one dispatch or combine
     * @param term          the figures of the breakdown's moe term
     */
    public record Priced(double perLayerS, double moeLayerS, double denseLayerS, double tokensPerExpert, double tileFill, double routedEfficiency,
                         double a2aBytes, Term.Moe term, Term.ExpertPasses passes) {}

    private MoeCost() {}

    /**
     * @param tokens T = b·s/cp
     * @param rf     the recompute factor (4/3 with full recompute)
     */
    public static Priced price(ModelShape m, MoeShape s, Layout l, Hardware hw, double tokens, double rf) {
        Efficiency e = hw.efficiency();
        Dtype dt = m.dtype();
        double ab = dt.activationBytes();
        double pg = hw.gemmPeak(dt) * hw.gemmEfficiency(dt), hbm = hw.hbmBytesPerSecond() * e.hbm();
        double p16 = hw.sixteenBitPeak(dt) * e.gemm();
        int tp = l.tp(), etp = s.etp(l), ep = Math.max(1, l.ep());
        double k = m.topK(), experts = m.experts(), h = m.hidden(), gate = m.gatedMlp() ? 3 : 2;
        double cf = s.capacityFactor() > 0 && s.padToCapacity() ? s.capacityFactor() : 1;
        double local = Math.max(1, experts / ep);
        double perExpert = tokens * k * ep * etp / (tp * experts) * cf;
        double fill = perExpert <= 0 ? 1 : perExpert / (TILE_M * Math.ceil(perExpert / TILE_M));
        double routedFlops = tokens * k * 6 * m.mlpParameters() / tp * cf * rf;
        double weightBytes = 3 * local * m.mlpParameters() / etp * ab;
        double kernels = 6 * rf * (s.groupedGemm() ? 1 : local), members = 6 * rf * local, expertGemmS = e.expertGemmS(dt);
        // the roofline (Williams et al. 2009): a GEMM takes the longer of its FLOPs and its bytes; the weights are what a
        // small expert's GEMM is bound by (arithmetic intensity ≈ M FLOP per weight byte in 16-bit); each local expert's
        // GEMM adds its fixed time
        double routedS = Math.max(routedFlops / (pg * fill), weightBytes / hbm) + kernels * e.gemmKernelS() + members * expertGemmS;
        double routerS = 6 * tokens / tp * h * experts / p16 + 8 * tokens / tp * experts * 4 / hbm + 3 * e.gemmKernelS();
        double rows = tokens * k * etp / tp * cf;
        double permuteS = 8 * rows * h * ab * rf / hbm;
        // the activation function of the routed rows beyond the one MLP per token the layer's elementwise term already
        // moves: SwiGLU reads gate and up and writes their product forward, reads both and the gradient and writes two
        // gradients backward (8 × ffn elements per row); GeLU 5 × ffn
        double extra = Math.max(0, rows * m.ffn() / etp - tokens * m.ffn() / tp) * (m.gatedMlp() ? 8 : 5) * ab;
        double extraS = extra * rf / hbm;
        // a quantized GEMM path casts every routed row's GEMM inputs, k per token (MoeCasts)
        MoeCasts.Priced casts = MoeCasts.price(m, hw, tokens, tp, etp, cf, hbm);
        double sharedS = s.sharedFfn() > 0 ? tokens * 6 * gate * h * s.sharedFfn() / tp * rf / pg + 6 * rf * e.gemmKernelS() : 0;
        // the clamped GLU's and the experts' biases' passes outside the fused activation (ExpertPasses; null: neither)
        Term.ExpertPasses passes = ExpertPasses.price(m, s, l, tokens, rf, hbm);
        double moeLayerS = routedS + routerS + permuteS + extraS + casts.seconds() + sharedS + (passes == null ? 0 : passes.seconds());
        // a dense layer: its own MLP instead of the experts (the routed expert's MLP is what the shared term left out)
        double denseS = tokens * 6 * gate * h * s.denseFfn() / tp * rf / pg + 6 * rf * e.gemmKernelS();
        int layers = m.layers(), dense = s.denseLayers(m);
        double perLayer = (s.moeLayers() * moeLayerS + dense * denseS) / layers;
        double a2a = tokens / (l.sequenceParallel() ? tp : 1) * k * h * ab * cf;
        Term.Moe term = new Term.Moe(s.moeLayers(), layers, local, perExpert, etp, cf, fill, routedFlops, pg, weightBytes, hbm, kernels,
                e.gemmKernelS(), (int) members, expertGemmS, routedS, routerS, permuteS, rows, extraS, casts.bytes(), casts.seconds(), s.sharedFfn(), sharedS, moeLayerS, dense, s.denseFfn(), denseS,
                passes == null ? 0 : passes.seconds());
        return new Priced(perLayer, moeLayerS, denseS, perExpert, fill, routedFlops / pg / routedS, a2a, term, passes);
    }
}
