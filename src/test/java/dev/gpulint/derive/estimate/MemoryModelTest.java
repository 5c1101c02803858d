package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.derive.estimate.Layout.Recompute;
import dev.gpulint.derive.estimate.ModelShape.Dtype;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The first stage's memory equals Megatron-LM's megatron/training/theoretical_memory_usage.py
 * (report_theoretical_memory: weight and optimizer, activation, in MB of 2^20 bytes) for the same arguments. The
 * expected figures were computed by running that file's formulas on each argument set (sequence parallel, selective
 * recompute: the only case the file reports activations for).
 */
class MemoryModelTest {
    private static final double MB = 1024 * 1024;

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            // name, layers, hidden, heads, groups, ffn, vocab, seq, mbs, tp, pp, dp, vpp, distopt, untied, swiglu, micro-batches, weight+opt MB, activation MB
            "dense GPT,              24,  2048, 16, 16,  8192, 50304, 2048, 2, 2, 1, 4, 1, false, false, false, 16, 11253.9727, 3677.0156",
            "GQA + SwiGLU untied,    80,  8192, 64,  8, 28672, 32000, 4096, 1, 8, 4, 2, 1, false, true,  true,  16, 37283.9150, 10256.0156",
            "distributed optimizer,  24,  2048, 16, 16,  8192, 50304, 2048, 2, 2, 1, 8, 1, true,  false, false, 16, 4689.1553, 3677.0156",
            "interleaved pipeline,   96, 12288, 96, 96, 49152, 51200, 2048, 1, 8, 8, 2, 4, true,  false, false, 32, 32004.8481, 11963.2690",
            "fewer micro-batches than stages, 40, 5120, 40, 40, 13824, 32000, 4096, 1, 2, 8, 1, 1, false, true, true, 4, 15019.6399, 5800.0625",
    })
    void firstStageEqualsMegatronTheoreticalMemory(String name, int layers, long hidden, long heads, long groups, long ffn,
                                                   long vocab, long seq, int mbs, int tp, int pp, int dp, int vpp,
                                                   boolean distopt, boolean untied, boolean swiglu, int micro,
                                                   double weightsMb, double activationMb) {
        ModelShape m = new ModelShape(layers, hidden, heads, groups, hidden / heads, ffn, vocab, seq, swiglu, !untied, 1, 1, Dtype.BF16);
        Layout l = new Layout(tp, pp, dp, 1, 1, vpp, mbs, (long) micro * mbs * dp, 0, distopt, Recompute.SELECTIVE, true);
        MemoryModel.Stage first = MemoryModel.stages(m, l, StateBytes.of(Dtype.BF16, 0, false, null, null)).get(0);
        assertEquals(weightsMb, (first.weights() + first.gradients() + first.optimizer()) / MB, 0.01, name + ": weights and optimizer");
        // theoretical_memory_usage.py counts every layer as multi-head with a two-matrix MLP (its TODO); the model adds
        // what GQA leaves out (K and V for q of a heads: 4·(1 − q/a)·s·b·h less) and what SwiGLU adds (its fc1 writes
        // gate and up: 2·ffn/h·s·b·h more), per layer held: the first stage holds min(m, pp) micro-batches of L/pp
        double sbhOverT = (double) seq * mbs * hidden / tp;
        double perLayer = sbhOverT * (-4.0 * (1 - (double) groups / heads) + (swiglu ? 2.0 * ffn / hidden : 0));
        double held = vpp > 1 ? layers * (1 + (pp - 1.0) / (pp * vpp)) : (double) layers / pp * Math.min(micro, pp);
        // and where the first stage is the last (pp 1) what that file leaves out of the loss: the output layer's bf16 logits
        // beside the fp32 copy vocab_parallel_cross_entropy makes of them (.float()), 2·s·b·V ÷ tp (MemoryModel.lossBytes)
        double upcast = pp == 1 ? 2.0 * seq * mbs * vocab / tp : 0;
        assertEquals(activationMb + (held * perLayer + upcast) / MB, first.activations() / MB, 0.01, name + ": activations");
    }

    /**
     * The NeMo 24.09 DGX-H100 FP8 Nemotron-4 340B run (128 GPUs: tp 8, pp 8, vpp 12, dp 2, micro batch 1, global 32,
     * seq 4096, sequence parallel, distributed optimizer, gradients reduced in bf16 as NeMo's performance recipes do)
     * ran on 80 GB GPUs: its first stage must fit. The activations are counted term by term: per layer s·b·h/t ×
     * (8 replicated: LayerNorm inputs 4, fp8 QKV and fc1 inputs 2, dropout masks 2; Q 2, K and V 2·8/96 each,
     * flash attention's output 2 and its fp8 cast 1; fc1 output 2·4 and fp8 fc2 input 4) for the 103 layers the
     * interleaved schedule keeps in flight, and the embedding's input and dropout.
     */
    @Test
    void nemotron340bInterleavedFp8FitsAsItRan() {
        ModelShape m = new ModelShape(96, 18432, 96, 8, 192, 73728, 256000, 4096, false, false, 1, 1, Dtype.FP8);
        Layout l = new Layout(8, 8, 2, 1, 1, 12, 1, 32, 0, true, Recompute.SELECTIVE, true);
        MemoryModel.Stage first = MemoryModel.stages(m, l, new StateBytes(2, 2, 12, StateBytes.Accounting.STATED)).get(0);
        double sbh = 4096.0 * 18432, t = 8;
        double perLayer = sbh / t * (8 + 2 + 4.0 * 8 / 96 + 2 + 1 + 8 + 4);
        double held = 14 + 88 + 1;                                   // warm-up forwards of one-layer chunks, and one more
        double embedding = (8 * 4096 + sbh) * 8 * (1 + 7.0 / 96) / t;
        assertEquals(held * perLayer + embedding, first.activations(), 1);
        double params = (96 * (2.0 * 18432 * 18432 + 2.0 * 18432 * 8 * 192 + 2.0 * 18432 * 73728 + 4 * 18432) + 2 * 18432) / 64
                + 18432.0 * 256000 / 8;
        assertEquals(params, first.parameters(), 1);
        assertEquals(params * (2 + 2 + 12.0 / 2), first.weights() + first.gradients() + first.optimizer(), 1);
        assertTrue(first.total() < 80.0 * (1L << 30), "first stage " + first.total() / 1e9 + " GB of 85.9");
    }

    private static ModelShape gpt() {
        return ModelShape.gpt(32, 4096, 32, 51200, 2048, Dtype.BF16);
    }

    @Test
    void zeroStagesShardOptimizerThenGradientsThenWeightsOverDp() {
        ModelShape m = gpt();
        double[] totals = new double[4];
        for (int z = 0; z <= 3; z++) {
            Layout l = new Layout(1, 1, 8, 1, 1, 1, 1, 64, z, false, Recompute.FULL, false);
            MemoryModel.Stage s = MemoryModel.stages(m, l, StateBytes.of(Dtype.BF16, z, false, null, null)).get(0);
            totals[z] = s.weights() + s.gradients() + s.optimizer();
            double p = s.parameters();
            if (z == 1) assertEquals(p * (2 + 2 + 12.0 / 8), totals[z], 1);
            if (z == 2) assertEquals(p * (2 + 14.0 / 8), totals[z], 1);
            if (z == 3) assertEquals(p * 16.0 / 8, totals[z], 1);
        }
        assertTrue(totals[0] > totals[1] && totals[1] > totals[2] && totals[2] > totals[3]);
    }

    @Test
    void contextParallelismDividesActivations() {
        ModelShape m = gpt();
        Layout one = new Layout(2, 1, 4, 1, 1, 1, 1, 64, 0, true, Recompute.SELECTIVE, true);
        Layout two = one.withSizes(2, 1, 4, 2, 1, 1);
        double a1 = MemoryModel.activations(m, one, 0), a2 = MemoryModel.activations(m, two, 0);
        assertEquals(a1 / 2, a2, a1 * 1e-9);
    }

    @Test
    void fullRecomputeKeepsOnlyEachLayersInput() {
        ModelShape m = gpt();
        Layout sel = new Layout(1, 1, 8, 1, 1, 1, 1, 64, 0, false, Recompute.SELECTIVE, false);
        Layout full = new Layout(1, 1, 8, 1, 1, 1, 1, 64, 0, false, Recompute.FULL, false);
        double sbh = 2048.0 * 4096;
        double perLayer = sbh * 34;   // ffn = 4h: 18 + 16
        // output layer and loss (its bf16 logits beside their fp32 copy: 2·s·b·V more); embedding input and dropout
        double output = 4 * sbh * (1 + 51200.0 / 4096) + 2 * 2048 * 51200.0 + 8 * 2048 + sbh;
        assertEquals(32 * perLayer + output, MemoryModel.activations(m, sel, 0), 1);
        assertEquals(32 * 2 * sbh + perLayer + output, MemoryModel.activations(m, full, 0), 1);
    }

    /**
     * The last pipeline stage computes the loss: at pp > 1 it holds, beside its layers' one micro-batch, the output layer's
     * input and the loss's working memory for that micro-batch, as the single stage does (theoretical_memory_usage.py counts
     * them at pp 1 only, reporting the first stage). By hand, GPT 32 × 4,096, V 51,200, s 2,048, b 1, tp 2 with sequence
     * parallelism, pp 4: (4·s·b·h + 4·s·b·V) ÷ tp held and 2·s·b·V ÷ tp for the bf16 logits beside their fp32 copy =
     * (33,554,432 + 419,430,400 + 209,715,200) ÷ 2 = 331,350,016 bytes, under 1F1B and interleaving alike (its last chunk's
     * forward is followed by that micro-batch's backward: one micro-batch), and not on the other stages.
     */
    @Test
    void theLastStageHoldsItsOwnLogitsAndLossForOneMicroBatch() {
        ModelShape m = gpt();
        double sbh = 2048.0 * 4096, sbv = 2048.0 * 51200;
        double expected = (4 * sbh + 4 * sbv + 2 * sbv) / 2;
        assertEquals(331_350_016.0, expected, 0);
        for (int vpp : new int[] {1, 2}) {
            Layout l = new Layout(2, 4, 2, 1, 1, vpp, 1, 64, 0, true, Recompute.SELECTIVE, true);
            assertEquals(expected, MemoryModel.lossBytes(m, l, 1, LossKernel.NATIVE), 1e-6);
            // the same stage without its loss: the layers' one micro-batch (1F1B: min(m, pp − 3) = 1; interleaved: (4 − 3 − 1)·2 +
            // (vpp − 1)·4 + 1 = 5 chunks of 4 layers over vpp 2, 2.5 micro-batches of its 8 layers)
            double[] parts = MemoryModel.perLayer(m);
            double per = (parts[0] + parts[1]) / 2 * sbh;       // one layer's one micro-batch ÷ tp (sequence parallel)
            double inflight = vpp == 1 ? 1 : 2.5;
            assertEquals(8 * inflight * per + expected, MemoryModel.activations(m, l, 3), 1e-3, "vpp " + vpp);
            for (int i = 1; i < 3; i++) {
                double held = vpp == 1 ? Math.min(32, 4 - i) : ((4 - i - 1) * 2.0 + 4 + 1) / 2;
                assertEquals(8 * held * per, MemoryModel.activations(m, l, i), 1e-3, "vpp " + vpp + " stage " + i);
            }
        }
        // context parallelism divides the sequence the logits are of; fp32 activations have no 16-bit copy (.float() is a no-op)
        Layout cp = new Layout(2, 4, 2, 2, 1, 1, 1, 64, 0, true, Recompute.SELECTIVE, true);
        assertEquals(expected / 2, MemoryModel.lossBytes(m, cp, 1, LossKernel.NATIVE), 1e-6);
        ModelShape fp32 = ModelShape.gpt(32, 4096, 32, 51200, 2048, Dtype.FP32);
        assertEquals((8 * sbh + 4 * sbv) / 2, MemoryModel.lossBytes(fp32, new Layout(2, 4, 2, 1, 1, 1, 1, 64, 0, true, Recompute.SELECTIVE, true), 1, LossKernel.NATIVE), 1e-6);
        // several losses (the main and D MTP losses on one stage): each holds its input and softmax, the 16-bit copy once
        Layout l = new Layout(2, 4, 2, 1, 1, 1, 1, 64, 0, true, Recompute.SELECTIVE, true);
        assertEquals((3 * (4 * sbh + 4 * sbv) + 2 * sbv) / 2, MemoryModel.lossBytes(m, l, 3, LossKernel.NATIVE), 1e-6);
        assertEquals(0, MemoryModel.lossBytes(m, l, 0, LossKernel.NATIVE));
    }

    /**
     * Transformer Engine's cross-entropy (cross_entropy_fusion_impl te: LossKernel) keeps the bf16 logits themselves for its
     * backward, which writes the gradient into them in place: no fp32 softmax and no fp32 copy. By hand, the same GPT 32 ×
     * 4,096, V 51,200, s 2,048, b 1, tp 2: (4·s·b·h + 2·s·b·V) ÷ tp = (33,554,432 + 209,715,200) ÷ 2 = 121,634,816 bytes per
     * loss (native: 331,350,016, 209,715,200 more), three losses 364,904,448; the last stage's activations less by the same.
     */
    @Test
    void transformerEnginesLossKeepsTheSixteenBitLogitsAndNoFp32Copy() {
        ModelShape m = gpt();
        Layout l = new Layout(2, 4, 2, 1, 1, 1, 1, 64, 0, true, Recompute.SELECTIVE, true);
        assertEquals(121_634_816.0, MemoryModel.lossBytes(m, l, 1, LossKernel.TE), 1e-6);
        assertEquals(364_904_448.0, MemoryModel.lossBytes(m, l, 3, LossKernel.TE), 1e-6);
        assertEquals(0, MemoryModel.lossBytes(m, l, 0, LossKernel.TE));
        Variants te = new Variants(null, null, null, null, null, null, null, null, null, null, null, null, null, null, LossKernel.TE);
        assertEquals(331_350_016.0 - 121_634_816.0, MemoryModel.activations(m, l, 3) - MemoryModel.activations(m, l, 3, te), 1e-3);
        assertEquals(MemoryModel.activations(m, l, 2), MemoryModel.activations(m, l, 2, te), 1e-9);   // no loss on stage 2
        // fp32 activations: the logits are fp32 already, 4·s·b·V either way
        ModelShape fp32 = ModelShape.gpt(32, 4096, 32, 51200, 2048, Dtype.FP32);
        assertEquals(MemoryModel.lossBytes(fp32, l, 1, LossKernel.NATIVE), MemoryModel.lossBytes(fp32, l, 1, LossKernel.TE), 1e-6);
    }

    /**
     * tp &gt; 1 without sequence parallelism: the final norm's and the output layer's inputs are the whole s·b·h on every tp
     * rank (the column-parallel output layer saves the input it is given; only with sequence parallelism its shard), while
     * the logits stay V ÷ tp wide. By hand, GPT 32 × 4,096, V 51,200, s 2,048, b 1, tp 2, pp 4: native 4·s·b·h +
     * (4·s·b·V + 2·s·b·V) ÷ 2 = 33,554,432 + 314,572,800 = 348,127,232 bytes (with sequence parallelism 331,350,016:
     * 2·s·b·h = 16,777,216 less); Transformer Engine's 33,554,432 + 2·s·b·V ÷ 2 = 138,412,032; two losses 4·s·b·h more.
     */
    @Test
    void withoutSequenceParallelismTheLossInputsAreWholeOnEveryTpRank() {
        ModelShape m = gpt();
        Layout noSp = new Layout(2, 4, 2, 1, 1, 1, 1, 64, 0, true, Recompute.SELECTIVE, false);
        Layout sp = new Layout(2, 4, 2, 1, 1, 1, 1, 64, 0, true, Recompute.SELECTIVE, true);
        assertEquals(348_127_232.0, MemoryModel.lossBytes(m, noSp, 1, LossKernel.NATIVE), 1e-6);
        assertEquals(331_350_016.0, MemoryModel.lossBytes(m, sp, 1, LossKernel.NATIVE), 1e-6);
        assertEquals(138_412_032.0, MemoryModel.lossBytes(m, noSp, 1, LossKernel.TE), 1e-6);
        assertEquals(348_127_232.0 + 33_554_432.0 + 209_715_200.0, MemoryModel.lossBytes(m, noSp, 2, LossKernel.NATIVE), 1e-6);
        // tp 1: sequence parallelism or not, the same whole inputs
        Layout one = new Layout(1, 4, 4, 1, 1, 1, 1, 64, 0, true, Recompute.SELECTIVE, false);
        assertEquals(4 * 2048.0 * 4096 + 6 * 2048.0 * 51200, MemoryModel.lossBytes(m, one, 1, LossKernel.NATIVE), 1e-6);
        // the last stage's activations: its 8 layers' one micro-batch (their replicated part whole without SP) and this loss
        double[] parts = MemoryModel.perLayer(m);
        double sbh = 2048.0 * 4096;
        assertEquals(8 * (parts[0] + parts[1] / 2) * sbh + 348_127_232.0, MemoryModel.activations(m, noSp, 3), 1e-3);
        // the plan's words name it only for that layout
        assertEquals("", MemoryModel.replicatedLossInputs(sp, 2));
        assertTrue(MemoryModel.replicatedLossInputs(noSp, 2).startsWith("; at tp 2 without sequence parallelism the output layer's and"
                + " final norm's inputs are whole on every tp rank, 4·s·b·h not ÷ tp"), MemoryModel.replicatedLossInputs(noSp, 2));
        // fp32 activations: the inputs' 4 + 4 bytes per s·b·h
        assertTrue(MemoryModel.replicatedLossInputs(noSp, 4).contains("whole on every tp rank, 8·s·b·h not ÷ tp"),
                MemoryModel.replicatedLossInputs(noSp, 4));
    }

    /**
     * torchtitan's eager loss (LossKernel.TORCH): F.cross_entropy on pred.float() under loss_parallel keeps the fp32
     * log-softmax, 4·s·b·V ÷ tp, and in its backward DTensor's fused nll_loss / log_softmax backward holds three fp32
     * temporaries beside it, (zeros + exp(x))·grad, 12·s·b·V ÷ tp once (torch/distributed/tensor/parallel/loss.py); the final
     * norm its sequence shard, the output layer's matmul the gathered whole. By hand, GPT 32 × 4,096, V 51,200, s 2,048, b 1,
     * tp 2 with sequence parallelism: 2·s·b·h ÷ 2 + 2·s·b·h + 4·s·b·V ÷ 2 + 12·s·b·V ÷ 2 = 8,388,608 + 16,777,216 +
     * 209,715,200 + 629,145,600 = 864,026,624 bytes (native 331,350,016; before loss2 the backward's 8·s·b·V ÷ 2, 654,311,424);
     * without sequence parallelism the norm's whole, 872,415,232. At tp 1 no DTensor: plain ATen, NllLossBackward's and
     * LogSoftmaxBackward's two fp32 gradients, 8·s·b·V: 16,777,216 + 16,777,216 + 419,430,400 + 838,860,800 = 1,291,845,632.
     */
    @Test
    void torchtitansEagerLossKeepsTheFp32LogSoftmaxAndItsBackwardsTwoGradients() {
        ModelShape m = gpt();
        Layout sp = new Layout(2, 4, 2, 1, 1, 1, 1, 64, 0, true, Recompute.SELECTIVE, true);
        Layout noSp = new Layout(2, 4, 2, 1, 1, 1, 1, 64, 0, true, Recompute.SELECTIVE, false);
        assertEquals(864_026_624.0, MemoryModel.lossBytes(m, sp, 1, LossKernel.TORCH), 1e-6);
        assertEquals(872_415_232.0, MemoryModel.lossBytes(m, noSp, 1, LossKernel.TORCH), 1e-6);
        Layout tp1 = new Layout(1, 4, 2, 1, 1, 1, 1, 64, 0, true, Recompute.SELECTIVE, false);
        assertEquals(1_291_845_632.0, MemoryModel.lossBytes(m, tp1, 1, LossKernel.TORCH), 1e-6);
        assertEquals(0, MemoryModel.lossBytes(m, sp, 0, LossKernel.TORCH));
        // [parallelism] disable_loss_parallel: the output layer's output is Replicate (torchtitan's apply_tp: output_layouts=Shard(-1)
        // if loss_parallel else Replicate()), the loss runs on the whole vocabulary on every tp rank: 4·s·b·V + 8·s·b·V not ÷ 2
        assertEquals(8_388_608.0 + 16_777_216 + 419_430_400 + 838_860_800, MemoryModel.lossBytes(m, sp, 1, LossKernel.TORCH_REPLICATED), 1e-6);
        // compiled with disable_loss_parallel (COMPILED_REPLICATED): native's price, 4·s·b·h ÷ 2 + 4·s·b·V + 2·s·b·V, not ÷ 2:
        // 16,777,216 + 419,430,400 + 209,715,200 (native at tp 2: 331,350,016)
        assertEquals(645_922_816.0, MemoryModel.lossBytes(m, sp, 1, LossKernel.COMPILED_REPLICATED), 1e-6);
        Variants torch = new Variants(null, null, null, null, null, null, null, null, null, null, null, null, null, null, LossKernel.TORCH);
        assertEquals(864_026_624.0 - 331_350_016.0, MemoryModel.activations(m, sp, 3, torch) - MemoryModel.activations(m, sp, 3), 1e-3);
        assertEquals(MemoryModel.activations(m, sp, 0), MemoryModel.activations(m, sp, 0, torch), 1e-9, "no loss on stage 0");
    }

    /**
     * Megatron-Core's fused linear cross-entropy (LossKernel.LINEAR) never makes the logits: it saves the hidden states it
     * gathers, whole on every tp rank, and two fp32 statistics a row; once, the larger split buffer. By hand, GPT 32 × 4,096,
     * V 51,200, s 2,048, b 1, tp 2 with sequence parallelism, bf16: the norm's shard 2·s·b·h ÷ 2 = 8,388,608, the gathered
     * hidden states 2·s·b·h = 16,777,216, the statistics 8·s·b = 16,384; once max(2·s·b·3,072 = 12,582,912 beside the output
     * weight's gradient d_weight = empty_like(weight), 2·(V ÷ 2)·h = 2·25,600·4,096 = 209,715,200 (blackwell/entry.py's
     * backward hands it to autograd), 12·s·b·⌈25,600 ÷ 3,072⌉ = 12·2,048·9 = 221,184): 25,182,208 + 222,298,112 =
     * 247,480,320 bytes, against the native loss's 331,350,016.
     */
    @Test
    void theFusedLinearCrossEntropyKeepsTheHiddenStatesNotTheLogits() {
        ModelShape m = gpt();
        Layout sp = new Layout(2, 4, 2, 1, 1, 1, 1, 64, 0, true, Recompute.SELECTIVE, true);
        assertEquals(247_480_320.0, MemoryModel.lossBytes(m, sp, 1, LossKernel.LINEAR), 1e-6);
        assertEquals(331_350_016.0, MemoryModel.lossBytes(m, sp, 1, LossKernel.NATIVE), 1e-6);
    }

    /**
     * With MTP only the main loss is the fused linear cross-entropy: Megatron-Core's process_mtp_loss (multi_token_prediction.py
     * at 00611e6e) calls the output layer without labels, so LinearCrossEntropyModule falls back to ColumnParallelLinear's
     * forward and each depth's logits are made, [s, b, V ÷ tp] in bf16, and handed to compute_language_model_loss: each MTP loss
     * is priced as the native one. By hand, the shape above with one MTP layer: the linear main loss's saved part 25,182,208,
     * the MTP loss's inputs 2·2·s·b·h ÷ 2 = 16,777,216 and fp32 softmax 4·s·b·V ÷ 2 = 209,715,200, and once the larger working
     * memory, the linear loss's 222,298,112 against the native one's 2·s·b·V ÷ 2 = 104,857,600: 473,972,736 bytes (until mtp3,
     * 2026-12-07, the MTP loss was priced fused too, 25,182,208 for it: 272,662,528). At the main output layer's backward (its
     * backward is the linear loss's) all of the main loss and the MTP loss's saved part are live: 473,972,736 again; with two MTP
     * layers a second 226,492,416 in both.
     */
    @Test
    void theMtpLossesUnderTheFusedLinearCrossEntropyMakeTheirLogits() {
        ModelShape m = gpt();
        Layout sp = new Layout(2, 4, 2, 1, 1, 1, 1, 64, 0, true, Recompute.SELECTIVE, true);
        assertEquals(LossKernel.NATIVE, MemoryModel.mtpKernel(LossKernel.LINEAR));
        assertEquals(LossKernel.TE, MemoryModel.mtpKernel(LossKernel.TE));
        assertEquals(473_972_736.0, MemoryModel.lossBytes(m, sp, 2, LossKernel.LINEAR), 1e-6);
        assertEquals(473_972_736.0, MemoryModel.heldAtOutputBackward(m, sp, 2, LossKernel.LINEAR), 1e-6);
        assertEquals(473_972_736.0 + 226_492_416, MemoryModel.lossBytes(m, sp, 3, LossKernel.LINEAR), 1e-6);
        assertEquals(473_972_736.0 + 226_492_416, MemoryModel.heldAtOutputBackward(m, sp, 3, LossKernel.LINEAR), 1e-6);
        // an mtp_loss_split stage computing MTP losses alone (no main loss there): the native loss's bytes, none fused
        assertEquals(MemoryModel.lossBytes(m, sp, 1, LossKernel.NATIVE), MemoryModel.lossBytes(m, sp, 0, 1, LossKernel.LINEAR), 1e-6);
        // the other kernels price their MTP losses as their main one, as before
        assertEquals(MemoryModel.lossBytes(m, sp, 3, LossKernel.NATIVE), MemoryModel.lossBytes(m, sp, 1, 2, LossKernel.NATIVE), 1e-6);
    }

    @Test
    void laterStagesHoldFewerMicroBatchesAndTheLastHoldsTheOutputLayer() {
        ModelShape m = gpt();
        Layout l = new Layout(1, 4, 2, 1, 1, 1, 1, 64, 0, false, Recompute.SELECTIVE, false);
        List<MemoryModel.Stage> s = MemoryModel.stages(m, l, StateBytes.of(Dtype.BF16, 0, false, null, null));
        assertEquals(4, s.size());
        assertTrue(s.get(0).activations() > s.get(1).activations() && s.get(2).activations() > s.get(3).activations());
        assertEquals(s.get(0).parameters(), s.get(3).parameters(), 1, "tied embeddings: the last stage keeps a copy");
        assertTrue(s.get(1).parameters() < s.get(0).parameters());
    }

    /**
     * The plan's search asks every layout for its fullest stage alone ({@link MemoryModel#fullest}, no stage list): it must be
     * the stage {@link MemoryModel#stages} lists first among those with the most bytes, every field the same double, over
     * layouts whose fullest stage is the first, a middle or the last one (interleaving, uneven and counted splits, CPU
     * offload, every recompute choice, ZeRO stages, ep over an MoE model, selective recompute by module).
     */
    @Test
    void theFullestStageIsTheFirstOfTheStagesWithTheMostBytes() {
        ModelShape dense = gpt();
        ModelShape moe = new ModelShape(32, 4096, 32, 8, 128, 14336, 32000, 4096, true, false, 8, 2, Dtype.BF16);
        Variants byModule = new Variants(MoeShape.uniform(moe), null, null, null, null, null, null,
                new RecomputeModules(java.util.EnumSet.of(dev.gpulint.spec.RecomputeModule.LAYERNORM, dev.gpulint.spec.RecomputeModule.MOE)),
                null, null, null, null, null, null, null);
        PipelineSplit[] splits = {PipelineSplit.EVEN, new PipelineSplit(2, 1, false, false), new PipelineSplit(0, 0, true, true),
                new PipelineSplit(12, 12, false, false)};
        int compared = 0, notFirst = 0;
        for (ModelShape m : List.of(dense, moe)) {
            for (Variants v : m == moe ? List.of(Variants.of(m), byModule) : List.of(Variants.of(m))) {
                for (int pp : new int[] {1, 2, 4, 8}) {
                    for (PipelineSplit split : splits) {
                        for (Recompute rc : Recompute.values()) {
                            for (int z = 0; z < 4; z++) {
                                int vpp = pp > 2 && z % 2 == 1 ? 2 : 1, ep = m == moe ? 1 << z : 1;
                                Layout l = new Layout(2, pp, 8, 1, ep, vpp, 1, 8L * pp * (z + 1), z == 3 ? 3 : z, z == 1, rc, true,
                                        split, z == 2 ? 3 : 0, 4);
                                StateBytes b = StateBytes.of(m.dtype(), l.zeroStage(), l.distributedOptimizer(), null, null);
                                List<MemoryModel.Stage> stages = MemoryModel.stages(m, l, b, v);
                                MemoryModel.Stage first = stages.get(0);
                                for (MemoryModel.Stage s : stages) if (s.total() > first.total()) first = s;
                                assertEquals(first, MemoryModel.fullest(m, l, b, v), l + " " + v.recomputeModules());
                                // the estimate's one pass (MemoryModel.sized): the same stages and the optimizer's shard to the bit
                                MemoryModel.Sized sized = MemoryModel.sized(m, l, b, v);
                                assertEquals(stages, sized.stages(), l.toString());
                                assertEquals(MemoryModel.optimizerShard(m, l, v), sized.optimizerShard(), l.toString());
                                // from the model states of the same layout with another recompute (the plan's memory facts)
                                Recompute other = Recompute.values()[(rc.ordinal() + 1) % Recompute.values().length];
                                Layout o = new Layout(2, pp, 8, 1, ep, vpp, 1, 8L * pp * (z + 1), z == 3 ? 3 : z, z == 1, other, true,
                                        split, z == 2 ? 3 : 0, 4);
                                assertEquals(first, MemoryModel.fullest(m, l, v, MemoryModel.states(m, o, b, v)), l + " from " + other);
                                // and the estimate's stages from those states (the plan's scores): every stage and the shard to the bit
                                assertEquals(sized, MemoryModel.sized(m, l, v, MemoryModel.states(m, o, b, v)), l + " from " + other);
                                compared++;
                                if (first.stage() > 0) notFirst++;
                            }
                        }
                    }
                }
            }
        }
        assertEquals(3 * 4 * 4 * 5 * 4, compared);
        assertTrue(notFirst > 50, "the fullest stage is not the first in " + notFirst + " layouts: the comparison reaches past it");
    }
}
