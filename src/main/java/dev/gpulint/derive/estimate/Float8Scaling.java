package dev.gpulint.derive.estimate;

import dev.gpulint.spec.Format;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import java.util.List;

/**
 * How a Float8 job scales its GEMM inputs, and what torchao's rowwise recipes cost beyond per-tensor scaling
 * (docs/plan.md, "Float8 rowwise scaling"). The elementwise term counts the casts of a per-tensor recipe (Transformer
 * Engine's, torchao's tensorwise): each GEMM input cast forward and its output gradient backward, 3 bytes per element each
 * (read 2, write 1), on the inputs of one fused QKV, the projection, fc1 and fc2, {@code 6·T·(2h + a·d + ffn)/tp}. torchao's
 * rowwise recipes ({@code Float8LinearConfig.from_recipe_name}, torchao/float8/config.py) scale each row of a GEMM operand
 * along its contracted dimension, so every Float8Linear casts each operand twice, once per contracted dimension, and
 * torchtitan (parallelize.py: float8 all-gather with TP "only supported for tensorwise") runs plain tensor parallelism
 * under them: the inputs are all-gathered in bf16 and every column-parallel linear casts the gathered input itself.
 * Nothing is fitted: the bytes are counted per element, per operand, as torchao's own roofline model counts the kernels
 * (torchao/float8/roofline_utils.py, get_tensor_memory_traffic_ovhd_s, without fusion into the producer), and priced at
 * the catalog's HBM rate.
 *
 * <ul>
 * <li>{@code rowwise}: an input {@code x} (M×K) forward: one kernel reads bf16 (2), writes the rowwise fp8 copy (1) and the
 *     bf16 transpose the backward's columnwise cast needs (2), 5 bytes; backward: the transpose read (2) and cast (1), 3.
 *     An output gradient (M×N), all backward: 5 + 3 = 8. A weight: forward 3 (read 2, write 1), backward transpose 4 and
 *     cast 3. The backward GEMMs (grad_input, grad_weight) run without fast accumulation, where torchao (float8_ops.py,
 *     addmm_float8_unwrapped) calls cuBLAS's per-tensor kernel and scales its bf16 output in a separate kernel (read 2,
 *     write 2: pytorch/ao#1325, #2184 "at least one extra triton kernel per GEMM"): 4 bytes per grad_input element (an
 *     input's count) and per grad_weight element (a weight's).
 * <li>{@code rowwise_with_gw_hp}: the weight gradient's GEMM stays in bf16, so only the rowwise (dim0) casts are made:
 *     input 3 forward, output gradient 3, weight 3 + 3; the grad_input GEMM's output scaling 4 per input element; and one
 *     GEMM of three (the weight gradient's) runs at the 16-bit rate: {@code flops/3 · (1/r16 − 1/r8)} more.
 * </ul>
 *
 * Per layer and micro-batch on a GPU with T tokens, torchtitan's Llama block (wq, wk, wv, wo, w1, w3, w2; an ungated MLP
 * w1, w2; an MoE layer's experts are MoeCost's, its attention linears counted, and an MoE model's dense layers' MLP at its own
 * width in their share of the layers): inputs {@code 3·T·h} (wq, wk, wv: the
 * gathered input, whatever tp) + {@code T·a·d/tp} (wo) + {@code 2·T·h} (w1, w3) + {@code T·ffn/tp} (w2); output gradients
 * {@code T·(a + 2kv)·d/tp} + {@code T·h} (wo, gathered) + {@code 2·T·ffn/tp} + {@code T·h} (w2); weights
 * {@code (2·h·a·d + 2·h·kv·d + 3·h·ffn)/tp}. A recomputed forward (op-level SAC, full) casts again: forward × (1 + share).
 * The term is these bytes less the per-tensor casts the elementwise term already counts. Per-tensor scaling (tensorwise,
 * the default) adds nothing. Not priced: the rowwise GEMM kernel's own rate against cuBLAS's per-tensor kernel (no
 * kernel-level table in text was found: docs/plan.md), and casts Inductor may fuse into the producer of a tensor.
 *
 * @param recipe the job's recipe
 */
public record Float8Scaling(Recipe recipe) {
    /** torchao's recipe names (Float8LinearRecipeName), as the native manifest's {@code fp8_scaling} writes them. */
    public enum Recipe {
        TENSORWISE("tensorwise"), ROWWISE("rowwise"), ROWWISE_WITH_GW_HP("rowwise_with_gw_hp");

        final String id;

        Recipe(String id) { this.id = id; }

        public String id() { return id; }

        static Recipe parse(String s) {
            for (Recipe r : values()) if (r.id.equalsIgnoreCase(s.strip())) return r;
            return null;
        }
    }

    public static final Float8Scaling TENSORWISE = new Float8Scaling(Recipe.TENSORWISE);

    /** Bytes per element, forward and backward, of an input, an output gradient and a weight (class comment). */
    static final double ROW_INPUT_F = 5, ROW_INPUT_B = 3, ROW_GRAD = 8, ROW_WEIGHT_F = 3, ROW_WEIGHT_B = 7,
            HP_INPUT_F = 3, HP_GRAD = 3, HP_WEIGHT_F = 3, HP_WEIGHT_B = 3, RESCALE = 4;
    /** The per-tensor casts the elementwise term counts: read 2, write 1, forward (input) and backward (output gradient). */
    static final double COUNTED = 2 * 3;

    public Float8Scaling {
        if (recipe == null) recipe = Recipe.TENSORWISE;
    }

    /** What a job states, else tensorwise; one line of {@code as} for an fp8 job when it is stated, or defaulted by torchtitan. */
    static Float8Scaling of(Specs.Job j, ModelShape.Dtype dtype, List<String> as) {
        Located<String> s = j.fp8Scaling();
        String key = j.origin() != null && j.origin().key(Specs.Origin.FP8_SCALING) != null ? j.origin().key(Specs.Origin.FP8_SCALING) : "fp8_scaling";
        Recipe r = s == null || s.value() == null ? null : Recipe.parse(s.value());
        if (dtype != ModelShape.Dtype.FP8) {
            if (r != null && r != Recipe.TENSORWISE) {
                as.add(key + ": " + r.id + " read, but the job's GEMMs are not fp8 (" + dtype.id() + "): nothing priced for it");
            }
            return TENSORWISE;
        }
        String where = key + (key.equals("fp8_scaling") ? ": " + (r == null ? "" : r.id) : " = \"" + (r == null ? "" : r.id) + "\"");
        if (r == null) {
            if (j.origin() != null && Format.of(j.origin().format()) == Format.TORCHTITAN) {
                as.add("Float8 recipe_name not given: tensorwise, torchao's default (one scale per tensor; its casts are in the"
                        + " elementwise term)");
            }
            return TENSORWISE;
        }
        as.add(switch (r) {
            case TENSORWISE -> "Float8 tensorwise scaling (" + where + "): one scale per tensor; its casts are in the elementwise term";
            case ROWWISE -> "Float8 rowwise scaling (" + where + "): each GEMM operand cast twice (once per contracted dimension),"
                    + " the inputs all-gathered in bf16 and cast by every column-parallel linear, the backward GEMMs' outputs"
                    + " scaled in a kernel of their own: their HBM bytes are priced (float8); the rowwise GEMM kernel's own rate"
                    + " is taken as the per-tensor one (no kernel-level table)";
            case ROWWISE_WITH_GW_HP -> "Float8 rowwise scaling, weight gradients in bf16 (" + where + "): the rowwise casts and the"
                    + " grad_input GEMM's output scaling are priced, and the weight-gradient GEMMs at the 16-bit rate (float8)";
        });
        return new Float8Scaling(r);
    }

    /**
     * The per-tensor casts' HBM bytes per layer and micro-batch on a GPU with {@code tokens} tokens, averaged over the
     * model's layers, which the elementwise term counts for every quantized GEMM path (Transformer Engine's, torchao's
     * tensorwise): each GEMM input cast forward and its output gradient backward, read 2 and write 1 each ({@link #COUNTED}),
     * on every layer's fused QKV and projection inputs, {@code T·(h + a·d)/tp}, and on the dense MLP's fc1 and fc2 inputs,
     * {@code T·(h + ffn)/tp}, in the share of the layers that have one. Each layer's casts are counted once: an MoE layer's
     * expert inputs are {@link MoeCasts}'.
     *
     * @param mlp the layers whose MLP is dense ({@link DenseMlp#of})
     */
    static double perTensorCastBytes(ModelShape m, Layout l, double tokens, DenseMlp mlp) {
        return COUNTED * (tokens * (m.hidden() + (double) m.heads() * m.headDim() + mlp.share() * (m.hidden() + mlp.ffn())) / l.tp());
    }

    /**
     * The layers whose MLP is a dense one, priced per layer here (the experts of an MoE layer are MoeCost's and MoeCasts'):
     * every layer of a dense model at {@link ModelShape#ffn()}; an MoE model's dense layers ({@code --moe-layer-freq}, the
     * first dense layers) at their own width, {@link MoeShape#denseFfn()}.
     *
     * @param share the share of the model's layers with a dense MLP (1: a dense model; 0: every layer MoE)
     * @param ffn   that MLP's hidden size
     */
    public record DenseMlp(double share, double ffn) {
        /** @param moe the MoE layers' shape, null for a model priced as dense */
        public static DenseMlp of(ModelShape m, MoeShape moe) {
            return moe == null ? new DenseMlp(1, m.ffn()) : new DenseMlp((double) moe.denseLayers(m) / m.layers(), moe.denseFfn());
        }
    }

    /**
     * Prices one layer's rowwise extra per micro-batch, or null for per-tensor scaling or GEMMs that are not fp8.
     *
     * @param tokens    the GPU's tokens per micro-batch (its sequence share)
     * @param rfEw      the elementwise recompute factor (Checkpointing.elementwise: 1 + recomputed share / 3)
     * @param mlp       the layers whose MLP is dense, their share and width (an MoE layer's experts are MoeCost's): the
     *                  figures are per layer, averaged over the model's layers
     * @param fp8Gemms  whether the job's GEMMs run in fp8 (Hardware.gemmPath)
     * @param hbmRate   the achieved HBM rate, bytes/s
     * @param fp8Rate   the achieved fp8 GEMM rate, FLOP/s
     * @param bf16Rate  the achieved 16-bit GEMM rate, FLOP/s
     */
    Term.Float8 price(ModelShape m, Layout l, double tokens, double rfEw, DenseMlp mlp, boolean fp8Gemms, double hbmRate,
                      double fp8Rate, double bf16Rate) {
        if (recipe == Recipe.TENSORWISE || !fp8Gemms || hbmRate <= 0) return null;
        double t = l.tp(), h = m.hidden(), q = (double) m.heads() * m.headDim(), kv = (double) m.kvHeads() * m.headDim();
        // the dense MLP's linears (w1, w3 when gated, w2) in the share of the layers that have one, at their width
        int mlpCols = m.gatedMlp() ? 2 : 1;
        double share = mlp.share(), ffn = mlp.ffn();
        double inputs = tokens * (3 * h + q / t + share * (mlpCols * h + ffn / t));
        double grads = tokens * ((q + 2 * kv) / t + h + share * (mlpCols * ffn / t + h));
        double mlpWeights = (m.gatedMlp() ? 3 : 2) * h * ffn;
        double weights = (2 * h * q + 2 * h * kv + share * mlpWeights) / t;
        boolean hp = recipe == Recipe.ROWWISE_WITH_GW_HP;
        double recomputed = 3 * (rfEw - 1);
        double forward = hp ? inputs * HP_INPUT_F + weights * HP_WEIGHT_F : inputs * ROW_INPUT_F + weights * ROW_WEIGHT_F;
        double backward = hp ? grads * HP_GRAD + weights * HP_WEIGHT_B : inputs * ROW_INPUT_B + grads * ROW_GRAD + weights * ROW_WEIGHT_B;
        // the backward GEMMs' output scaling: grad_input (an input's elements) and, unless it is bf16, grad_weight (a weight's)
        double rescale = RESCALE * (inputs + (hp ? 0 : weights));
        double casts = forward * (1 + recomputed) + backward + rescale;
        double counted = perTensorCastBytes(m, l, tokens, mlp);
        double bytes = Math.max(0, casts - counted);
        // rowwise_with_gw_hp: the weight-gradient GEMMs, a third of the layer's un-recomputed linear FLOPs, at the 16-bit rate
        double linear = tokens * 6.0 * (m.attentionParameters() + share * mlpWeights) / t;
        double hpFlops = hp ? linear / 3 : 0;
        double hpSeconds = hp && fp8Rate > 0 && bf16Rate > 0 ? hpFlops * (1 / bf16Rate - 1 / fp8Rate) : 0;
        return new Term.Float8(recipe.id, inputs, grads, weights, forward, backward, recomputed, rescale, casts, counted, bytes,
                hbmRate, bytes / hbmRate, hpFlops, bf16Rate, hpSeconds);
    }
}
