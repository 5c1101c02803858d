package dev.gpulint.derive.estimate;

/**
 * The shape of a transformer as the estimate needs it (Megatron-LM's argument names in brackets).
 *
 * @param layers        transformer layers ({@code --num-layers})
 * @param hidden        hidden size h ({@code --hidden-size})
 * @param heads         attention heads a ({@code --num-attention-heads})
 * @param kvHeads       key/value heads, query groups q ({@code --num-query-groups}; = heads without GQA)
 * @param headDim       head dimension d ({@code --kv-channels}; h ÷ a by default)
 * @param ffn           MLP hidden size ({@code --ffn-hidden-size}; 4h by default)
 * @param vocab         the padded vocabulary V (Megatron pads to a multiple of 128 × tp)
 * @param seq           sequence length s ({@code --seq-length})
 * @param gatedMlp      SwiGLU or another gated MLP ({@code --swiglu}): three MLP matrices instead of two
 * @param tiedEmbeddings input and output embeddings share one matrix (Megatron's default)
 * @param experts       MoE experts per layer (1 for a dense model)
 * @param topK          experts each token is routed to (1 for a dense model)
 * @param dtype         the training precision: fp32, fp16, bf16 or fp8 (fp8 GEMMs, 16-bit everything else)
 * @param mla           multi-latent attention's projections and head sizes (DeepSeek V2/V3), or null: the heads, query
 *                      groups and head dimension above
 */
public record ModelShape(int layers, long hidden, long heads, long kvHeads, long headDim, long ffn, long vocab, long seq,
                         boolean gatedMlp, boolean tiedEmbeddings, int experts, int topK, Dtype dtype, LatentAttention mla) {

    /** A shape without multi-latent attention. */
    public ModelShape(int layers, long hidden, long heads, long kvHeads, long headDim, long ffn, long vocab, long seq,
                      boolean gatedMlp, boolean tiedEmbeddings, int experts, int topK, Dtype dtype) {
        this(layers, hidden, heads, kvHeads, headDim, ffn, vocab, seq, gatedMlp, tiedEmbeddings, experts, topK, dtype, null);
    }

    /** The same shape with another (padded) vocabulary. */
    public ModelShape withVocab(long v) {
        return new ModelShape(layers, hidden, heads, kvHeads, headDim, ffn, v, seq, gatedMlp, tiedEmbeddings, experts, topK, dtype, mla);
    }

    /** Training precision. */
    public enum Dtype {
        FP32, TF32, FP16, BF16, FP8,
        /** MXFP8: fp8 elements with a power-of-two scale per 32 (Transformer Engine's MXFP8BlockScaling; Blackwell). */
        MXFP8,
        /** NVFP4: 4-bit e2m1 elements, an fp8 scale per 16 and a per-tensor one (Transformer Engine's NVFP4 recipe; Blackwell). */
        NVFP4;

        /** GEMMs run on a quantized tensor path (fp8, MXFP8, NVFP4); everything else stays 16-bit. */
        public boolean quantized() { return this == FP8 || this == MXFP8 || this == NVFP4; }

        public String id() { return name().toLowerCase(java.util.Locale.ROOT); }

        /** Bytes of one activation or weight element as the step stores it: fp8 keeps 16-bit activations. */
        public int activationBytes() { return this == FP32 || this == TF32 ? 4 : 2; }

        /** model.dtype as written: fp32, tf32, fp16/float16/half, bf16/bfloat16, fp8, mxfp8, nvfp4; null when not one of them. */
        public static Dtype parse(String s) {
            if (s == null) return null;
            return switch (s.trim().toLowerCase(java.util.Locale.ROOT)) {
                case "fp32", "float32", "float", "32" -> FP32;
                case "tf32" -> TF32;
                case "fp16", "float16", "half", "16", "16-mixed" -> FP16;
                case "bf16", "bfloat16", "bf16-mixed" -> BF16;
                case "fp8", "e4m3", "hybrid", "fp8-hybrid", "fp8-e4m3" -> FP8;
                case "mxfp8" -> MXFP8;
                case "nvfp4", "fp4" -> NVFP4;
                default -> null;
            };
        }
    }

    public ModelShape {
        if (layers < 1 || hidden < 1 || heads < 1 || kvHeads < 1 || headDim < 1 || ffn < 1 || vocab < 1 || seq < 1
                || experts < 1 || topK < 1) {
            throw new IllegalArgumentException("every size of a model shape is at least 1");
        }
        java.util.Objects.requireNonNull(dtype, "dtype");
    }

    /** A dense GPT-style shape with Megatron's defaults: MHA, d = h ÷ a, ffn = 4h, GeLU, tied embeddings. */
    public static ModelShape gpt(int layers, long hidden, long heads, long vocab, long seq, Dtype dtype) {
        return new ModelShape(layers, hidden, heads, heads, hidden / heads, 4 * hidden, vocab, seq, false, true, 1, 1, dtype);
    }

    /** Megatron's vocabulary padding: up to a multiple of 128 × tp ({@code --make-vocab-size-divisible-by} 128). */
    public static long padVocab(long vocab, long tp) {
        long m = 128L * Math.max(1, tp);
        return (vocab + m - 1) / m * m;
    }

    /** Parameters of one layer's attention: Q and output a·d·h each, K and V q·d·h each (multi-latent: {@link LatentAttention#parameters}). */
    public double attentionParameters() {
        if (mla != null) return mla.parameters(hidden, heads);
        return 2.0 * hidden * heads * headDim + 2.0 * hidden * kvHeads * headDim;
    }

    /** Parameters of one expert's MLP: 2·h·ffn, or 3·h·ffn gated. */
    public double mlpParameters() {
        return (gatedMlp ? 3.0 : 2.0) * hidden * ffn;
    }

    /**
     * Parameters of all transformer layers, as Megatron counts them (theoretical_memory_usage.py): attention,
     * MLP (every expert), two LayerNorms per layer (2h each with their biases) and the final LayerNorm.
     */
    public double transformerParameters() {
        return layers * (attentionParameters() + experts * mlpParameters() + 4.0 * hidden) + 2.0 * hidden;
    }

    /** The embedding matrix: h·V. */
    public double embeddingParameters() { return (double) hidden * vocab; }

    /** All parameters: the layers and one embedding matrix, two when untied. */
    public double parameters() {
        return transformerParameters() + (tiedEmbeddings ? 1 : 2) * embeddingParameters();
    }

    /**
     * Model FLOPs per token, forward and backward (Narayanan et al. 2021 eq. 3 generalised per term as Megatron-LM's
     * num_floating_point_operations does): 6 × the matrix parameters a token passes through (only top-k experts)
     * plus attention scores and values, 12·s·a·d per layer, plus the logits 6·h·V. Recompute is not model work.
     */
    public double modelFlopsPerToken() {
        return layers * (linearFlopsPerTokenLayer() + attentionFlopsPerTokenLayer()) + logitFlopsPerToken();
    }

    /** Linear layers of one layer, forward and backward, per token: 6 × their parameters (top-k experts). */
    public double linearFlopsPerTokenLayer() {
        return 6.0 * (attentionParameters() + topK * mlpParameters());
    }

    /** Attention core (Q·Kᵀ and scores·V) of one layer, forward and backward, per token: 12·s·a·d (multi-latent: {@link LatentAttention#coreFlopsPerToken}). */
    public double attentionFlopsPerTokenLayer() {
        if (mla != null) return mla.coreFlopsPerToken(seq, heads);
        return 12.0 * seq * heads * headDim;
    }

    /**
     * The attention core a causal decoder's flash attention executes, forward and backward, per token: half of
     * {@link #attentionFlopsPerTokenLayer}. Flash attention skips the key blocks the causal mask hides entirely (FlashAttention-2,
     * Dao 2023, arXiv:2307.08691, counts its own causal throughput on these halved FLOPs), while the model-FLOPs convention
     * (Megatron's, eq. 3 of Narayanan et al. 2021, MFU of every published table used here) counts the full s².
     */
    public double attentionExecutedFlopsPerTokenLayer() {
        return attentionFlopsPerTokenLayer() / 2;
    }

    /** The output layer (logits), forward and backward, per token: 6·h·V. */
    public double logitFlopsPerToken() {
        return 6.0 * hidden * vocab;
    }
}
