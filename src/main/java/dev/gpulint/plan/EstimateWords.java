package dev.gpulint.plan;

import dev.gpulint.derive.estimate.CollectiveCost;
import dev.gpulint.derive.estimate.Collective;
import dev.gpulint.derive.estimate.FlexDispatch;
import dev.gpulint.derive.estimate.Links;
import dev.gpulint.derive.estimate.Term;
import dev.gpulint.derive.estimate.Tier;
import dev.gpulint.derive.estimate.Units;
import java.util.List;
import java.util.Locale;

/**
 * The estimate's terms in words, as the plan's breakdown prints them: each {@link Term} with its formula, its constants
 * and its figures (docs/plan.md explains every term). Derive computes the numbers; this writes the sentences, only for
 * the terms a report prints (a plan prices thousands of layouts and prints the breakdown of one).
 */
public final class EstimateWords {
    private EstimateWords() {}

    /** The breakdown's line for a term: its name, a colon, its sentence. */
    public static String line(Term t) {
        return t.term() + ": " + text(t);
    }

    /** The term's sentence. */
    public static String text(Term t) {
        if (t instanceof Term.Compute c) return compute(c);
        if (t instanceof Term.UnfusedAttention u) return unfusedAttention(u);
        if (t instanceof Term.Eager x) return eager(x);
        if (t instanceof Term.Ssd x) return ssd(x);
        if (t instanceof Term.Float8 f) return float8(f);
        if (t instanceof Term.Moe m) return moe(m);
        if (t instanceof Term.ExpertPasses x) return expertPasses(x);
        if (t instanceof Term.Mtp x) return mtp(x);
        if (t instanceof Term.Recompute r) return recompute(r);
        if (t instanceof Term.Bf16Layers b) return bf16Layers(b);
        if (t instanceof Term.Collectives c) return collectives(c);
        if (t instanceof Term.Flex f) return flex(f);
        if (t instanceof Term.Sends s) return sends(s);
        if (t instanceof Term.Bubble b) return bubble(b);
        if (t instanceof Term.DpExposure d) return dpExposure(d);
        if (t instanceof Term.StepGather g) return stepGather(g);
        if (t instanceof Term.TpExposure x) return tpExposure(x);
        if (t instanceof Term.TpCopy x) return tpCopy(x);
        if (t instanceof Term.Offload o) return offload(o);
        if (t instanceof Term.HostStates h) return hostStates(h);
        if (t instanceof Term.Optimizer o) return optimizer(o);
        throw new IllegalArgumentException("no words for the estimate term " + t);
    }

    static String compute(Term.Compute c) {
        // attention outside a flash kernel has no attention rate: its passes are the unfused-attention term's
        String attention = c.attentionFlops() > 0 ? String.format(Locale.ROOT, "causal attention %s %.3g TFLOP at %.0f TFLOP/s",
                c.latentAttention() ? "6·s·a·(d_h + d_hR + d_v)/2" : "12·s·a·d/2", c.attentionFlops() / 1e12, c.attentionRate() / 1e12)
                : "attention unfused (unfused-attention below)";
        return String.format(Locale.ROOT,
                "%s layers per stage × (linear %.3g TFLOP at %.0f TFLOP/s (%s peak %.0f × %.2f) + %d kernels × %s; %s;"
                        + " elementwise %s at %.0f GB/s; %s fixed) + logits %s = %s per micro-batch",
                trim(c.layersPerStage()), c.linearFlops() / 1e12, c.gemmRate() / 1e12, c.gemmPath().id(), c.gemmPeak() / 1e12,
                c.gemmEfficiency(), (int) c.kernels(), Units.seconds(c.kernelSeconds()), attention,
                Units.bytes(c.elementwiseBytes()), c.hbmRate() / 1e9, Units.seconds(c.layerSeconds()),
                Units.seconds(c.logitSeconds()), Units.seconds(c.seconds()));
    }

    static String ssd(Term.Ssd x) {
        if (x.mambaLayers() > 0 && x.gdnLayers() > 0) {
            return String.format(Locale.ROOT, "hybrid Mamba-2 layers' conv1d and SSD chunk scan and gated-delta-net layers' conv1d and"
                            + " chunked gated delta rule as HBM bytes (MambaLayers, MambaLayers.Gdn, docs/plan.md): (%s per token per Mamba-2"
                            + " layer × %d + %s per GDN layer × %d) of %d layers, forward and backward, × %s tokens%s = %s at %.0f GB/s = %s"
                            + " per layer and micro-batch (in the compute above: elementwise)",
                    Units.bytes(x.bytesPerToken()), x.mambaLayers(), Units.bytes(x.gdnBytesPerToken()), x.gdnLayers(), x.layers(),
                    Units.count(x.tokens()), x.recompute() != 1 ? String.format(Locale.ROOT, " × %.2f (recomputed)", x.recompute()) : "",
                    Units.bytes(x.bytes()), x.hbmRate() / 1e9, Units.seconds(x.seconds()));
        }
        boolean gdn = x.gdnLayers() > 0;
        return String.format(Locale.ROOT,
                (gdn ? "hybrid gated-delta-net layers' conv1d and chunked gated delta rule as HBM bytes (MambaLayers.Gdn, docs/plan.md):"
                        + " %s per token per GDN layer" : "hybrid Mamba-2 layers' conv1d and SSD chunk scan as HBM bytes (MambaLayers,"
                        + " docs/plan.md): %s per token per Mamba-2 layer")
                        + ", forward and backward, × %d of %d layers × %s tokens%s = %s at %.0f GB/s = %s per layer and micro-batch"
                        + " (in the compute above: elementwise)",
                Units.bytes(gdn ? x.gdnBytesPerToken() : x.bytesPerToken()), gdn ? x.gdnLayers() : x.mambaLayers(), x.layers(), Units.count(x.tokens()),
                x.recompute() != 1 ? String.format(Locale.ROOT, " × %.2f (recomputed)", x.recompute()) : "",
                Units.bytes(x.bytes()), x.hbmRate() / 1e9, Units.seconds(x.seconds()));
    }

    static String unfusedAttention(Term.UnfusedAttention u) {
        return String.format(Locale.ROOT,
                "attention outside a flash kernel over %s scores (b·s·s·a/tp), counted from Megatron's core attention (docs/plan.md):"
                        + " batched GEMMs over the full square %.3g TFLOP at %.0f TFLOP/s or their score passes %s at %.0f GB/s, the longer,"
                        + " + %s kernels × %s = %s; softmax and dropout %s bytes a score forward%s + %s backward = %s at %.0f GB/s = %s;"
                        + " %s per %slayer and micro-batch (in the compute above)",
                Units.count(u.scores()), u.flops() / 1e12, u.gemmRate() / 1e12, Units.bytes(u.gemmBytes()), u.hbmRate() / 1e9,
                trim(u.gemmKernels()), Units.seconds(u.kernelSeconds()), Units.seconds(u.gemmSeconds()),
                trim(u.forwardBytesPerScore()),
                u.recomputed() > 0 ? String.format(Locale.ROOT, " × %.2f (recomputed)", 1 + u.recomputed()) : "",
                trim(u.backwardBytesPerScore()),
                Units.bytes(u.elementwiseBytes()), u.hbmRate() / 1e9, Units.seconds(u.elementwiseSeconds()),
                u.attentionShare() < 1 ? String.format(Locale.ROOT, "%s per attention layer × their share %.3f of the layers = %s",
                        Units.seconds(u.seconds()), u.attentionShare(), Units.seconds(u.layerSeconds())) : Units.seconds(u.seconds()),
                u.attentionShare() < 1 ? "mean " : "");
    }

    static String eager(Term.Eager x) {
        return String.format(Locale.ROOT,
                "unfused kernels beyond the fused ones, bytes per element counted from the op graph (docs/plan.md): forward"
                        + " RMSNorm 2 × 32 + residual add 2 × 2 on %s, RoPE 16 on %s, SwiGLU 4 on %s = %s%s; backward 2 × 70 + 2 × 4, 16, 8"
                        + " = %s; %s at %.0f GB/s = %s per layer and micro-batch (in the compute above: elementwise)",
                Units.count(x.hiddenElements()), Units.count(x.qkElements()), Units.count(x.ffnElements()), Units.bytes(x.forwardBytes()),
                x.recomputed() > 0 ? String.format(Locale.ROOT, " × %.2f (recomputed)", 1 + x.recomputed()) : "",
                Units.bytes(x.backwardBytes()), Units.bytes(x.bytes()), x.hbmRate() / 1e9, Units.seconds(x.seconds()));
    }

    static String float8(Term.Float8 f) {
        boolean hp = f.highPrecisionFlops() > 0;
        String casts = String.format(Locale.ROOT,
                "%s casts, bytes per element as torchao's roofline counts them (docs/plan.md): inputs %s × %s, output gradients %s × %s,"
                        + " weights %s × %s = %s forward%s + %s backward; backward GEMMs' output scaling 4 × %s = %s; less the per-tensor"
                        + " casts the elementwise term counts %s: %s at %.0f GB/s = %s per layer and micro-batch (in the compute above:"
                        + " elementwise)",
                f.recipe(), Units.count(f.inputElements()), hp ? "(3 + 0)" : "(5 + 3)", Units.count(f.gradElements()), hp ? "3" : "8",
                Units.count(f.weightElements()), hp ? "(3 + 3)" : "(3 + 7)", Units.bytes(f.forwardBytes()),
                f.recomputed() > 0 ? String.format(Locale.ROOT, " × %.2f (recomputed)", 1 + f.recomputed()) : "",
                Units.bytes(f.backwardBytes()), Units.count(f.rescaleBytes() / 4), Units.bytes(f.rescaleBytes()),
                Units.bytes(f.countedBytes()), Units.bytes(f.bytes()), f.hbmRate() / 1e9, Units.seconds(f.seconds()));
        if (!hp) return casts;
        return casts + String.format(Locale.ROOT, "; weight-gradient GEMMs in bf16: %.3g TFLOP at %.0f TFLOP/s, %s beyond the fp8 rate",
                f.highPrecisionFlops() / 1e12, f.highPrecisionRate() / 1e12, Units.seconds(f.highPrecisionSeconds()));
    }

    static String recompute(Term.Recompute r) {
        StringBuilder b = new StringBuilder("selective recompute of [" + r.modules() + "], each module's forward run again in backward"
                + " (RecomputeModules, docs/plan.md): ");
        java.util.List<String> parts = new java.util.ArrayList<>();
        if (r.normBytes() > 0) parts.add("norms " + Units.bytes(r.normBytes()));
        if (r.activationBytes() > 0) parts.add("activation functions " + Units.bytes(r.activationBytes()));
        if (r.normBytes() + r.activationBytes() > 0) {
            parts.set(parts.size() - 1, parts.get(parts.size() - 1) + String.format(Locale.ROOT, " at %.0f GB/s", r.hbmRate() / 1e9));
        }
        if (r.flops() > 0) parts.add(String.format(Locale.ROOT, "GEMMs %.3g TFLOP at %.0f TFLOP/s + %s kernels × %s", r.flops() / 1e12,
                r.gemmRate() / 1e12, trim(r.kernels()), Units.seconds(r.kernelSeconds())));
        if (r.moeSeconds() > 0) parts.add("the MoE layer's forward (a third of the moe term's) " + Units.seconds(r.moeSeconds()));
        b.append(String.join(" + ", parts));
        b.append(" = ").append(Units.seconds(r.seconds())).append(" per layer and micro-batch, averaged over the layers (in the compute above)");
        return b.toString();
    }

    static String expertPasses(Term.ExpertPasses x) {
        StringBuilder b = new StringBuilder("unfused passes on the routed rows outside the fused activation, counted from Megatron-Core's code (docs/plan.md): ");
        if (x.clamp() > 0) {
            b.append(String.format(Locale.ROOT, "GLU clamp at %s (two clamps and a concatenation) forward 8 × %s rows × %s = %s, backward 10 × = %s",
                    trim(x.clamp()), Units.count(x.rows()), trim(x.ffnPerRow()), Units.bytes(x.clampForward()), Units.bytes(x.clampBackward())));
        }
        if (x.bias()) {
            if (x.clamp() > 0) b.append("; ");
            b.append(String.format(Locale.ROOT, "fc2 bias added per local expert (t + b·p, concatenated) forward 6 × %s rows × %s = %s, backward 6 × = %s",
                    Units.count(x.rows()), trim(x.hiddenPerRow()), Units.bytes(x.biasForward()), Units.bytes(x.biasBackward())));
        }
        if (x.recomputed() > 0) b.append(String.format(Locale.ROOT, "; forward × %.2f (recomputed)", 1 + x.recomputed()));
        b.append(String.format(Locale.ROOT, ": %s at %.0f GB/s = %s per MoE layer and micro-batch (in the moe term's MoE layer)",
                Units.bytes(x.bytes()), x.hbmRate() / 1e9, Units.seconds(x.seconds())));
        return b.toString();
    }

    static String bf16Layers(Term.Bf16Layers b) {
        StringBuilder t = new StringBuilder(String.format(Locale.ROOT,
                "the first %d and the last %d of %d layers in bf16 (LayerPrecision): per such layer linear %.3g TFLOP at %.0f instead of %.0f"
                        + " TFLOP/s = +%s, its input casts not made %s at %.0f GB/s = −%s",
                b.start(), b.end(), b.layers(), b.linearFlops() / 1e12, b.bf16Rate() / 1e12, b.gemmRate() / 1e12,
                Units.seconds(b.linearSeconds()), Units.bytes(b.castBytes()), b.hbmRate() / 1e9, Units.seconds(b.castSeconds())));
        if (b.float8Seconds() > 0) t.append(", float8 casts not made −").append(Units.seconds(b.float8Seconds()));
        if (b.moeSeconds() != 0) t.append(String.format(Locale.ROOT, ", MoE side in bf16 %s%s", b.moeSeconds() > 0 ? "+" : "−",
                Units.seconds(Math.abs(b.moeSeconds()))));
        t.append(String.format(Locale.ROOT, ": %s%s per layer and micro-batch; the slowest stage holds %s of them: %s%s per micro-batch"
                        + " (in the compute above)", b.extraSeconds() >= 0 ? "+" : "−", Units.seconds(Math.abs(b.extraSeconds())),
                trim(b.stageLayers()), b.seconds() >= 0 ? "+" : "−", Units.seconds(Math.abs(b.seconds()))));
        return t.toString();
    }

    static String moe(Term.Moe m) {
        double local = m.localExperts(), cf = m.capacityFactor(), pg = m.gemmRate();
        return String.format(Locale.ROOT,
                "%d of %d layers MoE: %d local expert%s × %.0f tokens each (T·k·ep·etp/(tp·E), etp %d%s), tile fill %.2f → the longer of routed %.3g"
                        + " TFLOP at %.0f TFLOP/s and expert weights %s at %.0f GB/s, + %d kernels × %s + %d expert GEMMs × %s (fitted on H100 bf16) = %s (%.0f %% of the dense GEMM rate); router %s;"
                        + " permutation %s (8 × %s rows × h);"
                        + " expert activation function %s%s%s%s = %s per MoE layer%s",
                m.moeLayers(), m.layers(), (int) local, local == 1 ? "" : "s", m.tokensPerExpert(), m.etp(),
                cf != 1 ? String.format(Locale.ROOT, ", × capacity %.2f", cf) : "",
                m.tileFill(), m.routedFlops() / 1e12, pg * m.tileFill() / 1e12, Units.bytes(m.weightBytes()), m.hbmRate() / 1e9,
                (int) m.kernels(), Units.seconds(m.kernelSeconds()), m.expertGemms(), Units.seconds(m.expertGemmSeconds()), Units.seconds(m.routedSeconds()),
                100 * m.routedFlops() / pg / m.routedSeconds(), Units.seconds(m.routerSeconds()), Units.seconds(m.permuteSeconds()),
                Units.count(m.rows()), Units.seconds(m.activationSeconds()),
                m.castSeconds() > 0 ? String.format(Locale.ROOT, "; routed rows' quantizing casts %s (6 bytes per GEMM input element, k rows per token) at %.0f GB/s = %s",
                        Units.bytes(m.castBytes()), m.hbmRate() / 1e9, Units.seconds(m.castSeconds())) : "",
                m.sharedSeconds() > 0 ? "; shared experts (ffn " + m.sharedFfn() + ") " + Units.seconds(m.sharedSeconds()) : "",
                m.passesSeconds() > 0 ? "; unfused expert passes " + Units.seconds(m.passesSeconds()) + " (expert-passes below)" : "",
                Units.seconds(m.moeLayerSeconds()),
                m.denseLayers() > 0 ? "; " + m.denseLayers() + " dense layer" + (m.denseLayers() == 1 ? "" : "s") + " (ffn " + m.denseFfn() + ") "
                        + Units.seconds(m.denseSeconds()) + " each" : "")
                + " (in the compute above: linear counts attention only)";
    }

    static String mtp(Term.Mtp x) {
        String kind = x.moeBlocks() > 0 ? (x.moeBlocks() == x.blocksPerLayer() ? "" : x.moeBlocks() + " of " + x.blocksPerLayer() + " per MTP layer ")
                + "an MoE layer (the mean layer with MoeCost's MoE layer for its MLP side)"
                : x.denseBlocks() > 0 ? "a dense layer (the mean layer with MoeCost's dense layer for its MLP side)" : "the mean layer";
        String blocks = x.stageBlocks() > 0
                ? String.format(Locale.ROOT, "%s layer%s of the kind Megatron-Core builds, %s = %s (the compute above counts them at the"
                                + " mean layer, %s: %s)",
                        trim(x.stageBlocks()), x.stageBlocks() == 1 ? "" : "s", kind, Units.seconds(x.blockSeconds()),
                        Units.seconds(x.meanSeconds()), x.onLast() ? "the last stage's layers" : x.ranks().size() == 1
                                ? "the layers of pipeline rank " + x.stage() + ", the layout's m" : "the layers of the ranks of the layout's m")
                : "their transformer layers where the layout's m places them (in the compute above: that stage's layers)";
        String where = x.onLast()
                ? String.format(Locale.ROOT, "%s per micro-batch on the last stage beyond its layers at the mean layer (in the compute above"
                        + " when the last stage is the slowest)", Units.seconds(x.seconds()))
                : x.ranks().size() == 1
                ? String.format(Locale.ROOT, "%s per micro-batch on pipeline rank %d, the layout's m (eh_proj), beyond its layers at the mean"
                        + " layer, and %s on the last stage (the logits: process_mtp_loss on the post_process rank), each in the compute above"
                        + " when its stage is the slowest", Units.seconds(x.stageSeconds()), x.stage(), Units.seconds(x.logitSeconds()))
                : String.format(Locale.ROOT, "%s per micro-batch on pipeline ranks %s, the layout's m (eh_proj, each rank its MTP layers'"
                        + " share: %s, Megatron-LM's mtp_split), beyond their layers at the mean layer, and %s on the last stage (the"
                        + " logits: process_mtp_loss on the post_process rank), each in the compute above when its stage is the slowest",
                        Units.seconds(x.stageSeconds()), ranksText(x.ranks()), sharesText(x), Units.seconds(x.logitSeconds()));
        List<Integer> early = new java.util.ArrayList<>();
        for (int r = 0; r < x.earlyLosses().size(); r++) if (x.earlyLosses().get(r) > 0) early.add(r);
        String split = early.isEmpty() ? "" : String.format(Locale.ROOT, "; Megatron-LM's mtp_loss_split (pull request #5318): %d of the"
                        + " MTP losses on pipeline rank%s %s, %s each (its logits and cross-entropy, with its own output layer: in that"
                        + " stage's compute), the last stage's %s for the other %d",
                x.earlyLossCount(), early.size() == 1 ? "" : "s", ranksText(early), Units.seconds(x.lossSeconds()),
                Units.seconds(x.logitSeconds()), x.layers() - x.earlyLossCount());
        return String.format(Locale.ROOT,
                "%d multi-token prediction layer%s (MtpLayers, Megatron-Core's multi_token_prediction.py): %s; eh_proj 2h → h"
                        + " 6·tokens·2h²/tp %.3g TFLOP at %.0f TFLOP/s + 3 kernels each = %s; the output layer's logits and cross-entropy"
                        + " again %s; %s%s",
                x.layers(), x.layers() == 1 ? "" : "s", blocks, x.projFlops() / 1e12, x.gemmRate() / 1e12, Units.seconds(x.projSeconds()),
                Units.seconds(x.logitSeconds()), where, split);
    }

    /** "4, 5 and 6". */
    private static String ranksText(List<Integer> ranks) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < ranks.size(); i++) b.append(i == 0 ? "" : i == ranks.size() - 1 ? " and " : ", ").append(ranks.get(i));
        return b.toString();
    }

    /** "1, 1 and 1 MTP layers". */
    private static String sharesText(Term.Mtp x) {
        List<Integer> n = x.ranks().stream().map(r -> x.perRank().get(r)).toList();
        return ranksText(n) + " MTP layer" + (x.layers() == 1 ? "" : "s");
    }

    static String collectives(Term.Collectives c) {
        CollectiveCost k = c.cost();
        return String.format(Locale.ROOT, "%s × %s %s over %d ranks: %s moved per rank (%s) each, over %s%s%s: %s",
                num(c.count()), c.dim(), c.what(), c.n(), Units.bytes(k.bytesPerRank()), k.collective().formula(), path(k, c.links()),
                rate(k), latency(k), Units.seconds(c.seconds()));
    }

    static String flex(Term.Flex f) {
        CollectiveCost k = f.cost();
        FlexDispatch.Traffic t = f.traffic();
        String units = f.deepEpGroups() ? "groups" : "nodes";
        String unit = f.deepEpGroups() ? "groups" : "nodes";
        String of = f.deepEpGroups() ? " (DeepEP's NVLink peers, NUM_MAX_NVL_PEERS)" : "";
        return String.format(Locale.ROOT,
                "%s × %s flex dispatch/combine per micro-batch over %d ranks on %d %s of %d%s (%s, FlexDispatch): the rank's tokens"
                        + " (%s in 16 bits) each go E[%s hit] %.2f × (N − 1)/N = %.2f times over RDMA (the all-to-all: k·(n − L)/n ="
                        + " %.2f) and E[GPUs hit] %.2f × (L − 1)/L = %.2f times over NVLink; %s through each rank's own NIC at %.2f ×"
                        + " %.0f GB/s and %s over %s at %.2f × %.0f GB/s, both at once, the %s decides%s: %s",
                num(f.count()), f.dim(), f.n(), t.nodes(), units, t.local(), of, f.backend() == FlexDispatch.Backend.HYBRIDEP ? "HybridEP"
                        : "DeepEP", Units.bytes(f.tokenBytes()), unit, t.nodesHit(), t.remote(), t.allToAll(), t.ranksHit(),
                t.forwarded(), Units.bytes(k.remoteBytes()), FlexDispatch.RDMA, f.links().nicPerGpu() / 1e9,
                Units.bytes(k.bytesPerRank() - k.remoteBytes()), f.links().tierName(Tier.NVLINK), FlexDispatch.NVLINK,
                f.links().scaleUpPerDirection() / 1e9, k.limit() == CollectiveCost.Limit.OWN_NIC ? "NIC" : "NVLink", latency(k),
                Units.seconds(f.seconds()));
    }

    static String sends(Term.Sends s) {
        CollectiveCost k = s.cost();
        String count = s.count() == 1 ? "" : " in " + num(s.count()) + " sends of " + Units.bytes(k.bytes());
        return String.format(Locale.ROOT, "%s %s: %s per micro-batch%s over %s%s%s: %s", s.dim(), s.what(), Units.bytes(s.bytes()),
                count, path(k, s.links()), rate(k), latency(k), Units.seconds(s.seconds()));
    }

    /** NCCL's latency each collective or send pays on top of its bytes ({@link CollectiveCost#latencyFormula}), or "" when none was priced. */
    private static String latency(CollectiveCost k) {
        return k.latency() <= 0 ? "" : ", + " + k.latencyFormula() + " each";
    }

    static String bubble(Term.Bubble b) {
        long mb = b.microBatches();
        double one = b.perSchedule();
        if (b.even()) {
            return String.format(Locale.ROOT, "(pp − 1)/vpp = %d/%d of one micro-batch's %s: %s%s (%s)",
                    b.pp() - 1, b.virtualPp(), Units.seconds(b.perMicroBatch()), Units.seconds(one), schedules(b),
                    share(b, String.format(Locale.ROOT, "(pp − 1)/(vpp·m + pp − 1) = %d/(%d·%d + %d)", b.pp() - 1, b.virtualPp(), mb,
                            b.pp() - 1), (b.pp() - 1.0) / (b.virtualPp() * mb + b.pp() - 1.0)));
        }
        String measured = "bubble ÷ (bubble + m × micro-batch)";
        double fraction = one / (one + mb * b.perMicroBatch());
        if (b.mtp()) {
            // the MTP layers' blocks at their kind and eh_proj at their time, in mean layers: each rank's share by its time
            StringBuilder worth = new StringBuilder(), mtp = new StringBuilder();
            for (int r = 0; r < b.stageWorth().size(); r++) worth.append(r == 0 ? "" : ", ").append(trim(b.stageWorth().get(r)));
            for (int r = 0; r < b.mtpWorth().size(); r++) {
                if (b.mtpWorth().get(r) <= 0) continue;
                double n = b.mtpBlocks().get(r);
                mtp.append(mtp.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%s block%s on rank %d, %s layers' worth",
                        trim(n), n == 1 ? "" : "s", r, trim(b.mtpWorth().get(r))));
            }
            String split = b.split().describe(b.layers(), b.pp());
            return String.format(Locale.ROOT,
                    "the stages' layers' worth %s by rank (the decoder's at the mean layer%s; the MTP layers' %s: their blocks at"
                            + " their kind and eh_proj at what they cost, MtpLayers): the other stages' ÷ the slowest stage's (%s) = %s"
                            + " stages' worth, /vpp %d, of one micro-batch's %s: %s%s (%s)",
                    worth, split.isEmpty() ? "" : ", layers " + split, mtp, trim(b.slowestLayers()), trim(b.otherLayers()),
                    b.virtualPp(), Units.seconds(b.perMicroBatch()), Units.seconds(one), schedules(b), share(b, measured, fraction));
        }
        return String.format(Locale.ROOT,
                "layers %s: the other stages' layers ÷ the slowest stage's (%s) = %s stages' worth, /vpp %d, of one"
                        + " micro-batch's %s: %s%s (%s)",
                b.split().describe(b.layers(), b.pp()), trim(b.slowestLayers()), trim(b.otherLayers()), b.virtualPp(),
                Units.seconds(b.perMicroBatch()), Units.seconds(one), schedules(b), share(b, measured, fraction));
    }

    /** The schedules a step pays the bubble in (torchtitan's gradient-accumulation steps), "" for one. */
    private static String schedules(Term.Bubble b) {
        return b.schedules() == 1 ? "" : String.format(Locale.ROOT, " per pipeline schedule × %d schedules per step (torchtitan runs"
                + " one per gradient-accumulation step, global ÷ (local × dp)) = %s", b.schedules(), Units.seconds(b.seconds()));
    }

    /** The bubble's share of its schedule, as PAR006 gives it: what the GPUs idle of the schedule, by its formula. */
    private static String share(Term.Bubble b, String formula, double fraction) {
        return String.format(Locale.ROOT, "the bubble's share of %s schedule, %s = %.1f %%, with m = %d micro-batch%s per schedule",
                b.schedules() == 1 ? "the" : "each", formula, 100 * fraction, b.microBatches(), b.microBatches() == 1 ? "" : "es");
    }

    static String tpCopy(Term.TpCopy x) {
        String which = x.fused()
                ? String.format(Locale.ROOT, "async TP's fused collectives compute in [s, b] order; the %s gathered tensors a weight gradient"
                        + " flattens are copied (inputs and output gradients) × %d B", trim(x.gathers()), (int) x.gatherBytes())
                : String.format(Locale.ROOT, "each all-gather's and reduce-scatter's cat(chunk) on dim 1: %s all-gathers × %d B + %s"
                        + " reduce-scatters × %d B", trim(x.gathers()), (int) x.gatherBytes(), trim(x.reduces()), (int) x.activationBytes());
        return String.format(Locale.ROOT,
                "[b, s, h] activations sharded on the sequence (torchtitan before its PR #4121; TpLayoutCopy, docs/plan.md): %s;"
                        + " read and written, 2 × %s elements (b·s·h) = %s per layer at %.0f GB/s × %s layers = %s per micro-batch, on the"
                        + " critical path (%s a step)",
                which, Units.count(x.elements()), Units.bytes(x.bytes()), x.hbmRate() / 1e9, trim(x.layers()), Units.seconds(x.seconds()),
                Units.seconds(x.stepSeconds()));
    }

    static String tpExposure(Term.TpExposure x) {
        return switch (x.mode()) {
            case PLAIN -> "exposed of it: all (no tensor-parallel overlap) = " + Units.seconds(x.exposed());
            case FAMILY -> String.format(Locale.ROOT, "exposed of it: (1 − tp_overlap) = %.2f of it (the overlap is not stated)"
                    + " = %s of %s", 1 - x.familyOverlap(), Units.seconds(x.exposed()), Units.seconds(x.seconds()));
            case OVERLAPPED -> String.format(Locale.ROOT, "exposed of it, each collective (%s) beside its GEMM (QKV %s, output %s,"
                    + " MLP %s and %s): Σ max(collective − GEMM, (1 − dp_overlap) = %.2f of the collective, what the GEMM beside it"
                    + " loses, Lee et al. 2025) = %s of %s", Units.seconds(x.collective()),
                    Units.seconds(x.gemms()[0]), Units.seconds(x.gemms()[1]), Units.seconds(x.gemms()[2]), Units.seconds(x.gemms()[3]),
                    1 - x.hidden(), Units.seconds(x.exposed()), Units.seconds(x.seconds()));
        };
    }

    static String dpExposure(Term.DpExposure d) {
        return String.format(Locale.ROOT,
                "exposed of it: max((1 − dp_overlap) = %.2f of it, what the compute beside it loses (Lee et al. 2025: compute"
                        + " 18.9 %% slower under overlap, sequential 10.2 %% slower than overlapped); what outlasts the compute it"
                        + " hides behind) = %s of %s",
                1 - d.dpOverlap(), Units.seconds(d.exposed()), Units.seconds(d.seconds()));
    }

    static String stepGather(Term.StepGather g) {
        return String.format(Locale.ROOT,
                "model chunk 0's all-gather in the optimizer step (overlap_param_gather_with_optimizer_step): chunk 0 one bucket,"
                        + " its reduce-scatter %s exposed whole after the step's last backward (bucketed: max(0, %s − its backward"
                        + " pass %s)), its all-gather %s behind the other chunks' optimizer step (%d − 1)/%d × %s = %s: max(0, %s − %s)"
                        + " (before: behind its first forward pass %s); chunks 1…%d unchanged: what outlasts %s → %s",
                Units.seconds(g.reduceChunk()), Units.seconds(g.reduceChunk()), Units.seconds(g.backward()), Units.seconds(g.gatherChunk()),
                g.vpp(), g.vpp(), Units.seconds(g.optimizer()), Units.seconds(g.window()), Units.seconds(g.gatherChunk()),
                Units.seconds(g.window()), Units.seconds(g.forward()), g.vpp() - 1, Units.seconds(g.without()), Units.seconds(g.with()));
    }

    static String offload(Term.Offload o) {
        return String.format(Locale.ROOT,
                "%s layers' activations (%s per micro-batch) to host memory and back over %s at %.1f GB/s (%.1f GB/s per"
                        + " direction × %.2f): %s each way, behind the offloaded layers' forward %s and backward %s: %s exposed"
                        + " per micro-batch",
                trim(o.layers()), Units.bytes(o.bytes()), o.link(), o.rate() / 1e9, o.linkPerDirection() / 1e9,
                o.pcieEfficiency(), Units.seconds(o.copySeconds()), Units.seconds(o.forwardSeconds()), Units.seconds(o.backwardSeconds()),
                Units.seconds(o.exposed()));
    }

    static String hostStates(Term.HostStates h) {
        String down = Units.bytes(h.downBytes()) + " of gradients down " + (h.downPerMicroBatch()
                ? "per micro-batch (" + Units.seconds(h.downSeconds()) + ", behind the stage's backward " + Units.seconds(h.stageSeconds() * 2 / 3) + ")"
                : "per step (" + Units.seconds(h.downSeconds()) + ", before the CPU optimizer's step)");
        String up = Units.bytes(h.upBytes()) + (h.upPerMicroBatch()
                ? " of parameters up per micro-batch, for its forward and backward (" + Units.seconds(h.upSeconds()) + ", behind the stage's "
                        + Units.seconds(h.stageSeconds()) + ")"
                : " of updated 16-bit weights up per step (" + Units.seconds(h.upSeconds()) + ", after it)");
        return String.format(Locale.ROOT, "over %s at %.1f GB/s (%.1f GB/s per direction × %.2f): %s; %s; %d micro-batches: %s exposed per step",
                h.link(), h.rate() / 1e9, h.linkPerDirection() / 1e9, h.efficiency(), down, up, h.microBatches(), Units.seconds(h.exposed()));
    }

    static String optimizer(Term.Optimizer o) {
        return String.format(Locale.ROOT, "Adam reads and writes 30 bytes per local parameter (%s) at %.0f GB/s: %s",
                Units.count(o.localParameters()), o.hbmRate() / 1e9, Units.seconds(o.seconds()));
    }

    /** Where the bytes go: the tier as the hardware names it, and for an all-to-all across nodes its remote share. */
    private static String path(CollectiveCost k, Links links) {
        String name = links.tierName(k.tier());
        if (k.collective() == Collective.ALL_TO_ALL && k.tier() == Tier.NETWORK) {
            return String.format(Locale.ROOT, "%s (%d of the %d ranks in reach inside; %s per rank through its own NIC)", name,
                    k.local(), k.n(), Units.bytes(k.remoteBytes()));
        }
        if (k.collective() == Collective.SEND && k.tier() == Tier.NETWORK) {
            return name + (k.limit() == CollectiveCost.Limit.HOST_LINKS
                    ? " (a send is one pair of GPUs: the sending GPU's own NIC, through its slower PCIe link)"
                    : " (a send is one pair of GPUs: the sending GPU's own NIC)");
        }
        if (k.tier() == Tier.NETWORK && k.local() > 1) {
            return name + String.format(Locale.ROOT, " (the ring's %d ranks on a node cross it once per channel: %d GPUs' share of its NICs)",
                    k.local(), k.local());
        }
        return name;
    }

    /** The bus bandwidth it ran at: measured by nccl-tests, or line rate × efficiency. */
    private static String rate(CollectiveCost k) {
        double bus = k.bandwidthSeconds() > 0 ? k.bytesPerRank() / k.bandwidthSeconds() : 0;
        return String.format(Locale.ROOT, " at %.0f GB/s%s", bus / 1e9, k.measured() ? " (measured by nccl-tests)"
                : String.format(Locale.ROOT, " (%.0f GB/s line rate × %.2f)", k.lineRate() / 1e9, k.efficiency()));
    }

    /** A count: whole, or to one decimal. */
    private static String num(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.1f", v);
    }

    /** Layers: whole, or to two decimals. */
    private static String trim(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format(Locale.ROOT, "%.2f", v);
    }
}
