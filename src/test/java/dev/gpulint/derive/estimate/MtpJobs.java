package dev.gpulint.derive.estimate;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.testing.EstimateManifest;
import java.util.List;

/**
 * The MTP tests' job (MtpKindTest, MtpLossSplitTest), written once: DeepSeek-V3's shape, small, as the native manifest states it
 * ({@link #model}) and as a Megatron-LM launch writes it ({@link #script}), and its estimate on a pipeline layout with and without
 * its MTP layers. 4 layers of h 1,024 (MHA 16 × 64, SwiGLU, MLP 4,096), vocabulary 32,000, sequence 2,048; MoE layers of 8 experts
 * of 512, top-2, one shared expert of 512 (grouped GEMM, the all-to-all dispatcher).
 */
final class MtpJobs {

    private MtpJobs() {}

    static final double H = 1024, V = 32000, S = 2048;

    /** b·s·h·2 bytes ÷ tp 2 (sequence parallel, the default with tp > 1): one micro-batch's hidden states per GPU. */
    static final double BSH = S * H * 2 / 2;

    /** The first layer dense, the 3 others MoE (Megatron's {@code --moe-layer-freq "([0]*1+[1]*3)"}). */
    static final String FIRST_DENSE = "dense_layers: 1,";

    /** The last layer dense, the 3 others MoE ({@code --moe-layer-freq [1,1,1,0]}). */
    static final String LAST_DENSE = "layer_freq: \"[1,1,1,0]\",";

    /** tp 2, pp 4, ep 2: on {@link #pod}'s 2 nodes dp 2, pipeline ranks 4 apart. */
    static final String TP2_PP4 = "tp: 2, pp: 4, ep: 2";

    /**
     * The model's entries: embeddings {@code tied} or not, {@code layers} the MoE mapping's entry that says which layers are dense
     * ({@link #FIRST_DENSE}, {@link #LAST_DENSE}), {@code mtp} MTP layers (0: none written).
     */
    static String model(boolean tied, String layers, int mtp) {
        return "dtype: bf16, layers: 4, hidden_size: 1024, attention_heads: 16, kv_heads: 16, ffn_hidden_size: 4096,"
                + " vocab_size: 32000, gated_mlp: true, tied_embeddings: " + tied + ", seq_length: 2048, experts: 8, top_k: 2,"
                + " moe: { expert_ffn_hidden_size: 512, shared_expert_ffn_hidden_size: 512, " + layers + " grouped_gemm: true,"
                + " dispatcher: alltoall }" + (mtp > 0 ? ", mtp_layers: " + mtp : "");
    }

    /** {@code model} on {@code cluster} at {@code parallelism}, micro-batch 1 of 64, the distributed optimizer, nothing recomputed. */
    static JobEstimate job(EstimateManifest cluster, String model, String parallelism) {
        return cluster.model(model).parallelism(parallelism).batch(1, 64).optimizer("distributed: true").recompute("none").estimate();
    }

    /** {@link #job} on 2 DGX H100 nodes ({@link EstimateManifest#pod}), its inputs. */
    static JobInputs pod(String model, String parallelism) {
        return job(EstimateManifest.pod(2), model, parallelism).inputs();
    }

    /** {@code in}'s layout with its blocks laid out on the pipeline stages as {@code blocks} (Megatron's layout, e.g. "Et|t|ttm|L"). */
    static Layout layout(JobInputs in, List<Long> blocks) {
        return in.layout().withSplit(PipelineSplit.laidOut(blocks));
    }

    /** {@code in} estimated on {@link #layout}{@code (in, blocks)} with its MTP layers. */
    static Estimate onLayout(JobInputs in, List<Long> blocks) {
        return price(in, layout(in, blocks), in.variants());
    }

    /** {@code in} estimated on the same layout without its MTP layers (its blocks counted alike). */
    static Estimate onLayoutWithoutMtp(JobInputs in, List<Long> blocks) {
        return price(in, layout(in, blocks), in.variants().withMtp(MtpLayers.NONE));
    }

    /** {@code in} estimated on layout {@code l} with variants {@code v}. */
    static Estimate price(JobInputs in, Layout l, Variants v) {
        return Estimator.estimate(in.model(), l, in.hardware(), in.order(), in.bytes(), v);
    }

    /** The estimate's first term of {@code kind}, or null. */
    static <T extends Term> T term(Estimate e, Class<T> kind) {
        return e.terms().stream().filter(kind::isInstance).map(kind::cast).findFirst().orElse(null);
    }

    /** The pipeline's activation and gradient sends ({@link MtpLayers#SENDS}, not the shape exchanges beside them). */
    static Term.Sends ppSends(Estimate e) {
        return e.terms().stream().filter(t -> t instanceof Term.Sends x && x.dim() == ParallelDim.PP && x.what().startsWith(MtpLayers.SENDS))
                .map(Term.Sends.class::cast).findFirst().orElseThrow();
    }

    /**
     * {@link #model}'s job (untied, the first layer dense) as a Megatron-LM launch with {@code mtp} MTP layers on 2 nodes × 8 GPUs
     * at tp 2, ep 2 and pipeline size {@code pp}; {@code more} is appended to the MTP flag on line 7 (e.g.
     * {@code " --pipeline-model-parallel-layout \"Et|t|ttm|L\""}).
     */
    static String script(int mtp, String more, int pp) {
        return """
                #!/bin/bash
                torchrun --nnodes 2 --nproc_per_node 8 pretrain_gpt.py \\
                  --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --ffn-hidden-size 4096 --swiglu \\
                  --num-experts 8 --moe-router-topk 2 --moe-ffn-hidden-size 512 --moe-shared-expert-intermediate-size 512 \\
                  --moe-layer-freq "([0]*1+[1]*3)" --moe-grouped-gemm --moe-token-dispatcher-type alltoall \\
                  --untie-embeddings-and-output-weights --vocab-size 32000 --make-vocab-size-divisible-by 128 --seq-length 2048 \\
                  --mtp-num-layers %d%s \\
                  --tensor-model-parallel-size 2 --pipeline-model-parallel-size %d --expert-model-parallel-size 2 --sequence-parallel \\
                  --use-distributed-optimizer --micro-batch-size 1 --global-batch-size 64 --bf16
                """.formatted(mtp, more, pp);
    }

    /** {@link #script} with 1 MTP layer on pp 4 and {@code layout} as its --pipeline-model-parallel-layout. */
    static String script(String layout) {
        return script(1, " --pipeline-model-parallel-layout \"" + layout + "\"", 4);
    }
}
