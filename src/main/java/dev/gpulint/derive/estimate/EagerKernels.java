package dev.gpulint.derive.estimate;

import dev.gpulint.spec.Format;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import java.util.List;

/**
 * The HBM bytes a block's elementwise kernels move when PyTorch runs them eagerly, one kernel per op, beyond what the
 * fused kernels move. The elementwise term's fitted {@code traffic} (Efficiency) was set on NeMo's Transformer Engine
 * runs, whose norm, RoPE, SwiGLU and residual kernels are fused as torch.compile's Inductor fuses them: it stands for a
 * fused job. An eager job (torchtitan without {@code [compile] enable}, or a native manifest's {@code kernels: eager})
 * adds, per layer and micro-batch, the bytes counted here at the GPU's HBM rate. Nothing is fitted: each count is the
 * bytes the op graph's kernels read and write, per element of the tensor the op runs on (bf16 2 bytes, fp32 4), eager
 * (one kernel per ATen op and per product of its derivative, each reading its operands and writing its result) minus
 * fused (one kernel reading the inputs once and writing the outputs once); docs/plan.md ("Eager elementwise kernels")
 * lists every op.
 *
 * <ul>
 * <li>RMSNorm, twice per layer, on the hidden width of the GPU's tokens (÷ tp with sequence parallelism): PyTorch's
 *     composite {@code rms_norm} (torch.nn.RMSNorm, torchtitan's "rmsnorm") upcasts to fp32, squares, means, multiplies
 *     by the reciprocal root, casts back and multiplies by the weight: 36 bytes forward against the fused 4 (+32);
 *     its derivative's kernels 76 against the fused 6 (+70).
 * <li>Residual adds, twice per layer, same width: eager 6 bytes (read two, write one) against the 4 the next norm's fused
 *     kernel adds to read the second input and write the sum (+2); backward the gradient sum at the branch, 6 against 2
 *     (+4).
 * <li>RoPE on the query and key heads ((a + kv)·d ÷ tp): torchtitan's {@code apply_rotary_emb} casts to fp32, multiplies
 *     by the complex frequencies and casts back, 20 bytes against the fused 4, forward and backward alike (+16, +16).
 * <li>SwiGLU on the MLP's width (ffn ÷ tp; a gated dense MLP only: an MoE layer's experts are MoeCost's): SiLU and the
 *     gate product, 10 bytes against the fused 6 (+4); backward the product's two gradients and SiLU's, 18 against 10
 *     (+8).
 * </ul>
 *
 * A recomputed forward (op-level SAC, full recompute) runs the forward kernels again: forward × (1 + share recomputed).
 *
 * @param eager whether the job runs its elementwise kernels eagerly
 */
public record EagerKernels(boolean eager) {
    public static final EagerKernels FUSED = new EagerKernels(false), EAGER = new EagerKernels(true);

    /** Extra bytes per element, forward and backward, over the fused kernels (see the class comment). */
    static final double NORM_F = 32, NORM_B = 70, RESIDUAL_F = 2, RESIDUAL_B = 4, ROPE_F = 16, ROPE_B = 16, SWIGLU_F = 4, SWIGLU_B = 8;

    /** What a job states, else its format's default; one line of {@code as} when it is stated or defaulted. */
    static EagerKernels of(Specs.Job j, List<String> as) {
        Located<String> k = j.kernels();
        String key = j.origin() != null && j.origin().key(Specs.Origin.KERNELS) != null ? j.origin().key(Specs.Origin.KERNELS) : "kernels";
        if (k != null && k.value() != null) {
            boolean eager = k.value().equals("eager");
            as.add(eager
                    ? "eager elementwise kernels (" + key + (key.equals("kernels") ? ": eager" : "") + "): PyTorch runs RMSNorm, RoPE,"
                            + " SwiGLU and the residual adds one kernel per op; their HBM bytes beyond the fused kernels' are priced (eager)"
                    : "fused elementwise kernels (" + key + (key.equals("kernels") ? ": fused" : "") + "): norms, RoPE, SwiGLU and residual"
                            + " adds fused as Transformer Engine fuses them; the elementwise term's traffic constant prices them");
            return eager ? EAGER : FUSED;
        }
        if (j.origin() != null && Format.of(j.origin().format()) == Format.TORCHTITAN) {
            as.add("[compile] enable not given: false, torchtitan's default: eager elementwise kernels, their HBM bytes beyond the"
                    + " fused kernels' priced (eager)");
            return EAGER;
        }
        return FUSED;
    }

    /**
     * Prices one layer's extra bytes per micro-batch, or null when the kernels are fused.
     *
     * @param tokens     the GPU's tokens per micro-batch (its sequence share)
     * @param rfEw       the elementwise recompute factor (Checkpointing.elementwise: 1 + recomputed share / 3)
     * @param denseMlp   whether the layer's MLP is the dense gated one (an MoE layer's experts are MoeCost's)
     * @param hbmRate    the achieved HBM rate, bytes/s
     */
    Term.Eager price(ModelShape m, Layout l, double tokens, double rfEw, boolean denseMlp, double hbmRate) {
        if (!eager) return null;
        double t = l.tp();
        double hidden = tokens * m.hidden() / (l.sequenceParallel() ? t : 1);
        double qk = tokens * (double) (m.heads() + m.kvHeads()) * m.headDim() / t;
        double ffn = denseMlp && m.gatedMlp() ? tokens * m.ffn() / t : 0;
        double forward = hidden * 2 * (NORM_F + RESIDUAL_F) + qk * ROPE_F + ffn * SWIGLU_F;
        double backward = hidden * 2 * (NORM_B + RESIDUAL_B) + qk * ROPE_B + ffn * SWIGLU_B;
        double recomputed = 3 * (rfEw - 1);
        double bytes = forward * (1 + recomputed) + backward;
        return new Term.Eager(hidden, qk, ffn, forward, backward, recomputed, bytes, hbmRate, bytes / hbmRate);
    }
}
