package dev.gpulint.derive.estimate;

import dev.gpulint.derive.estimate.Layout.Recompute;
import java.util.ArrayList;
import java.util.List;

/**
 * Memory per GPU on each pipeline stage (../spec/PLAN.md): weights, gradients and optimizer states of the stage's
 * share of the parameters, by the job's {@link StateBytes} accounting, and the activations of its in-flight
 * micro-batches. For Megatron-style bf16 jobs (ZeRO stage 0, with or without the distributed optimizer) the first
 * stage equals Megatron-LM's theoretical_memory_usage.py: 18 bytes per parameter, 6 + 12/dp with the distributed
 * optimizer; activations per Korthikanti et al. 2022 Table 2 as that file writes them.
 */
public final class MemoryModel {
    private MemoryModel() {}

    /** One stage's bytes per GPU. */
    public record Stage(int stage, double weights, double gradients, double optimizer, double activations, double parameters) {
        public double total() { return weights + gradients + optimizer + activations; }
    }

    /**
     * Parameters on one GPU of stage {@code i}: its layers (L/pp, or as the layout's {@link PipelineSplit} gives
     * them; Megatron's count, LayerNorms and the final one included) ÷ tp, the routed experts' MLPs ÷ etp·ep instead
     * ({@link MoeShape.ExpertShare}); the embedding ÷ tp on the first stage, and the output layer on
     * the last (its own matrix when untied; a copy of the embedding when tied and pp > 1).
     */
    public static double stageParameters(ModelShape m, Layout l, int i) {
        double[] p = stageSplit(m, l, i);
        return p[0] + p[1];
    }

    /** {@link #stageParameters} split as {shared, expert}: the routed experts' MLPs ÷ etp·ep ({@link MoeShape.ExpertShare}). */
    static double[] stageSplit(ModelShape m, Layout l, int i) {
        return stageSplit(m, l, i, Variants.of(m));
    }

    /**
     * With the MoE layers as stated ({@link MoeShape}): the routed experts only on the MoE layers, each MoE layer's shared
     * experts (replicated over ep, ÷ tp like the attention) and the dense layers' own MLP counted with the shared parameters.
     */
    static double[] stageSplit(ModelShape m, Layout l, int i, Variants v) {
        return new Params(m, l, v).split(i);
    }

    /**
     * What {@link #stageSplit} reads of a layout whatever the stage: the layers' shared parameters ÷ tp and the routed
     * experts' ÷ etp·ep ({@link MoeShape.ExpertShare}) over the whole model, and the embedding ÷ tp; a stage takes its layers' share of the first two.
     * A hybrid Mamba model's stages are each their own slice of the pattern ({@link Params#hybridLayers}).
     */
    private static final class Params {
        private final ModelShape m;
        private final Layout l;
        private final MambaLayers hybrid;
        private final MtpLayers mtp;
        private final double shared, expert, emb, expertDivisor;
        private final double mtpShared, mtpExpert;      // one MTP block's parameters per GPU at its kind, {shared, routed experts}
        private final double denseShared;               // a transformer MoE model's dense block's parameters per GPU (its MTP blocks of that kind)
        private final double[] mtpMoe, mtpDense;        // each rank's MTP blocks by kind, {MoE, dense} (MtpLayers.kindBlocks); null: by mtpShared
        private final double lastShared, lastExpert;    // the decoder's last block's parameters per GPU, {shared, routed experts}
        private final double[] perKind, kinds;          // a hybrid's: one layer's parameters of each kind, and a stage's layers of each
        private final double[] mtpOwn;                  // each rank's MTP layers' eh_proj and norms (MtpLayers.ownParameters)
        private final boolean[] mtpCopy;                // each rank's MTP stage builds a word embedding of its own (MtpLayers.embeddingCopies)
        private final int[] lossOutputs;                // each rank's mtp_loss_split output layers before the last (MtpLayers.lossOutputLayers)
        private double sharedPart, expertPart;          // the stage last filled

        Params(ModelShape m, Layout l, Variants v) {
            this.m = m;
            this.l = l;
            this.hybrid = v.mamba();
            this.mtp = v.mtp();
            this.emb = m.embeddingParameters() / l.tp();
            this.expertDivisor = expertShare(l, v).divisor();
            int ranks = Math.max(1, l.pp());
            this.mtpOwn = new double[ranks];
            this.mtpCopy = mtp.embeddingCopies(m, l);
            this.lossOutputs = mtp.lossOutputLayers(m, l);
            if (mtp.any()) {
                int[] onRank = mtp.perRank(m, l);
                double perLayer = mtp.ownParametersPerLayer(m, l);
                for (int r = 0; r < ranks; r++) mtpOwn[r] = onRank[r] * perLayer;
            }
            if (hybrid != null) {
                this.shared = 0;
                this.expert = 0;
                this.perKind = hybrid.perKind(m);
                this.kinds = new double[5];
                // an MTP block by its group's letters (MtpLayers), else the pattern's mean layer
                double[] g = hybrid.asPriced(mtp.groupKinds());
                int blocks = mtp.blocks();
                double moe = hybrid.moe();
                this.mtpShared = g != null ? (MambaLayers.kindParameters(perKind, g[0], g[1], g[2], g[3], g[4]) + hybrid.sharedExperts(m, g[3])) / blocks / l.tp()
                        : (hybrid.meanLayerParameters(m) + hybrid.sharedExperts(m, moe) / hybrid.layers()) / l.tp();
                this.mtpExpert = (g != null ? hybrid.routedExperts(m, g[3]) / blocks : hybrid.routedExperts(m, moe) / hybrid.layers()) / expertDivisor;
                this.lastShared = 0;            // not a torchtitan model: no block prefetched (prefetchedAtPeak)
                this.lastExpert = 0;
                this.denseShared = 0;
                this.mtpMoe = null;
                this.mtpDense = null;
                return;
            }
            this.perKind = null;
            this.kinds = null;
            MoeShape s = m.experts() > 1 ? v.moe() : null;
            int moeLayers = s != null ? s.moeLayers() : m.layers();
            double gate = m.gatedMlp() ? 3.0 : 2.0;
            double expertMlp = m.experts() > 1 ? (double) moeLayers * m.experts() * m.mlpParameters() : 0;
            double dense = m.transformerParameters() - (m.experts() > 1 ? (double) m.layers() * m.experts() * m.mlpParameters() : 0);
            if (s != null) dense += moeLayers * gate * m.hidden() * s.sharedFfn() + s.denseLayers(m) * gate * m.hidden() * s.denseFfn();
            this.shared = dense / l.tp();
            this.expert = expertMlp / expertDivisor;
            // the decoder's last block at its kind: an MoE layer's attention, norms, shared experts and routed experts, or a dense
            // layer's attention, norms and MLP (MoE models with dense first layers, torchtitan's deepseek_v3 n_dense_layers, end
            // on an MoE layer); without MoE layers all blocks are alike. That
            // block is the one torchtitan's FSDP2 prefetches at the backward's start (prefetchedAtPeak). An MTP block is of the
            // kind Megatron-Core builds on its stage (MtpLayers.moeKindPerRank: the stage's last decoder layer's, an MoE layer
            // on a stage of none), each rank's blocks by kind (MtpLayers.kindBlocks)
            if (s == null) {
                this.lastShared = this.shared / m.layers();
                this.lastExpert = this.expert / m.layers();
                this.mtpShared = lastShared;
                this.mtpExpert = lastExpert;
                this.denseShared = lastShared;
                this.mtpMoe = null;
                this.mtpDense = null;
            } else {
                double base = (m.transformerParameters() - (double) m.layers() * m.experts() * m.mlpParameters()) / m.layers();
                this.mtpShared = (base + gate * m.hidden() * s.sharedFfn()) / l.tp();
                this.mtpExpert = m.experts() * m.mlpParameters() / expertDivisor;
                this.denseShared = (base + gate * m.hidden() * s.denseFfn()) / l.tp();
                boolean moeBlock = s.lastMoe();
                this.lastShared = moeBlock ? mtpShared : denseShared;
                this.lastExpert = moeBlock ? mtpExpert : 0;
                double[] byMoe = new double[ranks], byDense = new double[ranks];
                boolean known = mtp.any();
                for (int r = 0; r < ranks && known; r++) {
                    double[] k = mtp.kindBlocks(m, l, s, r);
                    known = k != null;
                    if (known) {
                        byMoe[r] = k[0];
                        byDense[r] = k[1];
                    }
                }
                this.mtpMoe = known ? byMoe : null;
                this.mtpDense = known ? byDense : null;
            }
        }

        /** Stage {@code i}'s parameters on one GPU, {shared, routed experts}: its layers', the embedding on the first, the output layer on the last. */
        double[] split(int i) {
            fill(i);
            return new double[] {sharedPart, expertPart};
        }

        /** {@link #split} into {@link #sharedPart} and {@link #expertPart}, no array made (a plan fills every stage of ~190,000 layouts). */
        void fill(int i) {
            if (hybrid != null) {
                hybridLayers(i);
            } else {
                // the stage's decoder layers: its split's, less a layout's m, each of which the split counts as one block
                double share = (stageLayers(m, l, i) - mtp.laidOutLayers(m, l, i)) / m.layers();
                sharedPart = shared * share;
                expertPart = expert * share;
            }
            // the MTP layers' blocks on their stage (the last unless a layout's m stands elsewhere), each at its kind (MtpLayers):
            // a hybrid's by the '/' group's letters (its stage prices its decoder slice alone, MambaLayers#onStage), a transformer
            // MoE model's as Megatron-Core builds them there (MtpLayers.kindBlocks), a model without experts the mean layer
            double blocks = mtp.stageBlocks(m, l, i);
            if (blocks > 0 && mtpMoe != null && i >= 0 && i < mtpMoe.length) {
                sharedPart += mtpMoe[i] * mtpShared + mtpDense[i] * denseShared;
                expertPart += mtpMoe[i] * mtpExpert;
            } else if (blocks > 0) {
                sharedPart += blocks * mtpShared;
                expertPart += blocks * mtpExpert;
            }
            // the MTP layers' eh_proj and norms on their stage, the last unless a layout's m stands elsewhere (MtpLayers; the
            // output layer is the model's; with mtp_split each rank its own layers')
            if (i >= 0 && i < mtpOwn.length) sharedPart += mtpOwn[i];
            if (i == 0) sharedPart += emb;
            if (i == l.pp() - 1 && (l.pp() > 1 || !m.tiedEmbeddings())) sharedPart += emb;
            // the MTP layers embed the next tokens on their stage: Megatron-Core's GPTModel (and MambaModel) builds the embedding
            // where pre_process or mtp_process, and the output layer keeps its own weight unless tied (gpt_model.py,
            // shared_embedding_or_output_weight: "there will be both embedding layer and output layer in the mtp process
            // stage"), so a last stage of pp > 1 with untied embeddings holds both, and a layout's m off the last stage builds
            // a copy there, tied or not, one on each rank holding MTP layers (MtpLayers.embeddingCopies)
            if (i >= 0 && i < mtpCopy.length && mtpCopy[i]) sharedPart += emb;
            // mtp_loss_split: each loss stage before the last builds an output layer of its own weight, V·h ÷ tp (MtpLayers)
            if (i >= 0 && i < lossOutputs.length) sharedPart += lossOutputs[i] * emb;
        }

        /**
         * The layers' part of {@link #split} for a hybrid Mamba model: the layers of each kind on the stage
         * ({@link MambaLayers#onStage}, the pattern's slice Megatron-Core builds there) ÷ tp, the final norm spread as the layers
         * are; its E layers' routed experts ÷ etp·ep instead and their shared experts ÷ tp (MambaLayers#expertParameters).
         */
        private void hybridLayers(int i) {
            hybrid.onStage(m, l, i, mtp, kinds);
            double share = (kinds[0] + kinds[1] + kinds[2] + kinds[3] + kinds[4]) / m.layers();     // the decoder's layers on the stage
            sharedPart = (MambaLayers.kindParameters(perKind, kinds[0], kinds[1], kinds[2], kinds[3], kinds[4]) + m.hidden() * share
                    + hybrid.sharedExperts(m, kinds[3])) / l.tp();
            expertPart = hybrid.routedExperts(m, kinds[3]) / expertDivisor;
        }
    }

    /** Transformer layers on stage {@code i}: L/pp, or as the layout's split sizes the stage. */
    public static double stageLayers(ModelShape m, Layout l, int i) {
        return l.split().layers(m.layers(), l.pp(), i);
    }

    /**
     * {@link #stageLayers} with the MTP layers' blocks: on the last stage unless a layout places them (its stages count them
     * already, {@link MtpLayers#extraBlocks}).
     */
    public static double stageLayers(ModelShape m, Layout l, int i, MtpLayers mtp) {
        return stageLayers(m, l, i) + mtp.extraBlocks(m, l, i);
    }

    /** The layers of stage {@code i} whose activations are offloaded to host memory: the layout's count, at most the stage's. */
    public static double offloadedLayers(ModelShape m, Layout l, int i) {
        return offloaded(l, stageLayers(m, l, i));
    }

    private static double offloaded(Layout l, double stageLayers) {
        return Math.min(l.offloadLayers(), stageLayers);
    }

    /**
     * Activation bytes stage {@code i} keeps in host memory at its peak (CPU activation offload): its offloaded layers'
     * activations for each micro-batch in flight, as {@link #activations} would have held them on the GPU.
     */
    public static double hostActivations(ModelShape m, Layout l, int i) {
        double offloaded = offloadedLayers(m, l, i);
        if (offloaded <= 0) return 0;
        double without = activations(m, l.withOffload(0), i), with = activations(m, l, i);
        return without - with + perLayerBytes(m, l);
    }

    /** Activation bytes one layer keeps for one micro-batch per GPU, as {@link #activations} counts them (selective or none). */
    static double perLayerBytes(ModelShape m, Layout l) {
        double s = (double) m.seq() / l.cp(), b = l.microBatchSize(), h = m.hidden(), t = l.tp();
        double[] parts = perLayer(m);
        double per = (l.sequenceParallel() || l.tp() == 1 ? (parts[0] + parts[1]) / t : parts[0] + parts[1] / t) * s * b * h;
        if (l.recompute() == Recompute.FULL) per = (l.sequenceParallel() || l.tp() == 1 ? 2 * s * b * h / t : 2 * s * b * h);
        return per * m.dtype().activationBytes() / 2.0;
    }

    /**
     * Every stage of a layout (first stage first), its parameters' states by {@code b} ({@link StateBytes}, the one
     * accounting): the shared parameters sharded over dp·cp, the routed experts' over the expert data-parallel ranks
     * tp·cp·dp ÷ (etp·ep) ({@link MoeShape.ExpertShare}).
     */
    public static List<Stage> stages(ModelShape m, Layout l, StateBytes b) {
        return stages(m, l, b, Variants.of(m));
    }

    /** {@link #stages} with the MoE layers as the job states them (dense layers, shared experts), less the states it offloads. */
    public static List<Stage> stages(ModelShape m, Layout l, StateBytes b, Variants v) {
        return sized(m, l, b, v).stages();
    }

    /**
     * A layout's {@link #stages} and its {@link #optimizerShard}, from one fill of each stage's parameters: the estimate asks
     * both of every valid layout a plan prices (the 1,024-GPU hybrid's ~64,000), and each filled every stage's parameters
     * (a hybrid's {@link MambaLayers#onStage} per stage) on its own. The same doubles as the two apart (MemoryModelTest).
     */
    public record Sized(List<Stage> stages, double optimizerShard) {}

    /** {@link Sized} of a layout: {@link #stages} and {@link #optimizerShard} in one pass over its stages. */
    public static Sized sized(ModelShape m, Layout l, StateBytes b, Variants v) {
        List<Stage> out = new ArrayList<>(Math.max(0, l.pp()));
        Stages at = new Stages(m, l, b, v);
        StateShards s = StateShards.of(l, v);
        double most = 0;
        for (int i = 0; i < l.pp(); i++) {
            out.add(at.stage(i));
            most = Math.max(most, optimizerShard(at.params, l, s));
        }
        return new Sized(out, most);
    }

    /**
     * The fullest stage of a layout: of {@link #stages}, the first with the most bytes per GPU ({@link Stage#total}), null
     * when there is none. The plan's search asks it of every layout (the 1,024-GPU hybrid's ~190,000): each stage is summed
     * from what the layout's stages share, computed once, and the fullest alone is made a {@link Stage}.
     */
    public static Stage fullest(ModelShape m, Layout l, StateBytes b, Variants v) {
        Stages at = new Stages(m, l, b, v);
        int best = -1;
        double most = 0;
        for (int i = 0; i < l.pp(); i++) {
            double total = at.total(i);
            if (best < 0 || total > most) {
                best = i;
                most = total;
            }
        }
        return best < 0 ? null : at.stage(best);
    }

    /**
     * The model states of every stage of a layout, per GPU, as {@link #stages} counts them (weights, gradients, optimizer
     * states and parameters; no activations). None of them depends on the layout's recompute: the plan's search takes them
     * once for the recompute choices of a layout it checks (three memory facts) and adds each choice's activations
     * ({@link #fullest(ModelShape, Layout, Variants, States)}).
     */
    public static final class States {
        private final double[] weights, gradients, optimizer, parameters;
        private double optimizerShard;          // {@link #optimizerShard}'s, the most of any stage (Sized)
        private double prefetched;              // {@link #prefetchedAtPeak}'s (a torchtitan job's last stage: Stages' lossOverlap)

        private States(int pp) {
            weights = new double[pp];
            gradients = new double[pp];
            optimizer = new double[pp];
            parameters = new double[pp];
        }
    }

    /** {@link States} of a layout: its stages' model states, the same doubles {@link #stages} gives them. */
    public static States states(ModelShape m, Layout l, StateBytes b, Variants v) {
        Stages at = new Stages(m, l, b, v, false);
        States s = new States(Math.max(0, l.pp()));
        // what sized(m, l, v, states) reads besides the stages' states, taken as sized(m, l, b, v) takes them: the block
        // prefetched (of the parameters as made, before any stage's fill, as Stages' constructor reads it) and the most
        // optimizer shard of any stage
        s.prefetched = prefetchedAtPeak(m, l, v, at.params);
        StateShards shards = StateShards.of(l, v);
        double most = 0;
        for (int i = 0; i < l.pp(); i++) {
            at.fillStates(i);
            s.weights[i] = at.weights;
            s.gradients[i] = at.gradients;
            s.optimizer[i] = at.optimizer;
            s.parameters[i] = at.parameters;
            most = Math.max(most, optimizerShard(at.params, l, shards));
        }
        s.optimizerShard = most;
        return s;
    }

    /**
     * {@link #sized(ModelShape, Layout, StateBytes, Variants)} from the layout's {@link States} (those of the same layout with
     * any recompute): each stage's states plus its activations for the layout's recompute, the last stage's less what the
     * loss frees before FSDP2's prefetched block is gathered, as {@link Stages} fills them, so the same stages and the same
     * doubles (MemoryModelTest holds them equal). The plan's search makes a layout's states once for its memory facts and
     * prices its valid layouts from them: the states are computed once per layout the rules check, not again per score.
     */
    public static Sized sized(ModelShape m, Layout l, Variants v, States s) {
        if (s.weights.length != Math.max(0, l.pp())) {
            throw new IllegalArgumentException("states of " + s.weights.length + " stages for a layout of pp " + l.pp());
        }
        Held held = new Held(m, l, v);
        double lossOverlap = Math.min(s.prefetched, held.freedBeforeOutputBackward());
        int last = l.pp() - 1;
        List<Stage> out = new ArrayList<>(Math.max(0, l.pp()));
        for (int i = 0; i < l.pp(); i++) {
            out.add(new Stage(i, s.weights[i], s.gradients[i], s.optimizer[i], held.at(i) - (i == last ? lossOverlap : 0),
                    s.parameters[i]));
        }
        return new Sized(out, s.optimizerShard);
    }

    /**
     * {@link #fullest(ModelShape, Layout, StateBytes, Variants)} from the layout's {@link States} (those of the same layout
     * with any recompute: they are the same): each stage's states plus its activations for the layout's recompute, summed
     * in {@link Stage#total}'s order, so the same stage and the same doubles (MemoryModelTest holds them equal).
     */
    public static Stage fullest(ModelShape m, Layout l, Variants v, States s) {
        if (s.weights.length != Math.max(0, l.pp())) {
            throw new IllegalArgumentException("states of " + s.weights.length + " stages for a layout of pp " + l.pp());
        }
        Held held = new Held(m, l, v);
        int best = -1;
        double most = 0, activations = 0;     // the fullest stage's, kept rather than computed again (Held.at is a function of i)
        for (int i = 0; i < l.pp(); i++) {
            double a = held.at(i), total = s.weights[i] + s.gradients[i] + s.optimizer[i] + a;
            if (best < 0 || total > most) {
                best = i;
                most = total;
                activations = a;
            }
        }
        return best < 0 ? null
                : new Stage(best, s.weights[best], s.gradients[best], s.optimizer[best], activations, s.parameters[best]);
    }

    /**
     * What every stage of a layout shares, computed once per layout: its parameters' states by {@code b} ({@link StateBytes},
     * the one accounting), the shared parameters sharded over dp·cp, the routed experts' over the expert data-parallel ranks
     * tp·cp·dp ÷ (etp·ep) ({@link MoeShape.ExpertShare}); {@link Params} and {@link Held}.
     */
    private static final class Stages {
        private final Params params;
        private final Held held;
        private final StateShards.Sharded sharded;
        private final double outputHeld;                // torchtitan's final norm + output unit and the block prefetched beside it (gatheredAtPeak)
        private final double lossOverlap;               // of the last stage's loss memory, what is freed before that block is gathered
        private final int last;
        private double weights, gradients, optimizer, activations, parameters;     // the stage last filled

        Stages(ModelShape m, Layout l, StateBytes b, Variants v) { this(m, l, b, v, true); }

        /** @param activations false: the model states alone ({@link #fillStates}; {@link #states}) */
        Stages(ModelShape m, Layout l, StateBytes b, Variants v, boolean activations) {
            b = v.offload().onGpu(b, l.zeroStage());                // what the job keeps in host memory is not the GPU's
            // hybrid sharding (HSDP): the shard group only; the one sharding MEM001/MEM002 use too (StateShards)
            // FSDP under pipeline parallelism holds weights and gradients whole through the step (ShardedGathers.pipelined)
            this.sharded = StateShards.of(l, v).held(b, l.zeroStage(), l.distributedOptimizer(), v.gathers().pipelined(l));
            // torchtitan at stage 3: its [norm, output] unit whole at the backward's start (TitanUnits.heldBytes)
            this.last = l.pp() - 1;
            this.params = new Params(m, l, v);
            this.outputHeld = gatheredAtPeak(m, l, v, params);
            this.held = activations ? new Held(m, l, v) : null;
            // the last block FSDP2 prefetches is gathered after the loss's backward has freed its fp32 working memory: the
            // stage's peak is the larger of the two moments, not both (Held#freedBeforeOutputBackward)
            this.lossOverlap = held == null ? 0 : Math.min(prefetchedAtPeak(m, l, v, params), held.freedBeforeOutputBackward());
        }

        /** Stage {@code i}'s weights, gradients, optimizer states, activations and parameters. */
        private void fill(int i) {
            fillStates(i);
            activations = held.at(i) - (i == last ? lossOverlap : 0);
        }

        /** Stage {@code i}'s weights, gradients, optimizer states and parameters: what does not depend on recompute. */
        private void fillStates(int i) {
            params.fill(i);
            double p0 = params.sharedPart, p1 = params.expertPart;
            weights = sharded.weights(p0, p1) + (i == last ? outputHeld : 0);
            gradients = sharded.gradients(p0, p1);
            optimizer = sharded.optimizer(p0, p1);
            parameters = p0 + p1;
        }

        Stage stage(int i) {
            fill(i);
            return new Stage(i, weights, gradients, optimizer, activations, parameters);
        }

        /** {@link Stage#total} of stage {@code i}, summed in its order. */
        double total(int i) {
            fill(i);
            return weights + gradients + optimizer + activations;
        }
    }

    /**
     * The bytes of torchtitan's FSDP2 units whole beside the sharded weights at the last stage's peak, the start of the
     * backward: the final norm + output unit ({@link TitanUnits#heldBytes}) and the last block FSDP2 prefetches while it runs
     * ({@link TitanUnits#prefetchedBytes}, the decoder's last block's parameters on one GPU); 0 for any other job (the last stage's
     * weights add it; MEM001's message names it, StageMemory#gatheredBytes).
     */
    public static double gatheredAtPeak(ModelShape m, Layout l, Variants v) {
        return gatheredAtPeak(m, l, v, new Params(m, l, v));
    }

    private static double gatheredAtPeak(ModelShape m, Layout l, Variants v, Params p) {
        TitanUnits t = v.gathers().titan();
        if (t == null) return 0;
        return TitanUnits.heldBytes(t, m, l, v.gathers().pipelined(l)) + prefetchedAtPeak(m, l, v, p);
    }

    /**
     * Of {@link #gatheredAtPeak}, the last block FSDP2 prefetches ({@link TitanUnits#prefetchedBytes}); 0 for any other job.
     * The block is the decoder's last at its kind ({@link Params#lastShared}, {@link Params#lastExpert}): an MoE flavor's
     * (deepseek_v3, llama4, qwen3's MoE) is an MoE layer whatever its dense first layers, so not a mean layer; under expert
     * parallelism its routed experts are an FSDP unit of their own that the output's backward does not prefetch
     * ({@link TitanUnits#prefetchedExperts}).
     */
    private static double prefetchedAtPeak(ModelShape m, Layout l, Variants v, Params p) {
        TitanUnits t = v.gathers().titan();
        if (t == null || p.hybrid != null || m.layers() <= 0) return 0;
        double layer = p.lastShared + (TitanUnits.prefetchedExperts(l) ? p.lastExpert : 0);
        return TitanUnits.prefetchedBytes(t, l, v.gathers().pipelined(l), layer);
    }

    /** The routed experts' share of one GPU ({@link StateShards}: the job's MoE shape's etp; without one, expert tp = tp). */
    private static MoeShape.ExpertShare expertShare(Layout l, Variants v) {
        return StateShards.of(l, v).experts();
    }

    /**
     * Parameters whose optimizer states one GPU of the layout's fullest stage holds and updates in the optimizer step (the
     * largest over its stages, first stage first): sharded (ZeRO stage 1 and up, the distributed optimizer) a stage's shared
     * parameters ÷ dp·cp and its routed experts ÷ the expert data-parallel ranks ({@link StateShards}), as {@link #stages}
     * counts their optimizer bytes; else all of them. One {@link Params} and one set of shard ranks for every stage (the
     * estimate asks it of each valid layout a plan prices). Megatron-Core's distributed optimizer shards the expert
     * parameters over the expert data-parallel group (github.com/NVIDIA/Megatron-LM, megatron/core/optimizer/__init__.py,
     * get_megatron_optimizer: the {@code moe_param_groups}' optimizer is built with {@code data_parallel_group=intra_expt_dp_group},
     * the dense ones' with {@code intra_dp_cp_group}).
     */
    public static double optimizerShard(ModelShape m, Layout l, Variants v) {
        Params p = new Params(m, l, v);
        StateShards s = StateShards.of(l, v);
        double most = 0;
        for (int i = 0; i < l.pp(); i++) {
            p.fill(i);
            most = Math.max(most, optimizerShard(p, l, s));
        }
        return most;
    }

    /** {@link #optimizerShard} of the stage {@code p} holds filled. */
    private static double optimizerShard(Params p, Layout l, StateShards s) {
        return StateBytes.optimizerShard(p.sharedPart, l.zeroStage(), l.distributedOptimizer(), s.ranks())
                + StateBytes.optimizerShard(p.expertPart, l.zeroStage(), l.distributedOptimizer(), s.experts().ranks());
    }

    /**
     * Activations held by stage {@code i} at its peak, in bytes per GPU. Per layer and micro-batch (s = seq ÷ cp,
     * b = micro batch, flash attention, so no 5·a·s/h score term): {@link #perLayer} ÷ t with sequence parallelism,
     * its non-sequence-parallel part whole without it; with full recompute 2·s·b·h(/t with SP) per layer plus one
     * layer's worth while it is recomputed (one layer in n: that share of the layers so, the others whole; torchtitan's
     * op-level selective policy: what {@link Checkpointing} counts it keeps). Stage i holds min(m, pp − i) micro-batches
     * of its L_i layers (L/pp, or as the layout's {@link PipelineSplit} sizes it) under
     * 1F1B; interleaving multiplies by 1 + (pp − 1)/(pp·vpp). The first stage adds the embedding's input and
     * dropout (8·s·b + s·b·h per in-flight micro-batch); the stage that computes the loss, the last (at pp 1 the only one),
     * its output layer's input and the logits' working memory ({@link #lossBytes}).
     */
    public static double activations(ModelShape m, Layout l, int i) {
        return activations(m, l, i, Variants.of(m));
    }

    /**
     * {@link #activations} with the job's variants: selective recompute by module keeps less per layer, and one layer's
     * recomputed part while it runs backward ({@link RecomputeModules#savedBytes}).
     */
    public static double activations(ModelShape m, Layout l, int i, Variants v) {
        return new Held(m, l, v).at(i);
    }

    /** What {@link #activations} reads of a layout whatever the stage, computed once for all its stages. */
    private static final class Held {
        private final ModelShape m;
        private final Layout l;
        private final Variants v;
        private final double sbh, scale, t, perLayer, penalty, emb;
        private final long pp, mb;
        private final int[] earlyLosses;            // mtp_loss_split's losses before the last stage, per rank (MtpLayers)
        private final int lastLosses;               // the losses the last stage computes: the main one and its MTP layers' (MtpLayers)
        private double kept = Double.NaN, input = Double.NaN, dropped = Double.NaN;

        Held(ModelShape m, Layout l, Variants v) {
            this.m = m;
            this.l = l;
            this.v = v;
            double s = (double) m.seq() / l.cp(), b = l.microBatchSize(), h = m.hidden();
            t = l.tp();
            sbh = s * b * h;
            scale = m.dtype().activationBytes() / 2.0;
            double[] parts = v.mamba() != null ? v.mamba().meanActivationParts(m) : perLayer(m);   // a hybrid's mean layer (MambaLayers)
            perLayer = (l.sequenceParallel() || l.tp() == 1 ? (parts[0] + parts[1]) / t : parts[0] + parts[1] / t) * sbh;
            pp = l.pp();
            mb = l.scheduleMicroBatches() > 0 ? l.scheduleMicroBatches() : pp;     // in flight: one schedule's (Layout.schedule)
            penalty = l.virtualPp() > 1 && pp > 1 ? 1 + (pp - 1.0) / (pp * l.virtualPp()) : 1;
            // the first stage: the embedding's input and dropout per in-flight micro-batch
            emb = (8 * s * b + sbh) * (l.virtualPp() > 1 && pp > 1 ? pp * penalty : Math.min(mb, pp)) / t;
            lastLosses = 1 + v.mtp().lastStageLosses(m, l);
            earlyLosses = v.mtp().earlyLossesPerRank(m, l);
        }

        /**
         * Of the last stage's loss memory ({@link #lossBytes}), what the loss's backward has freed by the time the output
         * layer's backward starts, in bytes per GPU: {@link #lossBytes} less {@link #heldAtOutputBackward}, for every kernel.
         * FSDP2 prefetches the last block in the output unit's pre-backward hook, which fires on the logits' gradient, after
         * the loss's autograd nodes ran and released what they saved (FSDPState._register_pre_backward_hook,
         * FSDPParamGroup.pre_backward → _backward_prefetch, pytorch/pytorch torch/distributed/fsdp/_fully_shard/_fsdp_state.py
         * and _fsdp_param_group.py; torchtitan's train step deletes the logits before loss.backward(), torchtitan/train.py),
         * so the block and this memory are never whole together. Only a torchtitan job has the prefetched block
         * ({@link #prefetchedAtPeak}): its eager loss ({@link LossKernel#TORCH}, {@link LossKernel#TORCH_REPLICATED}) frees its
         * fp32 log-softmax and its backward's fp32 temporaries, its compiled one ({@link LossKernel#NATIVE},
         * {@link LossKernel#COMPILED_REPLICATED}, priced as Megatron's) the fp32 softmax and the 16-bit logits' upcast, each
         * keeping the logits' gradient in the activations' dtype; a Megatron-only kernel frees nothing ({@link LossKernel#TE}
         * writes the gradient into the logits it kept, {@link LossKernel#LINEAR}'s backward is the output layer's).
         */
        double freedBeforeOutputBackward() {
            return lossBytes(m, l, lastLosses, v.loss()) - heldAtOutputBackward(m, l, lastLosses, v.loss());
        }

        /**
         * What one MTP block on pipeline rank {@code i} keeps per micro-batch without full recompute, in {@link #perLayer}'s
         * units: its kind's, as Megatron-Core builds it there ({@link MtpLayers#kindBlocks}), not the decoder's mean layer. A
         * hybrid's by its '/' group's letters ({@link MambaLayers#kindActivationParts}: `*E` an attention-only and an MoE
         * layer's, not the pattern's mostly Mamba-2 mean); a transformer MoE model's, whose layers keep one shape
         * ({@link MemoryModel#perLayer}), less what selective recompute by module drops from its kind
         * ({@link RecomputeModules#savedBytes}: moe_act and layernorm from an MoE layer, mlp from a dense one), not the share of
         * the model's MoE layers; a dense model's, and a hybrid's without a group, the mean layer.
         */
        private double mtpBlockKept(int i) {
            double mean = perLayer - dropped;
            MambaLayers hy = v.mamba();
            if (hy != null) {
                double[] g = hy.asPriced(v.mtp().groupKinds());
                if (g == null) return mean;
                double[] parts = hy.kindActivationParts(m, g[0], g[1], g[2], g[3], g[4], v.mtp().blocks());
                return (l.sequenceParallel() || l.tp() == 1 ? (parts[0] + parts[1]) / t : parts[0] + parts[1] / t) * sbh - dropped;
            }
            MoeShape s = m.experts() > 1 ? v.moe() : null;
            double[] k = s == null ? null : v.mtp().kindBlocks(m, l, s, i);
            if (k == null || k[0] + k[1] <= 0) return mean;
            RecomputeModules r = v.recomputeModules();
            double kindDropped = (k[0] * r.savedBytes(m, l, 1.0) + k[1] * r.savedBytes(m, l, 0.0)) / (k[0] + k[1]) / scale;
            return perLayer - kindDropped;
        }

        /** Stage {@code i}'s activations at its peak, in bytes per GPU. */
        double at(int i) {
            double layersHeld;
            double inflight;
            if (l.virtualPp() > 1 && pp > 1) {
                // Megatron's interleaved 1F1B: stage i runs (pp − i − 1)·2 + (vpp − 1)·pp warm-up forwards of one model
                // chunk (L/(pp·vpp) layers) and one more before its first backward, at most m·vpp in all; for the first
                // stage that is pp·(1 + (pp − 1)/(pp·vpp)) micro-batches' worth of its L/pp layers
                long vpp = l.virtualPp();
                double chunks = Math.min((pp - i - 1) * 2.0 + (vpp - 1.0) * pp + 1, (double) mb * vpp);
                inflight = chunks / vpp;
            } else {
                inflight = Math.min(mb, pp - i);
            }
            double stageLayers = stageLayers(m, l, i, v.mtp()), offloaded = offloaded(l, stageLayers);
            // CPU activation offload: the offloaded layers' activations live in host memory; the GPU keeps one layer's worth
            // while it is copied out (forward) or back (backward)
            layersHeld = (stageLayers - offloaded) * inflight + (offloaded > 0 ? 1 : 0);
            double act;
            double full = Checkpointing.fullShare(l, stageLayers);
            if (l.recompute() == Recompute.OP) {
                // torchtitan's op-level SAC (Checkpointing): what its policy saves, and one layer's recomputed rest in backward
                if (Double.isNaN(kept)) {
                    double[] op = Checkpointing.opPerLayer(m, l);
                    kept = (op[0] / t + op[1]) * sbh;
                }
                act = kept * layersHeld + Math.max(0, perLayer - kept);
            } else if (full > 0) {
                if (Double.isNaN(input)) input = (l.sequenceParallel() || l.tp() == 1 ? 2 * sbh / t : 2 * sbh);
                act = (full * input + (1 - full) * perLayer) * layersHeld + perLayer;
            } else {
                // selective recompute by module (RecomputeModules): what the modules drop, and one layer's worth held again
                if (Double.isNaN(dropped)) dropped = v.recomputeModules().savedBytes(m, l, v.moe()) / scale;
                act = (perLayer - dropped) * layersHeld + dropped;
                // the stage's MTP blocks keep their kind's activations, not the mean layer's (mtpBlockKept); the decoder's layers
                // before them are offloaded first
                double mtpHeld = Math.min(v.mtp().stageBlocks(m, l, i), stageLayers - offloaded) * inflight;
                if (mtpHeld > 0) act += (mtpBlockKept(i) - (perLayer - dropped)) * mtpHeld;
            }
            if (i == 0) act += emb;
            // after the layout's m (Megatron-Core's mtp_standalone): the received (1 + D)·s rows, kept per in-flight micro-batch
            act += v.mtp().receivedHeld(m, l, i, l.sequenceParallel() || l.tp() == 1 ? sbh / t : sbh, inflight);
            // the losses this stage computes, each its output layer's input and logits (lossBytes): the last stage's (the main
            // loss and the MTP losses it computes) for its one micro-batch at a time, at any pp; mtp_loss_split's earlier loss
            // stages' until the micro-batch's backward reaches them (MTPLossAutoScaler), so for each micro-batch in flight
            double mtpLosses = (i == pp - 1 ? lastLosses - 1 : 0) + (i < earlyLosses.length ? earlyLosses[i] * inflight : 0);
            // attention outside a flash kernel keeps its s² scores' softmax, dropout mask and output (UnfusedAttention)
            return act * scale + lossBytes(m, l, i == pp - 1 ? 1 : 0, mtpLosses, v.loss())
                    + UnfusedAttention.heldBytes(m, l, v, layersHeld, stageLayers);
        }
    }

    /**
     * What a pipeline stage holds per GPU for {@code losses} losses it computes (0: none), each one micro-batch's, in bytes:
     * <ul>
     * <li>each loss's output-layer input and the final norm's input, 2 + 2 bytes per s·b·h in the activations' dtype, and
     *     the logits' softmax the cross-entropy saves for its backward in fp32, 4·s·b·V: Megatron-LM's
     *     theoretical_memory_usage.py term {@code s·b·h·4·(1 + V/h)} (which it counts only {@code if
     *     pipeline_model_parallel_size == 1}: it reports the first stage; gpulint prices every stage, so the last holds it);
     * <li>once, while a loss runs: the output layer's 16-bit logits beside their fp32 copy, 2·s·b·V. The output layer writes
     *     the logits in the activations' dtype; vocab_parallel_cross_entropy upcasts them ({@code vocab_parallel_logits.float()},
     *     VocabParallelCrossEntropy.calculate_logits_max), works in place on the copy and saves it as the softmax
     *     ({@code ctx.save_for_backward(exp_logits, ...)}), so the 16-bit logits live beside it until the loss returns; the
     *     backward turns the softmax into the gradient in place and hands the output layer a 16-bit copy, the same 2 + 4 bytes
     *     (github.com/NVIDIA/Megatron-LM, megatron/core/tensor_parallel/cross_entropy.py at
     *     00611e6eeb0b09b5ee074750956855215ddbd67f, the unfused loss, Megatron's default: model_parallel_config.py's
     *     {@code cross_entropy_loss_fusion = False}; the fused one, megatron/core/fusions/fused_cross_entropy.py at
     *     d086a2e3b020ff78db9d29915f7cfe886e085f13, calls the same calculate_logits_max, saves the same fp32 softmax and
     *     returns {@code grad_input.to(torch.bfloat16)}). fp32 activations: the logits are fp32 already ({@code .float()}
     *     returns them), no copy.
     * </ul>
     * The vocabulary's terms ÷ tp (the output layer is column-parallel: each rank's logits are V ÷ tp wide), s the sequence ÷
     * cp. The inputs' 2 + 2 bytes per s·b·h ÷ tp only with sequence parallelism (or at tp 1): the final norm then runs on the
     * rank's s ÷ tp rows and the output layer's LinearWithGradAccumulationAndAsyncCommunication saves its input before the
     * all-gather ({@code ctx.save_for_backward(input, weight)}, gathering again in backward; megatron/core/tensor_parallel/
     * layers.py); without it both are the whole s·b·h on every rank of the tp group, replicated, as the layers' LayerNorm
     * inputs are ({@link #perLayer}'s replicated part). theoretical_memory_usage.py divides its whole term by tp "due to
     * tensor and sequence model parallelism": its report says its formulae assume sequence parallelism. The
     * last stage computes its losses one micro-batch at a time under 1F1B and interleaving alike: its warm-up is pp − 1 − rank
     * = 0 forwards (interleaved, (vpp − 1)·pp forwards of its earlier chunks), so each forward of its last chunk is followed by
     * that micro-batch's backward (schedules.py at 00611e6eeb0b09b5ee074750956855215ddbd67f,
     * forward_backward_pipelining_without_interleaving / _with_interleaving, get_model_chunk_id).
     * <p>
     * The fused linear cross-entropy ({@link LossKernel#LINEAR}, cross_entropy_fusion_impl linear) never makes the logits: per
     * loss the final norm's input as above, the hidden states it all-gathers and saves whole on every tp rank, bytes·s·b·h, and
     * two fp32 statistics a row, 8·s·b; once the larger of the backward's one split of the logits' gradient, bytes·s·b·3,072,
     * with the output weight's gradient it allocates whole, bytes·(V ÷ tp)·h ({@code d_weight = torch.empty_like(weight)},
     * handed to autograd: the native output layer's gradient-accumulation fusion writes main_grad instead), and the forward's
     * per-split fp32 maximum and sum (and their clone under tp), (12 or 8)·s·b·⌈V ÷ tp ÷ 3,072⌉
     * ({@link LossKernel#LINEAR_SPLIT}). Its backward's hidden-state gradient is the output layer's, which the native loss does
     * not count either.
     * <p>
     * Transformer Engine's cross-entropy ({@link LossKernel#TE}) keeps the logits themselves, in the activations' dtype, and
     * makes no fp32 copy: per loss the same inputs and bytes·s·b·V ÷ tp (with 16-bit activations and sequence parallelism
     * (4·s·b·h + 2·s·b·V) ÷ tp), nothing once;
     * with fp32 activations the same 4·s·b·V as the native loss.
     */
    static double lossBytes(ModelShape m, Layout l, double losses, LossKernel kernel) {
        return lossBytes(m, l, Math.min(1, Math.max(0, losses)), Math.max(0, losses - 1), kernel);
    }

    /**
     * {@link #lossBytes} for a stage computing {@code main} main losses (1 on the last stage, 0 elsewhere) and {@code mtp} MTP
     * losses (the last stage's depths, and an mtp_loss_split stage's per micro-batch in flight), in bytes per GPU: each main
     * loss with the job's kernel, each MTP loss with {@link #mtpKernel}'s, and once the larger of their kernels' working memory
     * (one loss runs at a time).
     */
    static double lossBytes(ModelShape m, Layout l, double main, double mtp, LossKernel kernel) {
        if (main + mtp <= 0) return 0;
        LossKernel mk = mtpKernel(kernel);
        double once = Math.max(main > 0 ? onceBytes(m, l, kernel) : 0, mtp > 0 ? onceBytes(m, l, mk) : 0);
        return perLossBytes(m, l, kernel) * main + perLossBytes(m, l, mk) * mtp + once;
    }

    /**
     * The kernel an MTP depth's loss runs with when the job's main loss runs with {@code kernel}: the same, except under the
     * fused linear cross-entropy ({@link LossKernel#LINEAR}), whose MTP losses make their logits. Megatron-Core's
     * process_mtp_loss (megatron/core/transformer/multi_token_prediction.py at 00611e6eeb0b09b5ee074750956855215ddbd67f) calls
     * {@code output_layer(hidden_states_list[mtp_layer_number + 1], weight=output_weight,
     * runtime_gather_output=runtime_gather_output)} without {@code output_cross_entropy_loss} or labels, so
     * LinearCrossEntropyModule falls back to ColumnParallelLinear's forward (megatron/core/transformer/linear_cross_entropy.py:
     * "Fall back to standard ColumnParallelLinear forward") and returns the logits, [s, b, V ÷ tp] in the activations' dtype;
     * process_mtp_loss then hands them to {@code compute_language_model_loss(mtp_labels, mtp_logits)}, a cross-entropy on
     * whole logits: priced as Megatron-Core's native one ({@link LossKernel#NATIVE}: the fp32 softmax it saves, the 16-bit
     * logits beside their fp32 copy while it runs). Only GPTModel's main loss calls the output layer with
     * {@code output_cross_entropy_loss=True} (gpt_model.py's fuse_linear_cross_entropy).
     */
    static LossKernel mtpKernel(LossKernel kernel) {
        return kernel == LossKernel.LINEAR ? LossKernel.NATIVE : kernel;
    }

    /**
     * What {@link #lossBytes} counts for each loss, in bytes per GPU: its inputs ({@link #lossInputs}) and what its cross-entropy
     * saves for its backward, each kernel's as {@link #lossBytes} says.
     */
    static double perLossBytes(ModelShape m, Layout l, LossKernel kernel) {
        double sb = (double) m.seq() / l.cp() * l.microBatchSize(), v = m.vocab();
        int bytes = m.dtype().activationBytes();
        // the final norm's and the output layer's inputs: a shard of the sequence per rank with sequence parallelism, the
        // whole s·b·h on every rank of the tp group without it (tp > 1, no SP: replicated, not divided)
        double inputs = lossInputs(m, l, kernel);
        return switch (kernel) {
            // Transformer Engine's: the logits themselves, in the activations' dtype
            case TE -> inputs + bytes * v * sb / l.tp();
            // the fused linear cross-entropy: the final norm's input, the hidden states it gathers and saves whole on every tp
            // rank, two fp32 statistics per row
            case LINEAR -> inputs + bytes * m.hidden() * sb + 8 * sb;
            // torchtitan's eager loss: the fp32 log-softmax ÷ tp (loss_parallel); disable_loss_parallel (TORCH_REPLICATED): the
            // logits whole on every tp rank, not ÷ tp
            case TORCH -> inputs + 4 * v * sb / l.tp();
            case TORCH_REPLICATED -> inputs + 4 * v * sb;
            // Megatron's native loss: the fp32 softmax (a compiled torchtitan loss with disable_loss_parallel on the whole vocabulary)
            case NATIVE -> inputs + 4 * v * sb / l.tp();
            case COMPILED_REPLICATED -> inputs + 4 * v * sb;
        };
    }

    /** What {@link #lossBytes} counts once, whatever the losses (one loss runs at a time), in bytes per GPU. */
    private static double onceBytes(ModelShape m, Layout l, LossKernel kernel) {
        double sb = (double) m.seq() / l.cp() * l.microBatchSize(), v = m.vocab();
        int bytes = m.dtype().activationBytes();
        return switch (kernel) {
            case TE -> 0;
            case LINEAR -> {
                // the larger split buffer: the backward's one split of the logits' gradient beside the output weight's gradient,
                // d_weight = empty_like(weight), bytes·V÷tp·h, returned through autograd to weight.grad, not written into main_grad
                // as the native output layer's gradient-accumulation fusion does (blackwell/entry.py's backward at 06ef4e2); or the
                // forward's per-split fp32 maximum, sum and (under tp) the maximum's clone
                double splits = Math.ceil(v / l.tp() / LossKernel.LINEAR_SPLIT);
                double backward = bytes * sb * LossKernel.LINEAR_SPLIT + bytes * v / l.tp() * m.hidden();
                yield Math.max(backward, (l.tp() > 1 ? 12 : 8) * sb * splits);
            }
            // torchtitan: its backward's fp32 gradients
            case TORCH, TORCH_REPLICATED -> torchLossOnce(m, l, kernel);
            // the 16-bit logits beside their fp32 copy while the loss runs (none for fp32 logits)
            case NATIVE -> bytes < 4 ? bytes * v * sb / l.tp() : 0;
            case COMPILED_REPLICATED -> bytes < 4 ? bytes * v * sb : 0;
        };
    }

    /**
     * The inputs {@link #lossBytes} counts per loss, in bytes per GPU: the final norm's and the output layer's, each
     * bytes·s·b·h, ÷ tp with sequence parallelism (or at tp 1), whole on every tp rank without it; torchtitan's eager loss
     * ({@link LossKernel#TORCH}, {@link LossKernel#TORCH_REPLICATED}) the norm's shard and the output matmul's gathered whole
     * (ColwiseParallel); the fused linear cross-entropy ({@link LossKernel#LINEAR}) the norm's alone (its gathered hidden states
     * are its own saved tensors, counted in {@link #lossBytes}).
     */
    static double lossInputs(ModelShape m, Layout l, LossKernel kernel) {
        double sb = (double) m.seq() / l.cp() * l.microBatchSize();
        int bytes = m.dtype().activationBytes();
        double norm = bytes * m.hidden() * sb / (l.sequenceParallel() || l.tp() == 1 ? l.tp() : 1);
        return switch (kernel) {
            case LINEAR -> norm;
            case TORCH, TORCH_REPLICATED -> norm + bytes * m.hidden() * sb;
            default -> 2.0 * bytes * m.hidden() * sb / (l.sequenceParallel() || l.tp() == 1 ? l.tp() : 1);
        };
    }

    /**
     * Of {@link #lossBytes}, what is still live when the output layer's backward starts, in bytes per GPU: each loss's inputs
     * ({@link #lossInputs}: the layers before the loss have not run their backward) and the logits' gradient the loss hands the
     * output layer, s·b·V in the activations' dtype, ÷ tp unless the logits are whole on every tp rank
     * ({@link LossKernel#TORCH_REPLICATED}, {@link LossKernel#COMPILED_REPLICATED}). What each kernel frees before it:
     * <ul>
     * <li>Megatron-Core's native loss (and a compiled torchtitan loss priced as it): its backward turns the saved fp32 softmax
     *     into the gradient in place and returns {@code grad_input.to(torch.bfloat16)} (fusions/fused_cross_entropy.py at
     *     d086a2e3b020ff78db9d29915f7cfe886e085f13; the unfused one the same, tensor_parallel/cross_entropy.py): the fp32 softmax
     *     is released with the autograd node, the 16-bit copy of the gradient stays; with fp32 activations the gradient is the
     *     fp32 tensor itself.
     * <li>Transformer Engine's: its backward kernel writes the gradient into the 16-bit logits it saved and returns them
     *     (transformer_engine/pytorch/cross_entropy.py at 02965d2eba9d93d129f25942f8ef1352f2eefd2d): what it held is the
     *     gradient, nothing is freed.
     * <li>torchtitan's eager loss: its fp32 log-softmax and the backward's fp32 temporaries go with their autograd nodes, the
     *     {@code .float()} node's backward hands the output a gradient in the logits' dtype.
     * <li>The fused linear cross-entropy ({@link LossKernel#LINEAR}): the output layer and the loss are one autograd function
     *     (LinearCrossEntropy, fused_linear_cross_entropy.py at 020c805b45cc379c84f8f408bc44f6ea613e6ac9): its backward is the
     *     output layer's, so all of {@link #lossBytes} is live there.
     * </ul>
     * With MTP the stage computes 1 + D losses, and only the main one has run its backward there: Megatron-Core's
     * process_mtp_loss (megatron/core/transformer/multi_token_prediction.py at 00611e6eeb0b09b5ee074750956855215ddbd67f) computes
     * each depth's logits with the shared output layer and its cross-entropy in the forward, before the main logits, and
     * attaches each loss to the main hidden states with {@code hidden_states = MTPLossAutoScaler.apply(hidden_states, ...)};
     * GPTModel's _postprocess then runs the output layer on those hidden states and computes the main loss, the one the
     * schedule's backward starts from. MTPLossAutoScaler.backward hands each MTP loss its gradient
     * ({@code scaled_mtp_loss_grad}) only when the gradient of its output, the main output layer's input gradient, reaches it:
     * so every MTP loss's saved tensors (Transformer Engine's logits, the native fp32 softmax, torchtitan's fp32 log-softmax,
     * the linear loss's gathered hidden states) are whole beside the main loss's gradient when the main output layer's backward
     * starts, and are freed in turn after it, depth D first. Here: each loss's inputs, the main loss's gradient, and the other
     * losses' {@link #perLossBytes} whole; the linear loss all of {@link #lossBytes}. Transformer Engine's loss thus frees
     * nothing with or without MTP (until 2026-12-07 the logits' gradient was counted once for all 1 + D losses, as if the MTP
     * losses' logits had been freed: D·bytes·s·b·V ÷ tp short).
     * Only the last stage's FSDP2 prefetch reads it ({@link Held#freedBeforeOutputBackward}).
     */
    static double heldAtOutputBackward(ModelShape m, Layout l, double losses, LossKernel kernel) {
        if (losses <= 0) return 0;
        // the linear loss: the main loss's saved tensors and working memory whole (its backward is the output layer's), and each
        // MTP loss's saved tensors, its cross-entropy on the logits it made (mtpKernel) not yet run backward
        if (kernel == LossKernel.LINEAR)
            return perLossBytes(m, l, kernel) + onceBytes(m, l, kernel) + (losses - 1) * perLossBytes(m, l, mtpKernel(kernel));
        int vt = kernel == LossKernel.TORCH_REPLICATED || kernel == LossKernel.COMPILED_REPLICATED ? 1 : l.tp();
        double gradient = (double) m.dtype().activationBytes() * m.vocab() * m.seq() / l.cp() * l.microBatchSize() / vt;
        // the main loss: its inputs and the gradient it handed the output layer; each MTP loss: all it saved, its backward not run
        return lossInputs(m, l, kernel) + gradient + (losses - 1) * perLossBytes(m, l, kernel);
    }

    /**
     * torchtitan's eager loss ({@link LossKernel#TORCH}, {@link LossKernel#TORCH_REPLICATED}): the fp32 temporaries its
     * backward holds at once beside the saved log-probabilities, in bytes per GPU (0 for the other kernels). Plain ATen (tp 1,
     * or the logits replicated by {@code disable_loss_parallel}): NllLossBackward's dense fp32 gradient and
     * LogSoftmaxBackward's new one, 8·s·b·V. Under loss_parallel (tp &gt; 1, the logits a DTensor sharded on V): DTensor's
     * handlers (pytorch/pytorch torch/distributed/tensor/parallel/loss.py at 3be123821b3b3acc68bf0cba5d466c9dee8069fa) fuse
     * both backwards in _nll_loss_and_log_softmax_backward, {@code (grad_input + torch.exp(x)) * grad_output} on
     * {@code grad_input = torch.zeros_like(x)}: the zeros, exp(x) and their sum (then the zeros, the sum and the product)
     * are three fp32 tensors at once, 12·s·b·V ÷ tp, and _log_softmax_backward_handler returns the gradient as it is
     * ({@code .to} fp32, its own dtype). The forward's _log_softmax (shifted, exp(shifted), result beside the 16-bit logits and
     * their fp32 copy: 2 + 4 + 4 + 4 with the log-probabilities it keeps) is less than the backward's 4 + 12.
     */
    static double torchLossOnce(ModelShape m, Layout l, LossKernel kernel) {
        if (kernel != LossKernel.TORCH && kernel != LossKernel.TORCH_REPLICATED) return 0;
        double vsb = (double) m.vocab() * m.seq() / l.cp() * l.microBatchSize();
        return kernel == LossKernel.TORCH && l.tp() > 1 ? 12 * vsb / l.tp() : 8 * vsb;
    }

    /**
     * The plan's words for {@link #lossBytes}'s inputs on layout {@code l} ({@code bytes} an activation's): at tp &gt; 1 without sequence parallelism they are
     * not divided by tp; empty otherwise.
     */
    static String replicatedLossInputs(Layout l, int bytes) {
        return l.tp() > 1 && !l.sequenceParallel() ? "; at tp " + l.tp() + " without sequence parallelism the output layer's and"
                + " final norm's inputs are whole on every tp rank, " + 2 * bytes + "·s·b·h not ÷ tp (the column-parallel output layer saves the"
                + " input it is given, megatron/core/tensor_parallel/layers.py; with sequence parallelism, its shard)" : "";
    }

    /**
     * The plan's words for {@link #lossBytes}: its formula and sources, in the assumptions, with the widths the term uses for
     * activations of {@code bytes} bytes ({@link ModelShape.Dtype#activationBytes}): the inputs 2·bytes per s·b·h, and once
     * the logits beside their fp32 copy, bytes per s·b·V, only below 4 bytes (fp32 logits have no copy).
     */
    public static String lossWords(int bytes) {
        return "the stage computing the loss (the last; at pp 1 the only one) holds per loss and micro-batch its output layer's"
                + " and final norm's inputs and the fp32 softmax the cross-entropy saves, (" + 2 * bytes + "·s·b·h + 4·s·b·V) ÷ tp"
                + " (theoretical_memory_usage.py's s·b·h·4·(1 + V/h)" + (bytes < 4 ? "" : " for 16-bit activations")
                + ", which it counts at pp 1 only), and once "
                + (bytes < 4 ? "the " + 8 * bytes + "-bit logits beside their fp32 copy, " + bytes + "·s·b·V ÷ tp (Megatron-Core's"
                        + " vocab_parallel_cross_entropy upcasts them with .float())"
                        : "nothing more: the logits are fp32 already (.float() returns them, no copy)")
                + "; the last stage one micro-batch at a time (1F1B and interleaved: its forward of the last chunk is followed by"
                + " that micro-batch's backward), with its MTP layers' losses beside the main one";
    }

    /**
     * Bytes one layer keeps for its backward pass per s·b·h, split as {replicated over tp, divided by tp}: Korthikanti
     * et al. 2022 Table 2 term by term, in Megatron's generalisation (theoretical_memory_usage.py's 18 + 4·ffn/h for
     * sequence parallelism + selective recompute), with the two shapes that file leaves out (its TODO: "query_projection_size
     * potentially being different from hidden_size") counted from what the layer stores:
     * <ul>
     * <li>replicated (10): the two LayerNorm inputs (2 + 2), the QKV and fc1 GEMM inputs (2 + 2), the two dropout masks (1 + 1);
     * <li>attention: Q 2·a·d, K and V 2·q·d each, the projection's input (flash attention's output) 2·a·d, per h: 8 with
     *     multi-head attention (Korthikanti's 6 + 2), 2·(2a + 2q)·d/h with q query groups (GQA keeps K and V for q
     *     groups only);
     * <li>MLP: the fc1 output and the activation's output, 2·ffn each (4·ffn/h); a gated MLP's fc1 writes gate and up,
     *     2·ffn each, so 6·ffn/h (SwiGLU).
     * <li>multi-latent attention instead: {@link LatentAttention#activationParts} (its latents replicated, Q, K, V and the
     *     output per head divided).
     * </ul>
     * In fp8 (Transformer Engine) the QKV and fc1 inputs are kept as their fp8 casts (1 byte each instead of 2) and
     * so is the fc2 input (ffn/h less); the projection keeps its fp8 cast beside flash attention's 16-bit output (a·d/h more).
     */
    static double[] perLayer(ModelShape m) {
        double h = m.hidden(), ad = (double) m.heads() * m.headDim(), qd = (double) m.kvHeads() * m.headDim();
        double replicated = 10;
        double attention = (2 * ad + 4 * qd + 2 * ad) / h;
        if (m.mla() != null) {
            // multi-latent attention: its latents (replicated over tp) and per-head Q, K, V and output (LatentAttention)
            double[] mla = m.mla().activationParts(h, m.heads());
            replicated += mla[0];
            attention = mla[1];
            ad = (double) m.heads() * m.mla().vHeadDim();
        }
        double mlp = (m.gatedMlp() ? 6.0 : 4.0) * m.ffn() / h;
        double split = attention + mlp;
        if (m.dtype().quantized()) {
            replicated -= 2;
            split += ad / h - (double) m.ffn() / h;
        }
        return new double[] {replicated, split};
    }
}
