package dev.gpulint.derive.estimate;

import static dev.gpulint.derive.estimate.MtpJobs.BSH;
import static dev.gpulint.derive.estimate.MtpJobs.FIRST_DENSE;
import static dev.gpulint.derive.estimate.MtpJobs.H;
import static dev.gpulint.derive.estimate.MtpJobs.LAST_DENSE;
import static dev.gpulint.derive.estimate.MtpJobs.TP2_PP4;
import static dev.gpulint.derive.estimate.MtpJobs.V;
import static dev.gpulint.derive.estimate.MtpJobs.job;
import static dev.gpulint.derive.estimate.MtpJobs.layout;
import static dev.gpulint.derive.estimate.MtpJobs.model;
import static dev.gpulint.derive.estimate.MtpJobs.onLayout;
import static dev.gpulint.derive.estimate.MtpJobs.onLayoutWithoutMtp;
import static dev.gpulint.derive.estimate.MtpJobs.pod;
import static dev.gpulint.derive.estimate.MtpJobs.ppSends;
import static dev.gpulint.derive.estimate.MtpJobs.script;
import static dev.gpulint.derive.estimate.MtpJobs.term;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.plan.EstimateWords;
import dev.gpulint.spec.ParallelDim;
import dev.gpulint.testing.EstimateManifest;
import dev.gpulint.testing.PlanCli;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each MTP layer priced as the kind Megatron-Core builds it (MtpLayers): the decoder's last layer's (DeepSeek-V3's MoE, not
 * the mean of its three dense and 58 MoE layers), a hybrid's by its '/' group's letters; and the MTP stage's embedding copy's
 * gradient all-reduce with the first stage's per step (pp > 1; EmbeddingSync, its one home). Small models, worked by hand.
 */
class MtpKindTest {

    /**
     * A layout's m is an MoE layer here (its stage's last decoder layer has experts, or it has none: MtpLayers.moeKindPerRank),
     * while the same split without MTP counts that block at the mean layer (3 MoE layers and the dense one): per GPU at tp 2 and
     * etp·ep 4, the MoE layer less the mean is (its shared expert 3·h·512 less the dense MLP 3·h·4,096, ÷ tp, and its 8 routed
     * experts of 3·h·512 ÷ 4) ÷ 4.
     */
    private static final double MOE_OVER_MEAN_TP2 = ((3 * H * 512 - 3 * H * 4096) / 2 + 8 * 3 * H * 512 / 4) / 4;

    /** The small DeepSeek-V3 (MtpJobs), its embeddings untied, on one node of 8 H100s. */
    private static JobEstimate dsv3(String layers, int mtp, String parallelism) {
        return job(EstimateManifest.h100(), model(false, layers, mtp), parallelism);
    }

    private static Term.Collectives sync(Estimate e) {
        return EmbeddingSyncTest.sync(e);
    }

    @Test
    void deepSeekV3sMtpLayerIsAnMoeLayerNotTheMeanOfDenseAndMoe() {
        JobEstimate w = dsv3(FIRST_DENSE, 0, "tp: 1, pp: 1"), j = dsv3(FIRST_DENSE, 1, "tp: 1, pp: 1");
        assertTrue(j.inputs().variants().moe().lastMoe());
        Estimate e = j.estimate();
        Term.Mtp mtp = term(e, Term.Mtp.class);
        Term.Moe moe = term(e, Term.Moe.class);
        assertEquals(1, mtp.moeBlocks());
        assertEquals(0, mtp.denseBlocks());
        // the decoder's mean layer, from the job without MTP: 4 layers and the logits on the one stage
        Term.Compute c0 = term(w.estimate(), Term.Compute.class), c1 = term(e, Term.Compute.class);
        double mean = (c0.seconds() - c0.logitSeconds()) / 4;
        // its MLP side, MoeCost's mean over the 4 layers: 3 MoE layers and 1 dense
        double meanMlp = (3 * moe.moeLayerSeconds() + moe.denseSeconds()) / 4;
        assertEquals(3, moe.moeLayers());
        assertEquals(1, moe.denseLayers());
        assertEquals(mean, mtp.meanSeconds(), 1e-12 * mean);
        assertEquals(mean - meanMlp + moe.moeLayerSeconds(), mtp.blockSeconds(), 1e-12 * mean);
        // the stage: its 4 layers, the MTP block at its kind, eh_proj and the logits again
        assertEquals(c0.seconds() + mtp.blockSeconds() + mtp.projSeconds() + mtp.logitSeconds(), c1.seconds(), 1e-12 * c1.seconds());
        String words = EstimateWords.line(mtp);
        assertTrue(words.contains(": 1 layer of the kind Megatron-Core builds, an MoE layer (the mean layer with MoeCost's MoE layer for"
                + " its MLP side) = "), words);
    }

    @Test
    void aLastLayerWithoutExpertsMakesADenseMtpLayer() {
        // --moe-layer-freq [1,1,1,0]: the last layer dense, so is the MTP layer (gpt_layer_specs.py: layer_specs[-1])
        JobEstimate j = dsv3(LAST_DENSE, 1, "tp: 1, pp: 1");
        assertTrue(!j.inputs().variants().moe().lastMoe(), "the pattern's last entry is 0");
        Term.Mtp mtp = term(j.estimate(), Term.Mtp.class);
        Term.Moe moe = term(j.estimate(), Term.Moe.class);
        assertEquals(0, mtp.moeBlocks());
        assertEquals(1, mtp.denseBlocks());
        double meanMlp = (3 * moe.moeLayerSeconds() + moe.denseSeconds()) / 4;
        assertEquals(mtp.meanSeconds() - meanMlp + moe.denseSeconds(), mtp.blockSeconds(), 1e-12 * mtp.meanSeconds());
        assertTrue(EstimateWords.line(mtp).contains("1 layer of the kind Megatron-Core builds, a dense layer (the mean layer with MoeCost's"
                + " dense layer for its MLP side) = "), EstimateWords.line(mtp));
    }

    @Test
    void itsModelFlopsAreAnMoeLayersAsMegatronCountsThem() {
        JobEstimate w = dsv3(FIRST_DENSE, 0, "tp: 1, pp: 1"), j = dsv3(FIRST_DENSE, 1, "tp: 1, pp: 1");
        double perToken0 = w.estimate().throughput().modelTflopsPerGpu() * 1e12 / w.estimate().throughput().tokensPerSecondPerGpu();
        double perToken1 = j.estimate().throughput().modelTflopsPerGpu() * 1e12 / j.estimate().throughput().tokensPerSecondPerGpu();
        // training.py: num_moe_layers += last_layer_is_moe × mtp_num_layers. One MoE layer per token, forward and backward:
        // attention 6 × 4h² (QKV and the projection, MHA) + 12·s·a·d, its experts 6 × (top-2 + the shared one) × 3·h·512
        double attention = 6 * 4 * H * H + 12.0 * 2048 * 16 * 64;
        double moeLayer = attention + 6 * 3 * (3 * H * 512);
        assertEquals(perToken0 + moeLayer + 6 * (3 * H + 2 * H * H) + 6 * H * V, perToken1, 1e-9 * perToken1);
        // a dense last layer: its MLP 6 × 3·h·4,096 instead
        JobEstimate wd = dsv3(LAST_DENSE, 0, "tp: 1, pp: 1"), d = dsv3(LAST_DENSE, 1, "tp: 1, pp: 1");
        double d0 = wd.estimate().throughput().modelTflopsPerGpu() * 1e12 / wd.estimate().throughput().tokensPerSecondPerGpu();
        double d1 = d.estimate().throughput().modelTflopsPerGpu() * 1e12 / d.estimate().throughput().tokensPerSecondPerGpu();
        assertEquals(d0 + attention + 6 * 3 * H * 4096 + 6 * (3 * H + 2 * H * H) + 6 * H * V, d1, 1e-9 * d1);
    }

    @Test
    void itsParametersAreAnMoeLayersOnTheLastStage() {
        Estimate w = dsv3(FIRST_DENSE, 0, "tp: 1, pp: 2").estimate(), j = dsv3(FIRST_DENSE, 1, "tp: 1, pp: 2").estimate();
        assertEquals(w.stages().get(0).parameters(), j.stages().get(0).parameters());
        // an MoE layer: attention 4h², two norms 4h (as theoretical_memory_usage counts them), the final norm's share 2h ÷ 4
        // as every layer carries it, 8 routed experts and the shared one of 3·h·512 each; eh_proj 2h², three norms 3h; the
        // embedding copy V·h (untied, pp 2)
        double moeLayer = 4 * H * H + 4 * H + 2 * H / 4 + 8 * 3 * H * 512 + 3 * H * 512;
        assertEquals(moeLayer + 2 * H * H + 3 * H + V * H, j.stages().get(1).parameters() - w.stages().get(1).parameters(), 1e-6);
        // a dense last layer: its MLP 3·h·4,096, no experts
        Estimate wd = dsv3(LAST_DENSE, 0, "tp: 1, pp: 2").estimate(), d = dsv3(LAST_DENSE, 1, "tp: 1, pp: 2").estimate();
        double denseLayer = 4 * H * H + 4 * H + 2 * H / 4 + 3 * H * 4096;
        assertEquals(denseLayer + 2 * H * H + 3 * H + V * H, d.stages().get(1).parameters() - wd.stages().get(1).parameters(), 1e-6);
    }

    @Test
    void anMoeMtpLayerAddsItsAllToAllsOnTheLastStage() {
        // pp 2: the last stage's 2 decoder layers at the decoder's share (3 MoE of 4 layers, as every stage's) and the MTP's
        // MoE layer whole: (2 × 3/4 + 1) × 4 all-to-alls per micro-batch (the mean share counted its block at 3/4 too: 9)
        Estimate e = dsv3(FIRST_DENSE, 1, "tp: 1, pp: 2, ep: 2").estimate();
        Term.Collectives a2a = e.terms().stream().filter(t -> t instanceof Term.Collectives c && c.dim() == ParallelDim.EP)
                .map(Term.Collectives.class::cast).findFirst().orElseThrow();
        assertEquals((2 * 3 / 4.0 + 1) * 4, a2a.count(), 1e-12);
        // a layout that puts the m there ("Ett|ttmL") builds the same: its m an MoE layer whole, as the compute prices it by kind
        // (it counted the m at the decoder's share, 3/4: 9)
        Estimate laid = dsv3(FIRST_DENSE, 1, "tp: 1, pp: 2, ep: 2, pipeline_layout: \"Ett|ttmL\"").estimate();
        Term.Collectives a2aLaid = laid.terms().stream().filter(t -> t instanceof Term.Collectives c && c.dim() == ParallelDim.EP)
                .map(Term.Collectives.class::cast).findFirst().orElseThrow();
        assertEquals((2 * 3 / 4.0 + 1) * 4, a2aLaid.count(), 1e-12);
    }

    /** A hybrid of 4 layers "M*EM" with an MTP layer of two blocks, an attention-only and an MoE layer ('/*E'). */
    private static JobEstimate hybrid(String pattern, String parallelism) {
        return job(EstimateManifest.h100(), "dtype: bf16, layers: 4, hidden_size: 1024, attention_heads: 16, kv_heads: 16, ffn_hidden_size: 2048,"
                + " vocab_size: 32000, gated_mlp: false, tied_embeddings: false, seq_length: 2048, experts: 8, top_k: 2,"
                + " moe: { expert_ffn_hidden_size: 512, shared_expert_ffn_hidden_size: 512, grouped_gemm: true, dispatcher: alltoall },"
                + " hybrid: { pattern: \"" + pattern + "\", mamba_num_heads: 32, mamba_head_dim: 64, mamba_state_dim: 128,"
                + " mamba_num_groups: 8, mamba_conv_kernel: 4 }", parallelism);
    }

    @Test
    void aHybridGroupsLettersGiveItsBlocksKinds() {
        JobEstimate w = hybrid("M*EM", "tp: 1, pp: 2"), j = hybrid("M*EM/*E", "tp: 1, pp: 2");
        MtpLayers mtp = j.inputs().variants().mtp();
        assertEquals(new MtpLayers(1, 2, "*E", false, null), mtp);
        ModelShape m = j.inputs().model();
        // parameters: an attention-only layer (4h² and its norm h) and an MoE layer (its norm and router h·(1 + 8), 8 routed
        // experts and the shared one of 2·h·512, GeLU), eh_proj 2h², three norms, the embedding copy V·h
        double blocks = 4 * H * H + H + H * (1 + 8) + 8 * 2 * H * 512 + 2 * H * 512;
        assertEquals(blocks + 2 * H * H + 3 * H + V * H, j.estimate().stages().get(1).parameters() - w.estimate().stages().get(1).parameters(), 1e-6);
        // FLOPs: hybrid_flops' attention layer and MoE layer (the letters after '/', get_hybrid_layer_counts) and the logits
        // again; hybrid_flops has no eh_proj or norm term (training.py at 001b00c2), unlike transformer_flops
        double perToken0 = w.estimate().throughput().modelTflopsPerGpu() * 1e12 / w.estimate().throughput().tokensPerSecondPerGpu();
        double perToken1 = j.estimate().throughput().modelTflopsPerGpu() * 1e12 / j.estimate().throughput().tokensPerSecondPerGpu();
        double attn = 3 * 4 * 16 * 64 * (H + H + 2048 / 2.0), moe = 3 * 4 * H * (512 * 2 + 512);
        assertEquals(perToken0 + attn + moe + 6 * H * V, perToken1, 1e-9 * perToken1);
        // time: of the 2 blocks, 1 an MoE layer: 2 mean layers with MoeCost's MoE side (its mean over the pattern: 1 E of 4)
        // replaced by 1 MoE layer's
        Term.Mtp t = term(j.estimate(), Term.Mtp.class);
        Term.Moe x = term(j.estimate(), Term.Moe.class);
        assertEquals(1, t.moeBlocks());
        assertEquals(2, t.stageBlocks());
        double layer = t.meanSeconds() / 2;
        assertEquals(2 * (layer - x.moeLayerSeconds() / 4) + x.moeLayerSeconds(), t.blockSeconds(), 1e-12 * layer);
        assertTrue(EstimateWords.line(t).contains("2 layers of the kind Megatron-Core builds, 1 of 2 per MTP layer an MoE layer"), EstimateWords.line(t));
        assertNotNull(m);
    }

    @Test
    void theEmbeddingCopysGradientIsAllReducedWithTheFirstStageEachStep() {
        // 2 nodes, tp 2, pp 2, dp 4: the first and last stage 8 ranks apart, on two nodes: the network
        JobEstimate j = job(EstimateManifest.pod(2), model(false, FIRST_DENSE, 1), "tp: 2, pp: 2, ep: 2");
        // V·h ÷ tp main gradients, fp32 (Megatron's bf16 default: 4 bytes); 64 ÷ dp 4 micro-batches
        EmbeddingSyncTest.assertPairSyncOnTheNetwork(j.estimate(), V * H / 2 * 4, 64 / 4);
    }

    @Test
    void noEmbeddingSyncOnOneStageOrUntiedWithoutMtpAndOneSyncTiedWithMtp() {
        assertNull(sync(dsv3(FIRST_DENSE, 1, "tp: 1, pp: 1").estimate()), "pp 1: the embedding group is one stage");
        assertNull(sync(dsv3(FIRST_DENSE, 0, "tp: 1, pp: 2").estimate()), "untied, no MTP: no copy");
        assertNotNull(sync(dsv3(FIRST_DENSE, 1, "tp: 1, pp: 2").estimate()));
        // tied: the one matrix the output layer shares is the MTP stage's too, all-reduced once (finalize_model_grads'
        // `share_embeddings_and_output_weights or mtp_num_layers`: one weight, one all-reduce), as tied without MTP
        Estimate t = job(EstimateManifest.h100(), model(true, FIRST_DENSE, 1), "tp: 1, pp: 2").estimate();
        assertEquals(1, t.terms().stream().filter(x -> x instanceof Term.Collectives c && EmbeddingSync.is(c.what())).count());
        assertEquals(1, sync(t).count());
        assertEquals(2, sync(t).n());
        assertEquals(V * H * 4, sync(t).cost().bytes(), 1e-6);
    }

    @Test
    void thePlansTextAndJsonShowTheEmbeddingSync(@TempDir Path dir) {
        PlanCli cli = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("train.sh", script(1, "", 2)).jobClusters("lab", "*.sh");
        EmbeddingSyncTest.assertPlanShowsThePairSync(cli);
    }

    @Test
    void aLayoutsMOffTheLastStageRunsItsBlockAndEhProjThereAndItsLogitsOnTheLast() {
        // Megatron's layout "Ett|ttm|L" on pp 3 ("mtp_standalone": decoder layers before m, the loss stage after it): the MTP
        // layer's transformer layer and eh_proj on stage 1 beside its 2 decoder layers (mtp_on_this_rank), its logits and loss
        // on the last stage, which process_mtp_loss computes on the post_process rank
        String small = "dtype: bf16, layers: 4, hidden_size: 1024, attention_heads: 16, kv_heads: 16, ffn_hidden_size: 4096,"
                + " vocab_size: 32000, gated_mlp: false, tied_embeddings: false, seq_length: 2048, mtp_layers: 1";
        JobEstimate j = job(EstimateManifest.h100().jobGpusPerNode(3), small, "tp: 1, pp: 3");
        JobInputs in = j.inputs();
        Layout laidOut = layout(in, List.of(2L, 3L, 0L));
        assertTrue(in.variants().mtp().inLayout(in.model(), laidOut));
        assertEquals(1, in.variants().mtp().stage(in.model(), laidOut));
        Estimate e = onLayout(in, List.of(2L, 3L, 0L));
        Term.Mtp mtp = term(e, Term.Mtp.class);
        Term.Compute c = term(e, Term.Compute.class);
        assertEquals(1, mtp.stageBlocks(), "the one block, on stage 1 where the layout's m is");
        assertEquals(mtp.meanSeconds(), mtp.blockSeconds(), 1e-18);     // a dense model's block is its mean layer
        assertEquals(1, mtp.stage());
        // the slowest stage is m's: 3 blocks and eh_proj, no logits there
        assertEquals(3, c.layersPerStage());
        assertEquals(0, c.logitSeconds());
        Estimate even = j.estimate();
        double layer = (term(even, Term.Compute.class).seconds() - term(even, Term.Compute.class).logitSeconds()
                - term(even, Term.Mtp.class).seconds()) / term(even, Term.Compute.class).layersPerStage();
        assertEquals(3 * layer + mtp.projSeconds(), c.seconds(), 1e-12 * c.seconds());
        assertEquals(mtp.projSeconds(), mtp.stageSeconds(), 1e-18);
        // the MTP logits and loss again, priced on the last stage, the compute term's logits once more
        assertEquals(term(even, Term.Compute.class).logitSeconds(), mtp.logitSeconds(), 1e-15);
        assertTrue(EstimateWords.line(mtp).contains(" per micro-batch on pipeline rank 1, the layout's m (eh_proj), beyond its layers at the mean"
                + " layer, and "), EstimateWords.line(mtp));
        // stage 1's parameters: its 3 blocks' (2 decoder layers and the MTP layer's, a dense model's every layer alike), eh_proj
        // 2h² and its three norms 3h, and its own word embedding V·h (gpt_model.py: built where pre_process or mtp_process); the
        // last stage its output layer alone
        double h = 1024, layerParams = in.model().transformerParameters() / 4;
        assertEquals(3 * layerParams + 2 * h * h + 3 * h + h * 32000, e.stages().get(1).parameters(), 1e-6);
        assertEquals(h * 32000, e.stages().get(2).parameters(), 1e-6);
        // the embedding group is the first stage and m's (get_mtp_ranks), untied: 2 ranks, 1 pipeline rank apart, one NVLink node
        Term.Collectives s = sync(e);
        assertEquals(2, s.n());
        assertEquals("word embedding's gradient all-reduce per step (V·h/tp, first stage and the MTP layers' (pipeline rank 1 of 3): the"
                + " embedding group)", s.what());
        assertEquals(32000 * h * 4, s.cost().bytes(), 1e-6);
        assertEquals(Tier.NVLINK, s.cost().tier());
    }

    /** The DeepSeek-shaped model on 2 nodes at tp 2, pp 4, dp 2 (pipeline ranks 4 apart), its MTP layer where the layout's m is. */
    private static Estimate laidOut(boolean tied, List<Long> stages) {
        return onLayout(pod(model(tied, FIRST_DENSE, 1), TP2_PP4), stages);
    }

    @Test
    void theEmbeddingGroupIsTheFirstAndMsStageUntiedAndAddsTheLastTied() {
        // "Et|t|ttm|L" on pp 4: m on pipeline rank 2, global rank 8 (tp 2 × dp 2 = 4 per pipeline stride), the second node
        List<Long> mOnTwo = List.of(1L, 1L, 3L, 0L);
        // untied: get_embedding_ranks = [first] + get_mtp_ranks = ranks 0 and 8: a pair 8 apart, on the network
        Term.Collectives pair = sync(laidOut(false, mOnTwo));
        assertEquals(2, pair.n());
        assertEquals(V * H / 2 * 4, pair.cost().bytesPerRank(), 1e-6);
        assertEquals(Tier.NETWORK, pair.cost().tier());
        assertEquals(pair.cost().latency() + V * H / 2 * 4 / (50e9 * 0.9), pair.seconds(), 1e-12);
        assertEquals("word embedding's gradient all-reduce per step (V·h/tp, first stage and the MTP layers' (pipeline rank 2 of 4): the"
                + " embedding group)", pair.what());
        // tied: the last stage too, 3 ranks (0, 8, 12): a ring of 3 moves 2(n − 1)/n = 4/3 × the bytes per rank, each member on
        // its own node at a NIC's 400 Gb/s × the network efficiency
        Term.Collectives three = sync(laidOut(true, mOnTwo));
        assertEquals(3, three.n());
        assertEquals(V * H / 2 * 4, three.cost().bytes(), 1e-6);
        assertEquals(V * H / 2 * 4 * 4 / 3, three.cost().bytesPerRank(), 1e-6);
        assertEquals(Tier.NETWORK, three.cost().tier());
        assertEquals(three.cost().latency() + V * H / 2 * 4 * 4 / 3 / (50e9 * 0.9), three.seconds(), 1e-12);
        assertEquals("word embedding's gradient all-reduce per step (V·h/tp, first, last and the MTP layers' stage (pipeline rank 2 of 4): the"
                + " embedding group)", three.what());
        // m on the last stage ("Et|t|t|tmL"): the pair of first and last, tied or not, as without a layout
        List<Long> mOnLast = List.of(1L, 1L, 1L, 2L);
        assertEquals(EmbeddingSync.WHAT, sync(laidOut(false, mOnLast)).what());
        assertEquals(2, sync(laidOut(true, mOnLast)).n());
        // m on the first stage with the embedding ("Ettttm|L|...": one chunk, one embedding): untied, a group of one, no sync
        assertNull(sync(laidOut(false, List.of(5L, 0L, 0L, 0L))));
    }

    @Test
    void mOffTheLastStageHoldsEhProjItsNormsAndAnEmbeddingOfItsOwnTiedOrNot() {
        // against the same split without MTP (its blocks counted alike, m's at the mean layer): m's stage holds its block as an MoE
        // layer (MOE_OVER_MEAN_TP2 beyond the mean), eh_proj 2h² ÷ tp, three norms 3h and a
        // word embedding V·h ÷ tp of its own, tied or not (its chunk builds the embedding where pre_process or mtp_process; the
        // output layer on the last stage shares nothing with it); the last stage holds only what it held without MTP
        for (boolean tied : new boolean[] {false, true}) {
            List<Long> mOnTwo = List.of(1L, 1L, 3L, 0L);        // "Et|t|ttm|L"
            JobInputs in = pod(model(tied, FIRST_DENSE, 1), TP2_PP4);
            Estimate e = onLayout(in, mOnTwo), w = onLayoutWithoutMtp(in, mOnTwo);
            assertEquals(2 * H * H / 2 + 3 * H + V * H / 2 + MOE_OVER_MEAN_TP2, e.stages().get(2).parameters() - w.stages().get(2).parameters(), 1e-6,
                    "tied " + tied);
            for (int i : new int[] {0, 1, 3}) assertEquals(w.stages().get(i).parameters(), e.stages().get(i).parameters(), 1e-6, "tied " + tied);
        }
        // m on the last stage: tied, the output layer's matrix is the MTP stage's embedding (one matrix); untied, a copy beside it
        Estimate tiedOnLast = laidOut(true, List.of(1L, 1L, 1L, 2L)), untiedOnLast = laidOut(false, List.of(1L, 1L, 1L, 2L));
        assertEquals(V * H / 2, untiedOnLast.stages().get(3).parameters() - tiedOnLast.stages().get(3).parameters(), 1e-6);
    }

    @Test
    void aMegatronLayoutWithMOffTheLastStageReachesThePlansTextAndJson(@TempDir Path dir) {
        // --pipeline-model-parallel-layout "Et|t|ttm|L" on pp 4 × tp 2 × dp 2, 2 nodes: m on pipeline rank 2, untied
        PlanCli cli = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("train.sh", script("Et|t|ttm|L")).jobClusters("lab", "*.sh");
        PlanCli.Run text = cli.plan();
        assertEquals(0, text.code(), text.err());
        assertTrue(text.out().contains("1 × pp word embedding's gradient all-reduce per step (V·h/tp, first stage and the MTP layers'"
                + " (pipeline rank 2 of 4): the embedding group) over 2 ranks: 65.5 MB moved per rank (2(n−1)/n·S) each, over 8 × 400 Gb/s"
                + " ConnectX-7 per node (RDMA) at 45 GB/s"), text.out());
        assertTrue(text.out().contains(" per micro-batch on pipeline rank 2, the layout's m (eh_proj), beyond its layers at the mean layer"),
                text.out());
        Map<String, Object> time = PlanCli.map(PlanCli.map(cli.planJson().json().get("current")).get("time"));
        assertEquals(32000L * 1024 / 2 * 4, ((Number) time.get("embedding_sync_bytes")).longValue(), time.toString());
        // the sends from m's stage on carry the MTP layer's hidden states: 2 + 1 × 1 sends' worth of b·s·h·2 ÷ tp 2 (sequence
        // parallel) = 3 × 2,097,152 = 6,291,456 bytes per micro-batch, in 2 sends
        assertTrue(text.out().contains("pp " + MtpLayers.SENDS + " (with the 1 MTP layer's hidden states: after the layout's m each send"
                + " carries the decoder's and the MTP layers' so far, (1 + K)·b·s·h, Megatron-Core's standalone MTP stage; sends = (2·vpp"
                + " + 1) × b·s·h·bytes on the rank sending the most): 6.3 MB per micro-batch in 2 sends of 3.1 MB over "), text.out());
        assertEquals(3L * 2048 * 1024 * 2 / 2, ((Number) time.get("pp_sends_bytes")).longValue(), time.toString());
    }

    /**
     * One MTP loss's output-layer input and fp32 softmax on the last stage, (4·s·b·h + 4·s·b·V) ÷ tp 2 = 135,266,304 bytes
     * (MemoryModel.lossBytes: the last stage computes the main loss and each MTP layer's for its micro-batch; the bf16 logits'
     * copy is once a stage, with or without MTP).
     */
    private static final double LOSS = (4 * 2048 * H + 4 * 2048 * V) / 2;

    @Test
    void theSendsAfterALayoutsMOffTheLastStageCarryTheMtpLayersHiddenStates() {
        // "Et|t|ttm|L" on pp 4 (ranks 4 apart, two nodes: the network): MultiTokenPredictionBlock returns the decoder's hidden
        // states and the MTP layer's concatenated, (1 + D)·s = 2s rows; stage 2 sends them forward to the loss stage and stage 3
        // their gradient back. Each rank sends 2 per micro-batch (2·vpp); ranks 2 and 3 each have 1 of 2 at 2 × b·s·h:
        // (2 + 1 × 1) × 2,097,152 = 6,291,456 bytes, in 2 sends of 3,145,728 on average
        Term.Sends mOnTwo = ppSends(laidOut(false, List.of(1L, 1L, 3L, 0L)));
        assertEquals(2, mOnTwo.count());
        assertEquals(3 * BSH, mOnTwo.bytes(), 1e-6);
        assertEquals(3 * BSH / 2, mOnTwo.cost().bytes(), 1e-6);
        assertEquals(Tier.NETWORK, mOnTwo.cost().tier());
        assertEquals(2 * (mOnTwo.cost().latency() + 3 * BSH / 2 / (mOnTwo.cost().lineRate() * mOnTwo.cost().efficiency())), mOnTwo.seconds(),
                1e-12);
        assertTrue(MtpLayers.carries(mOnTwo.what()), mOnTwo.what());
        // quiet: m on the last stage ("Et|t|t|tmL") sends b·s·h as the decoder alone, and so does a job without a layout
        Term.Sends mOnLast = ppSends(laidOut(false, List.of(1L, 1L, 1L, 2L)));
        assertEquals(2 * BSH, mOnLast.bytes(), 1e-6);
        assertEquals(MtpLayers.SENDS, mOnLast.what());
        JobEstimate plain = job(EstimateManifest.pod(2), model(false, FIRST_DENSE, 1), TP2_PP4);
        assertEquals(2 * BSH, ppSends(plain.estimate()).bytes(), 1e-6);
    }

    @Test
    void emptyStagesBetweenMAndTheLossPassTheHiddenStatesOnBothWays() {
        // "Ett|ttm||L" on pp 4: m on stage 1; stage 1 sends 2s rows forward, stage 2 (empty) receives them and sends them on
        // forward and their gradient back, stage 3 sends the gradient back: rank 2 has 2 of its 2 sends at 2 × b·s·h, the most:
        // (2 + 1 × 2) × 2,097,152 bytes
        Estimate e = laidOut(true, List.of(2L, 3L, 0L, 0L));
        assertEquals(4 * BSH, ppSends(e).bytes(), 1e-6);
        assertTrue(ppSends(e).what().endsWith("sends = (2·vpp + 2) × b·s·h·bytes on the rank sending the most)"), ppSends(e).what());
    }

    /** {@link #laidOut}'s job with the same split and no MTP layers (its blocks counted alike). */
    private static Estimate laidOutWithoutMtp(List<Long> stages) {
        return onLayoutWithoutMtp(pod(model(false, FIRST_DENSE, 1), TP2_PP4), stages);
    }

    @Test
    void theStagesAfterMKeepTheReceivedHiddenStatesOfTheirInFlightMicroBatches() {
        // "Et|t|ttm|L" on pp 4, m = 32 micro-batches: the loss stage (rank 3) receives the decoder's and the MTP layer's hidden
        // states, (1 + D)·s = 2s rows, and keeps them for the backward of its min(m, pp − 3) = 1 micro-batch in flight; it has no
        // decoder layer (none may follow m), so no layer's activations held them: 2 × b·s·h·2 ÷ tp 2 = 2 × 2,097,152 bytes more,
        // beside the MTP loss it computes (LOSS)
        List<Long> mOnTwo = List.of(1L, 1L, 3L, 0L);
        Estimate e = laidOut(false, mOnTwo), w = laidOutWithoutMtp(mOnTwo);
        assertEquals(2 * BSH + LOSS, e.stages().get(3).activations() - w.stages().get(3).activations(), 1e-6);
        for (int i : new int[] {0, 1, 2}) assertEquals(w.stages().get(i).activations(), e.stages().get(i).activations(), 1e-6, "stage " + i);
        // "Ett|ttm||L": m on rank 1; rank 2 (empty) keeps min(32, 4 − 2) = 2 micro-batches' 2s rows, rank 3 one's
        List<Long> mOnOne = List.of(2L, 3L, 0L, 0L);
        Estimate e1 = laidOut(false, mOnOne), w1 = laidOutWithoutMtp(mOnOne);
        assertEquals(2 * 2 * BSH, e1.stages().get(2).activations() - w1.stages().get(2).activations(), 1e-6);
        assertEquals(2 * BSH + LOSS, e1.stages().get(3).activations() - w1.stages().get(3).activations(), 1e-6);
        // quiet: m on the last stage ("Et|t|t|tmL") receives b·s·h as its first layer's input, as without MTP (the MTP block's
        // layer and its loss are the stage's, not received rows)
        List<Long> mOnLast = List.of(1L, 1L, 1L, 2L);
        assertEquals(laidOutWithoutMtp(mOnLast).stages().get(3).activations() + LOSS, laidOut(false, mOnLast).stages().get(3).activations(), 1e-6);
    }

    @Test
    void aFirstMtpStageWithoutADecoderLayerKeepsTheDecodersHiddenStatesItReceived() {
        // "Ett|tt|m|L" on pp 4 (blocks 2, 2, 1, 0): stage 2 holds the MTP layer and no decoder layer, so it receives the decoder's
        // output, s rows, and keeps it as its input for the backward of each of its min(32, 4 − 2) = 2 micro-batches in flight
        // (schedules.py's input_tensors); hnorm reads it, no layer's activations counted it (the MTP block's count its own input,
        // eh_proj's output): 1 row × 2 × b·s·h·2 ÷ tp 2. Stage 3 keeps the 2s rows of its 1 micro-batch, as before
        List<Long> mAlone = List.of(2L, 2L, 1L, 0L);
        Estimate e = laidOut(false, mAlone), w = laidOutWithoutMtp(mAlone);
        assertEquals(2 * BSH, e.stages().get(2).activations() - w.stages().get(2).activations(), 1e-6);
        assertEquals(2 * BSH + LOSS, e.stages().get(3).activations() - w.stages().get(3).activations(), 1e-6);
        // quiet: m after a decoder layer on its stage ("Et|t|ttm|L"): that layer's activations hold the received s rows
        List<Long> mAfterT = List.of(1L, 1L, 3L, 0L);
        assertEquals(laidOutWithoutMtp(mAfterT).stages().get(2).activations(), laidOut(false, mAfterT).stages().get(2).activations(), 1e-6);
    }

    @Test
    void mtpSplitOverTwoRanksKeepsEachStagesReceivedRowsAndSendsThemOn() {
        // "Ett|ttm|m|L" on pp 4, --mtp-num-layers 2 (mtp_split, pull request #5329): blocks 2, 3, 1, 0, so rank 1 holds MTP layer 0
        // and rank 2 MTP layer 1 (layoutStages 0, 1, 1, 0). By hand, after MultiTokenPredictionBlock's torch.cat on dim 0:
        // rank 2 receives [h, mtp0] = 2s rows and keeps them for each of its min(32, 4 − 2) = 2 micro-batches in flight
        // (no decoder layer after m, so no layer's activations hold them): 2 rows × 2 = 4 × b·s·h·2 ÷ tp 2; rank 3 receives
        // [h, mtp0, mtp1] = 3s rows for its 1 micro-batch: 3 × b·s·h·2 ÷ tp 2; ranks 0 and 1 receive the decoder's h alone
        // (rank 1's first t layer holds it), as without MTP
        List<Long> split = List.of(2L, 3L, 1L, 0L);
        JobInputs in = pod(model(false, FIRST_DENSE, 2), TP2_PP4);
        assertEquals(List.of(0, 1, 1, 0), java.util.Arrays.stream(in.variants().mtp().perRank(in.model(), layout(in, split))).boxed().toList());
        Estimate e = onLayout(in, split), w = onLayoutWithoutMtp(in, split);
        double[] extra = {0, 0, 4 * BSH, 3 * BSH + 2 * LOSS};      // rank 3 computes both MTP losses beside the main one
        for (int r = 0; r < 4; r++) {
            assertEquals(extra[r], e.stages().get(r).activations() - w.stages().get(r).activations(), 1e-6, "rank " + r);
        }
        // the sends beyond b·s·h by stage: stage 1 sends 1 + 1 forward; stage 2 1 + 2 forward and 1 + 1 back; stage 3 1 + 2 back:
        // rank 2 the most, 3 extra: (2·vpp + 3) × b·s·h·bytes = 5 × b·s·h·2 ÷ tp 2, in 2 sends per micro-batch
        assertEquals(5 * BSH, ppSends(e).bytes(), 1e-6);
        assertEquals(2, ppSends(e).count());
        assertEquals(2 * BSH, ppSends(w).bytes(), 1e-6);
    }

    private static Term.Sends shapeExchange(Estimate e) {
        return e.terms().stream().filter(t -> t instanceof Term.Sends x && x.what().equals(MtpLayers.SHAPE_EXCHANGE))
                .map(Term.Sends.class::cast).findFirst().orElse(null);
    }

    @Test
    void mOffTheLastRankExchangesEachSendsShapeFirst() {
        // "Et|t|ttm|L": m on rank 2 of 4, Megatron-Core's mtp_standalone, so P2PCommunicator exchanges every send's shape first:
        // 2·vpp = 2 exchanges per micro-batch of 3 int64 = 24 bytes each, on the pp sends' tier, waited on (not hidden)
        Estimate e = laidOut(false, List.of(1L, 1L, 3L, 0L));
        Term.Sends x = shapeExchange(e);
        assertNotNull(x);
        assertEquals(2, x.count());
        assertEquals(48, x.bytes(), 0);
        assertEquals(24, x.cost().bytes(), 0);
        assertEquals(ppSends(e).cost().tier(), x.cost().tier());
        assertEquals(2 * (x.cost().latency() + 24 / (x.cost().lineRate() * x.cost().efficiency())), x.seconds(), 1e-12);
        // the host's wait after the exchange (.tolist(), torch.cuda.synchronize() in some versions) is said to be within α
        assertTrue(x.what().endsWith("not hidden; the host's wait after it within its latency)"), x.what());
        // the pp dimension's time carries it for each of the m = 32 micro-batches, beside the sends and the embedding sync
        double mb = 32;
        assertEquals(mb * (ppSends(e).seconds() + x.seconds()) + sync(e).seconds(), e.time().comm().get(ParallelDim.PP), 1e-12);
        // quiet: m on the last rank ("Et|t|t|tmL", not standalone), and no layout
        assertNull(shapeExchange(laidOut(false, List.of(1L, 1L, 1L, 2L))));
        JobEstimate plain = job(EstimateManifest.pod(2), model(false, FIRST_DENSE, 1), TP2_PP4);
        assertNull(shapeExchange(plain.estimate()));
    }

    @Test
    void aThreeRankEmbeddingGroupIsPricedOnTheTierOfItsClosingHop() {
        // tied, "Ett|ttm||L" on one node of 8 at tp 2, pp 4 (pipeline ranks 2 apart): the group is pipeline ranks 0, 1 and 3,
        // global ranks 0, 2 and 6, all on the node: NCCL's ring 0 → 2 → 6 → 0 runs every hop on NVLink. (Spacing 3 ranks at
        // the widest gap, 2 pipeline ranks, put them at 0, 4 and 8, past the node: the network.)
        JobInputs in = job(EstimateManifest.h100(), model(true, FIRST_DENSE, 1), "tp: 2, pp: 4, ep: 1").inputs();
        List<Long> mOnOne = List.of(2L, 3L, 0L, 0L);
        assertEquals(1, in.variants().mtp().stage(in.model(), layout(in, mOnOne)));
        Estimate e = onLayout(in, mOnOne);
        Term.Collectives three = sync(e);
        assertEquals(3, three.n());
        assertEquals("word embedding's gradient all-reduce per step (V·h/tp, first, last and the MTP layers' stage (pipeline rank 1 of 4): the"
                + " embedding group)", three.what());
        // V·h ÷ tp 2 fp32 main gradients = 65,536,000 bytes; a ring of 3 moves 2(n − 1)/n = 4/3 of them per rank
        assertEquals(V * H / 2 * 4, three.cost().bytes(), 1e-6);
        assertEquals(V * H / 2 * 4 * 4 / 3, three.cost().bytesPerRank(), 1e-6);
        assertEquals(Tier.NVLINK, three.cost().tier());
        assertEquals(three.cost().latency() + V * H / 2 * 4 * 4 / 3 / (three.cost().lineRate() * three.cost().efficiency()), three.seconds(), 1e-12);
    }

    @Test
    void mInTheFirstRanksLastChunkHoldsTwoEmbeddingsThereAndSyncsNeither() {
        // "Ett|t|tm|L" on pp 2 × vpp 2 (Megatron's order: rank 0 chunk 0, rank 1 chunk 0, rank 0 chunk 1, rank 1 chunk 1): m in
        // rank 0's last chunk. Untied: get_mtp_ranks adds pp_ranks[0], so the embedding group is rank 0 alone and
        // _allreduce_embedding_grad skips it; rank 0 holds chunk 0's embedding and the MTP chunk's, V·h ÷ tp each
        for (boolean tied : new boolean[] {false, true}) {
            JobInputs in = pod(model(tied, FIRST_DENSE, 1), "tp: 2, pp: 2, virtual_pp: 2, ep: 2");
            List<Long> mOnZero = List.of(2L, 1L, 2L, 0L);
            Layout l = layout(in, mOnZero);
            assertEquals(0, in.variants().mtp().stage(in.model(), l));
            Estimate e = onLayout(in, mOnZero), w = onLayoutWithoutMtp(in, mOnZero);
            // rank 0: beyond the same blocks without MTP, its m an MoE layer (the decoder's last layer, in its stage), eh_proj 2h² ÷ tp, its three norms 3h and the MTP chunk's own embedding
            // V·h ÷ tp beside chunk 0's (gpt_model.py builds one where pre_process or mtp_process, one per chunk), tied or not
            assertEquals(2 * H * H / 2 + 3 * H + V * H / 2 + MOE_OVER_MEAN_TP2, e.stages().get(0).parameters() - w.stages().get(0).parameters(), 1e-6,
                    "tied " + tied);
            assertEquals(w.stages().get(1).parameters(), e.stages().get(1).parameters(), 1e-6, "tied " + tied);
            if (tied) {
                // tied: the group is the first and last stage (the MTP rank is the first), the pair ranks 0 and 8 apart
                assertEquals(EmbeddingSync.WHAT, sync(e).what());
                assertEquals(2, sync(e).n());
            } else {
                assertEquals(0, EmbeddingSync.group(in.model(), l, in.variants().mtp()).length);
                assertNull(sync(e), "untied: the group is rank 0 alone, nothing all-reduced");
            }
            // the sends: rank 0's chunk 1 sends 2s rows to rank 1's chunk 1, which sends their gradient back: 1 of each rank's
            // 2·vpp = 4 sends at 2 × b·s·h: (4 + 1 × 1) × 2,097,152 bytes
            assertEquals(5 * BSH, ppSends(e).bytes(), 1e-6, "tied " + tied);
            assertEquals(4, ppSends(e).count());
        }
    }

    @Test
    void mtpSplitOverTwoRanksGivesEachItsLayersEmbeddingCopyAndGroupSeat() {
        // "Et|t|t|t||m|m|L" on pp 4 × vpp 2, Megatron-LM's mtp_split (pull request #5329): stages in Megatron's order are rank 0
        // chunk 0 "Et", rank 1 chunk 0 "t", rank 2 "t", rank 3 "t", rank 0 chunk 1 "", rank 1 chunk 1 "m", rank 2 chunk 1 "m",
        // rank 3 chunk 1 "L": blocks 1, 1, 1, 1, 0, 1, 1, 0 (4 decoder layers, then 2 MTP layers): ranks 1 and 2 one MTP layer each
        List<Long> split = List.of(1L, 1L, 1L, 1L, 0L, 1L, 1L, 0L);
        for (boolean tied : new boolean[] {false, true}) {
            JobInputs in = pod(model(tied, FIRST_DENSE, 2), "tp: 2, pp: 4, virtual_pp: 2, ep: 2");
            Layout l = layout(in, split);
            MtpLayers mtp = in.variants().mtp();
            assertEquals(List.of(0, 1, 1, 0), java.util.Arrays.stream(mtp.perRank(in.model(), l)).boxed().toList());
            assertEquals(1, mtp.stage(in.model(), l), "the first rank holding MTP layers");
            Estimate e = onLayout(in, split), w = onLayoutWithoutMtp(in, split);
            // ranks 1 and 2: beyond the same blocks without MTP, each its MTP layer an MoE layer (its chunk holds no decoder layer),
            // its eh_proj 2h² ÷ tp, three norms 3h and a word
            // embedding V·h ÷ tp of its own (its MTP chunk neither the first nor the last: a copy, tied or not)
            for (int r : new int[] {1, 2}) {
                assertEquals(2 * H * H / 2 + 3 * H + V * H / 2 + MOE_OVER_MEAN_TP2, e.stages().get(r).parameters() - w.stages().get(r).parameters(), 1e-6,
                        "tied " + tied + ", rank " + r);
            }
            for (int r : new int[] {0, 3}) assertEquals(w.stages().get(r).parameters(), e.stages().get(r).parameters(), 1e-6, "tied " + tied);
            // the embedding group: get_mtp_ranks names both MTP ranks; untied 0, 1, 2; tied the last too
            Term.Collectives s = sync(e);
            assertEquals(tied ? 4 : 3, s.n());
            assertEquals(tied ? "word embedding's gradient all-reduce per step (V·h/tp, first, last and the MTP layers' stages (pipeline"
                    + " ranks 1, 2 of 4): the embedding group)" : "word embedding's gradient all-reduce per step (V·h/tp, first stage and the"
                    + " MTP layers' (pipeline ranks 1, 2 of 4): the embedding group)", s.what());
            // the sends, per rank and micro-batch (2·vpp = 4 each), the MTP hidden states beyond b·s·h by stage: stage 5 (rank 1)
            // sends 1 + 1 forward; stage 6 (rank 2) 1 + 2 forward and 1 + 1 back; stage 7 (rank 3) 1 + 2 back: rank 2 the most,
            // 1 + 2 = 3 extra: (4 + 3) × b·s·h·bytes
            assertEquals(7 * BSH, ppSends(e).bytes(), 1e-6, "tied " + tied);
            assertEquals(4, ppSends(e).count());
            assertTrue(ppSends(e).what().endsWith("sends = (2·vpp + 3) × b·s·h·bytes on the rank sending the most)"), ppSends(e).what());
            // eh_proj's time on each MTP rank, its layer's half; the logits on the last
            Term.Mtp t = term(e, Term.Mtp.class);
            assertEquals(List.of(1, 2), t.ranks());
            assertEquals(t.stageSeconds() / 2, t.stageSeconds(1), 1e-15);
            assertEquals(t.stageSeconds() / 2, t.stageSeconds(2), 1e-15);
            assertEquals(0, t.stageSeconds(3));
            assertTrue(EstimateWords.line(t).contains(" per micro-batch on pipeline ranks 1 and 2, the layout's m (eh_proj, each rank its MTP"
                    + " layers' share: 1 and 1 MTP layers, Megatron-LM's mtp_split)"), EstimateWords.line(t));
        }
    }

    @Test
    void aMegatronLayoutSplittingMtpOverRanksRunsAndSaysWhichRuleLetItIn(@TempDir Path dir) {
        // "Et|tt|tm|mL" on pp 4, --mtp-num-layers 2: m on ranks 2 and 3 (mtp_split); main Megatron-Core refuses it, the PR runs it
        PlanCli cli = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("train.sh", script(2, " --pipeline-model-parallel-layout \"Et|tt|tm|mL\"", 4))
                .jobClusters("lab", "*.sh");
        PlanCli.Run text = cli.plan();
        assertEquals(0, text.code(), text.err());
        assertTrue(text.out().contains("places the MTP layers (m) on 2 stages: Megatron-LM's mtp_split (NVIDIA/Megatron-LM pull request"
                + " #5329, an open pull request, not merged;"), text.out());
        // the pull request is open: released Megatron-Core stops at start-up on this layout, and the line says so and what to write
        assertTrue(text.out().contains("Megatron-Core's main branch at 00caa53a and its releases refuse it at start-up (\"All of the MTP"
                + " layers must be in the same one virtual pipeline stage\"), so it runs only on a build with that pull request; otherwise"
                + " put every m on one stage."), text.out());
        // the loss on two stages, 1 + 2 slots (mtp_loss_split, pull request #5318, open too): said the same way
        PlanCli.Run loss = PlanCli.in(dir.resolve("loss")).file("cluster.yaml", PlanCli.LAB_H100)
                .file("train.sh", script(2, " --pipeline-model-parallel-layout \"Et|tt|tmmL|LL\"", 4)).jobClusters("lab", "*.sh").plan();
        assertEquals(0, loss.code(), loss.err());
        assertTrue(loss.out().contains("places the loss (L) on 2 stages: Megatron-LM's mtp_loss_split (NVIDIA/Megatron-LM pull request"
                + " #5318, an open pull request, not merged)"), loss.out());
        assertTrue(loss.out().contains("Megatron-Core's main branch at 00caa53a and its releases refuse it at start-up (\"Loss must be"
                + " specified exactly once\"), so it runs only on a build with that pull request; otherwise write one L, last."), loss.out());
        assertTrue(!loss.out().contains("Megatron-LM's mtp_split (NVIDIA"), loss.out());
        assertTrue(text.out().contains(" per micro-batch on pipeline ranks 2 and 3, the layout's m (eh_proj, each rank its MTP layers'"
                + " share: 1 and 1 MTP layers, Megatron-LM's mtp_split)"), text.out());
        // the same layout with --mtp-num-layers 1 is refused as Megatron-Core refuses it (its m letters must match; SYN002,
        // PipelineLayoutLintTest) and left out: the MTP layer priced on the last stage, no mtp_split said
        PlanCli.Run one = PlanCli.in(dir.resolve("one")).file("cluster.yaml", PlanCli.LAB_H100)
                .file("train.sh", script(1, " --pipeline-model-parallel-layout \"Et|tt|tm|mL\"", 4)).jobClusters("lab", "*.sh").plan();
        assertEquals(0, one.code(), one.err());
        assertTrue(one.out().contains(" per micro-batch on the last stage beyond its layers at the mean layer"), one.out());
        assertTrue(!one.out().contains("Megatron-LM's mtp_split (NVIDIA"), one.out());
    }
}
