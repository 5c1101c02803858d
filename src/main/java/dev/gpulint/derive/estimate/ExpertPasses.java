package dev.gpulint.derive.estimate;

/**
 * The routed experts' elementwise passes that Megatron-Core runs outside its fused activation kernel when the experts'
 * GLU is clamped or their linear layers have biases (GPT-OSS: {@code activation_func_clamp_value} 7.0, Hugging Face's
 * {@code swiglu_limit}, and {@code add_bias_linear}), per MoE layer and micro-batch on one GPU, counted from the code path
 * (docs/plan.md, "GPT-OSS's experts"). Every rate is the catalog's HBM rate: no constant of its own. Pure.
 *
 * <p>Megatron-Core's TEGroupedMLP (megatron/core/transformer/moe/experts.py) with {@code bias_activation_fusion} calls
 * {@code weighted_bias_quick_geglu_impl} (megatron/core/fusions/fused_bias_geglu.py), whose fused kernel the moe term's
 * activation already counts; with a clamp value it first runs, eagerly, {@code x_glu.clamp(max=v)},
 * {@code x_linear.clamp(-v, v)} and {@code torch.cat} of the two halves. Per routed row of f = ffn/etp:
 * <ul>
 * <li>clamp, forward: two clamps read and write f each, the concatenation reads and writes 2f: 8f elements;</li>
 * <li>clamp, backward: each clamp's backward reads its input and the gradient and writes the gradient (3f each, the
 *     fewest bytes: PyTorch builds the two-sided clamp's mask in more kernels), and the chunk's backward joins the two
 *     gradients into one (2f read, 2f written): 10f elements.</li>
 * </ul>
 * fc1's bias is added in the grouped GEMM (TE GroupedLinear, skip_bias_add False: the GEMM's bias epilogue, its gradient
 * the wgrad GEMM's), but fc2 returns its biases apart (skip_bias_add True) and {@code TEGroupedMLP._apply_bias} adds them
 * per local expert, weighted by the routing probabilities, {@code cat([t + b·p for each expert])}. Per routed row of h:
 * <ul>
 * <li>bias, forward: b·p written (h), t + b·p read 2h and written h, the concatenation read and written h: 6h elements;</li>
 * <li>bias, backward: the add passes the gradient through; b·p's backward multiplies the gradient by p and by b (read h,
 *     write h each) and reduces each product (read h each): 6h elements.</li>
 * </ul>
 * Probabilities taken in the activation dtype (Megatron's moe_router_dtype default: none). A recomputed forward
 * (full recompute) runs the forward passes again. The kernels' launches (per local expert for the bias) are host time,
 * not priced here.
 */
public final class ExpertPasses {
    /** Elements per routed row and f moved by the clamp's forward and backward passes. */
    static final int CLAMP_FORWARD = 8, CLAMP_BACKWARD = 10;
    /** Elements per routed row and h moved by the per-expert fc2 bias's forward and backward passes. */
    static final int BIAS_FORWARD = 6, BIAS_BACKWARD = 6;

    private ExpertPasses() {}

    /**
     * @param tokens T = b·s/cp per GPU and micro-batch
     * @param rf     the recompute factor (4/3 with full recompute: the forward runs again)
     * @param hbm    the achieved HBM rate, bytes/s
     * @return the term, or null when the experts are neither clamped nor biased
     */
    public static Term.ExpertPasses price(ModelShape m, MoeShape s, Layout l, double tokens, double rf, double hbm) {
        boolean clamp = s.activationClamp() > 0 && m.gatedMlp();
        if (!clamp && !s.expertBias()) return null;
        int tp = l.tp(), etp = s.etp(l);
        double cf = s.capacityFactor() > 0 && s.padToCapacity() ? s.capacityFactor() : 1;
        double rows = tokens * m.topK() * etp / tp * cf;
        double ab = m.dtype().activationBytes();
        double f = (double) m.ffn() / etp, h = m.hidden();
        double recomputed = Math.max(0, 3 * (rf - 1));
        double clampFwd = clamp ? CLAMP_FORWARD * rows * f * ab : 0, clampBwd = clamp ? CLAMP_BACKWARD * rows * f * ab : 0;
        double biasFwd = s.expertBias() ? BIAS_FORWARD * rows * h * ab : 0, biasBwd = s.expertBias() ? BIAS_BACKWARD * rows * h * ab : 0;
        double bytes = (clampFwd + biasFwd) * (1 + recomputed) + clampBwd + biasBwd;
        return new Term.ExpertPasses(rows, clamp ? s.activationClamp() : 0, f, clampFwd, clampBwd, s.expertBias(), h, biasFwd, biasBwd,
                recomputed, bytes, hbm, bytes / hbm);
    }
}
