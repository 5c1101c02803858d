package dev.gpulint.derive.estimate;

import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import java.util.List;

/**
 * The bytes the data-parallel parameter all-gathers move: the one home of that width, which the distributed optimizer's
 * all-gather, ZeRO-3 / FSDP's forward and backward all-gathers and HSDP's shard-group all-gathers all read (Estimator,
 * HybridShard). By default every parameter is gathered in 16 bits, 2 bytes.
 *
 * <p>In fp8 parameter gathering the transformer layers' linear weights are kept in fp8 and gathered so, 1 byte each:
 * <ul>
 * <li>Megatron-Core's {@code --fp8-param-gather} ("Keep the compute param in fp8 (do not use any other intermediate dtype)
 *     and perform the param all-gather in fp8", megatron/training/arguments.py): the model is built under Transformer
 *     Engine's {@code fp8_model_init}, so TE's linear weights are Float8Tensors and the distributed optimizer (or
 *     Megatron-FSDP / torch FSDP2) all-gathers them from its param buffer in fp8; the fp32 main parameters stay in the
 *     optimizer, the gradient reduce-scatter stays in the main-gradient dtype ({@link GradientReduce}). validate_args
 *     asserts "--fp8-param-gather only supported with distributed optimizer, torch fsdp2, megatron fsdp, or inference mode".
 *     Megatron-Bridge's mixed-precision recipes turn it on in every fp8 and MXFP8 recipe but the subchannel (blockwise)
 *     ones ({@code fp8_param_gather = True}, src/megatron/bridge/training/mixed_precision.py); NeMo 2's plugin names it
 *     {@code fp8_param_gather} (earlier {@code fp8_params}), NeMo 1 {@code model.fp8_params}.</li>
 * <li>torchtitan's {@code enable_fsdp_float8_all_gather} (torchao's float8 FSDP all-gather: "cast Float8Linear.weight from
 *     high precision to float8 before FSDP all-gather"), only with tensorwise scaling: with a {@code recipe_name} torchtitan
 *     takes torchao's recipe config and does not enable it.</li>
 * </ul>
 * The embedding and the output layer are not TE/Float8 linears: they stay 16-bit (2 bytes), so a stage's gathered bytes are
 * 1 per parameter plus 1 more per embedding or output parameter the stage holds; LayerNorm weights (2h a layer) are
 * counted with the fp8 ones. The layers an fp8 recipe keeps in bf16 ({@link LayerPrecision}) are built outside
 * {@code fp8_model_init}: their weights stay 16-bit and are gathered at 2 bytes, like the embedding's. Memory is counted as before: the fp8 weight and the transposed (column-wise) copy the backward
 * GEMMs read take the bf16 weight's 2 bytes.
 *
 * @param fp8 whether the linear weights are gathered in fp8
 */
public record ParamGather(boolean fp8) {
    /** Every parameter gathered in 16 bits. */
    public static final ParamGather BF16 = new ParamGather(false);

    /** Bytes of a 16-bit and of an fp8 element. */
    static final double WIDE = 2, FP8 = 1;

    /**
     * What a job states, with one line of {@code as} when it states it.
     *
     * @param gemm    the job's GEMM path (Hardware.gemmPath): fp8 gathering needs fp8 or MXFP8 GEMMs
     * @param scaling the Float8 scaling (torchtitan's gather is tensorwise only)
     * @param sharded whether the parameters are sharded over the data-parallel ranks (distributed optimizer, ZeRO, FSDP)
     */
    static ParamGather of(Specs.Job j, ModelShape.Dtype gemm, Float8Scaling scaling, boolean sharded, List<String> as) {
        Located<Boolean> s = j.fp8ParamGather();
        if (s == null || s.value() == null || !s.value()) return BF16;
        String key = j.origin() != null && j.origin().key(Specs.Origin.FP8_PARAM_GATHER) != null
                ? j.origin().key(Specs.Origin.FP8_PARAM_GATHER) : "fp8_param_gather";
        if (gemm != ModelShape.Dtype.FP8 && gemm != ModelShape.Dtype.MXFP8) {
            as.add(key + " read, but the job's GEMMs are not fp8 (" + (gemm == null ? "bf16" : gemm.id())
                    + "): the parameters are all-gathered in 16 bits, 2 bytes each");
            return BF16;
        }
        if (scaling != null && scaling.recipe() != Float8Scaling.Recipe.TENSORWISE) {
            as.add(key + " read, but fp8 all-gathers run with tensorwise scaling only (torchtitan does not enable them with a"
                    + " recipe_name): the parameters are all-gathered in 16 bits, 2 bytes each");
            return BF16;
        }
        if (!sharded) {
            as.add(key + " read, but the parameters are not sharded (no distributed optimizer, ZeRO or FSDP): nothing is"
                    + " all-gathered, and Megatron refuses it (\"--fp8-param-gather only supported with distributed optimizer,"
                    + " torch fsdp2, megatron fsdp, or inference mode\")");
            return BF16;
        }
        as.add("fp8 parameter all-gathers (" + key + "): the transformer layers' linear weights gathered in fp8, 1 byte each, the"
                + " embedding and output layer in 16 bits, 2; gradients reduced as below; weight memory counted as 16-bit (the fp8"
                + " weight and its transposed copy)");
        return new ParamGather(true);
    }

    /**
     * Bytes one data-parallel rank's all-gather assembles for the fullest stage: per stage, its parameters at 2 bytes each,
     * or under fp8 gathering at 1 byte each plus 1 more per embedding or output parameter on it; the most of any stage.
     */
    double stageBytes(ModelShape m, Layout l, List<MemoryModel.Stage> stages) {
        return stageBytes(m, l, stages, null);
    }

    /**
     * As {@link #stageBytes(ModelShape, Layout, List)}, the layers an fp8 recipe keeps in bf16 ({@link LayerPrecision#perStage},
     * null: none) gathered at 2 bytes too: a stage's transformer-layer parameters ÷ its layers, per bf16 layer on it.
     */
    double stageBytes(ModelShape m, Layout l, List<MemoryModel.Stage> stages, double[] bf16Layers) {
        double most = 0;
        for (MemoryModel.Stage s : stages) {
            double p = s.parameters();
            int i = s.stage();
            double wide = embedding(m, l, i);
            double layers = MemoryModel.stageLayers(m, l, i);
            if (bf16Layers != null && i < bf16Layers.length && bf16Layers[i] > 0 && layers > 0) {
                wide += Math.min(layers, bf16Layers[i]) * Math.max(0, p - embedding(m, l, i)) / layers;
            }
            most = Math.max(most, fp8 ? p * FP8 + Math.min(p, wide) * (WIDE - FP8) : p * WIDE);
        }
        return most;
    }

    /** The embedding and output-layer parameters on one GPU of stage {@code i}, as MemoryModel.stageSplit counts them. */
    static double embedding(ModelShape m, Layout l, int i) {
        double emb = m.embeddingParameters() / l.tp(), on = 0;
        if (i == 0) on += emb;
        if (i == l.pp() - 1 && (l.pp() > 1 || !m.tiedEmbeddings())) on += emb;
        return on;
    }
}
