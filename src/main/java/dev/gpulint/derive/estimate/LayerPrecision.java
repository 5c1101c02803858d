package dev.gpulint.derive.estimate;

import dev.gpulint.derive.estimate.ModelShape.Dtype;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import java.util.List;

/**
 * Which transformer layers run their GEMMs on the job's quantized path (fp8, MXFP8, NVFP4) and which an fp8 recipe keeps
 * in bf16: the one home of a layer's dtype in the estimate. By default every layer runs on the job's path. Megatron's
 * {@code --first-last-layers-bf16} keeps the first {@code --num-layers-at-start-in-bf16} and the last
 * {@code --num-layers-at-end-in-bf16} layers in bf16 (Megatron-Core's TransformerConfig {@code first_last_layers_bf16},
 * {@code num_layers_at_start_in_bf16}, {@code num_layers_at_end_in_bf16}, defaults 1 and 1; Megatron-Bridge's and NeMo 2's
 * mixed-precision configs copy the same three onto it): megatron/core/fp8_utils.py's {@code is_first_last_bf16_layer}
 * gives those layers no fp8 context, forward and backward, and TransformerBlock builds them outside
 * {@code fp8_model_init}, so their weights stay bf16. Counted by global layer number: the first layers sit in the first
 * model chunk of pipeline stage 0, the last in the last chunk of the last stage (a stage's chunks share its layers evenly,
 * or as the layout lays them out).
 *
 * <p>What a bf16 layer costs beyond a quantized one, per layer and micro-batch on one GPU (nothing fitted: every rate is the
 * catalog's):
 * <ul>
 * <li>its linear GEMMs at the 16-bit rate instead of the quantized one: {@code F·(1/r16 − 1/rq)}, F the layer's linear
 *     FLOPs the compute term counts (with recomputation);</li>
 * <li>less the input casts it does not make: the per-tensor casts of its attention and dense-MLP GEMM inputs
 *     ({@link Float8Scaling#perTensorCastBytes}) and, under a torchao rowwise recipe, the float8 term;</li>
 * <li>an MoE model's MLP side priced again in bf16 ({@link MoeCost} at the 16-bit rate, without {@link MoeCasts}), less
 *     its quantized price (both averaged over the model's layers, as the moe term is).</li>
 * </ul>
 * Its parameters are all-gathered in 16 bits under fp8 parameter gathering ({@link ParamGather}). Memory is counted as
 * before: the estimate holds every layer's weight at 2 bytes and its activations at the 16-bit size.
 *
 * @param start the first layers kept in bf16
 * @param end   the last layers kept in bf16
 */
public record LayerPrecision(int start, int end) {
    /** Every layer on the job's path. */
    public static final LayerPrecision UNIFORM = new LayerPrecision(0, 0);

    public LayerPrecision {
        if (start < 0 || end < 0) throw new IllegalArgumentException("bf16 layers are at least 0: " + start + ", " + end);
    }

    /** Every layer runs on the job's path. */
    public boolean uniform() { return start + end == 0; }

    /** Whether layer {@code i} (0-based, of {@code layers}) is kept in bf16. */
    public boolean bf16(int i, int layers) { return i < start || i >= layers - end; }

    /**
     * What a job states, with one line of {@code as} when it keeps layers in bf16 (or states it where nothing is quantized).
     *
     * @param m  the model (its layers and dtype)
     * @param hw the hardware (whether the job's GEMMs run on a quantized path)
     */
    static LayerPrecision of(Specs.Job j, ModelShape m, Hardware hw, List<String> as) {
        Specs.Bf16Layers b = j.fp8LayersBf16();
        if (b == null) return UNIFORM;
        long s = count(b.start()), e = count(b.end());
        if (s + e == 0) return UNIFORM;
        String key = j.origin() != null && j.origin().key(Specs.Origin.FP8_LAYERS_BF16) != null
                ? j.origin().key(Specs.Origin.FP8_LAYERS_BF16) : "fp8_layers_bf16";
        Dtype path = hw.gemmPath(m.dtype());
        if (!path.quantized()) {
            as.add(key + " read (" + s + " first, " + e + " last layers in bf16), but the job's GEMMs are not quantized (" + path.id()
                    + "): every layer runs on that path, nothing priced for it");
            return UNIFORM;
        }
        int layers = m.layers();
        int first = (int) Math.min(s, layers), last = (int) Math.min(e, layers - first);
        as.add("layers kept in bf16 (" + key + "): the first " + first + " and the last " + last + " of " + layers + " transformer"
                + " layers run their GEMMs at the 16-bit rate without " + path.id() + " input casts, their weights all-gathered in 16"
                + " bits under fp8 parameter gathering (bf16-layers)" + (first + last < s + e ? "; the counts written exceed the"
                + " model's layers: every layer is in bf16" : ""));
        return new LayerPrecision(first, last);
    }

    private static long count(Located<Long> n) {
        return n == null || n.value() == null ? 0 : Math.max(0, n.value());
    }

    /**
     * The bf16 layers on each pipeline stage (one GPU of each): the first {@code start} layers fill the model chunks in
     * Megatron's order from stage 0's first chunk, the last {@code end} from the last stage's last chunk backwards (chunk c
     * of pp × vpp on stage c mod pp).
     */
    double[] perStage(ModelShape m, Layout l) {
        int pp = Math.max(1, l.pp());
        double[] on = new double[pp];
        if (uniform()) return on;
        double[] left = chunks(m, l);
        double s = start, e = end;
        for (int c = 0; c < left.length && s > 0; c++) {
            double take = Math.min(s, left[c]);
            on[c % pp] += take;
            left[c] -= take;
            s -= take;
        }
        for (int c = left.length - 1; c >= 0 && e > 0; c--) {
            double take = Math.min(e, left[c]);
            on[c % pp] += take;
            left[c] -= take;
            e -= take;
        }
        return on;
    }

    /** The transformer layers of each model chunk, in Megatron's order (chunk c on stage c mod pp). */
    static double[] chunks(ModelShape m, Layout l) {
        int pp = Math.max(1, l.pp());
        PipelineSplit split = l.split();
        if (split.laidOut(pp)) {
            List<Long> stages = split.stages();
            long known = 0, rest = 0;
            for (long n : stages) if (n >= 0) known += n; else rest++;
            double[] out = new double[stages.size()];
            for (int c = 0; c < out.length; c++) {
                out[c] = stages.get(c) >= 0 ? stages.get(c) : Math.max(0, m.layers() - known) / (double) rest;
            }
            return out;
        }
        int vp = Math.max(1, l.virtualPp());
        double[] out = new double[pp * vp];
        for (int c = 0; c < out.length; c++) out[c] = MemoryModel.stageLayers(m, l, c % pp) / vp;
        return out;
    }

    /**
     * One bf16 layer's seconds beyond a quantized one's, per micro-batch (class comment), or null when every layer runs on
     * the job's path.
     *
     * @param tokens     the GPU's tokens per micro-batch
     * @param rf         the linear recompute factor (the moe term's)
     * @param linFlops   one layer's linear FLOPs per GPU as the compute term counts them (an MoE layer's attention only)
     * @param gemmRate   the achieved quantized GEMM rate, FLOP/s
     * @param bf16Rate   the achieved 16-bit GEMM rate, FLOP/s
     * @param castBytes  one layer's per-tensor cast bytes the elementwise term counts (0 on a 16-bit path)
     * @param f8         the float8 (rowwise) term, or null
     * @param moe        the MoE side as priced on the job's path, or null for a dense model
     * @param moeShape   the MoE layers' shape (with {@code moe})
     * @param hbmRate    the achieved HBM rate, bytes/s
     */
    Priced price(ModelShape m, Layout l, Hardware hw, double tokens, double rf, double linFlops, double gemmRate, double bf16Rate,
                 double castBytes, Term.Float8 f8, MoeCost.Priced moe, MoeShape moeShape, double hbmRate) {
        if (uniform() || gemmRate <= 0 || bf16Rate <= 0 || hbmRate <= 0) return null;
        double linearS = linFlops * (1 / bf16Rate - 1 / gemmRate);
        double castS = castBytes / hbmRate;
        double float8S = f8 == null ? 0 : f8.seconds() + f8.highPrecisionSeconds();
        double moeS = 0;
        if (moe != null && moeShape != null) {
            ModelShape bf16 = new ModelShape(m.layers(), m.hidden(), m.heads(), m.kvHeads(), m.headDim(), m.ffn(), m.vocab(), m.seq(),
                    m.gatedMlp(), m.tiedEmbeddings(), m.experts(), m.topK(), Dtype.BF16, m.mla());
            moeS = MoeCost.price(bf16, moeShape, l, hw, tokens, rf).perLayerS() - moe.perLayerS();
        }
        double extra = linearS - castS - float8S + moeS;
        return new Priced(this, m.layers(), linFlops, gemmRate, bf16Rate, linearS, castBytes, hbmRate, castS, float8S, moeS, extra);
    }

    /**
     * One bf16 layer's extra seconds per micro-batch and its parts (class comment).
     *
     * @param extraSeconds linear − casts − float8 + moe
     */
    public record Priced(LayerPrecision precision, int layers, double linearFlops, double gemmRate, double bf16Rate,
                         double linearSeconds, double castBytes, double hbmRate, double castSeconds, double float8Seconds,
                         double moeSeconds, double extraSeconds) {
        /** The breakdown's term for the slowest stage, which holds {@code onStage} bf16 layers. */
        Term.Bf16Layers term(double onStage) {
            return new Term.Bf16Layers(precision.start(), precision.end(), layers, linearFlops, gemmRate, bf16Rate, linearSeconds,
                    castBytes, hbmRate, castSeconds, float8Seconds, moeSeconds, extraSeconds, onStage, onStage * extraSeconds);
        }
    }
}
