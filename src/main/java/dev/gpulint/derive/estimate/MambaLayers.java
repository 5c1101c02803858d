package dev.gpulint.derive.estimate;

import dev.gpulint.spec.HybridPattern;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.ParallelDim;
import dev.gpulint.spec.Specs;
import java.util.List;
import java.util.Locale;

/**
 * A hybrid Mamba model's layers (Megatron-Core's {@code MambaStack}; Nemotron-H, Nemotron Nano 2): one layer per
 * character of its pattern, {@code M} a Mamba-2 mixer, {@code G} a gated delta net ({@link Gdn}), {@code *} self-attention
 * alone, {@code -} an MLP alone, each with its own pre-norm. {@link ModelShape} holds the attention's and the MLP's sizes ({@code layers} is the pattern's length); this
 * record holds the kinds' counts and the mixer's sizes, and gives per-layer means over the pattern that the estimate
 * multiplies by a stage's layers (a stage's own mix of kinds is not counted: the mean stands for each layer).
 *
 * <p>The mixer (Megatron-Core megatron/core/ssm/mamba_mixer.py, MambaMixer, read at NVIDIA/Megatron-LM
 * 00bebb45b9b247b7c6a13d2f47f3b5beed3a335d; d_inner = heads × head dim, else expand 2 × h, G groups, N the state size): {@code in_proj} h → 2·d_inner + 2·G·N + heads (z, x, B, C, dt; a TE LayerNormColumnParallelLinear, so the
 * layer's norm of h is in it), a depthwise {@code conv1d} of the kernel's width over x, B, C (d_inner + 2·G·N channels, with
 * biases), {@code A_log}, {@code D} and {@code dt_bias} per head, a gated RMSNorm over d_inner, {@code out_proj} d_inner → h.
 * Attention-only and MLP-only layers are their halves of a transformer layer (its attention or MLP and one norm of h).
 *
 * <p>Model FLOPs (the MFU convention) are Megatron-LM's own count for hybrid models (megatron/training/training.py,
 * {@code num_floating_point_operations} → {@code hybrid_flops}, read at NVIDIA/Megatron-LM 001b00c2734d8f0fad096fe48a382fedf755d321); the executed time counts the GEMMs at their real sizes
 * and the SSD chunk scan as HBM bytes ({@link #ssdBytesPerToken}).
 *
 * <p>MoE ({@code E}) layers (Nemotron 3 Nano and Super: {@code MEMEM*EMEMEM*...}) are Megatron-Core's MoELayer behind the
 * layer's own pre-norm (megatron/core/ssm/mamba_block.py builds {@code moe_layer} from the hybrid stack spec), routed as
 * {@link MoeShape} states it ({@code experts}, whose {@link MoeShape#hybrid} marks that its MoE layers are the pattern's E
 * layers and that no other layer is a dense transformer layer): their experts, router, permutation and shared experts are
 * {@link MoeCost}'s and their all-to-alls the estimate's ep term, so the mean layer here carries none of their GEMMs; their
 * parameters are each layer's norm (h) and router (E × h, Megatron-Core's TopKRouter weight) here, the routed and shared
 * experts {@link MemoryModel}'s as for any MoE model. A stage's parameters are counted from its own slice of the
 * pattern ({@link #onStage}); its time stays the mean layer's × its layers. Multi-latent attention in a hybrid is not priced
 * by kinds ({@link #of} gives null; the caller says so). Everything is computed once per job (a record of counts and
 * sizes); each method is a few multiplications.
 *
 * @param mamba     Mamba-2 layers (M)
 * @param attention attention-only layers (*)
 * @param mlp       MLP-only layers (-)
 * @param moe       MoE layers (E)
 * @param heads     the mixer's heads (mamba_num_heads)
 * @param headDim   its head dimension P (mamba_head_dim)
 * @param state     its state size N (ssm_state_size, --mamba-state-dim)
 * @param groups    its B/C groups G (n_groups, --mamba-num-groups)
 * @param conv      the depthwise convolution's width (conv_kernel; MambaMixer's d_conv 4)
 * @param pattern   the decoder's layers, one character each, counted by kind up to each layer once per job (the stages'
 *                  slices: {@link #onStage})
 * @param experts   the E layers' routing and experts ({@link MoeShape#hybrid}); null without E layers
 * @param gdn       the {@code G} layers' gated-delta-net sizes (Megatron-Core's GatedDeltaNet, its {@code --linear-*} sizes or
 *                  TransformerConfig's defaults): the pattern's G layers ({@link #gdnLayers}) are priced as {@link Gdn}, its
 *                  {@code M} layers ({@code mamba}) as Mamba-2 of the sizes above, each with its own parameters, FLOPs, bytes
 *                  and activations (a pattern of both, as hybrid_layer_specs.py builds an M as MambaMixer and a G as
 *                  GatedDeltaNet from one config); null exactly when the pattern holds no G. Without an M the Mamba-2 sizes
 *                  are unused (1)
 */
public record MambaLayers(int mamba, int attention, int mlp, int moe, long heads, long headDim, long state, long groups, long conv,
                          LayerPattern pattern, MoeShape experts, Gdn gdn) {

    /**
     * A gated delta net's sizes as Megatron-Core builds one (NVIDIA/Megatron-LM megatron/core/ssm/gated_delta_net.py,
     * GatedDeltaNet, read at 00caa53af30912914981c86f39db123961678bbd; its hybrid layer spec gdn_layer in
     * megatron/core/models/hybrid/hybrid_layer_specs.py at 061490e62952ab4b2b505ce1997fbabdb2e73d17: in_proj a
     * TELayerNormColumnParallelLinear holding the layer's norm of h, out_norm a TENorm over the value head dimension,
     * out_proj a TERowParallelLinear, no biases, conv_bias False). qk = key heads × key head dim, v = value heads × value head
     * dim: in_proj h → 2·qk + 2·v + 2·value heads (q, k, v, the gate z, beta, alpha), a depthwise conv1d of the kernel's width
     * over q, k, v (2·qk + v channels), A_log and dt_bias per value head, out_proj v → h. The gated delta rule runs in
     * flash-linear-attention's chunk kernels (fla/ops/gated_delta_rule/chunk.py at 92396f250f2c8f0ad841cecfe29069c8a71a83eb,
     * chunks of {@link #CHUNK} tokens), q and k repeated to the value heads first (GatedDeltaNet.forward's repeat_interleave).
     *
     * @param keyHeads     linear_num_key_heads ({@code --linear-num-key-heads})
     * @param valueHeads   linear_num_value_heads ({@code --linear-num-value-heads})
     * @param keyHeadDim   linear_key_head_dim ({@code --linear-key-head-dim})
     * @param valueHeadDim linear_value_head_dim ({@code --linear-value-head-dim})
     * @param conv         linear_conv_kernel_dim ({@code --linear-conv-kernel-dim})
     */
    public record Gdn(long keyHeads, long valueHeads, long keyHeadDim, long valueHeadDim, long conv) {
        /** flash-linear-attention's chunk length for the gated delta rule (chunk_local_cumsum's chunk_size 64). */
        public static final long CHUNK = 64;

        public Gdn {
            if (keyHeads < 1 || valueHeads < 1 || keyHeadDim < 1 || valueHeadDim < 1 || conv < 1) {
                throw new IllegalArgumentException("a gated delta net's sizes are at least 1");
            }
        }

        /** qk: key heads × key head dimension (the query's width too). */
        public long qk() { return keyHeads * keyHeadDim; }

        /** v: value heads × value head dimension (the gate's width too). */
        public long v() { return valueHeads * valueHeadDim; }

        /** The conv1d's channels: q, k and v, 2·qk + v. */
        public long convChannels() { return 2 * qk() + v(); }

        /** in_proj's output width: 2·qk + 2·v + 2·value heads (q, k, v, z, beta, alpha). */
        public long inProjWidth() { return 2 * qk() + 2 * v() + 2 * valueHeads; }

        /**
         * The layer's parameters besides its two matrices: the conv1d's weights (no bias), A_log and dt_bias per value head, the
         * out_norm's value head dimension (one RMSNorm shared by the heads) and the layer's norm of h (in in_proj).
         */
        double ownParameters(long hidden) {
            return (double) convChannels() * conv + 2.0 * valueHeads + valueHeadDim + hidden;
        }

        /**
         * HBM bytes per token of the conv1d and the chunked gated delta rule, forward and backward (3 × the forward; Mamba-2's
         * are counted kernel by kernel, {@link MambaLayers#ssdBytesPerToken}): the causal conv1d reads and writes q, k, v (2 × 2·(2·qk + v));
         * the chunk kernels read q and k repeated to the value heads (2·2·value heads·key head dim), v, g (fp32) and beta, write
         * o (2·v), write and read the fp32 in-chunk matrix A (2 × 4·value heads·{@link #CHUNK}) and pass the fp32 chunk states
         * (value heads × key head dim × value head dim per chunk) three times (written, passed, read), as Mamba-2's forward
         * passes them.
         */
        double bytesPerToken() {
            double forward = 2 * 2.0 * convChannels()
                    + 2 * 2.0 * valueHeads * keyHeadDim + 2.0 * v() + 4.0 * valueHeads + 2.0 * valueHeads + 2.0 * v()
                    + 2 * 4.0 * valueHeads * CHUNK
                    + 3 * 4.0 * valueHeads * keyHeadDim * valueHeadDim / CHUNK;
            return 3 * forward;
        }

        /**
         * Bytes per s·b·h kept for the backward, {replicated, divided by tp}: the layer's input and in_proj's normalized input
         * (2 + 2), and, divided, in_proj's output (2·(2·qk + 2·v + 2·value heads): the conv's input, z, beta, alpha), the
         * kernel's saved q and k at the value heads and v (2·(2·value heads·key head dim + v)), its in-chunk matrix A
         * (2·value heads·{@link #CHUNK}), the gated norm's input o (2·v) and out_proj's input (2·v).
         */
        double[] activationParts(double hidden) {
            return new double[] {4, (2.0 * inProjWidth() + 2.0 * (2.0 * valueHeads * keyHeadDim + v()) + 2.0 * valueHeads * CHUNK
                    + 2.0 * v() + 2.0 * v()) / hidden};
        }

        /**
         * Model FLOPs per token forward, as Megatron-LM counts a GDN layer (megatron/core/models/hybrid/layers/flops.py at
         * cb5395b3e6fc85d00ab6d23b54b58a19feb5214d, {@code _gdn_layer_flops}): 2·(h·(2·qk + 2·v + 2·value heads) + conv·(2·qk + v)
         * + value heads·value head dim²·4 + h·v).
         */
        double forwardFlopsPerToken(double hidden) {
            return 2 * (hidden * inProjWidth() + (double) conv * convChannels() + 4.0 * valueHeads * valueHeadDim * valueHeadDim
                    + hidden * v());
        }

        /** "16 key heads × 128, 32 value heads × 128, conv 4". */
        String describe() {
            return keyHeads + " key heads × " + keyHeadDim + ", " + valueHeads + " value heads × " + valueHeadDim + ", conv " + conv;
        }
    }

    /** The SSD kernels' chunk length Q: MambaMixer's {@code chunk_size} default, 128. */
    public static final long CHUNK = 128;

    public MambaLayers {
        if (mamba < 0 || attention < 0 || mlp < 0 || moe < 0 || heads < 1 || headDim < 1 || state < 1
                || groups < 1 || conv < 1 || pattern == null || pattern.length() < 1
                || pattern.length() != mamba + attention + mlp + moe + pattern.count(LayerPattern.GDN, 0, pattern.length())
                || pattern.count(LayerPattern.MAMBA, 0, pattern.length()) != mamba
                || (moe > 0) != (experts != null) || (pattern.count(LayerPattern.GDN, 0, pattern.length()) > 0) != (gdn != null)) {
            throw new IllegalArgumentException("a hybrid's layer counts are at least 0 (one layer at least) and its pattern's, its mixer's"
                    + " sizes at least 1, its E layers come with their MoE shape and its G layers with their gated delta net's sizes");
        }
    }

    /** Layers of the pattern. */
    public int layers() { return mamba + attention + mlp + moe + gdnLayers(); }

    /** The gated delta net layers (G), each priced as {@link Gdn}: the pattern's count (two lookups). */
    public int gdnLayers() { return pattern.count(LayerPattern.GDN, 0, pattern.length()); }

    /** The MLP-only layers' width: the dense MLP's ({@link MoeShape#denseFfn}) beside experts, else the model's. */
    public long mlpFfn(ModelShape m) { return experts != null ? experts.denseFfn() : m.ffn(); }

    /** An MLP-only layer's matrices: 2·h·ffn, or 3·h·ffn gated, at {@link #mlpFfn}. */
    double mlpMatrices(ModelShape m) { return (m.gatedMlp() ? 3.0 : 2.0) * m.hidden() * mlpFfn(m); }

    /**
     * An MoE layer's parameters besides its routed and shared experts ({@link MemoryModel} counts those, as for any MoE
     * model): its norm of h and its router's E × h matrix (Megatron-Core's TopKRouter).
     */
    public double moeLayerOwnParameters(ModelShape m) { return (double) m.hidden() * (1 + m.experts()); }

    /** A Mamba-2 mixer's d_inner: heads × head dimension. */
    public long inner() { return heads * headDim; }

    /** A Mamba-2 in_proj's output width: 2·d_inner + 2·G·N + heads (z, x, B, C, dt). */
    public long inProjWidth() { return 2 * inner() + 2 * groups * state + heads; }

    /** A Mamba-2 mixer's matrices (in_proj and out_proj): h·(2·d_inner + 2·G·N + heads) + d_inner·h. */
    public double mixerMatrices(ModelShape m) {
        return (double) m.hidden() * inProjWidth() + (double) inner() * m.hidden();
    }

    /** A gated delta net's matrices (in_proj and out_proj): h·(2·qk + 2·v + 2·value heads) + v·h; 0 without G layers. */
    public double gdnMatrices(ModelShape m) {
        return gdn == null ? 0 : (double) m.hidden() * gdn.inProjWidth() + (double) gdn.v() * m.hidden();
    }

    /** One gated delta net layer's parameters: its matrices and {@link Gdn#ownParameters}; 0 without G layers. */
    public double gdnLayerParameters(ModelShape m) {
        return gdn == null ? 0 : gdnMatrices(m) + gdn.ownParameters(m.hidden());
    }

    /**
     * One Mamba-2 layer's parameters: its matrices, the conv1d over d_inner + 2·G·N channels (weights of the kernel's width
     * and a bias each), A_log, D and dt_bias per head, the gated norm's d_inner and the layer's norm of h.
     */
    public double mambaLayerParameters(ModelShape m) {
        return mixerMatrices(m) + (double) (inner() + 2 * groups * state) * (conv + 1) + 3.0 * heads + inner() + m.hidden();
    }

    /**
     * All layers' parameters and the final norm (the embeddings are {@link ModelShape#embeddingParameters}; the E layers'
     * routed and shared experts are {@link MemoryModel}'s: {@link #expertParameters}).
     */
    public double layerParameters(ModelShape m) {
        return kindParameters(m, mamba, attention, mlp, moe, gdnLayers()) + m.hidden();
    }

    /** The parameters of layers of each kind, as {@link #layerParameters} counts one of each (no final norm). */
    double kindParameters(ModelShape m, double mm, double at, double ml, double e, double g) {
        return kindParameters(perKind(m), mm, at, ml, e, g);
    }

    /**
     * One layer's parameters of each kind, {M, *, -, E, G}: {@link #kindParameters}' factors, which a plan's stages take once
     * per layout ({@link MemoryModel}) instead of once per stage.
     */
    double[] perKind(ModelShape m) {
        return new double[] {mambaLayerParameters(m), m.attentionParameters() + m.hidden(), mlpMatrices(m) + m.hidden(), moeLayerOwnParameters(m),
                gdnLayerParameters(m)};
    }

    /** {@link #kindParameters} from one layer's of each kind ({@link #perKind}). */
    static double kindParameters(double[] perKind, double mm, double at, double ml, double e, double g) {
        return mm * perKind[0] + at * perKind[1] + ml * perKind[2] + e * perKind[3] + g * perKind[4];
    }

    /**
     * An MTP '/' group's kinds ({@link #kinds}: its letters as priced, a G as M) as this model prices them: its M blocks
     * gated delta nets when the decoder's mixers are all G (no Mamba-2 layer to size them), else as written. Null stays null.
     */
    double[] asPriced(double[] k) {
        if (k == null || mamba > 0 || gdn == null) return k;
        return new double[] {0, k[1], k[2], k[3], k[0] + k[4]};
    }

    /** The E layers' routed experts (E × one expert's MLP each) and shared experts (gate × h × their width): 0 without E layers. */
    public double expertParameters(ModelShape m) {
        return routedExperts(m, moe) + sharedExperts(m, moe);
    }

    /** The routed experts' parameters of {@code e} MoE layers: e × E × one expert's MLP (0 without E layers). */
    double routedExperts(ModelShape m, double e) {
        return experts == null ? 0 : e * m.experts() * m.mlpParameters();
    }

    /** The shared experts' parameters of {@code e} MoE layers: e × gate × h × their width (0 without E layers). */
    double sharedExperts(ModelShape m, double e) {
        return experts == null ? 0 : e * (m.gatedMlp() ? 3.0 : 2.0) * m.hidden() * experts.sharedFfn();
    }

    /** Parameters of the whole model: the layers, their experts, the final norm and one embedding matrix, two when untied. */
    public double parameters(ModelShape m) {
        return layerParameters(m) + expertParameters(m) + (m.tiedEmbeddings() ? 1 : 2) * m.embeddingParameters();
    }

    /**
     * Layers of each kind on pipeline stage {@code i} as {M, *, -, E, G}: the pattern's slice Megatron-Core's MambaStack builds
     * there (megatron/core/ssm/mamba_block.py, {@code _select_layers_for_pipeline_parallel}: the stage's layers from its
     * offset, consecutive), the layout's split giving each stage's count ({@link MemoryModel#stageLayers}). An interleaved
     * layout, or a split whose stages are not whole layers, takes the stage's share of each kind instead.
     */
    public double[] onStage(ModelShape m, Layout l, int i) {
        double[] k = new double[5];
        onStage(m, l, i, MtpLayers.NONE, k);
        return k;
    }

    /**
     * {@link #onStage} into {@code k} (five entries): a plan's stages fill one array per layout, not one per stage. A layout's
     * m letters ({@code mtp}'s {@link MtpLayers#laidOutLayers}) are not the decoder's: its split counts each as one block, and
     * the stage's decoder layers are the rest (the MTP blocks are priced by their '/' group's letters, MtpLayers#stageBlocks).
     */
    void onStage(ModelShape m, Layout l, int i, MtpLayers mtp, double[] k) {
        double n = MemoryModel.stageLayers(m, l, i) - mtp.laidOutLayers(m, l, i), from = 0;
        // the even split's offset at once (a plan prices every stage of every candidate: summing the stages before is
        // O(pp) each); a hand-sized split sums them
        if (l.split() == PipelineSplit.EVEN || l.split().equals(PipelineSplit.EVEN)) from = i * n;     // the search's layouts hold EVEN itself
        else for (int s = 0; s < i; s++) from += MemoryModel.stageLayers(m, l, s) - mtp.laidOutLayers(m, l, s);
        if (l.virtualPp() > 1 || n != Math.rint(n) || from != Math.rint(from) || from + n > pattern.length()) {
            double share = n / layers();
            k[0] = mamba * share;
            k[1] = attention * share;
            k[2] = mlp * share;
            k[3] = moe * share;
            k[4] = gdnLayers() * share;
            return;
        }
        // the slice's kinds from the counts up to its ends (LayerPattern): O(1) per stage whatever the pattern's length
        int a = (int) from, b = (int) (from + n);
        k[0] = pattern.count(LayerPattern.MAMBA, a, b);
        k[1] = pattern.count(LayerPattern.ATTENTION, a, b);
        k[2] = pattern.count(LayerPattern.MLP, a, b);
        k[3] = pattern.count(LayerPattern.MOE, a, b);
        k[4] = pattern.count(LayerPattern.GDN, a, b);
    }

    /**
     * A hybrid's pattern (one character per layer: {@code M}, {@code *}, {@code -}, {@code E}, {@code G}) with its layers of each kind
     * counted up to every position, made once per job ({@link #of}): the layers of a kind in a slice are two lookups, so a
     * stage's slice costs the same at 64 layers as at the pattern's bound of 65,536 (a plan asks it of every stage of every
     * candidate layout, ~190,000 layouts at 1,024 GPUs). Immutable; equal, hashed and written as its text.
     */
    public static final class LayerPattern {
        /** The kinds' indexes, {@link #onStage}'s order: Mamba-2, attention-only, MLP-only, MoE (any other character), gated delta net. */
        static final int MAMBA = 0, ATTENTION = 1, MLP = 2, MOE = 3, GDN = 4;

        private final String text;
        private final int[][] upTo;                                // upTo[kind][c]: layers of that kind among the first c

        public LayerPattern(String text) {
            this.text = java.util.Objects.requireNonNull(text);
            this.upTo = new int[5][text.length() + 1];
            for (int c = 0; c < text.length(); c++) {
                for (int k = 0; k < 5; k++) upTo[k][c + 1] = upTo[k][c];
                upTo[kind(text.charAt(c))][c + 1]++;
            }
        }

        private static int kind(char c) {
            return switch (c) {
                case 'M' -> MAMBA;
                case '*' -> ATTENTION;
                case '-' -> MLP;
                case 'G' -> GDN;
                default -> MOE;
            };
        }

        /** The pattern as written. */
        public String text() { return text; }

        /** Its layers. */
        public int length() { return text.length(); }

        /** Layers of {@code kind} among layers {@code from} (inclusive) to {@code to} (exclusive), 0 ≤ from ≤ to ≤ {@link #length}. */
        int count(int kind, int from, int to) { return upTo[kind][to] - upTo[kind][from]; }

        @Override public boolean equals(Object o) { return o instanceof LayerPattern p && p.text.equals(text); }

        @Override public int hashCode() { return text.hashCode(); }

        @Override public String toString() { return text; }
    }

    /** The layers' parameters per layer of the pattern (final norm included), as a stage's share multiplies it. */
    public double meanLayerParameters(ModelShape m) {
        return layerParameters(m) / layers();
    }

    /** Linear FLOPs per token of the mean layer, forward and backward: 6 × the matrices a token passes through. */
    public double meanLinearFlopsPerToken(ModelShape m) {
        return 6.0 * (mamba * mixerMatrices(m) + gdnLayers() * gdnMatrices(m) + attention * m.attentionParameters() + mlp * mlpMatrices(m))
                / layers();
    }

    /** GEMM kernels of the mean layer, forward and backward: {@link #KERNELS} per layer but the E layers (MoeCost's). */
    public double meanKernels() {
        return (double) KERNELS * (layers() - moe) / layers();
    }

    /**
     * The mean layer's GEMM input elements per token, each cast to fp8 forward (and its output gradient backward) under a
     * quantized recipe: h and d_inner (in_proj, out_proj), h and a·d (QKV, projection), h and ffn (fc1, fc2), as
     * Float8Scaling counts a transformer layer's.
     */
    public double meanGemmInputs(ModelShape m) {
        double h = m.hidden();
        return (mamba * (h + inner()) + (gdn == null ? 0 : gdnLayers() * (h + gdn.v())) + attention * (h + (double) m.heads() * m.headDim())
                + mlp * (h + mlpFfn(m))) / layers();
    }

    /** The attention layers' share of the layers: what the mean layer carries of one attention core. */
    public double attentionShare() {
        return (double) attention / layers();
    }

    /** GEMM kernels of one layer of each kind, forward and backward: two GEMMs (in_proj and out_proj, QKV and the projection, fc1 and fc2) × 3. */
    public static final int KERNELS = 6;

    /** The tensor-parallel all-gather/reduce-scatter pairs of a hybrid layer beside a transformer layer's: one GEMM pair, not two. */
    public static final double TP_SHARE = 0.5;

    /**
     * The SSD path's HBM bytes per token of one Mamba-2 layer, forward and backward, counted kernel by kernel as Megatron-Core's
     * training path runs them: MambaMixer {@code _ssm_training} (megatron/core/ssm/mamba_mixer.py at NVIDIA/Megatron-LM
     * 00bebb45b9b247b7c6a13d2f47f3b5beed3a335d) calls mamba_ssm's {@code mamba_split_conv1d_scan_combined} with the gate z in
     * the scan and no norm weight (its own norm runs after), and that function (state-spaces/mamba
     * mamba_ssm/ops/triton/ssd_combined.py at d757aef189a5215ab3568516825a145e49f7b7ed, MambaSplitConv1dScanCombinedFn) runs
     * the causal conv1d and {@code _mamba_chunk_scan_combined_fwd} forward, and in backward the conv1d again,
     * {@code _mamba_chunk_scan_combined_bwd} (which recomputes the chunk cumsum, CB, the chunk states and their passing before
     * its gradient kernels) and the conv1d's backward. With d = d_inner, g = G·N (B or C), H heads, s = 4·d·N/Q (the fp32 chunk
     * states per token, Q = {@link #CHUNK}) and c = 4·G·Q (the fp32 CB per token), at 2 bytes an activation and 4 a cumsum or
     * dt in fp32, each kernel's reads and writes per token:
     * <ul>
     * <li>forward: conv1d 4d + 8g (xBC in, out); {@code _chunk_cumsum_fwd} 10H (dt in; dt and dA_cumsum out, fp32);
     *     {@code _chunk_state_fwd} 2d + 2g + 8H + s (x, B, dt, dA_cumsum in; states out); {@code _state_passing_fwd} 1.5s
     *     (states in, out at C's dtype); {@code _bmm_chunk_fwd} 4g + c (C, B in; CB out); {@code _chunk_scan_fwd}
     *     8d + 2g + 8H + s/2 + c (CB, x, z, dt, dA_cumsum, C, states in; out and the ungated out_x out): 14d + 16g + 26H + 3s
     *     + 2c;</li>
     * <li>backward: conv1d again 4d + 8g; dt's clone 4H; the recomputed cumsum 10H, CB 4g + c, chunk states 2d + 2g + 8H + s
     *     and their passing 2s (fp32 out); {@code _chunk_scan_bwd_dz} 12d (x, z, out_x, dout in; dz, the gated dout out);
     *     {@code _chunk_scan_bwd_dstates} 2d + 2g + 4H + s; {@code _state_passing_bwd} 3s (states and dstates in, both out at
     *     the activation's dtype); {@code _chunk_scan_chunk_state_bwd_dx} 6d + 2g + 12H + s/2 + c; {@code _chunk_state_bwd_db}
     *     2d + 4g + 12H + s/2; {@code _chunk_scan_bwd_dC} 2d + 4g + 8H + s/2; {@code _chunk_scan_bwd_dcb} 4d + 8H + c; two
     *     {@code _bmm_chunk_bwd} 12g + 2c; the reverse cumsum of ddA_prev and the sum of the three ddA 48H;
     *     {@code _chunk_scan_bwd_ddAcs_stable} 4d + 12H + c; {@code _chunk_cumsum_bwd} 12H; the conv1d's backward 6d + 12g:
     *     44d + 50g + 138H + 8.5s + 6c.</li>
     * </ul>
     * 58d + 66g + 164H + 11.5s + 8c in all (Nemotron 3 Nano, d 4,096, G·N 1,024, 64 heads: 537 KB a token, where the forward
     * tripled counted 283 KB: the backward's recomputation and its ten gradient kernels read x, B, C and dout again and again).
     * Not here: the fp32 partial sums of dB over a group's heads, the autotuner, and Megatron's own transposes of zxBCdt and y
     * and its norm over y (the elementwise term's traffic stands for a layer's other passes). The scan's matmuls are this
     * memory's work: the Mamba-2 paper (Dao and Gu 2024, arXiv:2405.21060, Fig. 10) measures SSD at FlashAttention-2's speed
     * from 2K tokens on several times fewer FLOPs, so FLOPs at a tensor-core rate would understate it.
     */
    public double ssdBytesPerToken() {
        double d = inner(), g = (double) groups * state, h = heads, s = 4.0 * inner() * state / CHUNK, c = 4.0 * groups * CHUNK;
        double forward = 14 * d + 16 * g + 26 * h + 3 * s + 2 * c;
        double backward = 44 * d + 50 * g + 138 * h + 8.5 * s + 6 * c;
        return forward + backward;
    }

    /** One gated delta net layer's conv1d and chunked delta rule bytes per token ({@link Gdn#bytesPerToken}); 0 without G layers. */
    public double gdnBytesPerToken() {
        return gdn == null ? 0 : gdn.bytesPerToken();
    }

    /**
     * The mixers' bytes per token of the mean layer: the Mamba-2 layers' share of {@link #ssdBytesPerToken} and the gated delta
     * nets' of {@link #gdnBytesPerToken}.
     */
    public double meanSsdBytesPerToken() {
        return (mamba * ssdBytesPerToken() + gdnLayers() * gdnBytesPerToken()) / layers();
    }

    /**
     * Bytes per s·b·h one Mamba-2 layer keeps for its backward, as {replicated over tp, divided by tp} (16-bit): the
     * layer's input and in_proj's normalized input (TE's LayerNormColumnParallelLinear keeps both: 2 + 2, replicated unless
     * sequence-parallel); mamba_split_conv1d_scan_combined's saved tensors, zxBCdt (2·(2·d_inner + 2·G·N + heads)) and the
     * scan's output before the gated norm (2·d_inner; it recomputes the conv in backward), and out_proj's input (2·d_inner),
     * divided by tp as the heads are. No dropout mask (Megatron's MambaLayer adds the residual without dropout).
     */
    public double[] mambaActivationParts(ModelShape m) {
        return new double[] {MAMBA_REPLICATED_PARTS, mambaDividedParts(m.hidden())};
    }

    /** {@link #mambaActivationParts}' replicated part: the layer's input and in_proj's normalized input, 2 + 2. */
    private static final double MAMBA_REPLICATED_PARTS = 4;

    /** {@link #mambaActivationParts}' part divided by tp, per s·b·h of {@code h}. */
    private double mambaDividedParts(double h) {
        return (2.0 * inProjWidth() + 2.0 * inner() + 2.0 * inner()) / h;
    }

    /** A model without gated delta nets: their parts in {@link #meanActivationParts} (never written). */
    private static final double[] NO_GDN_PARTS = new double[2];

    /**
     * The mean layer's activation bytes per s·b·h as {replicated, divided by tp}: the Mamba-2 layers' as above, an
     * attention-only layer its half of Korthikanti's layer (norm input, QKV input, dropout mask: 5; Q, K, V and the
     * projection's input divided), an MLP-only layer the other half (norm input, fc1 input, dropout mask: 5; fc1's and the
     * activation's outputs divided), an MoE layer that half at one expert's width, as {@link MemoryModel#perLayer} counts an
     * MoE transformer layer's MLP. {@code parts} is {@link MemoryModel#perLayer}'s split of a whole transformer layer.
     */
    public double[] meanActivationParts(ModelShape m) {
        return kindActivationParts(m, mamba, attention, mlp, moe, gdnLayers(), layers());
    }

    /**
     * {@link #meanActivationParts} of {@code mm} Mamba-2, {@code at} attention-only, {@code ml} MLP-only, {@code e} MoE and
     * {@code g} gated delta net layers, per layer of {@code n}: the decoder's counts (the mean layer), or an MTP layer's '/'
     * group's ({@link MtpLayers#groupKinds}, {@link #asPriced}), whose blocks keep their letters' activations.
     */
    public double[] kindActivationParts(ModelShape m, double mm, double at, double ml, double e, double g, double n) {
        double h = m.hidden(), ad = (double) m.heads() * m.headDim(), qd = (double) m.kvHeads() * m.headDim();
        double att = (2 * ad + 4 * qd + 2 * ad) / h, ffn = (m.gatedMlp() ? 6.0 : 4.0) * mlpFfn(m) / h,
                expert = (m.gatedMlp() ? 6.0 : 4.0) * m.ffn() / h;
        // (the Mamba-2 parts without mambaActivationParts' array, and no array for absent gated delta nets: this runs for every
        // layout a plan sizes; the same doubles in the same sums)
        double[] gx = gdn == null ? NO_GDN_PARTS : gdn.activationParts(h);
        double rep = (mm * MAMBA_REPLICATED_PARTS + g * gx[0] + at * 5.0 + ml * 5.0 + e * 5.0) / n;
        double split = (mm * mambaDividedParts(h) + g * gx[1] + at * att + ml * ffn + e * expert) / n;
        return new double[] {rep, split};
    }

    /**
     * Model FLOPs per token, forward and backward, as Megatron-LM counts a hybrid model (training.py {@code hybrid_flops},
     * 3 × the forward): attention 4·a·d·(h + h·q/a + s/2) (its core causal: s/2), MLP 4·h·ffn (× 3/2 gated), Mamba
     * 2·h·(2·d_in + 2·G·N + heads) + 7·d_in·N (the scan) + 2·d_in·h with Megatron's d_in = 2·h (its count assumes expand 2
     * whatever the heads), MoE 4·h·(ffn·k + shared) (× 3/2 gated: {@code moe_layer_flops}, without a latent size), logits 2·h·V.
     */
    public double modelFlopsPerToken(ModelShape m) {
        return kindFlopsPerToken(m, mamba, attention, mlp, moe, gdnLayers()) + 6.0 * m.hidden() * m.vocab();
    }

    /**
     * {@link #modelFlopsPerToken}'s layers without the logits, for {@code mm} Mamba-2, {@code at} attention-only, {@code ml}
     * MLP-only, {@code e} MoE and {@code g} gated delta net layers ({@link Gdn#forwardFlopsPerToken}, Megatron-LM's _gdn_layer_flops): the decoder's counts, or an MTP layer's '/' group's ({@link MtpLayers}, as
     * hybrid_flops counts the pattern's letters after '/').
     */
    public double kindFlopsPerToken(ModelShape m, double mm, double at, double ml, double e, double g) {
        double h = m.hidden(), s = m.seq(), a = m.heads(), d = m.headDim(), q = m.kvHeads();
        double attn = 4 * a * d * (h + h * q / a + s / 2);
        double mlpF = 4.0 * h * mlpFfn(m) * (m.gatedMlp() ? 1.5 : 1.0);
        double din = 2 * h;
        double mambaF = 2 * h * (2 * din + 2.0 * groups * state + heads) + 7 * din * state + 2 * din * h;
        double gdnF = gdn == null ? 0 : gdn.forwardFlopsPerToken(h);
        double moeF = experts == null ? 0 : experts.moeLayerFlopsPerToken(m) / 3;
        return 3 * (at * attn + ml * mlpF + mm * mambaF + e * moeF + g * gdnF);
    }

    /** Layers of each kind, {M, *, -, E, G}, in {@code letters} (an MTP layer's '/' group): {@link #kindParameters}' order. */
    static double[] kinds(String letters) {
        LayerPattern p = new LayerPattern(letters);
        int n = p.length();
        return new double[] {p.count(LayerPattern.MAMBA, 0, n), p.count(LayerPattern.ATTENTION, 0, n), p.count(LayerPattern.MLP, 0, n),
                p.count(LayerPattern.MOE, 0, n), p.count(LayerPattern.GDN, 0, n)};
    }

    /** "52 layers (24 Mamba-2, 4 attention and 24 MLP) ..." : the assumptions line of a hybrid priced by kinds. */
    public String describe(ModelShape m) {
        if (gdn != null && mamba > 0) {
            return String.format(Locale.ROOT, "hybrid layers priced by kind: %d Mamba-2 (M: %d heads × %d, state %d, %d groups, conv %d: %.3g M"
                            + " parameters each), %d gated delta net (G: Megatron-Core's GatedDeltaNet, %s: %.3g M parameters each), %d"
                            + " attention-only%s %d MLP-only%s of %d layers, %.3g B parameters; each stage's parameters from its slice of the"
                            + " pattern, its time as its share of the mean layer; the Mamba-2 SSD scan and the GDN's conv1d and chunked gated"
                            + " delta rule as HBM bytes (%.0f KB per token per Mamba-2 layer, chunk %d; %.0f KB per GDN layer, chunk %d);"
                            + " model FLOPs as Megatron-LM's hybrid_flops and _gdn_layer_flops count them (docs/plan.md, hybrid Mamba models)",
                    mamba, heads, headDim, state, groups, conv, mambaLayerParameters(m) / 1e6, gdnLayers(), gdn.describe(),
                    gdnLayerParameters(m) / 1e6, attention, moe == 0 ? " and" : ",", mlp, moePart(m), layers(), parameters(m) / 1e9,
                    ssdBytesPerToken() / 1e3, CHUNK, gdnBytesPerToken() / 1e3, Gdn.CHUNK);
        }
        if (gdn != null) {
            return String.format(Locale.ROOT, "hybrid layers priced by kind: %d gated delta net (Megatron-Core's GatedDeltaNet, %s: %.3g M"
                            + " parameters each), %d attention-only%s %d MLP-only%s of %d layers, %.3g B parameters; each stage's parameters"
                            + " from its slice of the pattern, its time as its share of the mean layer; the conv1d and the chunked gated delta"
                            + " rule as HBM bytes (%.0f KB per token per GDN layer, chunk %d); model FLOPs as Megatron-LM's _gdn_layer_flops"
                            + " counts them (docs/plan.md, hybrid Mamba models)",
                    gdnLayers(), gdn.describe(), gdnLayerParameters(m) / 1e6, attention, moe == 0 ? " and" : ",", mlp, moePart(m), layers(),
                    parameters(m) / 1e9, gdnBytesPerToken() / 1e3, Gdn.CHUNK);
        }
        return String.format(Locale.ROOT, "hybrid Mamba layers priced by kind: %d Mamba-2 (%d heads × %d, state %d, %d groups, conv %d: %.3g M"
                        + " parameters each), %d attention-only%s %d MLP-only%s of %d layers, %.3g B parameters; each stage's parameters"
                        + " from its slice of the pattern, its time as its share of the mean layer; the SSD scan as HBM bytes (%.0f KB per"
                        + " token per Mamba-2 layer, chunk %d); model FLOPs as Megatron-LM's hybrid_flops counts them (docs/plan.md, hybrid"
                        + " Mamba models)",
                mamba, heads, headDim, state, groups, conv, mambaLayerParameters(m) / 1e6, attention, moe == 0 ? " and" : ",", mlp,
                moePart(m), layers(), parameters(m) / 1e9, ssdBytesPerToken() / 1e3, CHUNK);
    }

    /**
     * All-to-alls per Mamba-2 layer forward under context parallelism (Megatron-Core's MambaContextParallel, NVIDIA/Megatron-LM
     * megatron/core/ssm/mamba_context_parallel.py at 00caa53af30912914981c86f39db123961678bbd): {@code pre_conv_ssm} sends z, x,
     * B, C and dt to the head split one {@code _all_to_all_cp2hp} each, {@code post_conv_ssm} the scan's output y back with one
     * {@code _all_to_all_hp2cp}; the backward runs each one's reverse (megatron/core/tensor_parallel/mappings.py, _AllToAll).
     */
    public static final int MAMBA_CP_A2A = 6;

    /**
     * All-to-alls per gated delta net layer forward under context parallelism (megatron/core/ssm/gated_delta_net.py at
     * e867835174aecbc95c2e8e1b1d61b68e05f2c061): {@code tensor_a2a_cp2hp} splits in_proj's output into its six sections (q, k,
     * v, z, beta, alpha) and all-to-alls each, {@code tensor_a2a_hp2cp} the gated norm's output back before out_proj.
     */
    public static final int GDN_CP_A2A = 7;

    /**
     * Elements each rank of a tp·cp group holds, per token of its sequence share, in one Mamba-2 layer's forward all-to-alls
     * (S of {@link Collective#ALL_TO_ALL} ÷ tokens ÷ the element's bytes; mamba_context_parallel.py at 00caa53a): z and x
     * (d_inner ÷ tp each), B and C (G ÷ tp groups of N each, repeated to cp when fewer: {@code group_repeat_count}, so
     * max(G ÷ tp, cp)·N each), dt (heads ÷ tp), and y back (d_inner ÷ tp).
     */
    public double mambaCpElementsPerToken(long tp, long cp) {
        return (3.0 * inner() + heads) / tp + 2 * Math.max((double) groups / tp, cp) * state;
    }

    /**
     * Elements each rank of a tp·cp group holds, per token of its sequence share, in one gated delta net layer's forward
     * all-to-alls (gated_delta_net.py at e867835): in_proj's output, (2·qk + 2·v + 2·value heads) ÷ tp, and the gated norm's
     * output v ÷ tp back; 0 without G layers.
     */
    public double gdnCpElementsPerToken(long tp) {
        return gdn == null ? 0 : (double) (gdn.inProjWidth() + gdn.v()) / tp;
    }

    /**
     * The mixers' context-parallel all-to-alls on the slowest stage, one micro-batch, priced as the cp group's all-to-alls
     * ({@link Comm#collective}, its tier the cp group's, as the ep term's): for each mixer kind, its share of the stage's
     * {@code layersPerStage} × its all-to-alls a layer ({@link #MAMBA_CP_A2A}, {@link #GDN_CP_A2A}) × (forward, backward, and
     * the forward again where it is recomputed: 2 + {@link Checkpointing#fullShare}), each of S = tokens ×
     * ({@link #mambaCpElementsPerToken} or {@link #gdnCpElementsPerToken}) ÷ its all-to-alls × the activation's bytes.
     * Exposed in full: the mixer's forward waits on each (its conv1d reads what the first ones bring, out_proj what the last
     * brings; Megatron-Core issues them on the compute stream, no overlap), as the backward waits on their reverses. Seconds;
     * 0 at cp 1.
     */
    // cpExchangeSeconds' two texts around their one number, written once: the text is made for every layout a plan prices
    // with cp > 1 (a few are printed), and String.concat sizes it once where the inline concatenation grew a builder
    private static final String MAMBA_CP_TEXT = "Mamba-2 all-to-all per micro-batch (z, x, B, C, dt to a head split and y back, "
            + MAMBA_CP_A2A + " a layer forward and backward: ((3·d_inner + heads)/tp + 2·max(G/tp, cp)·N) = ",
            MAMBA_CP_TEXT_END = " elements per token per layer, over the " + MAMBA_CP_A2A + "; MambaContextParallel)",
            GDN_CP_TEXT = "gated delta net all-to-all per micro-batch (q, k, v, z, beta, alpha to a head split"
            + " and the gated norm's output back, " + GDN_CP_A2A + " a layer forward and backward: (2·qk + 3·v +"
            + " 2·value heads)/tp = ",
            GDN_CP_TEXT_END = " elements per token per layer, over the " + GDN_CP_A2A + "; tensor_a2a_cp2hp, tensor_a2a_hp2cp)";

    double cpExchangeSeconds(Comm c, Layout l, double layersPerStage, double tokens, double bytes) {
        if (l.cp() <= 1) return 0;
        double passes = 2 + Checkpointing.fullShare(l, layersPerStage), s = 0;
        if (mamba > 0) {
            double n = passes * MAMBA_CP_A2A * layersPerStage * mamba / layers();
            s += c.collective(ParallelDim.CP, l.cp(), n, tokens * mambaCpElementsPerToken(l.tp(), l.cp()) * bytes / MAMBA_CP_A2A,
                    Collective.ALL_TO_ALL, MAMBA_CP_TEXT.concat(Units.whole(mambaCpElementsPerToken(l.tp(), l.cp()))).concat(MAMBA_CP_TEXT_END));
        }
        int g = gdnLayers();
        if (g > 0) {
            double n = passes * GDN_CP_A2A * layersPerStage * g / layers();
            s += c.collective(ParallelDim.CP, l.cp(), n, tokens * gdnCpElementsPerToken(l.tp()) * bytes / GDN_CP_A2A,
                    Collective.ALL_TO_ALL, GDN_CP_TEXT.concat(Units.whole(gdnCpElementsPerToken(l.tp()))).concat(GDN_CP_TEXT_END));
        }
        return s;
    }

    /**
     * The assumptions line of context parallelism over the hybrid's mixers (null: cp 1 or no M or G layer). Megatron-Core runs
     * each Mamba-2 and gated delta net layer's conv1d and scan on a split of its heads: its forward all-to-alls in_proj's
     * output from the sequence split to the head split (each cp rank the whole sequence of (heads ÷ tp) ÷ cp heads, its conv1d
     * weights, A_log and dt_bias sliced to them) and the scan's output back before out_proj (mamba_context_parallel.py at
     * 00caa53a; gated_delta_net.py at e867835174aecbc95c2e8e1b1d61b68e05f2c061, {@code tensor_a2a_cp2hp} and
     * {@code tensor_a2a_hp2cp}; an older GatedDeltaNet, at 00caa53a, "TODO: support CP", ran each rank's chunk from a zero
     * state). Priced: every layer's GEMMs, bytes and activations at the tokens ÷ cp every layer is priced at (the head split
     * moves the same bytes per GPU), and the all-to-alls as {@link #cpExchangeSeconds} prices them, exposed.
     */
    public String contextParallel(long cp) {
        int g = gdnLayers();
        if (cp <= 1 || mamba + g == 0) return null;
        String kinds = mamba > 0 && g > 0 ? mamba + " Mamba-2 and " + g + " gated delta net layers"
                : mamba > 0 ? mamba + " Mamba-2 layers" : g + " gated delta net layers";
        return "context parallelism (cp " + cp + ") over the " + kinds + ": Megatron-Core all-to-alls each one's in_proj output from"
                + " the sequence split to a split of its heads (each cp rank the whole sequence for 1/" + cp + " of the tp rank's heads)"
                + " and the scan's output back before out_proj; priced as each GPU's tokens ÷ cp (the same GEMMs, scan bytes and"
                + " activations per GPU) and the all-to-alls in the cp term (" + (mamba > 0 ? MAMBA_CP_A2A + " a Mamba-2 layer" : "")
                + (mamba > 0 && g > 0 ? ", " : "") + (g > 0 ? GDN_CP_A2A + " a gated delta net layer" : "") + " forward, as many"
                + " backward), exposed: the mixer waits on each (docs/plan.md, hybrid Mamba models)";
    }

    /** " and 23 MoE (...)" of {@link #describe}, empty without E layers. */
    private String moePart(ModelShape m) {
        return moe == 0 ? "" : String.format(Locale.ROOT, " and %d MoE (%d experts, top %d, expert width %d%s: priced as MoE layers, MoeCost)",
                moe, m.experts(), m.topK(), m.ffn(), experts.sharedFfn() > 0 ? ", shared experts " + experts.sharedFfn() : "");
    }

    /**
     * The hybrid layers a job states ({@code model.hybrid}: the pattern and the mixer's sizes, from a hybrid catalog entry, a
     * NemotronH config.json, a Megatron script's --is-hybrid-model flags or the native manifest), or null: none stated, a
     * pattern with multi-latent attention, with MoE layers but no experts stated (or experts but no MoE layer), or a pattern
     * whose length is not the model's layers (each said in {@code as}). {@code experts} is the job's MoE shape
     * ({@link MoeShape#of}: its MoE layers the pattern's E layers), null for a dense model.
     */
    public static MambaLayers of(Specs.Hybrid h, ModelShape m, MoeShape experts, List<String> as) {
        if (h == null || h.pattern() == null || h.pattern().value() == null) return null;
        String p = h.pattern().value();
        // where the pattern's G layers stand (the decoder holds them as M): each priced as a gated delta net, each M as Mamba-2
        if (h.gdnPattern() != null && h.gdnPattern().length() == p.length()) p = h.gdnPattern();
        // (at most HybridPattern.MAX_CHARS letters: each count an int)
        int mm = (int) HybridPattern.count(p, 'M'), at = (int) HybridPattern.count(p, '*'), ml = (int) HybridPattern.count(p, '-'),
                moe = (int) HybridPattern.count(p, 'E'), gd = (int) HybridPattern.count(p, 'G');
        if (m.mla() != null) {
            as.add("hybrid layer pattern with multi-latent attention: not priced by kind; every layer is priced as a transformer layer"
                    + " (attention + MLP or MoE), its Mamba-2 layers included, so time and memory are overstated for them");
            return null;
        }
        if (mm + at + ml + moe + gd != p.length() || p.length() != m.layers()) {
            as.add("hybrid layer pattern of " + p.length() + " layers where the model has " + m.layers()
                    + ": not priced by kind; every layer is priced as a transformer layer");
            return null;
        }
        boolean routed = m.experts() > 1 && experts != null;
        if ((moe > 0) != routed || (routed && !experts.hybrid())) {
            as.add("hybrid layer pattern with " + (moe > 0 ? moe + " MoE layers but no experts stated (model.experts)"
                    : "no MoE layer but " + m.experts() + " experts stated") + ": not priced by kind; every layer is priced as a"
                    + " transformer layer (attention + MLP or MoE), its Mamba-2 layers included, so time and memory are overstated for them");
            return null;
        }
        long heads = v(h.heads()), headDim = v(h.headDim()), state = v(h.state()), groups = v(h.groups()), conv = v(h.conv());
        // the G layers' sizes: the --linear-* written, each other one TransformerConfig's default (said)
        Gdn g = gd == 0 ? null : gdn(h.gdn() != null ? h.gdn() : new Specs.Gdn(null, null, null, null, null), as);
        if (mm == 0 && gd > 0) {
            // no Mamba-2 layer: no Mamba-2 size is used (the mixers are gated delta nets)
            MambaLayers r = new MambaLayers(mm, at, ml, moe, 1, 1, 1, 1, 1, new LayerPattern(p), moe > 0 ? experts : null, g);
            as.add(r.describe(m));
            return r;
        }
        if (state <= 0) { state = 128; as.add("Mamba state size not given: 128 (Megatron-LM's --mamba-state-dim default)"); }
        if (headDim <= 0) { headDim = DEFAULT_HEAD_DIM; as.add("Mamba head dimension not given: 64 (Megatron-LM's --mamba-head-dim default)"); }
        if (groups <= 0) { groups = DEFAULT_GROUPS; as.add("Mamba groups not given: 8 (Megatron-LM's --mamba-num-groups default)"); }
        if (heads <= 0) {
            heads = defaultHeads(m.hidden(), headDim);
            as.add("Mamba heads not given: " + heads + " (MambaMixer's d_inner = 2 × hidden ÷ the head dimension)");
        }
        if (conv <= 0) { conv = 4; as.add("Mamba conv1d width not given: 4 (MambaMixer's d_conv default)"); }
        MambaLayers r = new MambaLayers(mm, at, ml, moe, heads, headDim, state, groups, conv, new LayerPattern(p), moe > 0 ? experts : null,
                g);
        as.add(r.describe(m));
        return r;
    }

    /**
     * Megatron-Core's TransformerConfig defaults for a gated delta net's sizes (megatron/core/transformer/transformer_config.py at
     * 002526d81b81f6ab534e93844f9a228709887494, the {@code --linear-*} flags megatron/training/arguments.py builds from it through
     * ArgumentGroupFactory): {key heads, value heads, key head dim, value head dim, conv}.
     */
    public static final long[] GDN_DEFAULTS = {16, 32, 128, 128, 4};

    /** The GDN sizes a job states, each one not given Megatron-Core's default ({@link #GDN_DEFAULTS}), said in {@code as}. */
    private static Gdn gdn(Specs.Gdn g, List<String> as) {
        long[] n = {v(g.keyHeads()), v(g.valueHeads()), v(g.keyHeadDim()), v(g.valueHeadDim()), v(g.conv())};
        String[] flag = {"--linear-num-key-heads", "--linear-num-value-heads", "--linear-key-head-dim", "--linear-value-head-dim",
                "--linear-conv-kernel-dim"};
        for (int i = 0; i < n.length; i++) {
            if (n[i] > 0) continue;
            n[i] = GDN_DEFAULTS[i];
            as.add("gated delta net " + flag[i] + " not given: " + n[i] + " (Megatron-Core TransformerConfig's default)");
        }
        return new Gdn(n[0], n[1], n[2], n[3], n[4]);
    }

    /** Megatron-LM's {@code --mamba-head-dim} default (megatron/training/arguments.py). */
    public static final long DEFAULT_HEAD_DIM = 64;
    /** Megatron-LM's {@code --mamba-num-groups} default (megatron/training/arguments.py). */
    public static final long DEFAULT_GROUPS = 8;

    /**
     * The mixer's heads when {@code mamba_num_heads} is not given: MambaMixer's d_inner = expand 2 × hidden, divided by the
     * head dimension (megatron/core/ssm/mamba_mixer.py: {@code self.nheads = self.d_inner // self.headdim}); at least 1.
     */
    public static long defaultHeads(long hidden, long headDim) {
        return Math.max(1, 2 * hidden / headDim);
    }

    private static long v(Located<Long> x) {
        return x == null || x.value() == null ? 0 : x.value();
    }
}
