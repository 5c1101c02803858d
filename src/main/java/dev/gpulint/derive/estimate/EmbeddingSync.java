package dev.gpulint.derive.estimate;

import static dev.gpulint.spec.ParallelDim.PP;

/**
 * The word embedding's gradient all-reduce per step over the embedding group: the one home of the sync, whether the stages
 * hold the matrix twice because the output layer shares it (tied embeddings) or because the MTP layers embed the next tokens
 * on their stage ({@link MtpLayers}).
 * <p>
 * Megatron-Core's finalize_model_grads runs _allreduce_word_embedding_grads after the data-parallel sync (finish_grad_sync)
 * and before the optimizer step (github.com/NVIDIA/Megatron-LM, megatron/core/distributed/finalize_model_grads.py at
 * 00c2c0adeec16015f386548793c88ef08ff6acec): on a rank of the embedding group, a group of more than one rank, "if
 * share_embeddings_and_output_weights is True, we need to maintain duplicated embedding weights in post processing stage. If
 * use Multi-Token Prediction (MTP), we also need to maintain duplicated embedding weights in mtp process stage. So we need to
 * allreduce grads of embedding in the embedding group in these cases": {@code share_embeddings_and_output_weights or
 * mtp_num_layers}, one all-reduce of the one weight (shared_embedding_or_output_weight's main_grad), never two — tied with MTP
 * is one sync. The newer code keeps the condition in _get_shared_word_embedding_weight ("Only reduce if weights are duplicated
 * across stages") and the all-reduce in _allreduce_embedding_grad. The embedding group is each pipeline's first and last
 * stage (parallel_state.py, default_embedding_ranks: {@code [pp_ranks[0], pp_ranks[-1]]}; pretrain_gpt.py's
 * get_embedding_ranks adds the stages a layout puts MTP layers on, which are the last one without a layout): 2 ranks
 * {@code (pp − 1)} pp strides apart, a group of one at pp 1 (nothing). Untied without MTP the first stage alone holds the
 * embedding and the last its own output layer: no sync.
 * <p>
 * Price: {@code V·h ÷ tp} main gradients × the gradient width ({@link GradientReduce}: 4 bytes, 2 with
 * --grad-reduce-in-bf16), one all-reduce over that pair by {@link CollectiveCost} on the pair's tier; once per step and
 * behind no compute. No constant of its own.
 */
public final class EmbeddingSync {
    private EmbeddingSync() {}

    /** What the sync is called in the breakdown and the traffic. */
    public static final String WHAT = "word embedding's gradient all-reduce per step (V·h/tp, first and last stage: the embedding group)";

    /** The stages hold the word embedding twice and all-reduce its gradient each step: pp > 1, tied or with MTP layers. */
    public static boolean runs(ModelShape m, Layout l, MtpLayers mtp) {
        return l.pp() > 1 && (m.tiedEmbeddings() || mtp.any());
    }

    /** The bytes each rank of the pair all-reduces: V·h ÷ tp main gradients of {@code gradBytes} each. */
    public static double bytes(ModelShape m, Layout l, double gradBytes) {
        return m.embeddingParameters() / l.tp() * gradBytes;
    }

    /**
     * The sync priced over the first and last stage, {@code ppStride · (pp − 1)} ranks apart (its term and traffic added by
     * {@code c}), or null where it does not run.
     */
    static CollectiveCost price(Comm c, ModelShape m, Layout l, MtpLayers mtp, long ppStride, double gradBytes) {
        if (!runs(m, l, mtp)) return null;
        return c.apart(PP, 2, ppStride * (l.pp() - 1), 1, bytes(m, l, gradBytes), Collective.ALL_REDUCE, WHAT);
    }
}
