package dev.gpulint.derive.estimate;

import static dev.gpulint.derive.estimate.MtpJobs.BSH;
import static dev.gpulint.derive.estimate.MtpJobs.FIRST_DENSE;
import static dev.gpulint.derive.estimate.MtpJobs.H;
import static dev.gpulint.derive.estimate.MtpJobs.S;
import static dev.gpulint.derive.estimate.MtpJobs.TP2_PP4;
import static dev.gpulint.derive.estimate.MtpJobs.V;
import static dev.gpulint.derive.estimate.MtpJobs.layout;
import static dev.gpulint.derive.estimate.MtpJobs.model;
import static dev.gpulint.derive.estimate.MtpJobs.pod;
import static dev.gpulint.derive.estimate.MtpJobs.price;
import static dev.gpulint.derive.estimate.MtpJobs.ppSends;
import static dev.gpulint.derive.estimate.MtpJobs.script;
import static dev.gpulint.derive.estimate.MtpJobs.term;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.plan.EstimateWords;
import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import dev.gpulint.testing.PlanCli;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Megatron-LM's mtp_loss_split (pull request #5318, github.com/shifangx/Megatron-LM at 71ffeae2): a layout naming the loss (L)
 * on several stages, 1 + D slots. Each loss stage before the last builds an output layer of its own (GPTModel: post_process or
 * loss_split_process), computes the losses of its slots (process_mtp_loss_nonfinal_stage), keeps their logits until the
 * micro-batch's backward (MTPLossAutoScaler), and forwards only the chunks the later loss stages need. Priced on the stage that
 * holds it (MtpLayers#earlyLosses), in the one memory function MEM001 and plan read (MemoryModel). Worked by hand on a small
 * DeepSeek-V3 shape (MtpJobs): 4 layers of h 1,024, vocabulary 32,000, untied, s 2,048, b 1, tp 2 with sequence parallelism, pp 4.
 */
class MtpLossSplitTest {

    /** "Et|t|ttmL|L" on pp 4: blocks 1, 1, 3, 0; the MTP layer and its loss slot on stage 2, the main loss on stage 3. */
    private static final List<Long> BLOCKS = List.of(1L, 1L, 3L, 0L);
    private static final List<Integer> SPLIT = List.of(0, 0, 1, 1);

    private static JobInputs inputs(boolean tied) {
        return pod(model(tied, FIRST_DENSE, 1), TP2_PP4);
    }

    /** The job on {@code BLOCKS}, its loss slots as {@code losses} (null: one L, on the last stage). */
    private static Estimate estimate(boolean tied, List<Integer> losses) {
        JobInputs in = inputs(tied);
        MtpLayers m = in.variants().mtp();
        Variants v = in.variants().withMtp(new MtpLayers(m.layers(), m.blocks(), m.letters(), m.variableSeqLengths(), losses));
        return price(in, layout(in, BLOCKS), v);
    }

    @Test
    void anEarlyLossStageHoldsItsOwnOutputLayerAndItsLogitsForEachMicroBatchInFlight() {
        Estimate split = estimate(false, SPLIT), one = estimate(false, null);
        // parameters: stage 2 builds an output layer of its own weight, V·h ÷ tp 2 = 16,384,000 (untied and tied alike: it is not
        // the first stage); the last stage keeps its own as before
        assertEquals(V * H / 2, split.stages().get(2).parameters() - one.stages().get(2).parameters(), 1e-6);
        for (int i : new int[] {0, 1, 3}) assertEquals(one.stages().get(i).parameters(), split.stages().get(i).parameters(), 1e-6, "stage " + i);
        assertEquals(V * H / 2, estimate(true, SPLIT).stages().get(2).parameters() - estimate(true, null).stages().get(2).parameters(), 1e-6);
        // activations: stage 2 keeps the loss's output-layer input and fp32 softmax, 4·s·b·h·(1 + V/h) ÷ tp = 4 × 2,048 × 1,024 ×
        // 32.25 ÷ 2 bytes, for each of its min(32, 4 − 2) = 2 micro-batches in flight, and while the loss runs its bf16 logits
        // beside their fp32 copy, 2·s·b·V ÷ tp (MemoryModel.lossBytes); stage 3 receives only the main chunk, s rows, for its 1
        // micro-batch: b·s·h·2 ÷ tp less than the 2s rows it kept before, and computes the main loss alone: one loss's input and
        // softmax less than the main and the MTP loss it held before (the bf16 copy, once a stage, stays): moved, not counted twice
        double logits = 4 * S * H * (1 + V / H) / 2, upcast = 2 * S * V / 2;
        assertEquals(2 * logits + upcast, split.stages().get(2).activations() - one.stages().get(2).activations(), 1e-3);
        assertEquals(-BSH - logits, split.stages().get(3).activations() - one.stages().get(3).activations(), 1e-6);
        for (int i : new int[] {0, 1}) assertEquals(one.stages().get(i).activations(), split.stages().get(i).activations(), 1e-6, "stage " + i);
        // so stage 2 holds 2 × 135,266,304 + 65,536,000 + its output layer's weights, gradients and optimizer states more than it did
        assertTrue(split.stages().get(2).total() - one.stages().get(2).total() > 2 * logits, "stage 2 grows");
    }

    @Test
    void theSendsAfterAnEarlyLossStageCarryOnlyTheChunksKept() {
        // stage 2 computes the MTP chunk's loss and forwards the main chunk alone (n_chunks_to_keep 1): s rows forward to stage 3
        // and their gradient back, as without MTP; one L after m sends 2s rows both ways (2 + 1 sends' worth on the most)
        assertEquals(2 * BSH, ppSends(estimate(false, SPLIT)).bytes(), 1e-6);
        assertEquals(MtpLayers.SENDS, ppSends(estimate(false, SPLIT)).what());
        assertEquals(3 * BSH, ppSends(estimate(false, null)).bytes(), 1e-6);
    }

    @Test
    void anEarlyLossesLogitsAreTimedOnItsStageNotTheLast() {
        Estimate split = estimate(false, SPLIT), one = estimate(false, null);
        Term.Mtp a = term(split, Term.Mtp.class), b = term(one, Term.Mtp.class);
        assertEquals(List.of(0, 0, 1, 0), a.earlyLosses());
        assertEquals(0, a.logitSeconds(), 0, "the last stage computes the main loss only (the compute term's logits)");
        assertEquals(b.logitSeconds(), a.lossSeconds(), 1e-15);
        // rank 2: eh_proj and the MTP block's kind as before, and one loss's logits and cross-entropy more
        assertEquals(b.stageSeconds(2) + a.lossSeconds(), a.stageSeconds(2), 1e-15);
        assertEquals(b.seconds(), a.seconds(), 1e-15, "the same work per micro-batch, on another stage");
        assertEquals(0, a.stageSeconds(3), 0);
        String words = EstimateWords.line(a);
        assertTrue(words.endsWith("; Megatron-LM's mtp_loss_split (pull request #5318): 1 of the MTP losses on pipeline rank 2, "
                + dev.gpulint.derive.estimate.Units.seconds(a.lossSeconds()) + " each (its logits and cross-entropy, with its own output"
                + " layer: in that stage's compute), the last stage's " + dev.gpulint.derive.estimate.Units.seconds(0) + " for the other 0"), words);
    }

    @Test
    void quietWithOneLossOrWithoutALayoutThatPricesTheStages() {
        // one L: nothing early; the same job without a layout: all on the last stage as before
        Term.Mtp one = term(estimate(false, null), Term.Mtp.class);
        assertEquals(List.of(0, 0, 0, 0), one.earlyLosses());
        JobInputs in = inputs(false);
        MtpLayers m = in.variants().mtp();
        MtpLayers split = new MtpLayers(m.layers(), m.blocks(), m.letters(), false, SPLIT);
        assertEquals(List.of(0, 0, 0, 0), java.util.Arrays.stream(split.earlyLossesPerRank(in.model(), in.layout())).boxed().toList());
        assertEquals(1, split.lastStageLosses(in.model(), in.layout()));
    }

    @Test
    void megatronsLayoutReachesTheEstimateWithItsLossSlots() {
        Specs.Job j = Foreign.bind("train.sh", script("Et|t|ttmL|L"));
        assertEquals(List.of(0L, 0L, 1L, 1L), j.model().mtp().lossStages().value());
        assertEquals(7, j.model().mtp().lossStages().span().startLine());
        List<String> as = new ArrayList<>();
        assertEquals(SPLIT, MtpLayers.of(j, as).lossStages());
        // one L: no slots kept
        assertNull(Foreign.bind("train.sh", script("Et|t|ttm|L")).model().mtp().lossStages());
    }

    /**
     * A hybrid model's loss slots: Megatron-Core's HybridModel has no loss_split_process (hybrid_model.py at 542a36d0: the output
     * layer where post_process or mtp_process, every loss where post_process), and its '|' segments carry no loss symbol, so the
     * layout's two L are read as HybridModel runs them, every loss on the last stage, whether the segments agree with the
     * layout's stages ("M|*|M-|": 1, 1, 2, 0, as "Et|t|ttmL|L") or not; and the plan says so.
     */
    @Test
    void aHybridModelsLossSlotsAreAllOnTheLastStageAsHybridModelRunsThem() {
        String hybrid = script("Et|t|ttmL|L").replace("--swiglu \\\n", "--swiglu \\\n  --hybrid-layer-pattern \"M|*|M-|\" \\\n");
        Specs.Job j = Foreign.bind("train.sh", hybrid);
        assertEquals("M*M-", j.model().hybrid().pattern().value(), hybrid);
        assertEquals(List.of(1L, 1L, 2L, 0L), j.parallelism().stageLayers().value(), "the segments' split (the MTP layers priced on the last stage)");
        assertNull(j.model().mtp().lossStages(), "HybridModel builds no early loss stage");
        assertTrue(j.origin().unpriced().stream().anyMatch(u -> u.contains("places the loss (L) on 2 stages") && u.endsWith(
                "A hybrid model does not split its loss: Megatron-Core's HybridModel builds the output layer where post_process or"
                + " mtp_process and computes the main and the MTP losses on the last stage (process_mtp_loss; hybrid_model.py at"
                + " 542a36d0, no loss_split_process, which the pull request builds in GPTModel alone), and its pattern's '|' segments"
                + " have no loss symbol; so the estimate prices the output layer, the logits and the losses on the last stage, as"
                + " HybridModel runs them")), j.origin().unpriced().toString());
        List<String> as = new ArrayList<>();
        assertNull(MtpLayers.of(j, as).lossStages());
        // the transformer job of the same layout keeps its slots (GPTModel's loss_split_process)
        assertEquals(List.of(0L, 0L, 1L, 1L), Foreign.bind("train.sh", script("Et|t|ttmL|L")).model().mtp().lossStages().value());
    }

    @Test
    void thePlanSaysWhereTheEarlyLossRuns(@TempDir Path dir) {
        PlanCli cli = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("train.sh", script("Et|t|ttmL|L"))
                .jobClusters("lab", "*.sh");
        PlanCli.Run text = cli.plan();
        assertEquals(0, text.code(), text.err());
        assertTrue(text.out().contains("Megatron-LM's mtp_loss_split (pull request #5318): 1 of the MTP losses on pipeline rank 2, "), text.out());
        assertTrue(text.out().contains("Priced as that pull request builds it: each loss stage before the last its own output layer"), text.out());
    }
}
