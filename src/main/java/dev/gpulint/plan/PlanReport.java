package dev.gpulint.plan;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.derive.estimate.Estimate;
import dev.gpulint.derive.estimate.Layout;
import dev.gpulint.derive.estimate.MemoryModel;
import dev.gpulint.derive.estimate.Term;
import dev.gpulint.derive.estimate.Tier;
import dev.gpulint.derive.estimate.Units;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A plan as ../spec/PLAN.md's JSON (bytes and seconds), as a readable text breakdown, and as markdown. */
public final class PlanReport {
    private PlanReport() {}

    /** The dimensions that communicate, in the order PLAN.md's {@code comm_s} and {@code tiers} write them. */
    static final List<ParallelDim> COMM_DIMS = List.of(ParallelDim.TP, ParallelDim.CP, ParallelDim.EP, ParallelDim.PP, ParallelDim.DP);

    /** The sizes a layout chooses, in the order PLAN.md's {@code layout} writes them. */
    static final List<ParallelDim> LAYOUT_DIMS = List.of(ParallelDim.TP, ParallelDim.PP, ParallelDim.DP, ParallelDim.CP,
            ParallelDim.EP, ParallelDim.VPP);

    /** The JSON document: job, cluster, node group, GPU, GPUs, current, candidates, rejected, cluster findings, collectives, assumptions. */
    public static Map<String, Object> json(Planner.Plan p) { return json(p, 10); }

    /** With the best {@code top} candidates. */
    public static Map<String, Object> json(Planner.Plan p, int top) {
        Estimate e = p.current().estimate();
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("job", p.current().job().name());
        root.put("cluster", p.cluster());
        root.put("node_group", p.nodeGroup());
        root.put("gpu", e.gpu());
        root.put("gpus", e.layout().gpus());
        Map<String, Object> cur = planObject(e, p.findings(), 1);
        root.put("current", cur);
        RankingReport.json(p, top, root, cur);
        root.put("collectives", CollectiveReport.json(p.collectives()));
        root.put("assumptions", p.assumptions());
        return root;
    }

    /** One PLAN object. */
    public static Map<String, Object> planObject(Estimate e, List<String> findings, Integer rank) {
        Map<String, Object> plan = new LinkedHashMap<>();
        plan.put("layout", layout(e.layout()));
        plan.put("findings", findings);
        plan.put("rank", rank);
        Map<String, Object> mem = new LinkedHashMap<>();
        mem.put("capacity_bytes", Math.round(e.capacityBytes()));
        List<Object> stages = new ArrayList<>();
        for (MemoryModel.Stage s : e.stages()) {
            Map<String, Object> st = new LinkedHashMap<>();
            st.put("stage", s.stage());
            st.put("weights_bytes", Math.round(s.weights()));
            st.put("gradients_bytes", Math.round(s.gradients()));
            st.put("optimizer_bytes", Math.round(s.optimizer()));
            st.put("activations_bytes", Math.round(s.activations()));
            st.put("total_bytes", Math.round(s.total()));
            st.put("parameters", Math.round(s.parameters()));
            stages.add(st);
        }
        mem.put("stages", stages);
        mem.put("fits", !e.outOfMemory());
        plan.put("memory", mem);
        Estimate.Time t = e.time();
        Map<String, Object> time = new LinkedHashMap<>();
        time.put("step_s", r(t.step()));
        time.put("compute_s", r(t.compute()));
        time.put("bubble_s", r(t.bubble()));
        Map<String, Object> comm = new LinkedHashMap<>();
        for (ParallelDim d : COMM_DIMS) comm.put(d.label(), r(t.comm().getOrDefault(d, 0.0)));
        time.put("comm_s", comm);
        Map<String, Object> exp = new LinkedHashMap<>();
        for (Tier x : Tier.values()) exp.put(x.id(), r(t.exposed().getOrDefault(x, 0.0)));
        time.put("exposed_comm_s", exp);
        Map<String, Object> tiers = new LinkedHashMap<>();
        for (ParallelDim d : COMM_DIMS) if (t.tiers().containsKey(d)) tiers.put(d.label(), t.tiers().get(d).id());
        time.put("tiers", tiers);
        time.put("optimizer_s", r(t.optimizer()));
        // the tp-copy term, only where it is priced (TpLayoutCopy: [b, s, h] activations sharded on the sequence)
        for (Term x : e.terms()) if (x instanceof Term.TpCopy c) time.put("tp_copy_s", r(c.stepSeconds()));
        // the mtp term, only where the job has MTP layers (MtpLayers): their time on the last stage per step
        for (Term x : e.terms()) if (x instanceof Term.Mtp c) time.put("mtp_s", r(c.stepSeconds()));
        // the pipeline's sends per micro-batch, only where the MTP layers' hidden states ride in them (MtpLayers.carriedStates)
        for (Term x : e.terms()) {
            if (x instanceof Term.Sends s && dev.gpulint.derive.estimate.MtpLayers.carries(s.what())) time.put("pp_sends_bytes", Math.round(s.bytes()));
        }
        // the word embedding's gradient all-reduce per step (tied or MTP, pp > 1), only where it runs (EmbeddingSync)
        for (Term x : e.terms()) {
            if (x instanceof Term.Collectives c && dev.gpulint.derive.estimate.EmbeddingSync.is(c.what())) {
                time.put("embedding_sync_s", r(c.seconds()));
                time.put("embedding_sync_bytes", Math.round(c.cost().bytes()));
            }
        }
        plan.put("time", time);
        Map<String, Object> th = new LinkedHashMap<>();
        th.put("tokens_per_s_per_gpu", r(e.throughput().tokensPerSecondPerGpu()));
        th.put("model_tflops_per_gpu", r(e.throughput().modelTflopsPerGpu()));
        th.put("mfu", r(e.throughput().mfu()));
        plan.put("throughput", th);
        return plan;
    }

    static Map<String, Object> layout(Layout l) {
        Map<String, Object> m = new LinkedHashMap<>();
        // PLAN.md's layout fields are the manifest's parallelism keys
        for (ParallelDim d : LAYOUT_DIMS) m.put(d.key(), l.size(d));
        m.put("micro_batch_size", l.microBatchSize());
        m.put("global_batch_size", l.globalBatchSize());
        m.put("zero_stage", l.zeroStage());
        m.put("distributed_optimizer", l.distributedOptimizer());
        m.put("recompute", l.recompute().id());
        if (l.recompute() == Layout.Recompute.EVERY) m.put("recompute_every", l.recomputeEvery());
        m.put("sequence_parallel", l.sequenceParallel());
        // an uneven pipeline only (absent when the layers split evenly): the first and last stage's layers
        if (l.split().first() > 0) m.put("first_stage_layers", l.split().first());
        if (l.split().last() > 0) m.put("last_stage_layers", l.split().last());
        // a per-layer layout only: each pp × vpp stage's transformer blocks, in Megatron's order
        if (l.split().laidOut(l.pp())) m.put("stage_layers", l.split().stages());
        // hybrid sharding only (absent when the states shard over all of dp): the shard group's data-parallel ranks
        if (l.hybrid()) m.put("dp_shard", l.shardRanks());
        return m;
    }

    /** Four significant digits: the same estimate, the same bytes. */
    static double r(double v) {
        if (v == 0 || !Double.isFinite(v)) return 0;
        return new java.math.BigDecimal(v).round(new java.math.MathContext(4)).doubleValue();
    }

    /** The text breakdown: layout, memory per stage, the step term by term, throughput, assumptions. */
    public static String text(Planner.Plan p, boolean markdown) { return text(p, markdown, 10); }

    /** With the candidates section: the best {@code top}, where the job as written ranks, or why nothing is valid. */
    public static String text(Planner.Plan p, boolean markdown, int top) {
        Estimate e = p.current().estimate();
        StringBuilder b = new StringBuilder();
        String h = markdown ? "### " : "";
        Layout l = e.layout();
        b.append(markdown ? "## " : "").append("gpulint plan: job ").append(p.current().job().name()).append(" on ")
                .append(l.gpus()).append(" × ").append(e.gpu());
        if (p.cluster() != null) b.append(" (").append(p.cluster()).append(p.nodeGroup() == null ? "" : " / " + p.nodeGroup()).append(')');
        b.append("\n\n");
        b.append(h).append("Layout (as written)\n").append(markdown ? "\n" : "  ").append(l.sizes()).append(", micro batch ")
                .append(l.microBatchSize()).append(", global batch ").append(l.globalBatchSize()).append(", ")
                .append(l.microBatches() > 0 ? l.microBatches() + " micro-batches per step" + (l.pp() > 1 && l.schedules() > 1 ? " in "
                        + l.schedules() + " pipeline schedules of " + l.scheduleMicroBatches() + " (one per gradient-accumulation step)" : "")
                        : "no whole number of micro-batches per step (global batch " + l.globalBatchSize() + " ÷ micro batch × dp "
                        + (long) l.microBatchSize() * l.dp() + ", PAR007: the terms below round the count up)")
                .append(", zero stage ").append(l.zeroStage())
                .append(l.distributedOptimizer() ? ", distributed optimizer" : "").append(", recompute ").append(l.recomputeText())
                .append(l.sequenceParallel() ? ", sequence parallel" : "").append('\n');
        if (!p.findings().isEmpty()) b.append(markdown ? "\n" : "  ").append("check raises: ").append(String.join(", ", p.findings())).append('\n');
        for (String v : RankingReport.headline(p)) b.append(markdown ? "\n**" : "  ").append(v).append(markdown ? "**\n" : "\n");
        b.append('\n').append(h).append("Memory per GPU, per pipeline stage (capacity ").append(Units.bytes(e.capacityBytes())).append(")\n");
        if (markdown) b.append("\n| stage | weights | gradients | optimizer | activations | total | fits |\n|---|---|---|---|---|---|---|\n");
        for (MemoryModel.Stage s : e.stages()) {
            boolean fits = s.total() <= e.capacityBytes();
            if (markdown) {
                b.append("| ").append(s.stage() + 1).append(" | ").append(Units.bytes(s.weights())).append(" | ").append(Units.bytes(s.gradients()))
                        .append(" | ").append(Units.bytes(s.optimizer())).append(" | ").append(Units.bytes(s.activations())).append(" | ")
                        .append(Units.bytes(s.total())).append(" | ").append(fits ? "yes" : "**no**").append(" |\n");
            } else {
                b.append(String.format(Locale.ROOT, "  stage %-3d %s parameters: weights %s + gradients %s + optimizer %s + activations %s = %s%s%n",
                        s.stage() + 1, Units.count(s.parameters()), Units.bytes(s.weights()), Units.bytes(s.gradients()),
                        Units.bytes(s.optimizer()), Units.bytes(s.activations()), Units.bytes(s.total()), fits ? "" : "  DOES NOT FIT"));
            }
        }
        Estimate.Time t = e.time();
        b.append('\n').append(h).append("One step: ").append(Units.seconds(t.step())).append('\n').append(markdown ? "\n" : "");
        b.append(line(markdown, String.format(Locale.ROOT, "compute %s + bubble %s + exposed communication %s + optimizer %s",
                Units.seconds(t.compute()), Units.seconds(t.bubble()), Units.seconds(t.exposedTotal()), Units.seconds(t.optimizer()))));
        for (Term n : e.terms()) b.append(line(markdown, EstimateWords.line(n)));
        StringBuilder ex = new StringBuilder();
        for (Tier x : Tier.values()) {
            double v = t.exposed().getOrDefault(x, 0.0);
            if (v > 0) ex.append(ex.length() == 0 ? "" : ", ").append(x.id()).append(' ').append(Units.seconds(v));
        }
        if (ex.length() > 0) b.append(line(markdown, "exposed communication per tier: " + ex));
        b.append('\n').append(h).append("Throughput\n").append(markdown ? "\n" : "");
        b.append(line(markdown, String.format(Locale.ROOT, "%.0f tokens/s per GPU, %.0f model TFLOP/s per GPU, MFU %.1f %%",
                e.throughput().tokensPerSecondPerGpu(), e.throughput().modelTflopsPerGpu(), 100 * e.throughput().mfu())));
        b.append(CollectiveReport.text(p.collectives(), markdown));
        b.append('\n').append(RankingReport.text(p, top, markdown));
        b.append('\n').append(h).append("Assumptions\n").append(markdown ? "\n" : "");
        for (String a : p.assumptions()) b.append(line(markdown, a));
        return b.toString();
    }

    private static String line(boolean markdown, String s) {
        return (markdown ? "- " : "  ") + s + "\n";
    }
}
