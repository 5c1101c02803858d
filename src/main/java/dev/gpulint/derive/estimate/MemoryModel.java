package dev.gpulint.derive.estimate;

import dev.gpulint.derive.estimate.Layout.Recompute;
import java.util.ArrayList;
import java.util.List;

/**
 * Memory per GPU on each pipeline stage (../spec/PLAN.md): weights, gradients and optimizer states of the stage's
 * share of the parameters, and the activations of its in-flight micro-batches. For Megatron-style jobs (ZeRO stage 0,
 * with or without the distributed optimizer) the first stage equals Megatron-LM's theoretical_memory_usage.py:
 * 18 bytes per parameter (bf16 weights 2, fp32 main gradients 4, fp32 master weights and Adam moments 12), the
 * optimizer's 12 sharded over dp with the distributed optimizer; activations per Korthikanti et al. 2022 Table 2 as
 * that file writes them. ZeRO stages count 2 + 2 + 12 (Rajbhandari et al. 2020) and shard optimizer, gradients and
 * weights in turn over dp·cp.
 */
public final class MemoryModel {
    private MemoryModel() {}

    /** One stage's bytes per GPU. */
    public record Stage(int stage, double weights, double gradients, double optimizer, double activations, double parameters) {
        public double total() { return weights + gradients + optimizer + activations; }
    }

    /** Bytes per parameter of weights, gradients and optimizer states, before sharding. */
    public record StateBytes(double weights, double gradients, double optimizer) {
        /** The accounting of a job: Megatron's 18 (2 + 4 + 12) without ZeRO; the ZeRO paper's 16 with it; fp32: 4 + 4 + 8. */
        public static StateBytes of(ModelShape.Dtype d, int zeroStage) {
            if (d == ModelShape.Dtype.FP32 || d == ModelShape.Dtype.TF32) return new StateBytes(4, 4, 8);
            return zeroStage > 0 ? new StateBytes(2, 2, 12) : new StateBytes(2, 4, 12);
        }
    }

    /**
     * Parameters on one GPU of stage {@code i}: its L/pp layers (Megatron's count, LayerNorms and the final one
     * included) ÷ tp, the experts' MLPs further ÷ ep; the embedding ÷ tp on the first stage, and the output layer on
     * the last (its own matrix when untied; a copy of the embedding when tied and pp > 1).
     */
    public static double stageParameters(ModelShape m, Layout l, int i) {
        double expertMlp = m.experts() > 1 ? m.layers() * m.experts() * m.mlpParameters() : 0;
        double dense = m.transformerParameters() - expertMlp;
        double p = (dense / l.tp() + expertMlp / ((double) l.tp() * l.ep())) / l.pp();
        double emb = m.embeddingParameters() / l.tp();
        if (i == 0) p += emb;
        if (i == l.pp() - 1 && (l.pp() > 1 || !m.tiedEmbeddings())) p += emb;
        return p;
    }

    /** Every stage of a layout (first stage first). */
    public static List<Stage> stages(ModelShape m, Layout l, StateBytes b) {
        List<Stage> out = new ArrayList<>();
        long shard = (long) l.dp() * l.cp();
        for (int i = 0; i < l.pp(); i++) {
            double p = stageParameters(m, l, i);
            double w = b.weights(), g = b.gradients(), o = b.optimizer();
            if (l.distributedOptimizer() || l.zeroStage() >= 1) o /= shard;
            if (l.zeroStage() >= 2) g /= shard;
            if (l.zeroStage() >= 3) w /= shard;
            out.add(new Stage(i, p * w, p * g, p * o, activations(m, l, i), p));
        }
        return out;
    }

    /**
     * Activations held by stage {@code i} at its peak, in bytes per GPU. Per layer and micro-batch (s = seq ÷ cp,
     * b = micro batch, flash attention, so no 5·a·s/h score term): s·b·h·(18 + 4·ffn/h)/t with sequence parallelism
     * (Megatron's generalisation of Korthikanti's 34), s·b·h·(10 + (8 + 4·ffn/h)/t) without it, 2·s·b·h(/t with SP)
     * with full recompute plus one layer's worth while it is recomputed. Stage i holds min(m, pp − i) micro-batches
     * of its L/pp layers under 1F1B; interleaving multiplies by 1 + (pp − 1)/(pp·vpp). The first stage adds the
     * embedding's input and dropout (8·s·b + s·b·h per in-flight micro-batch), a single stage the output layer's
     * input and loss, 4·s·b·h·(1 + V/h), as theoretical_memory_usage.py does. In fp8 the linear layers' saved
     * inputs take one byte each: s·b·h·(3 + ffn/h)/t less per layer.
     */
    public static double activations(ModelShape m, Layout l, int i) {
        double s = (double) m.seq() / l.cp(), b = l.microBatchSize(), h = m.hidden(), t = l.tp();
        double sbh = s * b * h;
        double scale = m.dtype().activationBytes() / 2.0;
        double full = sbh * (18 + 4.0 * m.ffn() / h) / t;
        double perLayer = l.sequenceParallel() || l.tp() == 1 ? full : sbh * (10 + (8 + 4.0 * m.ffn() / h) / t);
        // fp8 (Transformer Engine) keeps the four linear layers' inputs for the backward pass in fp8: one byte each
        // instead of two for the QKV, projection and fc1 inputs (h wide) and the fc2 input (ffn wide)
        if (m.dtype() == ModelShape.Dtype.FP8) perLayer -= sbh * (3 + (double) m.ffn() / h) / t;
        double layersHeld;
        long pp = l.pp();
        long mb = l.microBatches() > 0 ? l.microBatches() : pp;
        double inflight;
        double penalty = 1;
        if (l.virtualPp() > 1 && pp > 1) {
            penalty = 1 + (pp - 1.0) / (pp * l.virtualPp());
            inflight = (pp - i) * penalty;
        } else {
            inflight = Math.min(mb, pp - i);
        }
        layersHeld = (double) m.layers() / pp * inflight;
        double act;
        if (l.recompute() == Recompute.FULL) {
            double input = (l.sequenceParallel() || l.tp() == 1 ? 2 * sbh / t : 2 * sbh);
            act = input * layersHeld + perLayer;
        } else {
            act = perLayer * layersHeld;
        }
        if (i == 0) {
            double emb = (8 * s * b + sbh) * (l.virtualPp() > 1 && pp > 1 ? pp * penalty : Math.min(mb, pp)) / t;
            act += emb;
        }
        if (pp == 1) act += 4 * sbh * (1 + (double) m.vocab() / h) / t;
        return act * scale;
    }
}
