package dev.gpulint.derive.estimate;

import static dev.gpulint.spec.ParallelDim.CP;
import static dev.gpulint.spec.ParallelDim.DP;
import static dev.gpulint.spec.ParallelDim.EP;
import static dev.gpulint.spec.ParallelDim.PP;
import static dev.gpulint.spec.ParallelDim.TP;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.derive.estimate.ModelShape.Dtype;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Prices one step of a layout (docs/plan.md explains every term). Per micro-batch, on the slowest pipeline stage:
 * compute = the stage's layers (linear GEMMs at the achieved GEMM rate plus a fixed time per kernel; attention at
 * flash attention's rate on the causal half it executes; elementwise kernels moving their bytes through HBM; a fixed time per layer) and, on the
 * last stage, the logits; tp, cp, ep and pp communication at the bus bandwidth of the tier each group runs on, less
 * what overlaps. The step is m such micro-batches, the pipeline bubble ((pp − 1)/vpp of one, per pipeline schedule:
 * torchtitan runs one per gradient-accumulation step, Layout.schedule), the data-parallel
 * collectives not hidden behind compute, and the optimizer's update. Pure: no I/O, no state.
 */
public final class Estimator {
    private Estimator() {}

    public static Estimate estimate(ModelShape m, Layout l, Hardware hw) {
        return estimate(m, l, hw, ParallelDim.DEFAULT_ORDER, null);
    }

    /**
     * @param order rank order, fastest first (tp, cp, ep, dp, pp; missing ones follow in the default order)
     * @param bytes the optimizer's bytes per parameter when the job states them (null: by precision and ZeRO stage)
     */
    public static Estimate estimate(ModelShape m, Layout l, Hardware hw, List<ParallelDim> order, StateBytes bytes) {
        return estimate(m, l, hw, order, bytes, Variants.of(m));
    }

    /** @param v the MoE layers' and the attention's variants (MoeCost, AttentionShape) */
    public static Estimate estimate(ModelShape m, Layout l, Hardware job, List<ParallelDim> order, StateBytes bytes, Variants v) {
        return (Estimate) price(m, l, job, order, bytes, v, true, null);
    }

    /**
     * What the plan's search ranks a layout by: the estimate's tokens/s/GPU and its fullest stage's bytes per GPU.
     *
     * @param tokensPerSecondPerGpu {@link Estimate.Throughput#tokensPerSecondPerGpu}
     * @param largestStageBytes     {@link Estimate#largestStage}'s total
     */
    public record Score(double tokensPerSecondPerGpu, double largestStageBytes) {}

    /**
     * {@link #estimate}'s two figures the search ranks by, priced by the same code with no breakdown written: the terms,
     * traffic records, their texts and the step's maps are what only a printed candidate needs (the plan prices tens of
     * thousands of layouts and prints a few). The same doubles as {@code estimate(...)}'s, to the bit (plan.ScoreIsTheBreakdownTest).
     */
    public static Score score(ModelShape m, Layout l, Hardware job, List<ParallelDim> order, StateBytes bytes, Variants v) {
        return (Score) price(m, l, job, order, bytes, v, false, null);
    }

    /**
     * {@link #score} of a layout whose stages are already sized ({@link MemoryModel#sized(ModelShape, Layout, Variants,
     * MemoryModel.States)}: the plan's search makes each checked layout's model states once, for its memory facts, and prices
     * its valid layouts from them). {@code sized} must be the layout's own, {@link MemoryModel#sized}'s doubles.
     */
    public static Score score(ModelShape m, Layout l, Hardware job, List<ParallelDim> order, StateBytes bytes, Variants v,
                              MemoryModel.Sized sized) {
        return (Score) price(m, l, job, order, bytes, v, false, sized);
    }

    /**
     * The one pricing of a layout: {@code full}, its {@link Estimate} with every term of the breakdown; else its
     * {@link Score} alone, each term's record, text and traffic left unmade (the figures the step sums are computed alike).
     * {@code known}: the layout's stages sized already (null: sized here).
     */
    private static Object price(ModelShape m, Layout l, Hardware job, List<ParallelDim> order, StateBytes bytes, Variants v, boolean full,
                                MemoryModel.Sized known) {
        Hardware hw = job.forJob(l.gpus());      // ranks fill racks in order: a group straddling two is priced on the NICs (Tier)
        Efficiency e = hw.efficiency();
        Dtype dt = m.dtype();
        // the stages and the optimizer's shard, one pass (unless the caller sized them from the states it made for the layout)
        MemoryModel.Sized sized = known != null ? known : MemoryModel.sized(m, l, bytes != null ? bytes.at(l.zeroStage(), l.distributedOptimizer())
                : StateBytes.of(dt, l.zeroStage(), l.distributedOptimizer(), null, null), v);
        List<MemoryModel.Stage> stages = sized.stages();
        List<Term> terms = full ? new ArrayList<>() : null;                // the breakdown: an estimate's alone (a score keeps none)
        Map<ParallelDim, Long> stride = strides(l, order);
        if (v.moe() != null) stride.put(EP, v.moe().epStride(l, order));      // the expert grid, folded (MoeShape)
        double ab = dt.activationBytes();
        double tokens = (double) l.microBatchSize() * m.seq() / l.cp();         // per micro-batch, per GPU's sequence share
        int pp = l.pp();
        double[] stageLayers = new double[pp];
        for (int i = 0; i < pp; i++) stageLayers[i] = MemoryModel.stageLayers(m, l, i, v.mtp());   // the MTP layers' blocks too (MtpLayers)
        // recomputation per Checkpointing: full 4/3 of everything; op-level SAC some matmuls and every elementwise op;
        // one layer in n by the share of a stage's layers (the even share: a hand-sized split changes it by a layer)
        double evenLayers = (double) m.layers() / pp;
        double rfLin = Checkpointing.linear(m, l, evenLayers), rfAtt = Checkpointing.attention(l, evenLayers),
                rfEw = Checkpointing.elementwise(l, evenLayers);

        // one layer, one micro-batch, forward and backward
        double pg = hw.gemmPeak(dt) * hw.gemmEfficiency(dt), p16 = hw.sixteenBitPeak(dt);
        MoeCost.Priced moe = v.moe() != null && m.experts() > 1 ? MoeCost.price(m, v.moe(), l, hw, tokens, rfLin) : null;
        // an MoE model's MLP side (experts, router, permutation, shared experts, dense layers) is MoeCost's; a hybrid Mamba
        // model's layers are the mean of its kinds (MambaLayers: two GEMMs each)
        MambaLayers hy = v.mamba();
        double linFlops = tokens * (hy != null ? hy.meanLinearFlopsPerToken(m) : moe == null ? m.linearFlopsPerTokenLayer()
                : 6.0 * m.attentionParameters()) / l.tp() * rfLin;
        double kernels = (hy != null ? hy.meanKernels() : moe == null ? 12 : 6) * rfLin;   // an MoE layer's MLP kernels are MoeCost's
        double linS = linFlops / pg + kernels * e.gemmKernelS();
        double attFlops = tokens * m.attentionExecutedFlopsPerTokenLayer() * v.attention().executedFraction(m.layers(), m.seq()) / l.tp() * rfAtt
                * (hy != null ? hy.attentionShare() : 1);
        double attRate = p16 * hw.attention(v.attention().kernel());    // the kernel the job runs (AttentionKernel)
        // attention outside a flash kernel: its GEMMs over the full s² scores and its softmax and dropout passes
        // (UnfusedAttention); a hybrid's mean layer carries its attention share of one such core
        Term.UnfusedAttention unfused = v.attention().kernel() == AttentionKernel.UNFUSED
                ? UnfusedAttention.price(m, l, UnfusedAttention.recomputedShare(l, v.recomputeModules(), evenLayers), p16 * e.gemm(),
                        e.gemmKernelS(), hw.hbmBytesPerSecond() * e.hbm(), hy != null ? hy.attentionShare() : 1) : null;
        if (unfused != null) attFlops = 0;
        double attS = unfused != null ? unfused.layerSeconds() : attFlops / attRate;
        double stored = perLayerActivationBytes(m, l, hy);
        double ewBytes = e.traffic() * stored * rfEw;
        // a hybrid's SSD chunk scan (and its conv1d) moving its bytes through HBM (MambaLayers)
        Term.Ssd ssd = hy == null ? null : new Term.Ssd(hy.mamba(), hy.gdnLayers(), hy.layers(), hy.ssdBytesPerToken(), hy.gdnBytesPerToken(),
                tokens / l.tp(), rfEw, tokens / l.tp() * hy.meanSsdBytesPerToken() * rfEw, hw.hbmBytesPerSecond() * e.hbm());
        if (ssd != null) ewBytes += ssd.bytes();
        // the layers whose MLP is dense, at their width: an MoE layer's experts are MoeCost's (their casts MoeCasts')
        Float8Scaling.DenseMlp denseMlp = Float8Scaling.DenseMlp.of(m, moe == null ? null : v.moe());
        // Transformer Engine casts each GEMM's input to fp8 (read 2 bytes, write 1) forward and its gradient backward; a
        // hybrid's mean layer casts its own two GEMMs' inputs (MambaLayers)
        double casts = !hw.quantizedGemms(dt) ? 0 : hy != null ? Float8Scaling.COUNTED * tokens * hy.meanGemmInputs(m) / l.tp()
                : Float8Scaling.perTensorCastBytes(m, l, tokens, denseMlp);
        ewBytes += casts;
        // eager elementwise kernels (torchtitan without torch.compile): their bytes beyond the fused kernels' (EagerKernels)
        Term.Eager eager = v.kernels().price(m, l, tokens, rfEw, moe == null, hw.hbmBytesPerSecond() * e.hbm());
        if (eager != null) ewBytes += eager.bytes();
        // Float8 rowwise scaling (torchao): its casts beyond the per-tensor ones above, and rowwise_with_gw_hp's bf16 weight
        // gradients (Float8Scaling)
        Term.Float8 f8 = v.float8().price(m, l, tokens, rfEw, denseMlp, hw.gemmPath(dt) == Dtype.FP8,
                hw.hbmBytesPerSecond() * e.hbm(), pg, p16 * e.gemm());
        if (f8 != null) ewBytes += f8.bytes();
        double ewS = ewBytes / (hw.hbmBytesPerSecond() * e.hbm());
        // selective recompute by module: the forward the stated modules run again (RecomputeModules; null: none priced)
        Term.Recompute recomputed = v.recomputeModules().price(m, l, v.moe(), moe, tokens, pg, e.gemmKernelS(), hw.hbmBytesPerSecond() * e.hbm());
        double layerS = linS + attS + ewS + e.layerS() + (moe == null ? 0 : moe.perLayerS()) + (f8 == null ? 0 : f8.highPrecisionSeconds())
                + (recomputed == null ? 0 : recomputed.seconds());
        double logitS = tokens * m.logitFlopsPerToken() / l.tp() / (p16 * e.gemm()) + 3 * e.gemmKernelS()
                + tokens * m.vocab() / l.tp() * 4 * 4 / (hw.hbmBytesPerSecond() * e.hbm());
        // the layers an fp8 recipe keeps in bf16 (LayerPrecision): each one's time beyond a quantized layer's, per stage
        LayerPrecision.Priced bf16 = v.layerPrecision().price(m, l, hw, tokens, rfLin, linFlops, pg, p16 * e.gemm(),
                casts, f8, moe, v.moe(),
                hw.hbmBytesPerSecond() * e.hbm());
        double[] bf16Layers = v.layerPrecision().perStage(m, l);
        double bf16S = bf16 == null ? 0 : bf16.extraSeconds();
        long mb = l.microBatches() > 0 ? l.microBatches()
                : Math.max(1, (l.globalBatchSize() + (long) l.microBatchSize() * l.dp() - 1) / ((long) l.microBatchSize() * l.dp()));
        // multi-token prediction (MtpLayers): its blocks are in the stages' layers at the mean layer (all of them, on the MTP
        // ranks: the last, or where a layout's m stands), priced here at their kind (their stage's last decoder layer's,
        // MoE on a stage of none: MtpLayers.kindBlocks; a hybrid group's letters) beyond it; its eh_proj on its ranks and the
        // logits again on the last stage
        Term.Mtp mtp = v.mtp().price(m, l, tokens, rfLin, pg, e.gemmKernelS(), logitS, v.mtp().totalBlocks(), layerS, moe, v, mb);
        // the slowest stage: the last (its layers and the logits) when the layers split evenly; with a split that gives the
        // first or last stage fewer layers, the fullest other stage may be
        // (the MTP layers' eh_proj on their stage, a layout's m off the last one's; their logits and loss on the last)
        int slowest = pp - 1;
        double stageS = stageLayers[slowest] * layerS + bf16Layers[slowest] * bf16S + logitS
                + (mtp == null ? 0 : mtp.logitSeconds() + mtp.stageSeconds(pp - 1));
        for (int i = 0; i < pp - 1; i++) {
            double s = stageLayers[i] * layerS + bf16Layers[i] * bf16S + (mtp == null ? 0 : mtp.stageSeconds(i));
            if (s > stageS) { slowest = i; stageS = s; }
        }
        double layersPerStage = stageLayers[slowest];
        if (full) terms.add(new Term.Compute(layersPerStage, linFlops, pg, hw.gemmPath(dt), hw.gemmPeak(dt), hw.gemmEfficiency(dt), kernels,
                e.gemmKernelS(), attFlops, m.mla() != null, attRate, ewBytes, hw.hbmBytesPerSecond() * e.hbm(), e.layerS(),
                slowest == pp - 1 ? logitS : 0, stageS));
        if (full) {
            if (unfused != null) terms.add(unfused);
            if (eager != null) terms.add(eager);
            if (ssd != null) terms.add(ssd);
            if (f8 != null) terms.add(f8);
            if (moe != null) terms.add(moe.term());
            if (moe != null && moe.passes() != null) terms.add(moe.passes());
            if (mtp != null) terms.add(mtp);
            if (recomputed != null) terms.add(recomputed);
            if (bf16 != null) terms.add(bf16.term(bf16Layers[slowest]));
        }

        Map<ParallelDim, Tier> tiers = new EnumMap<>(ParallelDim.class);
        List<Estimate.Traffic> traffic = full ? new ArrayList<>() : null;
        Comm c = new Comm(hw, stride, terms, traffic, tiers);

        // tp: 4 all-gather/reduce-scatter pairs per layer (6 with full recompute, 5 under op-level SAC), b·s·h·bytes each
        double tpCount = Checkpointing.tpCollectives(l, layersPerStage) * (hy != null ? MambaLayers.TP_SHARE : 1);
        double tpS = c.collective(TP, l.tp(), tpCount * layersPerStage, tokens * m.hidden() * ab, Collective.ALL_GATHER,
                full ? TP_TEXT.concat(Integer.toString((int) ab)).concat(" bytes each)") : null);   // (per layout priced: sized once)
        // exposed: all of it (plain TP), what outlasts the GEMM beside each (--tp-comm-overlap, async TP), or the family's share
        double[] tpGemms = TpOverlap.gemmSeconds(m, l, tokens, pg);
        double tpExp = v.tpOverlap().exposed(tpS, tpCount, layersPerStage, tpGemms, e.tpOverlap(), e.dpOverlap());
        if (full && tpS > 0) terms.add(new Term.TpExposure(v.tpOverlap().mode(), e.tpOverlap(), e.dpOverlap(), tpS / (tpCount * layersPerStage),
                tpGemms, tpExp, tpS));
        // cp: the ring passes each K/V chunk cp − 1 times forward, and K/V and their gradients backward; a recomputed
        // forward runs its ring again (rfAtt: 4/3 under full recompute, the forward's third once more)
        // sends: cp − 1 ring steps forward and cp − 1 backward (K/V with their gradients in one step) per layer
        double cpS = l.cp() > 1 ? c.p2p(CP, l.cp(), 2.0 * rfAtt * (l.cp() - 1) * layersPerStage,
                3.0 * rfAtt * (l.cp() - 1) * layersPerStage * 2 * tokens * m.kvHeads() * m.headDim() * ab / l.tp()
                        * (hy != null ? hy.attentionShare() : 1), "K/V ring exchange") : 0;
        double cpExp = Math.max(0, cpS - e.cpOverlap() * layersPerStage * attS);
        // and the hybrid mixers' all-to-alls to a head split and back (MambaLayers.cpExchangeSeconds), exposed in full
        double cpA2a = hy == null ? 0 : hy.cpExchangeSeconds(c, l, layersPerStage, tokens, ab);
        cpS += cpA2a;
        cpExp += cpA2a;
        // ep: four all-to-alls per MoE layer (dispatch and combine, forward and backward), each (n − 1)/n of the routed tokens
        double epS = 0, epExp = 0;
        if (l.ep() > 1 && m.experts() > 1) {
            MoeShape ms = v.moe() != null ? v.moe() : MoeShape.uniform(m);
            // the slowest stage's decoder layers' share, and its MTP blocks' MoE layers by their kind (MtpLayers: all of them on the
            // last stage, or where a layout's m stands, as the compute term prices them by kind there)
            double mtpBlocks = mtp == null ? 0 : v.mtp().stageBlocks(m, l, slowest);
            double moeLayersPerStage = (double) ms.moeLayers() * (layersPerStage - mtpBlocks) / m.layers()
                    + (mtp == null ? 0 : v.mtp().moeLayers(m, l, slowest, ms, hy));
            double bytesA2a = moe != null ? moe.a2aBytes() : tokens / (l.sequenceParallel() ? l.tp() : 1) * m.topK() * m.hidden() * ab;
            epS = ms.dispatcher() == MoeShape.Dispatcher.ALLGATHER
                    // allgather: every rank gathers the expert group's tokens (unrouted) and reduce-scatters the outputs, forward and backward
                    ? c.collective(EP, l.ep(), 2 * moeLayersPerStage, tokens / (l.sequenceParallel() ? l.tp() : 1) * m.hidden() * ab,
                            Collective.ALL_GATHER, "token all-gather per micro-batch (allgather dispatcher)")
                      + c.collective(EP, l.ep(), 2 * moeLayersPerStage, tokens / (l.sequenceParallel() ? l.tp() : 1) * m.hidden() * ab,
                            Collective.REDUCE_SCATTER, "output reduce-scatter per micro-batch (allgather dispatcher)")
                    // flex (DeepEP / HybridEP): across nodes each token once per remote node and GPU (FlexDispatch), else the all-to-all
                    : ms.dispatcher() == MoeShape.Dispatcher.FLEX
                    ? c.flex(EP, l.ep(), 4 * moeLayersPerStage, bytesA2a, bytesA2a / m.topK(), m.experts(), m.topK(), ms.routerGroups(),
                            ms.routerGroupTopk(), ms.flexBackend(), "all-to-all per micro-batch")
                    : c.collective(EP, l.ep(), 4 * moeLayersPerStage, bytesA2a, Collective.ALL_TO_ALL, "all-to-all per micro-batch");
            // --overlap-moe-expert-parallel-comm: dispatch and combine run behind the other micro-batch's layer compute
            epExp = ms.overlapA2a() ? Math.max(0, epS - moeLayersPerStage * (moe != null ? moe.moeLayerS() : 0)) : epS;
        }
        // pp: one activation forward and one gradient backward per micro-batch and virtual stage; after a layout's m off the last
        // stage, the MTP layers' hidden states so far in each send after it (MtpLayers.carriedStates)
        double ppBytes = tokens * m.hidden() * ab / (l.sequenceParallel() ? l.tp() : 1);
        int mtpStates = v.mtp().carriedStates(m, l);
        double ppS = l.pp() > 1 ? c.p2p(PP, l.pp(), 2.0 * l.virtualPp(), (2.0 * l.virtualPp() + mtpStates) * ppBytes,
                full ? v.mtp().sends(mtpStates) : null) : 0;
        // variable_seq_lengths or mtp_standalone: each of those sends first exchanges its shape, 24 bytes, waited on (MtpLayers.SHAPE_EXCHANGE)
        double ppShapeS = l.pp() > 1 && v.mtp().exchangesShapes(m, l) ? c.p2p(PP, l.pp(), 2.0 * l.virtualPp(),
                2.0 * l.virtualPp() * MtpLayers.SHAPE_BYTES, v.mtp().shapeExchange(m, l)) : 0;
        double ppExp = ppS * (1 - e.ppOverlap()) + ppShapeS;
        Term.Offload offload = OffloadCost.price(m, l, slowest, layerS, hw);
        double offloadExp = offload == null ? 0 : offload.exposed();
        if (full && offload != null) terms.add(offload);
        // [b, s, h] activations sharded on the sequence (torchtitan before its PR #4121): a copy of b·s·h per tp collective
        Term.TpCopy tpCopy = v.tpLayout().price(m, l, tokens, tpCount, layersPerStage, v.tpOverlap().mode(),
                hw.gemmPath(dt) == Dtype.FP8 && v.float8().recipe() == Float8Scaling.Recipe.TENSORWISE, hw.hbmBytesPerSecond() * e.hbm(), mb);
        if (full && tpCopy != null) terms.add(tpCopy);
        double perMb = stageS + tpExp + cpExp + epExp + ppExp + offloadExp + (tpCopy == null ? 0 : tpCopy.seconds());
        double compute = mb * stageS;
        // the bubble: the other stages' warm-up and cool-down, each stage's share of a micro-batch by its layers' time
        // ((pp − 1)/vpp of one micro-batch when they split evenly): the decoder's at the mean layer, the MTP layers' blocks at
        // their kind and their eh_proj at what they cost on their stage (Term.Mtp#stageSeconds, in mean layers' worth), as
        // the schedule runs each stage's forward and backward in the warm-up and cool-down
        double[] worth = new double[pp], mtpWorth = new double[pp], mtpBlocks = new double[pp];
        for (int i = 0; i < pp; i++) {
            mtpBlocks[i] = mtp == null ? 0 : v.mtp().stageBlocks(m, l, i);
            mtpWorth[i] = mtp == null ? 0 : mtpBlocks[i] + mtp.stageSeconds(i) / layerS;
            worth[i] = stageLayers[i] - mtpBlocks[i] + mtpWorth[i];
        }
        double others = 0;
        for (int i = 0; i < pp; i++) if (i != slowest) others += worth[i] / worth[slowest];
        // paid once per pipeline schedule: torchtitan runs one per gradient-accumulation step (Layout.schedule), Megatron one per step
        long schedules = l.scheduleMicroBatches() > 0 ? l.schedules() : 1;
        double bubble = l.pp() > 1 && worth[slowest] > 0 ? schedules * (others / l.virtualPp() * perMb) : 0;
        if (full && l.pp() > 1) terms.add(new Term.Bubble(l.pp(), l.virtualPp(), l.split(), m.layers(), worth[slowest], others, perMb, bubble,
                schedules > 1 ? l.scheduleMicroBatches() : mb,
                mtp == null ? List.of() : java.util.Arrays.stream(worth).boxed().toList(),
                mtp == null ? List.of() : java.util.Arrays.stream(mtpBlocks).boxed().toList(),
                mtp == null ? List.of() : java.util.Arrays.stream(mtpWorth).boxed().toList(), schedules));

        // dp: the gradients (and, sharded, the parameters) of the stage over dp·cp
        double params = 0;
        int most = 0;                                          // the stage holding them, the first of equals (ExpertDpSync)
        for (MemoryModel.Stage s : stages) if (s.parameters() > params) { params = s.parameters(); most = s.stage(); }
        long n = (long) l.dp() * l.cp();
        RankGroup dpCp = dpCpGroup(l, order);                 // the dp·cp group's ranks, not dp's alone
        double gradBytes = GradientReduce.bytes(dt, bytes);   // the main gradients' dtype: what the job states, else the default
        double gatherBytes = v.paramGather().stageBytes(m, l, stages, bf16Layers);   // 2 per parameter, or fp8's 1 (ParamGather)
        // the optimizer step: the fullest stage's shard as the memory counts its states (the experts' over their own group)
        double local = sized.optimizerShard();
        double onGpu = local * (1 - v.offload().optimizerShare());
        double optimizer = onGpu * 30 / (hw.hbmBytesPerSecond() * e.hbm());
        double dpS = 0, dpExp = 0;
        if (n > 1) {
            // the routed experts' over their own group (ExpertDpSync) and the model chunks: Megatron-Core's DDP buckets, with the
            // distributed optimizer or not (ZeRO-3 and HSDP below gather per layer and read neither)
            ExpertDpSync x = ExpertDpSync.of(m, l, v, params, most, order, gatherBytes);
            int chunks = pp > 1 ? l.virtualPp() : 1;
            if (HybridSync.priced(l.zeroStage()) && (l.hybrid() || v.gathers().pipelined(l))) {
                // HSDP at stage 3 or 2: all-gathers and reduce-scatters in the shard group, the all-reduce over the replicas (HybridShard);
                // FSDP2 under pp too (ShardedGathers.pipelined: its kept units at stage 2, fully_shard at 3): one replica, its
                // sync the step's as HSDP's under pp, not Megatron's ZeRO-2 buckets
                HybridSync hs = HybridShard.sync(c, l, dpCp, stride.get(DP), params, gatherBytes, gradBytes, DpBuckets.shardedUnits(layersPerStage), mb);
                double perMbComm = hs.seconds();
                dpS = hs.stepSeconds(mb);
                // under pp the step's reduce-scatters and all-reduces run after the stage's last backward, behind no compute
                // (HybridSync.perStep); its gathers behind the micro-batches' compute as FSDP's are
                dpExp = hs.perStep() ? Math.max((1 - e.dpOverlap()) * hs.gatherSeconds(), hs.gatherSeconds() - mb * stageS) + perMbComm - hs.gatherSeconds()
                        : mb * Math.max((1 - e.dpOverlap()) * perMbComm, perMbComm - stageS);
            } else if (l.zeroStage() >= 3 && v.gathers().perTensor()) {
                // DeepSpeed's stage 3 of 2021: one collective per parameter tensor at each use it was released (ShardedGathers)
                ShardedGathers.Counts k = v.gathers().perMicroBatch(m, l, layersPerStage, params);
                double perMbComm = c.collective(DP, dpCp, k.gathers(), k.gatheredElements() * gatherBytes / params / k.gathers(),
                        Collective.ALL_GATHER, "parameter all-gathers, one per released tensor at each use")
                        + c.collective(DP, dpCp, k.reduces(), params * gradBytes / k.reduces(), Collective.REDUCE_SCATTER,
                        "gradient reduce-scatters, one per tensor");
                dpS = mb * perMbComm;
                dpExp = mb * Math.max((1 - e.dpOverlap()) * perMbComm, perMbComm - stageS);
            } else if (l.zeroStage() >= 3 || v.gathers().keptForBackward(l)) {
                // one unit per layer (FSDP's per-block wrapping, Megatron-FSDP's per-module buckets): each layer's parameters
                // gathered forward and backward (FSDP2 at stage 2: the forward's alone, ShardedGathers.KEPT) and its gradients
                // reduce-scattered, each collective paying NCCL's α
                // torchtitan's embedding and [norm, output] units beside the layers, the latter gathered once unless "always" (TitanUnits)
                double units = DpBuckets.shardedUnits(layersPerStage);
                int gathers = HybridSync.gathersPerUnit(l.zeroStage());
                TitanUnits.Sync k = TitanUnits.sync(v.gathers().titan(), m, l, units, gathers, gatherBytes);
                String beside = full ? TitanUnits.gatherWords(v.gathers().titan(), l) : null;     // (the texts: a breakdown's only)
                double perMbComm = c.collective(DP, dpCp, k.gathers(), k.gatheredBytes() / k.gathers(), Collective.ALL_GATHER, !full ? null : (gathers == 2
                        ? "parameter all-gathers forward and backward, one per layer" : "parameter all-gather for the forward, kept for the backward, one per layer")
                        + beside)
                        + c.collective(DP, dpCp, k.reduces(), params * gradBytes / k.reduces(), Collective.REDUCE_SCATTER, !full ? null
                        : "gradient reduce-scatter, one per layer" + (beside.isEmpty() ? "" : " and per torchtitan unit"));
                dpS = mb * perMbComm;
                dpExp = mb * Math.max((1 - e.dpOverlap()) * perMbComm, perMbComm - stageS);
            } else if (l.zeroStage() >= 1 || l.distributedOptimizer()) {
                // Megatron-Core's buckets: max(40M, 1M · dp·cp) parameters each (only model chunk 0's when interleaved), one collective per bucket (DpBuckets)
                // the routed experts' in buckets of their own over the expert data-parallel group (ExpertDpSync); chunk 0 one
                // bucket too when its all-gather runs in the optimizer step (OptimizerStepGather)
                double buckets = v.stepGather().buckets(x.shared(), n, chunks), xb = v.stepGather().buckets(x.expert(), n, chunks);
                double reduce = c.collective(DP, dpCp, buckets, x.shared() * gradBytes / buckets, Collective.REDUCE_SCATTER, "gradient reduce-scatter per bucket")
                        + (x.expert() > 0 ? c.collective(DP, x.group(), xb, x.expert() * gradBytes / xb, Collective.REDUCE_SCATTER,
                                "expert gradient reduce-scatter per bucket (expert data-parallel group)") : 0);
                double gather = c.collective(DP, dpCp, buckets, x.sharedGather() / buckets, Collective.ALL_GATHER, "parameter all-gather per bucket")
                        + (x.expert() > 0 ? c.collective(DP, x.group(), xb, x.expertGather() / xb, Collective.ALL_GATHER,
                                "expert parameter all-gather per bucket (expert data-parallel group)") : 0);
                dpS = reduce + gather;
                // what outlasts the compute the schedule hides it behind: one micro-batch, or per model chunk (ChunkedDpSync),
                // chunk 0's all-gather behind the other chunks' optimizer step under overlap_param_gather_with_optimizer_step
                double window = v.stepGather().window(pp > 1 ? l.virtualPp() : 1, optimizer);
                double outlasts = ChunkedDpSync.outlasting(l.virtualPp(), pp, mb, stageS, reduce, gather, false, window);
                if (full && window >= 0) terms.add(new Term.StepGather(l.virtualPp(), reduce / l.virtualPp(), gather / l.virtualPp(),
                        stageS * 2 / 3 / l.virtualPp(), stageS / 3 / l.virtualPp(), optimizer, window,
                        ChunkedDpSync.outlasting(l.virtualPp(), pp, mb, stageS, reduce, gather, false), outlasts));
                dpExp = Math.max((1 - e.dpOverlap()) * dpS, outlasts);
            } else {
                double buckets = DpBuckets.count(x.shared(), n, chunks), xb = DpBuckets.count(x.expert(), n, chunks);
                dpS = c.collective(DP, dpCp, buckets, x.shared() * gradBytes / buckets, Collective.ALL_REDUCE, "gradient all-reduce per bucket")
                        + (x.expert() > 0 ? c.collective(DP, x.group(), xb, x.expert() * gradBytes / xb, Collective.ALL_REDUCE,
                                "expert gradient all-reduce per bucket (expert data-parallel group)") : 0);
                dpExp = Math.max((1 - e.dpOverlap()) * dpS, ChunkedDpSync.outlasting(l.virtualPp(), pp, mb, stageS, dpS, 0, true));
            }
        }
        if (full && dpS > 0) terms.add(new Term.DpExposure(e.dpOverlap(), dpExp, dpS));
        // the word embedding held twice (tied, or the MTP stage's copy; pp > 1): its gradient all-reduced over the embedding
        // group each step, after the data-parallel sync and before the optimizer step, behind no compute (EmbeddingSync)
        CollectiveCost embSync = EmbeddingSync.price(c, m, l, v.mtp(), stride.get(PP), gradBytes);
        double embS = embSync == null ? 0 : embSync.seconds();
        // model states in host memory (StateOffload): the copies over the host link; the offloaded share steps on the CPU
        Term.HostStates host = v.offload().price(l, local, stageS, mb, gradBytes, hw);
        double hostExp = host == null ? 0 : host.exposed();
        if (full && host != null) terms.add(host);
        if (full) terms.add(new Term.Optimizer(onGpu, hw.hbmBytesPerSecond() * e.hbm(), optimizer));
        double step = mb * perMb + bubble + dpExp + hostExp + optimizer + embS;
        double stepTokens = (double) l.globalBatchSize() * m.seq();
        double gpus = l.gpus();
        double tps = stepTokens / (step * gpus);
        // the search's score stops here: what follows (the step's maps, the throughput's FLOPs, the record) only the report reads
        if (!full) return new Score(tps, Estimate.largestStage(stages).total());
        Map<Tier, Double> exposed = new EnumMap<>(Tier.class);
        for (Tier t : Tier.values()) exposed.put(t, 0.0);
        if (embSync != null) add(exposed, embSync.tier(), embS);
        add(exposed, tiers.get(TP), mb * tpExp);
        add(exposed, tiers.get(CP), mb * cpExp);
        add(exposed, tiers.get(EP), mb * epExp);
        add(exposed, tiers.get(PP), mb * ppExp);
        add(exposed, tiers.get(DP), dpExp);
        Map<ParallelDim, Double> comm = new EnumMap<>(ParallelDim.class);
        comm.put(TP, mb * tpS);
        comm.put(CP, mb * cpS);
        comm.put(EP, mb * epS);
        comm.put(PP, mb * (ppS + ppShapeS) + embS);
        comm.put(DP, dpS);
        double modelFlops = hy != null ? hy.modelFlopsPerToken(m) : v.moe() != null && m.experts() > 1 ? v.moe().modelFlopsPerToken(m)
                : m.modelFlopsPerToken();
        double flops = (modelFlops + v.mtp().flopsPerToken(m, modelFlops, v)) * tps;    // the MTP layers as Megatron counts them
        Estimate.Throughput tp = new Estimate.Throughput(tps, flops / 1e12, flops / hw.gemmPeak(dt));
        Estimate.Time time = new Estimate.Time(step, compute, bubble, comm, tiers, exposed, optimizer);
        return new Estimate(l, m, hw.gpu(), hw.memoryBytes(), stages, time, tp, terms, traffic);
    }

    /** Activation bytes one layer stores per micro-batch per GPU (selective recompute, flash attention). */
    static double perLayerActivationBytes(ModelShape m, Layout l) {
        return perLayerActivationBytes(m, l, null);
    }

    /** {@link #perLayerActivationBytes}, a hybrid Mamba model's mean layer by its kinds ({@link MambaLayers#meanActivationParts}). */
    static double perLayerActivationBytes(ModelShape m, Layout l, MambaLayers hy) {
        double s = (double) m.seq() / l.cp(), h = m.hidden(), t = l.tp();
        double sbh = s * l.microBatchSize() * h;
        double per;
        if (hy != null) {
            double[] p = hy.meanActivationParts(m);
            per = l.sequenceParallel() || l.tp() == 1 ? sbh * (p[0] + p[1]) / t : sbh * (p[0] + p[1] / t);
        } else {
            per = l.sequenceParallel() || l.tp() == 1 ? sbh * (18 + 4.0 * m.ffn() / h) / t : sbh * (10 + (8 + 4.0 * m.ffn() / h) / t);
        }
        return per * m.dtype().activationBytes() / 2.0;
    }

    private static final String TP_TEXT = "all-gather/reduce-scatter per micro-batch (b·s·h·";

    private static void add(Map<Tier, Double> m, Tier t, double v) {
        if (t != null && v > 0) m.merge(t, v, Double::sum);
    }

    /** Ranks between consecutive members of each dimension's group: the product of the sizes before it (ep: dp's). */
    static Map<ParallelDim, Long> strides(Layout l, List<ParallelDim> order) {
        return RankGroup.strides(l.tp(), l.cp(), l.dp(), l.pp(), order);      // one home with NET003's HSDP replicas
    }

    /**
     * The data-parallel gradient group, dp·cp ranks (Megatron-Core's {@code dp-cp} group, {@code intra_dp_cp_group};
     * torchtitan's FSDP mesh {@code dp_shard_cp}), not dp's alone, laid out as the rank order lays it
     * ({@link RankGroup#dpCp}, as Megatron-Core's RankGenerator.get_ranks('dp-cp') builds it): where cp and dp are neighbours
     * (the default tp-cp-ep-dp-pp, torchtitan's mesh with cp inside dp_shard) one contiguous block spaced by the faster
     * one's stride (tp with the default order); where a dimension of more than one rank lies between them (tp-cp-pp-dp,
     * Megatron's {@code --use-tp-pp-dp-mapping} order tp-cp-ep-pp-dp with pp &gt; 1) cp's ranks at cp's stride and dp's at
     * dp's, priced on the tier the group's widest span reaches (docs/plan.md "The dp·cp group's spacing").
     */
    static RankGroup dpCpGroup(Layout l, List<ParallelDim> order) {
        return RankGroup.dpCp(l.tp(), l.cp(), l.dp(), l.pp(), order);
    }
}
