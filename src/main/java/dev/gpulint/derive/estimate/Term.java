package dev.gpulint.derive.estimate;

import dev.gpulint.spec.ParallelDim;

/**
 * One term of an {@link Estimate}'s breakdown as numbers: what the {@link Estimator} computed for it, bytes, FLOPs,
 * rates (per second) and seconds. The plan's report writes each as a sentence (plan/EstimateWords); derive writes no
 * words. A plan prices thousands of layouts and prints the terms of one, so a term holds its figures and nothing is
 * formatted until it is printed.
 */
public sealed interface Term {

    /** The term's name as the plan prints it: compute, unfused-attention, ssd, eager, float8, moe, mtp, tp, tp-copy, cp, ep, pp, dp, offload, host-states,
     * bubble, dp-step or optimizer. */
    String term();

    /**
     * The slowest stage's compute per micro-batch: {@code layers × (linear + kernels + attention + elementwise + fixed)
     * + logits}.
     *
     * @param layersPerStage   the slowest stage's layers
     * @param linearFlops      one layer's linear FLOPs per GPU, forward and backward (with recomputation)
     * @param gemmRate         the achieved GEMM rate, FLOP/s (peak × efficiency)
     * @param gemmPath         the precision the GEMMs run at
     * @param gemmPeak         its dense peak, FLOP/s
     * @param gemmEfficiency   the catalog's achieved share of it
     * @param kernels          GEMM kernels per layer (with recomputation)
     * @param kernelSeconds    the fixed time per kernel
     * @param attentionFlops   one layer's executed attention FLOPs per GPU
     * @param attentionRate    flash attention's rate, FLOP/s
     * @param elementwiseBytes one layer's elementwise bytes through HBM
     * @param hbmRate          the achieved HBM rate, bytes/s
     * @param layerSeconds     the fixed time per layer
     * @param logitSeconds     the logits' time (on the last stage only; 0 when another stage is the slowest)
     * @param seconds          the slowest stage's compute per micro-batch
     */
    record Compute(double layersPerStage, double linearFlops, double gemmRate, ModelShape.Dtype gemmPath, double gemmPeak,
                   double gemmEfficiency, double kernels, double kernelSeconds, double attentionFlops, boolean latentAttention, double attentionRate,
                   double elementwiseBytes, double hbmRate, double layerSeconds, double logitSeconds, double seconds) implements Term {
        @Override public String term() { return "compute"; }
    }

    /**
     * A hybrid Mamba model's SSD path (the causal conv1d and the chunk scan) as HBM bytes, per mean layer and micro-batch
     * ({@link MambaLayers#ssdBytesPerToken}).
     *
     * @param mambaLayers      the Mamba-2 layers (M)
     * @param gdnLayers        the gated delta net layers (G: their conv1d and chunked delta rule, MambaLayers.Gdn)
     * @param layers           all layers of the pattern (the mean layer carries mambaLayers/layers of one Mamba-2 layer's bytes
     *                         and gdnLayers/layers of one GDN layer's)
     * @param bytesPerToken    one Mamba-2 layer's bytes per token, forward and backward
     * @param gdnBytesPerToken one GDN layer's bytes per token, forward and backward (0 without G layers)
     * @param tokens           the tokens per micro-batch on one GPU's heads (÷ tp)
     * @param recompute        the elementwise recompute factor (full recompute runs the forward again)
     * @param bytes            tokens × (bytesPerToken × mambaLayers + gdnBytesPerToken × gdnLayers)/layers × recompute
     * @param hbmRate          the achieved HBM rate, bytes/s
     */
    record Ssd(int mambaLayers, int gdnLayers, int layers, double bytesPerToken, double gdnBytesPerToken, double tokens, double recompute,
               double bytes, double hbmRate) implements Term {
        @Override public String term() { return "ssd"; }

        /** The bytes' time at the HBM rate (in the compute term's elementwise bytes). */
        public double seconds() { return bytes / hbmRate; }
    }

    /**
     * The eager elementwise kernels' HBM bytes beyond the fused kernels', per layer and micro-batch ({@link EagerKernels}).
     *
     * @param hiddenElements the elements the norms and residual adds run on (tokens·h, ÷ tp with sequence parallelism)
     * @param qkElements     the query and key elements RoPE runs on (tokens·(a + kv)·d ÷ tp)
     * @param ffnElements    the gated MLP's elements SwiGLU runs on (tokens·ffn ÷ tp; 0 for an MoE or ungated MLP)
     * @param forwardBytes   the extra bytes of one forward
     * @param backwardBytes  the extra bytes of the backward
     * @param recomputed     the share of the forward run again (op-level SAC, full recompute)
     * @param bytes          forward × (1 + recomputed) + backward
     * @param hbmRate        the achieved HBM rate, bytes/s
     * @param seconds        bytes ÷ hbmRate (in the compute term's elementwise bytes)
     */
    record Eager(double hiddenElements, double qkElements, double ffnElements, double forwardBytes, double backwardBytes,
                 double recomputed, double bytes, double hbmRate, double seconds) implements Term {
        @Override public String term() { return "eager"; }
    }

    /**
     * Float8 rowwise scaling's HBM bytes beyond the per-tensor casts the elementwise term counts, per layer and
     * micro-batch, and with rowwise_with_gw_hp the weight-gradient GEMMs at the 16-bit rate ({@link Float8Scaling}).
     *
     * @param recipe             torchao's recipe name
     * @param inputElements      the elements the layer's linears cast as inputs
     * @param gradElements       the elements of their output gradients
     * @param weightElements     the layer's weight elements on the GPU
     * @param forwardBytes       the casts' bytes of one forward
     * @param backwardBytes      the casts' bytes of the backward
     * @param recomputed         the share of the forward run again (op-level SAC, full recompute)
     * @param rescaleBytes       the backward GEMMs' output scaling
     * @param castBytes          forward × (1 + recomputed) + backward + rescale
     * @param countedBytes       the per-tensor casts the elementwise term counts
     * @param bytes              castBytes − countedBytes (in the compute term's elementwise bytes)
     * @param hbmRate            the achieved HBM rate, bytes/s
     * @param seconds            bytes ÷ hbmRate
     * @param highPrecisionFlops the weight-gradient GEMMs' FLOPs run in bf16 (0 but with rowwise_with_gw_hp)
     * @param highPrecisionRate  the achieved 16-bit GEMM rate, FLOP/s
     * @param highPrecisionSeconds their time beyond the fp8 rate's (in the compute term's per-layer time)
     */
    record Float8(String recipe, double inputElements, double gradElements, double weightElements, double forwardBytes,
                  double backwardBytes, double recomputed, double rescaleBytes, double castBytes, double countedBytes, double bytes,
                  double hbmRate, double seconds, double highPrecisionFlops, double highPrecisionRate,
                  double highPrecisionSeconds) implements Term {
        @Override public String term() { return "float8"; }
    }

    /**
     * An MoE model's MLP side per layer and micro-batch ({@link MoeCost}).
     *
     * @param moeLayers        layers with experts
     * @param layers           all layers
     * @param localExperts     L = E/ep
     * @param tokensPerExpert  M, the tokens one local expert's GEMM takes
     * @param etp              the experts' tensor-parallel size
     * @param capacityFactor   the capacity factor the inputs are padded to (1: not padded)
     * @param tileFill         M/(128·⌈M/128⌉)
     * @param routedFlops      the routed experts' FLOPs
     * @param gemmRate         the dense GEMM rate, FLOP/s (the routed experts' runs at it × the tile fill)
     * @param weightBytes      the experts' weights read and gradients written
     * @param hbmRate          the achieved HBM rate, bytes/s
     * @param kernels          the routed experts' kernels
     * @param kernelSeconds    the fixed time per kernel
     * @param routedSeconds    the routed experts' time
     * @param routerSeconds    the router's time
     * @param permuteSeconds   permutation and un-permutation
     * @param rows             the routed rows the GPU's experts take
     * @param activationSeconds the routed rows' extra activation function
     * @param castBytes        the routed rows' quantizing casts (MoeCasts; 0 in 16 bits)
     * @param castSeconds      their time at the HBM rate
     * @param sharedFfn        the shared experts' hidden size (0: none)
     * @param sharedSeconds    their time
     * @param moeLayerSeconds  one MoE layer's time
     * @param denseLayers      layers with a dense MLP
     * @param denseFfn         its hidden size
     * @param denseSeconds     one dense layer's MLP time
     * @param passesSeconds    the clamped GLU's and the experts' biases' unfused passes (the expert-passes term; 0: none)
     */
    record Moe(int moeLayers, int layers, double localExperts, double tokensPerExpert, int etp, double capacityFactor,
               double tileFill, double routedFlops, double gemmRate, double weightBytes, double hbmRate, double kernels,
               double kernelSeconds, int expertGemms, double expertGemmSeconds, double routedSeconds, double routerSeconds, double permuteSeconds,
               double rows, double activationSeconds, double castBytes, double castSeconds, long sharedFfn, double sharedSeconds, double moeLayerSeconds,
               int denseLayers, long denseFfn, double denseSeconds, double passesSeconds) implements Term {
        @Override public String term() { return "moe"; }
    }

    /**
     * The routed experts' elementwise passes outside the fused activation, per MoE layer and micro-batch ({@link ExpertPasses}):
     * the GLU clamp's and the per-expert fc2 bias's.
     *
     * @param rows            the routed rows the GPU's experts take (T·k·etp/tp)
     * @param clamp           the clamp value (0: not clamped)
     * @param ffnPerRow       f = ffn/etp
     * @param clampForward    the clamp's forward bytes (8 × rows × f × bytes)
     * @param clampBackward   its backward bytes (10 × rows × f × bytes)
     * @param bias            the experts have biases
     * @param hiddenPerRow    h
     * @param biasForward     the bias's forward bytes (6 × rows × h × bytes)
     * @param biasBackward    its backward bytes (6 × rows × h × bytes)
     * @param recomputed      the share of the forward run again (full recompute)
     * @param bytes           forward × (1 + recomputed) + backward
     * @param hbmRate         the achieved HBM rate, bytes/s
     * @param seconds         bytes ÷ hbmRate (in the moe term's MoE layer)
     */
    record ExpertPasses(double rows, double clamp, double ffnPerRow, double clampForward, double clampBackward, boolean bias,
                        double hiddenPerRow, double biasForward, double biasBackward, double recomputed, double bytes, double hbmRate,
                        double seconds) implements Term {
        @Override public String term() { return "expert-passes"; }
    }

    /**
     * Multi-token prediction per micro-batch ({@link MtpLayers}): the MTP layers' transformer blocks (counted in the stage's
     * layers at the mean layer, as a layout's {@code m} is; their kind's time beyond it here) and, beyond them, their eh_proj
     * GEMMs on the MTP layers' stage ({@code stage}: the last unless a layout's {@code m} stands elsewhere), and the logits and
     * loss again on the last stage.
     *
     * @param layers        D, the MTP layers
     * @param blocksPerLayer the layers one MTP layer holds
     * @param stageBlocks   the MTP blocks the last stage's layers count (0 when a layout places them: its stages count them)
     * @param blockSeconds  their time by kind ({@link MtpLayers#blockSeconds})
     * @param meanSeconds   stageBlocks × the mean layer's: what the compute term's layers count of them
     * @param moeBlocks     of one MTP layer's blocks, those priced as MoeCost's MoE layer
     * @param denseBlocks   of one MTP layer's blocks, those priced as MoeCost's dense layer
     * @param projFlops     eh_proj's FLOPs per GPU, D × 6 · tokens · 2h² ÷ tp (with recomputation)
     * @param gemmRate      the achieved GEMM rate, FLOP/s
     * @param projSeconds   those FLOPs at it plus three kernels' fixed time per MTP layer
     * @param logitSeconds  D × the compute term's logits (with their cross-entropy)
     * @param seconds       blockSeconds − meanSeconds + projSeconds + logitSeconds (in the compute term's stages: all but the
     *                      logits on the ranks holding the MTP layers by their share, the logits on the last)
     * @param microBatches  micro-batches per step
     * @param perRank       the MTP layers each pipeline rank holds, its eh_proj and norms ({@link MtpLayers#perRank}: all on one
     *                      rank but with mtp_split)
     */
    record Mtp(int layers, int blocksPerLayer, double stageBlocks, double blockSeconds, double meanSeconds, int moeBlocks, int denseBlocks,
               double projFlops, double gemmRate, double projSeconds, double logitSeconds, double seconds, long microBatches,
               java.util.List<Integer> perRank, java.util.List<Integer> earlyLosses, double lossSeconds) implements Term {
        /**
         * @param logitSeconds the MTP losses' logits and cross-entropy on the last stage
         * @param earlyLosses  per pipeline rank, the MTP losses Megatron-LM's mtp_loss_split computes before the last stage
         *                     (MtpLayers#earlyLossesPerRank), each {@code lossSeconds} (one loss's logits and cross-entropy)
         * @param seconds      all of it per micro-batch beyond the mean layers, those early losses included
         */
        public Mtp {
            perRank = java.util.List.copyOf(perRank);
            earlyLosses = java.util.List.copyOf(earlyLosses);
        }

        /** The losses mtp_loss_split computes before the last stage, on all ranks. */
        public int earlyLossCount() { return earlyLosses.stream().mapToInt(Integer::intValue).sum(); }

        @Override public String term() { return "mtp"; }

        /** The MTP layers' seconds per step: their blocks, eh_proj and logits, per micro-batch × micro-batches. */
        public double stepSeconds() { return (meanSeconds + seconds) * microBatches; }

        /** Per micro-batch on the MTP layers' ranks beyond their layers at the mean layer: all but the logits. */
        public double stageSeconds() { return seconds - logitSeconds - earlyLossCount() * lossSeconds; }

        /**
         * Per micro-batch on pipeline rank {@code rank} beyond its layers at the mean layer: its MTP layers' share of
         * {@link #stageSeconds}, and the losses mtp_loss_split computes there.
         */
        public double stageSeconds(int rank) {
            if (rank < 0 || rank >= perRank.size() || layers == 0) return 0;
            double early = earlyLosses.get(rank) * lossSeconds;
            if (perRank.get(rank) == 0) return early;
            return early + (perRank.get(rank) == layers ? stageSeconds() : stageSeconds() * perRank.get(rank) / layers);
        }

        /** The pipeline ranks. */
        public int pp() { return perRank.size(); }

        /** The first pipeline rank holding MTP layers (the only one but with mtp_split). */
        public int stage() {
            for (int i = 0; i < perRank.size(); i++) if (perRank.get(i) > 0) return i;
            return perRank.size() - 1;
        }

        /** The pipeline ranks holding MTP layers. */
        public java.util.List<Integer> ranks() {
            java.util.List<Integer> out = new java.util.ArrayList<>();
            for (int i = 0; i < perRank.size(); i++) if (perRank.get(i) > 0) out.add(i);
            return out;
        }

        /** eh_proj stands on the last stage with the logits, all of it. */
        public boolean onLast() { return perRank.get(perRank.size() - 1) == layers; }
    }

    /**
     * Selective recompute by module ({@link RecomputeModules}): the forward the stated modules run again in backward, per layer
     * and micro-batch averaged over the model's layers (in the compute term's layer).
     *
     * @param modules     the modules, as Megatron names them ("layernorm, moe_act")
     * @param normBytes   the recomputed norms' bytes (read and write T'·h each)
     * @param activationBytes the recomputed activation functions' bytes (the experts' routed rows, a dense MLP's)
     * @param flops       the recomputed GEMMs' FLOPs (up-projections, a dense MLP, shared experts)
     * @param gemmRate    the achieved GEMM rate, FLOP/s
     * @param kernels     the recomputed GEMM kernels
     * @param kernelSeconds the fixed time per kernel
     * @param hbmRate     the achieved HBM rate, bytes/s
     * @param moeSeconds  the moe module's MoE layer forward (a third of the moe term's MoE layer), averaged over the layers
     * @param seconds     the sum
     */
    record Recompute(String modules, double normBytes, double activationBytes, double flops, double gemmRate, double kernels,
                     double kernelSeconds, double hbmRate, double moeSeconds, double seconds) implements Term {
        @Override public String term() { return "recompute"; }
    }

    /**
     * The layers an fp8 recipe keeps in bf16 ({@link LayerPrecision}): one such layer's seconds beyond a quantized one's
     * per micro-batch, and the slowest stage's share (in the compute term's total).
     *
     * @param start          the first layers in bf16
     * @param end            the last layers in bf16
     * @param layers         the model's layers
     * @param linearFlops    one layer's linear FLOPs per GPU (with recomputation)
     * @param gemmRate       the achieved quantized GEMM rate, FLOP/s
     * @param bf16Rate       the achieved 16-bit GEMM rate, FLOP/s
     * @param linearSeconds  those FLOPs at the 16-bit rate less at the quantized one
     * @param castBytes      the per-tensor input casts a bf16 layer does not make
     * @param hbmRate        the achieved HBM rate, bytes/s
     * @param castSeconds    those bytes at it
     * @param float8Seconds  the float8 term a bf16 layer does not pay (rowwise recipes; 0 otherwise)
     * @param moeSeconds     an MoE model's MLP side in bf16 less on the quantized path, per layer (0 for a dense model)
     * @param extraSeconds   linear − casts − float8 + moe
     * @param stageLayers    the bf16 layers on the slowest stage
     * @param seconds        stageLayers × extraSeconds
     */
    record Bf16Layers(int start, int end, int layers, double linearFlops, double gemmRate, double bf16Rate, double linearSeconds,
                      double castBytes, double hbmRate, double castSeconds, double float8Seconds, double moeSeconds,
                      double extraSeconds, double stageLayers, double seconds) implements Term {
        @Override public String term() { return "bf16-layers"; }
    }

    /**
     * {@code count} collectives over a dimension's group of {@code n}, priced by {@link CollectiveCost}.
     *
     * @param what    what they carry, as the plan names it ("gradient reduce-scatter")
     * @param links   the hardware's links (they name the tier)
     * @param seconds count × the cost's seconds
     */
    record Collectives(ParallelDim dim, double count, String what, long n, CollectiveCost cost, Links links, double seconds) implements Term {
        @Override public String term() { return dim.label(); }
    }

    /**
     * The flex dispatcher's passes across nodes ({@link FlexDispatch}): per token, its remote nodes over RDMA and its GPUs
     * over NVLink, each pass priced by {@link CollectiveCost#twoLegs}.
     *
     * @param count        passes per micro-batch (4 per MoE layer)
     * @param traffic      what a token sends per pass
     * @param tokenBytes   the rank's tokens' 16-bit hidden states, T·h·2: one copy of each token the rank routes
     * @param backend      the backend priced (deepep, hybridep)
     * @param deepEpGroups the "nodes" are DeepEP's 8-GPU groups inside one NVLink domain larger than 8
     *                     ({@link FlexDispatch#DEEPEP_NVL_PEERS})
     * @param seconds      count × the cost's seconds
     */
    record Flex(ParallelDim dim, double count, long n, FlexDispatch.Traffic traffic, double tokenBytes, FlexDispatch.Backend backend,
                boolean deepEpGroups, CollectiveCost cost, Links links, double seconds) implements Term {
        @Override public String term() { return dim.label(); }
    }

    /**
     * {@code bytes} each rank of a dimension's group sends its neighbour per micro-batch (pipeline and context-parallel
     * rings), in {@code count} sends of equal size, each priced by {@link CollectiveCost} (its α once per send).
     *
     * @param seconds count × the cost's seconds
     */
    record Sends(ParallelDim dim, String what, double count, double bytes, CollectiveCost cost, Links links, double seconds) implements Term {
        @Override public String term() { return dim.label(); }
    }

    /**
     * The pipeline bubble: the other stages' share of one micro-batch, /vpp.
     *
     * @param split         the layers' split over the stages ({@link PipelineSplit#EVEN}: (pp − 1)/vpp)
     * @param layers        the model's layers
     * @param slowestLayers the slowest stage's layers' worth: its decoder layers and its MTP layers' worth ({@code mtpWorth})
     * @param otherLayers   the other stages' layers' worth ÷ the slowest stage's
     * @param perMicroBatch one micro-batch's time on the slowest stage with its exposed communication
     * @param seconds       the bubble
     * @param stageWorth    per pipeline rank, its layers' worth in mean layers (empty without MTP layers: its layers)
     * @param mtpBlocks     per pipeline rank, the MTP blocks its layers count ({@link MtpLayers#stageBlocks}; all zero without MTP)
     * @param mtpWorth      per pipeline rank, those blocks at their kind and the MTP layers' eh_proj there, in mean layers
     *                      ({@link Mtp#stageSeconds(int)} ÷ the mean layer's time, beside the blocks)
     * @param microBatches  micro-batches per pipeline schedule (m)
     * @param schedules     pipeline schedules per step ({@link Layout#schedules}: torchtitan's gradient-accumulation steps), each
     *                      paying its bubble: {@code seconds} is all of them
     */
    record Bubble(int pp, int virtualPp, PipelineSplit split, int layers, double slowestLayers, double otherLayers,
                  double perMicroBatch, double seconds, long microBatches, java.util.List<Double> stageWorth,
                  java.util.List<Double> mtpBlocks, java.util.List<Double> mtpWorth, long schedules) implements Term {
        public Bubble {
            stageWorth = java.util.List.copyOf(stageWorth);
            mtpBlocks = java.util.List.copyOf(mtpBlocks);
            mtpWorth = java.util.List.copyOf(mtpWorth);
            if (schedules < 1) throw new IllegalArgumentException("a step runs at least one schedule, not " + schedules);
        }

        /** A step of one pipeline schedule. */
        public Bubble(int pp, int virtualPp, PipelineSplit split, int layers, double slowestLayers, double otherLayers,
                      double perMicroBatch, double seconds, long microBatches, java.util.List<Double> stageWorth,
                      java.util.List<Double> mtpBlocks, java.util.List<Double> mtpWorth) {
            this(pp, virtualPp, split, layers, slowestLayers, otherLayers, perMicroBatch, seconds, microBatches, stageWorth, mtpBlocks,
                    mtpWorth, 1);
        }

        /** The bubble of one schedule: {@code seconds} ÷ {@code schedules}. */
        public double perSchedule() { return seconds / schedules; }

        /** A bubble without MTP layers. */
        public Bubble(int pp, int virtualPp, PipelineSplit split, int layers, double slowestLayers, double otherLayers,
                      double perMicroBatch, double seconds, long microBatches) {
            this(pp, virtualPp, split, layers, slowestLayers, otherLayers, perMicroBatch, seconds, microBatches, java.util.List.of(),
                    java.util.List.of(), java.util.List.of());
        }

        @Override public String term() { return "bubble"; }

        /** The layers split evenly and no MTP layer weighs on a stage: the bubble is (pp − 1)/vpp of one micro-batch. */
        public boolean even() { return split.equals(PipelineSplit.EVEN) && !mtp(); }

        /** MTP blocks or eh_proj stand on some stage (their worth is in the stages' shares). */
        public boolean mtp() { return mtpWorth.stream().anyMatch(w -> w > 0); }
    }

    /**
     * What of the tensor-parallel collectives a micro-batch exposes ({@link TpOverlap}).
     *
     * @param mode          plain, overlapped beside the GEMMs, or the family's share
     * @param familyOverlap the catalog's tp_overlap (read in FAMILY mode)
     * @param hidden        the catalog's dp_overlap: the share of an overlapped collective the compute beside it absorbs
     * @param collective    one collective's seconds
     * @param gemms         the forward seconds of the QKV, output-projection, first and second MLP GEMMs it runs beside
     * @param exposed       the exposed seconds per micro-batch
     * @param seconds       the tp collectives' seconds per micro-batch
     */
    record TpExposure(TpOverlap.Mode mode, double familyOverlap, double hidden, double collective, double[] gemms, double exposed,
                      double seconds) implements Term {
        @Override public String term() { return "tp"; }
    }

    /**
     * The copies of b·s·h DTensor's sequence-dimension tp collectives add per micro-batch ({@link TpLayoutCopy}).
     *
     * @param fused          async TP: only the gathered tensors a weight gradient flattens are copied
     * @param gathers        copied all-gathers per layer
     * @param reduces        copied reduce-scatters per layer
     * @param elements       the gathered tensor's elements, T·h
     * @param gatherBytes    bytes an element of an all-gather's copy (1 when it gathers float8)
     * @param activationBytes bytes an element of a reduce-scatter's copy
     * @param bytes          2 × elements × (gathers × gatherBytes + reduces × activationBytes), read and written, per layer
     * @param hbmRate        the achieved HBM rate, bytes/s
     * @param layers         the slowest stage's layers
     * @param seconds        layers × bytes ÷ hbmRate, per micro-batch (on the critical path)
     * @param microBatches   micro-batches per step
     */
    record TpCopy(boolean fused, double gathers, double reduces, double elements, double gatherBytes, double activationBytes,
                  double bytes, double hbmRate, double layers, double seconds, long microBatches) implements Term {
        @Override public String term() { return "tp-copy"; }

        /** The copies' seconds per step. */
        public double stepSeconds() { return seconds * microBatches; }
    }

    /**
     * What of the data-parallel collectives is exposed: {@code max((1 − dp_overlap) × seconds, what outlasts the compute)}.
     *
     * @param dpOverlap the catalog's dp_overlap
     * @param exposed   the exposed seconds
     * @param seconds   the data-parallel collectives' seconds
     */
    record DpExposure(double dpOverlap, double exposed, double seconds) implements Term {
        @Override public String term() { return "dp"; }
    }

    /**
     * Model chunk 0's parameter all-gather dispatched in the optimizer step ({@link OptimizerStepGather}): what of an
     * interleaved stage's data-parallel collectives outlasts the compute and the optimizer step that hide them
     * ({@link ChunkedDpSync}), with it and without it.
     *
     * @param vpp         model chunks per pipeline rank
     * @param reduceChunk one chunk's gradient reduce-scatter, seconds
     * @param gatherChunk one chunk's parameter all-gather, seconds
     * @param backward    one chunk's backward pass of a micro-batch (what chunk 0's bucketed reduction hides behind without it)
     * @param forward     one chunk's forward pass of a micro-batch (what chunk 0's all-gather hides behind without it)
     * @param optimizer   the optimizer step's seconds
     * @param window      the other chunks' share of it, (vpp − 1)/vpp: what chunk 0's all-gather hides behind with it
     * @param without     what outlasts without it, seconds
     * @param with        what outlasts with it, seconds
     */
    record StepGather(int vpp, double reduceChunk, double gatherChunk, double backward, double forward, double optimizer,
                      double window, double without, double with) implements Term {
        @Override public String term() { return "dp-step"; }
    }

    /**
     * CPU activation offload per micro-batch ({@link OffloadCost}).
     *
     * @param layers           the offloaded layers
     * @param bytes            their activations
     * @param link             the GPU's host link ({@link Links#hostLinkName}): "PCIe Gen5", "NVLink-C2C"
     * @param rate             per direction × the pcie efficiency, bytes/s
     * @param linkPerDirection the link per direction, bytes/s ({@link Links#hostPerDirection})
     * @param pcieEfficiency   the catalog's pcie efficiency
     * @param copySeconds      each way
     * @param forwardSeconds   the offloaded layers' forward time it hides behind
     * @param backwardSeconds  and their backward time
     * @param exposed          what it adds per micro-batch
     */
    record Offload(double layers, double bytes, String link, double rate, double linkPerDirection, double pcieEfficiency,
                   double copySeconds, double forwardSeconds, double backwardSeconds, double exposed) implements Term {
        @Override public String term() { return "offload"; }
    }

    /**
     * Model states offloaded to host memory ({@link StateOffload}): the gradients down and the parameters up over the GPU's
     * host link, per micro-batch (behind the stage's compute) or once per step (exposed whole).
     *
     * @param link            "PCIe Gen5", "NVLink-C2C"
     * @param linkPerDirection the link's rate per direction, bytes/s
     * @param efficiency      the catalog's pcie efficiency
     * @param rate            the achieved rate, bytes/s
     * @param downBytes       the gradients copied down, per micro-batch when {@code downPerMicroBatch}, else per step
     * @param upBytes         the parameters copied up, per micro-batch when {@code upPerMicroBatch}, else per step
     * @param stageSeconds    the slowest stage's compute per micro-batch the per-micro-batch copies hide behind
     * @param microBatches    micro-batches per step
     * @param exposed         seconds per step the copies add
     */
    record HostStates(String link, double linkPerDirection, double efficiency, double rate, double downBytes, boolean downPerMicroBatch,
                      double upBytes, boolean upPerMicroBatch, double downSeconds, double upSeconds, double stageSeconds,
                      long microBatches, double exposed) implements Term {
        @Override public String term() { return "host-states"; }
    }

    /**
     * The optimizer's update: Adam reads and writes 30 bytes per local parameter at the HBM rate.
     *
     * @param localParameters the parameters of the GPU's shard
     * @param hbmRate         the achieved HBM rate, bytes/s
     */
    record Optimizer(double localParameters, double hbmRate, double seconds) implements Term {
        @Override public String term() { return "optimizer"; }
    }
    /**
     * Attention outside a flash kernel, per layer and micro-batch ({@link UnfusedAttention}): the batched GEMMs over the full
     * s × s scores and the softmax and dropout passes over them (in the compute term's per-layer time, in place of its
     * attention).
     *
     * @param scores           the score elements b·(s/cp)·s·a ÷ tp
     * @param recomputed       the share of layers whose core runs its forward again
     * @param flops            the batched GEMMs' FLOPs (full square, with the recomputed forward)
     * @param gemmRate         the achieved 16-bit GEMM rate, FLOP/s
     * @param gemmBytes        the score elements those GEMMs write or read, in bytes
     * @param gemmKernels      the batched GEMM kernels
     * @param kernelSeconds    the fixed time per kernel
     * @param gemmSeconds      max(FLOPs at the GEMM rate, bytes at the HBM rate) + the kernels' fixed time
     * @param forwardBytesPerScore  the softmax's and dropout's bytes per score forward
     * @param backwardBytesPerScore their bytes per score backward
     * @param elementwiseBytes the softmax's and dropout's bytes
     * @param hbmRate          the achieved HBM rate, bytes/s
     * @param elementwiseSeconds those bytes at it
     * @param seconds          gemmSeconds + elementwiseSeconds, per attention layer
     * @param attentionShare   the attention layers' share of the layers (1; a hybrid Mamba model's mean layer carries
     *                         {@link MambaLayers#attentionShare} of one attention core)
     */
    record UnfusedAttention(double scores, double recomputed, double flops, double gemmRate, double gemmBytes, double gemmKernels,
                            double kernelSeconds, double gemmSeconds, double forwardBytesPerScore, double backwardBytesPerScore,
                            double elementwiseBytes, double hbmRate, double elementwiseSeconds, double seconds,
                            double attentionShare) implements Term {
        @Override public String term() { return "unfused-attention"; }

        /** The time it adds to the compute term's (mean) layer: {@code seconds × attentionShare}. */
        public double layerSeconds() { return seconds * attentionShare; }
    }
}
