package dev.gpulint.derive.estimate;

import dev.gpulint.spec.HybridPattern;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import java.util.List;

/**
 * Multi-token prediction (DeepSeek-V3's MTP modules) as Megatron-Core builds them
 * (github.com/NVIDIA/Megatron-LM, megatron/core/transformer/multi_token_prediction.py at
 * 13f8f526bed803fd9ab8b8d4ce1ca14bc032bbbc, MultiTokenPredictionLayer; docs/user-guide/features/multi_token_prediction.md):
 * each of the D MTP layers normalises the decoder's hidden state (hnorm) and the next token's embedding (enorm), projects
 * their concatenation 2h → h (eh_proj, a column-parallel linear), runs one transformer layer of the model's own spec (an MoE
 * layer in an MoE model) and its final norm, and computes the logits again with the shared output layer, and their
 * cross-entropy (the MTP loss, scaled by mtp_loss_scaling_factor).
 * <p>
 * Where: "by default, all MTP layers sit on the last pipeline stage"; a --pipeline-model-parallel-layout may place them (its
 * {@code m} letters), and "MTP loss is computed in the post-processing stage". So the MTP layers' transformer blocks lie on the
 * last stage ({@link #extraBlocks}), or where the layout's {@code m} puts them (the layout's stages already count them as
 * blocks: priced once, never twice), and the eh_proj GEMM, the logits and the loss again on the last stage ({@link #price}).
 * <p>
 * FLOPs: Megatron-LM's num_floating_point_operations counts them (tests/unit_tests/test_training.py,
 * expected_transformer_flops: {@code 3·2·D·(3h + 2h²) + 3·2·h·V·(D + 1)} beside the MTP layers' transformer layers;
 * expected_hybrid_flops counts a hybrid pattern's letters after '/'), so the model FLOPs and MFU count them too
 * ({@link #flopsPerToken}).
 *
 * <p>Kind: Megatron-Core builds each MTP layer's transformer layer from the spec of the decoder's LAST layer
 * (github.com/NVIDIA/Megatron-LM, megatron/core/models/gpt/gpt_layer_specs.py at 00611e6eeb0b09b5ee074750956855215ddbd67f,
 * get_gpt_mtp_block_spec_for_backend: "get the spec for the last layer of decoder block", {@code spec.layer_specs[-1]}), so
 * DeepSeek-V3's (3 dense layers, then 58 MoE) is an MoE layer; and Megatron-LM's num_floating_point_operations counts it as
 * that kind (megatron/training/training.py at 001b00c2734d8f0fad096fe48a382fedf755d321, transformer_flops:
 * {@code num_moe_layers += last_layer_is_moe * mtp_num_layers}). A hybrid pattern's '/' group names each block's kind by its
 * letter ({@code *E}: an attention-only and an MoE layer; hybrid_flops counts the letters after '/'). So a block's parameters
 * and model FLOPs are its kind's ({@link MoeShape#layerFlopsPerToken}, {@link MambaLayers#kindFlopsPerToken},
 * {@link MemoryModel}); its time is the decoder's mean layer with the MoE side replaced by its kind's: an MoE block
 * {@link MoeCost}'s MoE layer, a dense block its dense layer, an MTP layer's all-to-alls its MoE blocks' ({@link #blockSeconds}).
 *
 * @param layers  D, the MTP layers (0: none)
 * @param blocks  the layers one MTP layer holds (1: one transformer layer; a hybrid pattern's '/' group {@code *E}: 2)
 * @param letters a hybrid pattern's '/' group, one letter per block ({@code M}, {@code *}, {@code -}, {@code E}); null: one
 *                transformer layer of the decoder's last layer's kind ({@link MoeShape#lastMoe})
 * @param variableSeqLengths Megatron-Core's {@code variable_seq_lengths} (Megatron-LM's {@code --variable-seq-lengths},
 *                Megatron-Bridge's and NeMo 2's model config key): the other reason, beside {@link #standalone}, for the p2p
 *                shape exchange this class prices ({@link #exchangesShapes}); kept here so the exchange has one home
 * @param lossStages the loss slots (L) of each stage of a layout that names the loss on several stages (Megatron-LM's
 *                mtp_loss_split, pull request #5318; Specs.Mtp#lossStages), 1 + layers of them in all; null: one loss, on the last
 *                stage. Each slot's output layer, logits and loss are priced on the stage that holds it ({@link #earlyLosses})
 */
public record MtpLayers(int layers, int blocks, String letters, boolean variableSeqLengths, List<Integer> lossStages) {
    /** No multi-token prediction. */
    public static final MtpLayers NONE = new MtpLayers(0, 1, null, false, null);

    /** The most MTP layers read (the schema's bound on model.mtp_layers; DeepSeek-V3 trains with 1, Nemotron 3 Super with 2). */
    public static final int MAX = 64;

    public MtpLayers {
        if (letters != null && (letters.length() != blocks || !letters.matches("[M*\\-E]+"))) {
            throw new IllegalArgumentException("an MTP group's letters are one of M, *, - and E per block: " + letters);
        }
        if (layers < 0 || layers > MAX || blocks < 1 || blocks > MAX) {
            throw new IllegalArgumentException("MTP layers 0.." + MAX + " of 1.." + MAX + " blocks: " + layers + ", " + blocks);
        }
        if (lossStages != null) {
            lossStages = List.copyOf(lossStages);
            int slots = 0;
            for (int n : lossStages) {
                if (n < 0) throw new IllegalArgumentException("a stage's loss slots are at least 0: " + lossStages);
                slots += n;
            }
            if (slots != 1 + layers) throw new IllegalArgumentException("mtp_loss_split's slots are 1 + the MTP layers: " + lossStages);
        }
    }

    /**
     * The job's MTP layers (model.mtp_layers and what each format writes for it), with a line in the assumptions when priced.
     * A count written but not known (a placeholder) leaves the job unestimated, as every model size does (JobInputs' missing).
     */
    public static MtpLayers of(Specs.Job j, List<String> as) {
        Specs.Model m = j.model();
        Specs.Mtp mtp = m == null ? null : m.mtp();
        long n = whole(mtp == null ? null : mtp.layers());
        Specs.Parallelism p = j.parallelism();
        boolean variable = p != null && p.variableSeqLengths() != null && Boolean.TRUE.equals(p.variableSeqLengths().value());
        long pp = p == null || p.pp() == null || p.pp().value() == null ? 1 : p.pp().value();
        if (variable && pp > 1) as.add(VARIABLE_SEQ_LENGTHS);
        if (n <= 0) return variable ? new MtpLayers(0, 1, null, true, null) : NONE;
        long b = Math.max(1, whole(mtp.blocks()));
        String letters = mtp.letters() == null ? null : mtp.letters().value();
        if (letters != null && (letters.length() != b || b > MAX || !letters.matches("[M*\\-E]+"))) letters = null;
        int d = (int) Math.min(MAX, n);
        MtpLayers out = new MtpLayers(d, (int) Math.min(MAX, b), letters, variable, lossStages(mtp.lossStages(), d));
        as.add(out.describe(letters == null && m.hybrid() != null && m.hybrid().pattern() != null));
        return out;
    }

    /**
     * Why the host's wait after each shape exchange has no price of its own ({@link #SHAPE_EXCHANGE}). Every version copies the
     * received sizes to the host ({@code recv_prev_shape_tensor.tolist()}), and some versions also call
     * {@code torch.cuda.synchronize()} after waiting on the requests ("To protect against race
     * condition when using batch_isend_irecv()": github.com/hxbai/Megatron-LM at 49ab930130015ff5080edcadd6df23ca29ae5fc6 and
     * github.com/radixark/Megatron-LM at 8e94dd056f94a8c156a44db2547e14414212a385,
     * megatron/core/pipeline_parallel/p2p_communication.py, P2PCommunicator._communicate_shapes; not at
     * github.com/guihong-nv/Megatron-LM 770a967f4e854362bfca31f2fca494c38da4d023, which waits on the requests alone). Either
     * way the host waits for the device before the tensor's own send: the queued compute it waits for is the stage's, priced
     * already, and the exchange itself is priced as waited on (not hidden); what remains is the next kernel's launch after an
     * idle device, a few µs, taken within the exchange's α (NcclLatency's Simple-protocol ring step, which prices a 24-byte
     * message above the low-latency protocol NCCL's tuner picks for it), not as a constant of its own: no kernel-level
     * measurement in the calibration sets isolates it. A data-parallel reduce still running on another stream would be waited
     * for too (synchronize drains every stream): not modelled.
     */
    static final String SHAPE_WAIT = "the host's wait after each exchange (the sizes copied to the host, and torch.cuda.synchronize()"
            + " in the versions that call it) is taken within the exchange's latency, not priced apart: it waits for the stage's"
            + " compute, priced already, and adds the next kernel's launch, a few µs, which no measurement isolates";

    /**
     * The assumptions line of a pipelined job that sets {@code variable_seq_lengths}: Megatron-Core's P2PCommunicator then
     * exchanges every tensor's shape before it ({@link #SHAPE_EXCHANGE_VARIABLE}), as for a standalone MTP stage.
     */
    public static final String VARIABLE_SEQ_LENGTHS = "variable_seq_lengths set: every pipeline send first sends and waits on the"
            + " tensor's shape (24 bytes, Megatron-Core's P2PCommunicator._communicate_shapes), priced as a pp line of its own; "
            + SHAPE_WAIT + "; the sequences are still priced at the full sequence length (the shortest micro-batches' saving is not modelled)";

    /**
     * Whether every pipeline p2p exchanges its shape first: Megatron-Core's {@code config.variable_seq_lengths or
     * config.mtp_standalone} (P2PCommunicator._communicate, megatron/core/pipeline_parallel/p2p_communication.py at
     * github.com/guihong-nv/Megatron-LM 770a967f4e854362bfca31f2fca494c38da4d023; {@link #SHAPE_EXCHANGE}).
     */
    public boolean exchangesShapes(ModelShape m, Layout l) {
        return variableSeqLengths || standalone(m, l);
    }

    /** The shape exchange's name in the breakdown: the standalone MTP stage's, or variable_seq_lengths' when that alone asks for it. */
    public String shapeExchange(ModelShape m, Layout l) {
        return standalone(m, l) ? SHAPE_EXCHANGE : SHAPE_EXCHANGE_VARIABLE;
    }

    /**
     * mtp_loss_split's slots per stage as the layout writes them, when they are 1 + the MTP layers (PipelineLayout#problem
     * refuses any other count, Megatron-LM pull request #5318's validate_layer_layout) and bounded as the layout is; else null.
     */
    private static List<Integer> lossStages(Located<List<Long>> written, int layers) {
        if (written == null || written.value() == null || written.value().size() > dev.gpulint.spec.PipelineLayout.MAX_UNROLLED) return null;
        long slots = 0;
        for (Long n : written.value()) {
            if (n == null || n < 0) return null;
            slots += n;
        }
        return slots == 1 + layers ? written.value().stream().map(Long::intValue).toList() : null;
    }

    private static long whole(Located<Long> v) {
        return v == null || v.value() == null ? 0 : v.value();
    }

    /** "multi-token prediction: 1 MTP layer ...": the assumptions line. */
    String describe(boolean hybridWithoutGroup) {
        return "multi-token prediction: " + layers + " MTP layer" + (layers == 1 ? "" : "s") + " (each "
                + (hybridWithoutGroup ? blocks + " layer" + (blocks == 1 ? "" : "s") + " at the hybrid pattern's mean layer (no '/' group"
                        + " names its kind)"
                : letters == null ? "one transformer layer of the decoder's last layer's kind (an MoE layer when it has experts, as"
                        + " Megatron-Core builds it)"
                        : blocks + " layer" + (blocks == 1 ? "" : "s") + " of the pattern's '/' group '" + letters + "', each of its letter's kind")
                + ": its parameters and model FLOPs its kind's, its time the decoder's mean layer with the MoE side its kind's"
                + ", its eh_proj 2h → h and norms, the output layer's logits and cross-entropy again) on the last pipeline stage unless"
                + " the layout places them (there each block of its kind, with eh_proj, the norms and the embedding copy;"
                + " the logits and loss stay on the last; m on several stages, Megatron-LM's mtp_split: each its layers'); with pp > 1 the"
                + " word embedding on each MTP stage all-reduces its gradient with the first stage's each step over Megatron's embedding"
                + " group (one sync with a tied output layer's), and after a layout's m off the last stage (Megatron-Core's"
                + " mtp_standalone) each pipeline send carries the MTP layers' hidden states so far beside the decoder's ((1 + K)·b·s·h,"
                + " K the MTP layers before it: the pp sends), each stage after m keeps its in-flight micro-batches' received"
                + " (1 + K)·b·s·h (÷ tp with sequence parallelism) in its activations, and every pipeline send first exchanges its"
                + " shape (24 bytes at the pp tier's latency, not hidden; " + SHAPE_WAIT + "); counted in the model FLOPs as Megatron-LM's"
                + " num_floating_point_operations counts them";
    }

    /** One MTP layer's blocks of each kind, {M, *, -, E, G}, from its hybrid '/' group; null without one. */
    double[] groupKinds() {
        return letters == null ? null : MambaLayers.kinds(letters);
    }

    /**
     * One MTP layer's blocks whose MLP is MoeCost's MoE layer, on the first rank holding MTP layers ({@link #stage}): its group's E
     * letters, else all of them when Megatron-Core builds that stage's MTP layer as an MoE layer ({@link #moeKindPerRank});
     * none without experts. The plan's mtp line names this kind.
     */
    public int moeBlocks(ModelShape m, Layout l, MoeShape s) {
        if (s == null) return 0;
        if (letters != null) return (int) HybridPattern.count(letters, 'E');
        return s.hybrid() ? 0 : moeKindPerRank(m, l, s)[stage(m, l)] ? blocks : 0;
    }

    /** One MTP layer's blocks with a dense MLP beside attention (MoeCost's dense layer), on {@link #stage}'s rank: a dense kind there. */
    public int denseBlocks(ModelShape m, Layout l, MoeShape s) {
        if (s == null || letters != null || s.hybrid()) return 0;
        return moeKindPerRank(m, l, s)[stage(m, l)] ? 0 : blocks;
    }

    /**
     * Whether Megatron-Core builds each pipeline rank's MTP layers as MoE layers (length pp; a rank without MTP layers: false),
     * for a transformer MoE model. Megatron-LM's gpt_builder (gpt_builders.py at 383d08f4f0ab961803594c1560eb055f6543aa55)
     * builds, with --num-experts, the decoder block spec of the stage (get_gpt_decoder_block_spec with vp_stage: that stage's
     * slice of the layers) and hands it to get_gpt_mtp_block_spec, which takes its last layer ({@code spec.layer_specs[-1]},
     * gpt_layer_specs.py, get_gpt_mtp_block_spec_for_backend); a stage with no decoder layers (a layout's {@code m} alone on
     * it) gets _get_transformer_layer_spec instead, get_gpt_layer_with_transformer_engine_spec(args.num_experts, ...): an MoE
     * layer. So the MTP layers on a stage are of that stage's last decoder layer's kind ({@link MoeShape#moeAt}), MoE on a
     * stage of none: not necessarily the decoder's last layer's.
     */
    public boolean[] moeKindPerRank(ModelShape m, Layout l, MoeShape s) {
        int pp = Math.max(1, l.pp());
        boolean[] out = new boolean[pp];
        if (layers == 0 || s == null || s.hybrid()) return out;
        int[] st = layoutStages(m, l);
        if (st != null) {
            java.util.List<Long> stages = l.split().stages();
            long sum = 0;
            for (int v = 0; v < st.length; v++) {
                long before = Math.min(sum, m.layers());
                sum += stages.get(v);
                long end = Math.min(sum, m.layers());
                if (st[v] > 0) out[v % pp] = end == before || s.moeAt((int) end - 1);
            }
            return out;
        }
        // on the last stage: its decoder layers end with the decoder's last, unless it holds none
        double onLast = l.split().laidOut(l.pp()) ? l.split().stages().get(l.split().stages().size() - 1)
                : MemoryModel.stageLayers(m, l, pp - 1);
        out[pp - 1] = onLast <= 0 || s.moeAt(m.layers() - 1);
        return out;
    }

    /**
     * The MTP blocks on pipeline rank {@code rank} ({@code -1}: all ranks) of each MLP kind, {MoE, dense}: a hybrid group's E
     * letters (dense none: its other letters are priced by MambaLayers), a transformer MoE model's by {@link #moeKindPerRank};
     * null where the kind is not known (no experts, a hybrid without a '/' group): those blocks are the mean layer.
     */
    public double[] kindBlocks(ModelShape m, Layout l, MoeShape s, int rank) {
        if (s == null || (s.hybrid() && letters == null)) return null;
        double onRank = rank < 0 ? totalBlocks() : stageBlocks(m, l, rank);
        if (letters != null) return new double[] {onRank / blocks * HybridPattern.count(letters, 'E'), 0};
        boolean[] moe = moeKindPerRank(m, l, s);
        int[] r = perRank(m, l);
        double moeBlocks = 0;
        for (int i = 0; i < r.length; i++) if ((rank < 0 || rank == i) && moe[i]) moeBlocks += (double) r[i] * blocks;
        return new double[] {moeBlocks, onRank - moeBlocks};
    }

    /**
     * The time of {@code stageBlocks} of all the MTP blocks per micro-batch: each the decoder's mean layer with its MoE side
     * (MoeCost's mean over the model's layers) replaced by its kind's, an MoE layer's or a dense layer's, as Megatron-Core
     * builds it on its stage ({@link #kindBlocks}; a hybrid without a '/' group, and a model without experts: the mean layer).
     *
     * @param layerSeconds the decoder's mean layer
     * @param moe          the MoE side's prices (null: no experts)
     */
    public double blockSeconds(ModelShape m, Layout l, double stageBlocks, double layerSeconds, MoeCost.Priced moe, MoeShape s, MambaLayers hy) {
        double[] k = moe == null || (hy != null && letters == null) ? null : kindBlocks(m, l, s, -1);
        if (k == null) return stageBlocks * layerSeconds;
        double share = stageBlocks / totalBlocks();
        return stageBlocks * (layerSeconds - moe.perLayerS()) + share * (k[0] * moe.moeLayerS() + k[1] * moe.denseLayerS());
    }

    /**
     * The MoE layers among pipeline rank {@code rank}'s MTP blocks (the ep term's all-to-alls): their MoE letters or kind
     * ({@link #kindBlocks}), or their mean share of the decoder's MoE layers where the kind is not known (a hybrid without a
     * '/' group).
     */
    public double moeLayers(ModelShape m, Layout l, int rank, MoeShape s, MambaLayers hy) {
        if (s == null) return 0;
        double onRank = stageBlocks(m, l, rank);
        if (hy != null && letters == null) return onRank * s.moeLayers() / m.layers();
        double[] k = kindBlocks(m, l, s, rank);
        return k == null ? onRank * s.moeLayers() / m.layers() : k[0];
    }

    /** There are MTP layers. */
    public boolean any() { return layers > 0; }

    /** The MTP blocks of all the MTP layers. */
    public int totalBlocks() { return layers * blocks; }

    /**
     * The layout lays the stages out block by block with the MTP layers among them (Megatron's layout's {@code m}): its
     * stages hold more blocks than the decoder has layers.
     */
    public boolean inLayout(ModelShape m, Layout l) {
        if (layers == 0 || !l.split().laidOut(l.pp())) return false;
        long sum = 0;
        for (long n : l.split().stages()) {
            if (n < 0) return false;
            sum += n;
        }
        return sum > m.layers();
    }

    /**
     * The MTP layers (the layout's m letters) each of the layout's stages holds, in Megatron's order (stage v on pipeline rank
     * {@code v mod pp}), or null where the layout does not place them (then the last virtual stage holds them all:
     * get_mtp_num_layers_to_build builds them where is_pipeline_last_stage). The decoder's layers come first (PipelineLayout
     * refuses a t after an m), so a stage's MTP blocks are its blocks past the decoder's layers. One stage holds them all in
     * Megatron-Core's main branch (multi_token_prediction.py at 00611e6eeb0b09b5ee074750956855215ddbd67f,
     * get_mtp_num_layers_to_build asserts a stage builds all mtp_num_layers or none); mtp_split (NVIDIA/Megatron-LM pull request
     * #5329, github.com/shifangx/Megatron-LM at 71ffeae2deb4036b9802c47b26bd78216f5ed1d9) spreads them over several ranks'
     * last chunks, each building its count (get_mtp_layer_offset: the m letters of the stages before it).
     */
    int[] layoutStages(ModelShape m, Layout l) {
        if (!inLayout(m, l)) return null;
        java.util.List<Long> stages = l.split().stages();
        int[] out = new int[stages.size()];
        long sum = 0;
        for (int s = 0; s < stages.size(); s++) {
            long before = sum;
            sum += stages.get(s);
            out[s] = (int) Math.min(layers, Math.max(0, sum - Math.max(before, m.layers())));
        }
        return out;
    }

    /**
     * The MTP layers each pipeline rank holds (length pp): all of them on the last unless a layout's m letters stand elsewhere
     * (each m's stage mod pp; with mtp_split several ranks, {@link #layoutStages}). All zero without MTP layers.
     */
    public int[] perRank(ModelShape m, Layout l) {
        int pp = Math.max(1, l.pp());
        int[] out = new int[pp];
        if (layers == 0) return out;
        int[] st = layoutStages(m, l);
        if (st == null) {
            out[pp - 1] = layers;
            return out;
        }
        for (int v = 0; v < st.length; v++) out[v % pp] += st[v];
        return out;
    }

    /**
     * The pipeline rank of the MTP layers' eh_proj, norms and embedding copy: the last unless a layout's {@code m} stands on
     * another (its stage mod pp); with mtp_split the first of the ranks holding them ({@link #perRank} names each). Megatron-Core
     * builds the MTP block where mtp_on_this_rank (the layout's m, else the last stage) and its embedding where
     * {@code pre_process or mtp_process} (gpt_model.py); get_mtp_ranks adds each such rank to the embedding group
     * (multi_token_prediction.py at 00611e6eeb0b09b5ee074750956855215ddbd67f).
     */
    public int stage(ModelShape m, Layout l) {
        int[] r = perRank(m, l);
        for (int i = 0; i < r.length; i++) if (r[i] > 0) return i;
        return r.length - 1;
    }

    /**
     * Which pipeline ranks' MTP stage builds a word embedding of its own, V·h ÷ tp beyond the first stage's (length pp):
     * Megatron-Core's GPTModel builds the embedding where {@code pre_process or mtp_process}, one per model chunk (virtual
     * stage), and the output layer shares it only on the same chunk when tied (gpt_model.py, shared_embedding_or_output_weight).
     * So with pp > 1 a copy on each rank holding MTP layers, unless its MTP chunk is the first (the embedding's own) or, tied,
     * the last (the output layer's matrix is it). An m stands only in a rank's last chunk, so a rank has one at most.
     */
    public boolean[] embeddingCopies(ModelShape m, Layout l) {
        boolean[] out = new boolean[Math.max(1, l.pp())];
        if (layers == 0 || l.pp() <= 1) return out;
        int[] st = layoutStages(m, l);
        if (st == null) {
            out[l.pp() - 1] = !m.tiedEmbeddings();
            return out;
        }
        for (int rank = 0; rank < l.pp(); rank++) {
            int v = st.length - l.pp() + rank;     // the rank's last chunk
            out[rank] = st[v] > 0 && v != 0 && (v != st.length - 1 || !m.tiedEmbeddings());
        }
        return out;
    }

    /**
     * The extra hidden states, in b·s·h units, the pipeline sends per micro-batch carry beside the decoder's on the pipeline
     * rank that sends the most of them: 0 unless a layout places an {@code m} off the last virtual stage. Megatron-Core's
     * MultiTokenPredictionBlock returns the hidden states it received and each of its MTP layers' concatenated on the sequence
     * ({@code torch.cat(hidden_states_list, dim=0)}); a chunk that is not post_process sends them on as they are; an MTP stage
     * after another takes the last of the {@code 1 + offset} chunks it receives as its input (get_mtp_layer_offset: the m
     * letters before it) and appends its own; process_mtp_loss on the post_process rank splits them again
     * ({@code torch.chunk(hidden_states, 1 + mtp_num_layers, dim=0)}; github.com/NVIDIA/Megatron-LM,
     * megatron/core/transformer/multi_token_prediction.py at 00611e6eeb0b09b5ee074750956855215ddbd67f and 13f8f526; mtp_split,
     * pull request #5329). PipelineParallelLayerLayout.validate_layer_layout calls such a layout mtp_standalone (an m on a rank
     * other than the last: pipeline_parallel_layer_layout.py at 00caa53af30912914981c86f39db123961678bbd) and the pipeline's
     * p2p then exchanges each tensor's shape before it (a 24-byte send, {@link #SHAPE_EXCHANGE}, priced apart). So in Megatron's order of virtual stages,
     * each stage v from the first m's on, but the last, sends forward K_v more hidden states (K_v: the MTP layers up to and
     * including stage v), and each stage after the first m's sends back the gradient of its input, K_{v−1} more; a rank's sends
     * are those of its virtual stages (v mod pp). One stage holding all D: D × the sends that carry them.
     */
    public int carriedStates(ModelShape m, Layout l) {
        int[] st = layoutStages(m, l);
        int pp = l.pp();
        if (st == null || pp <= 1) return 0;
        int[] lost = earlyLosses(m, l);
        int stages = st.length, most = 0, k = 0, p = 0, before = 0;
        int[] perRank = new int[pp];
        for (int v = 0; v < stages; v++) {
            k += st[v];
            p += lost == null ? 0 : lost[v];
            int out = Math.max(0, k - p);              // K_v less the chunks an mtp_loss_split stage up to v consumed
            int r = v % pp;
            if (v < stages - 1) perRank[r] += out;     // forward: its output, (1 + K_v − P_v)·s rows, to stage v + 1
            if (v > 0) perRank[r] += before;           // backward: its input's gradient, (1 + K_{v−1} − P_{v−1})·s rows, to stage v − 1
            before = out;
            most = Math.max(most, perRank[r]);
        }
        return most;
    }

    /**
     * Megatron-Core's {@code mtp_standalone}: the layout puts the MTP layers in the last chunk of a pipeline rank other than the
     * last (PipelineParallelLayerLayout.validate_layer_layout returns it: "Detect MTP standalone usage", m in
     * {@code layout[pp_rank][-1]} with {@code pp_rank != pipeline_model_parallel_size - 1}; pipeline_parallel_layer_layout.py at
     * 00caa53af30912914981c86f39db123961678bbd; TransformerConfig sets {@code self.mtp_standalone} from it). Then the stages
     * after it receive a tensor of (1 + K)·s rows where the schedule's fixed shape says s ({@link #carriedStates}), so every
     * p2p exchanges its shape first ({@link #SHAPE_EXCHANGE}).
     */
    public boolean standalone(ModelShape m, Layout l) {
        int[] st = layoutStages(m, l);
        int pp = l.pp();
        if (st == null || pp <= 1) return false;
        for (int v = 0; v < st.length; v++) if (st[v] > 0 && v % pp != pp - 1) return true;
        return false;
    }

    /**
     * The rows, in units of s, each virtual stage receives and keeps beyond what its layers' activations count (in Megatron's
     * order; null unless a layout places {@code m} and pp &gt; 1). Each virtual stage keeps the tensor it received for the
     * backward of each in-flight micro-batch (the schedule's {@code input_tensors}, popped at the backward: schedules.py at
     * 00611e6eeb0b09b5ee074750956855215ddbd67f, forward_backward_pipelining_without_interleaving; the interleaved schedule's
     * per-chunk lists alike). A stage whose first layer is a decoder layer counts it (that layer's norm input); a stage whose
     * first layer is an MTP layer does not: its MTP block's activations count the block's own input (eh_proj's output), and
     * the received hidden states feed hnorm. So: the first MTP stage when it holds no decoder layer, the decoder's output, 1 row;
     * each stage after it the decoder's and the MTP layers' so far, 1 + K rows (K the MTP layers before it; no decoder layer
     * may follow {@code m}, validate_layer_layout: "decoder layers must be placed before MTP layers").
     */
    private int[] keptRows(ModelShape m, Layout l) {
        int[] st = layoutStages(m, l);
        if (st == null || l.pp() <= 1) return null;
        java.util.List<Long> blocks = l.split().stages();
        int[] lost = earlyLosses(m, l);
        int[] out = new int[st.length];
        int k = 0, p = 0;
        for (int v = 1; v < st.length; v++) {
            k += st[v - 1];
            p += lost == null ? 0 : lost[v - 1];
            if (k > 0 || (st[v] > 0 && blocks.get(v) == st[v])) out[v] = Math.max(1, 1 + k - p);
        }
        return out;
    }

    /**
     * What pipeline rank {@code rank} keeps of the rows it received beyond its layers' activations ({@link #keptRows}), in
     * MemoryModel's units (bytes at 2 bytes an element): {@code 2 · Σ rows_v · b·s·h (÷ tp with sequence parallelism) over the
     * rank's virtual stages v, × the micro-batches each holds in flight} (one stage holding all D after the decoder's last:
     * 2 · (1 + D) · b·s·h on each stage after it, and 2 · b·s·h on the MTP stage itself when it holds no decoder layer).
     *
     * @param sbh      b·s·h of one micro-batch's p2p tensor on one GPU (÷ tp under sequence parallelism)
     * @param inflight the micro-batches in flight per chunk of the rank (MemoryModel's count)
     */
    public double receivedHeld(ModelShape m, Layout l, int rank, double sbh, double inflight) {
        int[] kept = keptRows(m, l);
        if (kept == null) return 0;
        double rows = 0;
        for (int v = rank; v < kept.length; v += l.pp()) rows += kept[v];
        return 2.0 * rows * sbh * inflight;
    }

    /**
     * mtp_loss_split's losses computed before the last stage, per virtual stage in Megatron's order (null unless the layout
     * names the loss on several stages and its stages are the ones priced, pp &gt; 1). Megatron-LM pull request #5318
     * (github.com/shifangx/Megatron-LM at 71ffeae2deb4036b9802c47b26bd78216f5ed1d9): PipelineParallelLayerLayout.get_loss_stage_info
     * orders the stages holding L "VPP outer, PP inner" (Megatron's order), and each but the last (is_nonfinal) is a
     * loss_split_process chunk (gpt_model.py): process_mtp_loss_nonfinal_stage computes the losses of the highest-indexed of the
     * hidden-state chunks it received, as many as its L slots (n_total − n_chunks_to_keep, n_chunks_to_keep the slots of the
     * loss stages after it), each through the output layer and the cross-entropy, attaches them to the main chunk with
     * MTPLossAutoScaler (so their graph lives until that micro-batch's backward reaches the stage), and forwards only the kept
     * chunks; the last stage (post_process) computes the rest, the main loss among them (process_mtp_loss with
     * num_chunks_override). The final loss stage's entry is 0.
     */
    private int[] earlyLosses(ModelShape m, Layout l) {
        if (lossStages == null || l.pp() <= 1) return null;
        int[] st = layoutStages(m, l);
        if (st == null || st.length != lossStages.size()) return null;
        int[] out = new int[st.length];
        int last = out.length - 1;
        while (last > 0 && lossStages.get(last) == 0) last--;
        for (int v = 0; v < last; v++) out[v] = lossStages.get(v);
        return out;
    }

    /**
     * The losses each pipeline rank computes before the last stage's, mtp_loss_split's ({@link #earlyLosses}; length pp, all
     * zero without it): each one's logits and cross-entropy per micro-batch, held until the micro-batch's backward.
     */
    public int[] earlyLossesPerRank(ModelShape m, Layout l) {
        int[] out = new int[Math.max(1, l.pp())];
        int[] early = earlyLosses(m, l);
        if (early != null) for (int v = 0; v < early.length; v++) out[v % l.pp()] += early[v];
        return out;
    }

    /**
     * The output layers each pipeline rank builds for mtp_loss_split's early loss stages, V·h ÷ tp each beyond the last stage's
     * (length pp): GPTModel builds an output layer where {@code post_process or loss_split_process}, its own weight unless
     * {@code pre_process and share_embeddings_and_output_weights} (skip_weight_param_allocation; gpt_model.py at 71ffeae2), one
     * per model chunk (virtual stage). Tied, a loss stage that is also an MTP stage passes the embedding copy to it
     * (shared_embedding_or_output_weight), yet the output layer's own weight is still allocated, a parameter with its gradient and
     * optimizer states; so one per early loss stage but the first stage's tied one.
     */
    public int[] lossOutputLayers(ModelShape m, Layout l) {
        int[] out = new int[Math.max(1, l.pp())];
        int[] early = earlyLosses(m, l);
        if (early == null) return out;
        for (int v = 0; v < early.length; v++) if (early[v] > 0 && !(v == 0 && m.tiedEmbeddings())) out[v % l.pp()]++;
        return out;
    }

    /** The MTP losses the last stage computes: all D, less those mtp_loss_split's early loss stages take ({@link #earlyLosses}). */
    public int lastStageLosses(ModelShape m, Layout l) {
        int[] early = earlyLosses(m, l);
        int taken = 0;
        if (early != null) for (int n : early) taken += n;
        return Math.max(0, layers - taken);
    }

    /**
     * The bytes of one p2p shape exchange: the received tensor's 3 sizes as int64, {@code torch.empty((3,), dtype=torch.int64)}
     * (P2PCommunicator._communicate_shapes).
     */
    public static final double SHAPE_BYTES = 3 * 8;

    /**
     * The shape exchange's name in the breakdown. Megatron-Core's P2PCommunicator._communicate exchanges the shapes first when
     * {@code config.variable_seq_lengths or config.mtp_standalone} (megatron/core/pipeline_parallel/p2p_communication.py,
     * P2PCommunicator._communicate, at github.com/guihong-nv/Megatron-LM 770a967f4e854362bfca31f2fca494c38da4d023, an NVIDIA
     * engineer's copy of Megatron-LM, and github.com/radixark/Megatron-LM at 8e94dd056f94a8c156a44db2547e14414212a385; NVIDIA's
     * own repository is held only at 2fd6e2b74efca73a1f2d27b89bb5419384b4d3bf, whose module-level _communicate tests
     * {@code variable_seq_lengths} alone; a later form, {@code config.mtp_standalone or (config.variable_seq_lengths and not
     * pipeline_p2p_fixed_shape)} at github.com/hxbai/Megatron-LM 49ab930130015ff5080edcadd6df23ca29ae5fc6, is the same for the
     * jobs read here; schedules.py's get_tensor_shapes at 00611e6eeb0b09b5ee074750956855215ddbd67f returns the fixed
     * (s ÷ cp [÷ tp], b, h) unless variable_seq_lengths, with no MTP term, which is why the standalone stage needs the exchange):
     * a batch_isend_irecv of 24 bytes each way, waited on, then the host's wait for the device ({@link #SHAPE_WAIT}), before
     * the tensor's own send. One per p2p call, so one per send the pp term counts, and not overlapped (the call waits on it).
     */
    public static final String SHAPE_EXCHANGE = "p2p shape exchanges (Megatron-Core's mtp_standalone: each send first sends and"
            + " waits on the tensor's 3 sizes as int64, 24 bytes, P2PCommunicator._communicate_shapes; one per send, 2·vpp per"
            + " micro-batch, not hidden; the host's wait after it within its latency)";

    /** {@link #SHAPE_EXCHANGE} when Megatron-Core's {@code variable_seq_lengths} asks for it (no standalone MTP stage). */
    public static final String SHAPE_EXCHANGE_VARIABLE = "p2p shape exchanges (Megatron-Core's variable_seq_lengths: each send first"
            + " sends and waits on the tensor's 3 sizes as int64, 24 bytes, P2PCommunicator._communicate_shapes; one per send, 2·vpp"
            + " per micro-batch, not hidden; the host's wait after it within its latency)";

    /** How the pipeline sends' name begins ({@link #sends}). */
    public static final String SENDS = "activation and gradient sends";

    /**
     * The pipeline sends' name in the breakdown: {@link #SENDS}, and where the sends carry {@code extra} MTP hidden states
     * ({@link #carriedStates}), the term the price adds for them.
     */
    public String sends(int extra) {
        if (extra <= 0) return SENDS;
        return SENDS + " (with the " + layers + " MTP layer" + (layers == 1 ? "'s" : "s'") + " hidden states: after the layout's m each"
                + " send carries the decoder's and the MTP layers' so far, (1 + K)·b·s·h, Megatron-Core's standalone MTP stage;"
                + " sends = (2·vpp + " + extra + ") × b·s·h·bytes on the rank sending the most)";
    }

    /** A breakdown line's {@code what} names the pipeline sends with the MTP layers' hidden states in them ({@link #sends}). */
    public static boolean carries(String what) {
        return what != null && what.startsWith(SENDS + " (");
    }

    /**
     * The MTP blocks stage {@code i} holds beyond its split's layers ({@link #stageBlocks} less {@link #laidOutLayers}): all of
     * them on the last stage, unless the layout places them; where it does, its split counts each m as one block, so each of
     * the stage's MTP layers' other blocks (a hybrid '/' group of two letters: one more).
     */
    public double extraBlocks(ModelShape m, Layout l, int i) {
        return stageBlocks(m, l, i) - laidOutLayers(m, l, i);
    }

    /**
     * The MTP blocks pipeline rank {@code i} holds, each of its kind: all of them ({@link #totalBlocks}) on the last stage unless
     * a layout places them, else its m letters' layers ({@link #perRank}) × the blocks one MTP layer holds. Megatron-Core's
     * HybridModel builds the MTP block where mtp_on_this_rank (the layout's m, else the last stage) from the pattern's '/' group,
     * one layer per letter (MultiTokenPredictionBlock with mtp_layer_pattern and mtp_num_depths:
     * megatron/core/models/hybrid/hybrid_model.py at 542a36d0ac88005261dcf3c8c47ff54627125101), whatever the layout counts for
     * the m.
     */
    public double stageBlocks(ModelShape m, Layout l, int i) {
        if (layers == 0) return 0;
        if (!inLayout(m, l)) return i == l.pp() - 1 ? totalBlocks() : 0;
        int[] r = perRank(m, l);
        return i >= 0 && i < r.length ? (double) r[i] * blocks : 0;
    }

    /**
     * The MTP layers the layout's split counts on pipeline rank {@code i}, one block each (its m letters on the rank's stages,
     * {@link #perRank}); 0 unless the layout places them ({@link #inLayout}). The rank's decoder layers are its split's layers
     * less these (the pattern's slice: {@link MambaLayers#onStage}).
     */
    public int laidOutLayers(ModelShape m, Layout l, int i) {
        if (!inLayout(m, l)) return 0;
        int[] r = perRank(m, l);
        return i >= 0 && i < r.length ? r[i] : 0;
    }

    /**
     * One MTP layer's own parameters per GPU, beyond its blocks': eh_proj, 2h·h ÷ tp, and enorm, hnorm and the final norm, 3h
     * (the output layer and the embedding are shared with the model's); a rank holds its {@link #perRank} count of them.
     */
    public double ownParametersPerLayer(ModelShape m, Layout l) {
        double h = m.hidden();
        return 2 * h * h / l.tp() + 3 * h;
    }

    /**
     * Model FLOPs per token of the MTP layers, forward and backward, as Megatron-LM's num_floating_point_operations counts them:
     * D × (the blocks' FLOPs by kind + 6·(3h + 2h²) + the logits 6·h·V). A block is its kind's: a transformer MoE model's the
     * last layer's ({@link MoeShape#layerFlopsPerToken}: last_layer_is_moe), a hybrid's by its group's letters
     * ({@link MambaLayers#kindFlopsPerToken}); a dense model's (and a hybrid's without a '/' group) the mean layer. A hybrid
     * model's count is hybrid_flops' (training.py at 001b00c2734d8f0fad096fe48a382fedf755d321: its layers by kind, the MTP
     * letters among them through get_hybrid_layer_counts, and the logits × (1 + mtp_num_layers)), which has no eh_proj or
     * norm term: transformer_flops' 6·(3h + 2h²) is not counted there, though {@link #price} times eh_proj's GEMM.
     *
     * @param modelFlops the model's FLOPs per token without MTP (its logits included)
     */
    public double flopsPerToken(ModelShape m, double modelFlops, Variants v) {
        if (layers == 0) return 0;
        double h = m.hidden(), logits = m.logitFlopsPerToken();
        MoeShape s = m.experts() > 1 ? v.moe() : null;
        double[] k = v.mamba() != null ? v.mamba().asPriced(groupKinds()) : null;
        double blockFlops = k != null ? v.mamba().kindFlopsPerToken(m, k[0], k[1], k[2], k[3], k[4])
                : s != null && !s.hybrid() ? blocks * s.layerFlopsPerToken(m, s.lastMoe())
                : blocks * (modelFlops - logits) / m.layers();
        double proj = v.mamba() != null ? 0 : 6 * (3 * h + 2 * h * h);    // hybrid_flops counts no eh_proj or norms
        return layers * (blockFlops + proj + logits);
    }

    /**
     * The MTP layers' time per micro-batch beyond the mean layers the stages' layers count: their blocks' by kind beyond the
     * mean layer ({@link #blockSeconds}) and eh_proj's GEMM forward and backward (6 · tokens · 2h² ÷ tp FLOPs, with
     * recomputation) at the GEMM rate plus its three kernels' fixed time on their ranks ({@link #perRank}), and the logits with
     * their cross-entropy again on the last (the compute term's logits, once per MTP layer: process_mtp_loss on the
     * post_process rank).
     *
     * @param tokens        tokens per micro-batch on one GPU's sequence share
     * @param recompute     the linear recompute factor
     * @param gemmRate      the achieved GEMM rate, FLOP/s
     * @param kernelSeconds the fixed time per GEMM kernel
     * @param logitSeconds  the compute term's logits (with their cross-entropy)
     * @param blocks        the MTP blocks the last stage's layers count here (0 when the layout places them elsewhere)
     * @param layerSeconds  one (mean) layer's time
     * @param moe           the MoE side's prices (null: no experts)
     * @param microBatches  micro-batches per step
     * @return null without MTP layers
     */
    public Term.Mtp price(ModelShape m, Layout l, double tokens, double recompute, double gemmRate, double kernelSeconds,
                          double logitSeconds, double blocks, double layerSeconds, MoeCost.Priced moe, Variants v, long microBatches) {
        if (layers == 0) return null;
        double h = m.hidden();
        double projFlops = layers * 6.0 * tokens * 2 * h * h / l.tp() * recompute;
        double projSeconds = projFlops / gemmRate + layers * 3 * recompute * kernelSeconds;
        // the logits and cross-entropy once per MTP layer: on the last stage, less mtp_loss_split's early loss stages' (their own)
        int last = lastStageLosses(m, l);
        double logits = last * logitSeconds, early = (layers - last) * logitSeconds;
        MoeShape s = m.experts() > 1 ? v.moe() : null;
        double mean = blocks * layerSeconds, byKind = blockSeconds(m, l, blocks, layerSeconds, moe, s, v.mamba());
        return new Term.Mtp(layers, this.blocks, blocks, byKind, mean, moeBlocks(m, l, s), denseBlocks(m, l, s), projFlops, gemmRate, projSeconds,
                logits, byKind - mean + projSeconds + logits + early, microBatches, java.util.Arrays.stream(perRank(m, l)).boxed().toList(),
                java.util.Arrays.stream(earlyLossesPerRank(m, l)).boxed().toList(), logitSeconds);
    }
}
