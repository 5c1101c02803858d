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
 * across stages") and the all-reduce in _allreduce_embedding_grad. The embedding group is the pipelines Megatron-LM's GPT training passes as get_embedding_ranks (github.com/NVIDIA/Megatron-LM, pretrain_gpt.py at
 * 00611e6eeb0b09b5ee074750956855215ddbd67f: {@code [pp_ranks[0]]}, {@code pp_ranks[-1]} unless
 * untie_embeddings_and_output_weights, and get_mtp_ranks', sorted and each once; parallel_state.py's default_embedding_ranks,
 * {@code [pp_ranks[0], pp_ranks[-1]]}, where no such function is passed). get_mtp_ranks
 * (megatron/core/transformer/multi_token_prediction.py at the same commit) is the last rank without a layout, else every rank
 * whose layout stages hold an {@code m} ({@link MtpLayers#stage}). So: tied, first and last (and a layout's MTP rank: 3);
 * MTP untied, first and the MTP rank; untied without MTP the first alone (its embedding; the last has its own output
 * layer): no sync; pp 1: a group of one.
 * <p>
 * DeepSpeed's PipelineModule ties the same way (gpt-neox's EmbeddingPipe as a TiedLayerSpec on the first and last stage):
 * PipelineEngine._exec_reduce_tied_grads runs allreduce_tied_weight_gradients, {@code dist.all_reduce(weight.grad,
 * group=comm['group'])} over the stages that own the tied layer (github.com/microsoft/DeepSpeed,
 * deepspeed/runtime/pipe/module.py and engine.py), after the backward and before the step: the same pair and bytes, priced
 * by this home. torchtitan does not tie across stages (its models tie only with pp 1: qwen3's init_weights asserts the stage
 * holds both tok_embeddings and output, github.com/pytorch/torchtitan torchtitan/models/qwen3/model.py at
 * ae3bea951da18fcb56d7480f96438ba346d51e81; later versions raise "Weight tying is not supported with Pipeline Parallel."):
 * no such sync exists to price.
 * <p>
 * An {@code m} in a later virtual chunk of the first pipeline rank (untied): get_mtp_ranks adds pp_ranks[0], already in the
 * group, so the group is the first rank alone and _allreduce_embedding_grad skips it ({@code get_pg_size(embd_group) > 1});
 * that rank holds two embeddings (chunk 0's and the MTP chunk's, {@link MtpLayers#embeddingCopies}, both in the memory) and
 * all-reduces neither. Megatron-Core's MTP guide says MTP layers cannot sit on the first pipeline rank, but
 * validate_layer_layout's check ("Currently we restrict that the MTP should not be in the first pp rank") loops over that
 * rank's chunks before its last only (pipeline_parallel_layer_layout.py at 00caa53af30912914981c86f39db123961678bbd), so
 * such a layout runs; tied, the group is the first and last stage, the pair.
 * <p>
 * Price: {@code V·h ÷ tp} main gradients × the gradient width ({@link GradientReduce}: 4 bytes, 2 with
 * --grad-reduce-in-bf16), one all-reduce over the group by {@link CollectiveCost}: NCCL's ring moves 2(n − 1)/n of the bytes
 * over each of its hops at once, so it runs at its slowest hop's rate, and a ring's hops include the one closing it, from
 * the group's last rank back to its first: the ring of n ranks is priced on the tier and NICs of that hop, the pp stride ×
 * (last − first) pipeline ranks apart (a pair: its one hop). Three ranks span the first and last stage, the pipeline's own
 * span whatever the MTP rank between them: in one node or scale-up domain where the pipeline's groups are (the pp
 * dimension's tier), else across units with one member alone on some unit, at that one NIC's rate (the first-last pair's).
 * Once per step and behind no compute. No constant of its own.
 */
public final class EmbeddingSync {
    private EmbeddingSync() {}

    /** What the sync is called in the breakdown and the traffic, for the group of the first and last stage. */
    public static final String WHAT = "word embedding's gradient all-reduce per step (V·h/tp, first and last stage: the embedding group)";

    /** A group of one: nothing to sync. */
    private static final int[] NONE = new int[0];

    /** How every group's name begins ({@link #is}). */
    private static final String PREFIX = "word embedding's gradient all-reduce per step (V·h/tp, ";

    /** A breakdown line's {@code what} names this sync, over whichever group. */
    public static boolean is(String what) {
        return what != null && what.startsWith(PREFIX);
    }

    /**
     * The pipeline ranks of the embedding group, ascending, as get_embedding_ranks builds it: the first; the last when tied; the
     * MTP layers' rank ({@link MtpLayers#stage}) when there are MTP layers. Empty at pp 1 (the group of one syncs nothing).
     */
    public static int[] group(ModelShape m, Layout l, MtpLayers mtp) {
        int pp = l.pp();
        if (pp <= 1) return NONE;
        // {0, the MTP ranks, the last when tied} ascending, each once: get_mtp_ranks names every rank whose layout stages hold an
        // m (several with mtp_split, NVIDIA/Megatron-LM pull request #5329)
        boolean[] in = new boolean[pp];
        in[0] = true;
        if (m.tiedEmbeddings()) in[pp - 1] = true;
        if (mtp.any()) {
            int[] r = mtp.perRank(m, l);
            for (int i = 0; i < pp; i++) if (r[i] > 0) in[i] = true;
        }
        int n = 0;
        for (boolean b : in) if (b) n++;
        if (n <= 1) return NONE;
        int[] out = new int[n];
        for (int i = 0, k = 0; i < pp; i++) if (in[i]) out[k++] = i;
        return out;
    }

    /** The stages hold the word embedding on more than one pipeline rank and all-reduce its gradient each step. */
    public static boolean runs(ModelShape m, Layout l, MtpLayers mtp) {
        return group(m, l, mtp).length > 1;
    }

    /** The bytes each rank of the group all-reduces: V·h ÷ tp main gradients of {@code gradBytes} each. */
    public static double bytes(ModelShape m, Layout l, double gradBytes) {
        return m.embeddingParameters() / l.tp() * gradBytes;
    }

    /** The name of the sync over {@code ranks} of {@code pp}: {@link #WHAT} for the first and last stage. */
    static String what(int[] ranks, int pp) {
        if (ranks.length == 2 && ranks[1] == pp - 1) return WHAT;
        StringBuilder b = new StringBuilder(PREFIX);
        boolean last = ranks[ranks.length - 1] == pp - 1;
        int to = last ? ranks.length - 1 : ranks.length;         // the MTP ranks between the first and (tied) last
        StringBuilder mid = new StringBuilder();
        for (int i = 1; i < to; i++) mid.append(i > 1 ? ", " : "").append(ranks[i]);
        String plural = to - 1 > 1 ? "s" : "";
        if (!last) b.append("first stage and the MTP layers' (pipeline rank").append(plural).append(" ");
        else b.append("first, last and the MTP layers' stage").append(plural).append(" (pipeline rank").append(plural).append(" ");
        b.append(mid).append(" of ").append(pp).append(")");
        return b.append(": the embedding group)").toString();
    }

    /**
     * The sync priced over the embedding group ({@link #group}): a ring of its n ranks on the tier of its closing hop, its first
     * and last rank {@code ppStride} × (last − first) apart (its term and traffic added by {@code c}), or null where it does
     * not run.
     */
    static CollectiveCost price(Comm c, ModelShape m, Layout l, MtpLayers mtp, long ppStride, double gradBytes) {
        int[] ranks = group(m, l, mtp);
        if (ranks.length <= 1) return null;
        RankGroup hop = RankGroup.strided(2, ppStride * (ranks[ranks.length - 1] - ranks[0]));
        if (ranks.length > 2) {
            // three ranks or more: the ring spans the pipeline ranks from its first member to its last (tied: the pipeline's own
            // span), so it sits in one node or scale-up domain exactly where those ranks do (the pipeline's groups tile blocks of
            // pp × the pp stride); where they do not, the ring's members leave one of them alone on some node or domain, its one
            // NIC the ring's rate: the closing hop's, a pair's
            RankGroup pipeline = RankGroup.strided(ranks[ranks.length - 1] - ranks[0] + 1, ppStride);
            if (c.tier(pipeline) != Tier.NETWORK) hop = pipeline;
        }
        return c.apart(PP, hop, ranks.length, 1, bytes(m, l, gradBytes), Collective.ALL_REDUCE, what(ranks, l.pp()));
    }
}
