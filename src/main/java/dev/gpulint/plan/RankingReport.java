package dev.gpulint.plan;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.derive.estimate.Estimate;
import dev.gpulint.derive.estimate.Layout;
import dev.gpulint.derive.estimate.Tier;
import dev.gpulint.derive.estimate.Units;
import dev.gpulint.plan.search.Candidate;
import dev.gpulint.plan.search.SearchResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The candidates of a plan in words, as a table and as PLAN.md's JSON: how many layouts were checked and what rejected
 * them, the best {@code top}, where the job as written ranks and what it loses against the best ("yours ranks 14th of
 * 212: 23 % slower than tp 8, pp 4, vpp 5; its dp communication crosses the network exposed for 0.8 s of 3.1 s"), and
 * when nothing is valid, why and what would make a layout valid.
 */
public final class RankingReport {
    private RankingReport() {}

    /** The JSON keys of the ranking: candidates, rejected, cluster_findings (and counts, and infeasible when so). */
    static void json(Planner.Plan p, int top, Map<String, Object> root, Map<String, Object> current) {
        PlanSearch.Ranking r = p.ranking();
        SearchResult s = r == null ? null : r.search();
        current.put("rank", s == null || !s.current().valid() ? null : s.current().rank());
        if (s != null && !s.current().valid()) current.put("rejected_by", s.current().rejectedBy());
        List<Object> cands = new ArrayList<>();
        if (s != null) for (Candidate c : s.top(top)) cands.add(PlanReport.planObject(r.estimate(c), c.findings(), c.rank()));
        root.put("candidates", cands);
        root.put("rejected", s == null ? Map.of() : new LinkedHashMap<>(s.rejected()));
        root.put("cluster_findings", s == null ? List.of() : s.clusterFindings());
        if (s != null) {
            root.put("evaluated", s.evaluated());
            root.put("valid", s.candidates().size());
        }
        if (r != null && r.problem() != null) root.put("search_problem", r.problem());
        if (r != null && r.infeasible() != null) root.put("infeasible", infeasibleJson(r.infeasible()));
    }

    private static Map<String, Object> infeasibleJson(PlanSearch.Infeasible inf) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("reason", reason(inf));
        m.put("least_memory_layout", PlanReport.layout(inf.leanest()));
        m.put("least_memory_rejected_by", inf.leanestRejectedBy());
        m.put("memory_only", inf.memoryOnly());
        var st = inf.leanestEstimate().largestStage();
        m.put("least_memory_states_bytes", Math.round(st.weights() + st.gradients() + st.optimizer()));
        m.put("least_memory_bytes", Math.round(st.total()));
        m.put("capacity_bytes", Math.round(inf.usableBytes()));
        m.put("fix", fix(inf));
        m.put("searched_up_to_gpus", inf.triedUpTo());
        m.put("cluster_gpus", inf.clusterGpus() > 0 ? inf.clusterGpus() : null);
        if (inf.moreGpus() != null) {
            m.put("min_gpus", inf.moreGpus().gpus());
            m.put("min_gpus_best_layout", PlanReport.layout(inf.moreGpus().best()));
            m.put("min_gpus_valid", inf.moreGpus().valid());
        } else {
            m.put("min_gpus", null);
        }
        if (inf.sharded() != null) m.put("sharded_best_layout", PlanReport.layout(inf.sharded().best()));
        return m;
    }

    /** The candidates section of the text (or markdown) plan. */
    static String text(Planner.Plan p, int top, boolean markdown) {
        PlanSearch.Ranking r = p.ranking();
        StringBuilder b = new StringBuilder();
        b.append(markdown ? "### " : "").append("Candidates\n").append(markdown ? "\n" : "");
        if (r == null || r.search() == null) {
            b.append(line(markdown, "no candidates: " + (r == null ? "the plan has no search" : r.problem())));
            return b.toString();
        }
        SearchResult s = r.search();
        b.append(line(markdown, String.format(Locale.ROOT, "%s layouts checked by gpulint's rules (%s distinct checks): %s valid%s",
                Units.count(s.evaluated()), Units.count(s.checks()), Units.count(s.candidates().size()), rejected(s))));
        if (!s.clusterFindings().isEmpty()) {
            b.append(line(markdown, "findings of the cluster, whatever the layout (they reject none): " + String.join(", ", s.clusterFindings())));
        }
        if (r.infeasible() != null) return b.toString();      // the headline says why and what would make one valid
        b.append(markdown ? "\n| rank | layout | micro batch | optimizer | recompute | sp | tokens/s/GPU | MFU | step | fullest stage |\n"
                + "|---|---|---|---|---|---|---|---|---|---|\n" : String.format(Locale.ROOT, "%n  %4s  %-28s %5s  %-9s %-9s %-3s %12s %6s %9s  %s%n",
                "rank", "layout", "micro", "optimizer", "recompute", "sp", "tokens/s/GPU", "MFU", "step", "fullest stage"));
        List<Candidate> shown = new ArrayList<>(s.top(top));
        if (s.current().valid() && !shown.contains(s.current())) shown.add(s.current());
        for (Candidate c : shown) {
            Estimate e = r.estimate(c);
            Layout l = c.layout();
            String opt = l.zeroStage() > 0 ? "ZeRO-" + l.zeroStage() : l.distributedOptimizer() ? "dist." : "Adam";
            // markdown: a backslash keeps the mark a literal asterisk, never the start of emphasis
            String rank = (c.equals(s.current()) ? markdown ? "\\*" : "*" : "") + c.rank();
            String mem = Units.bytes(e.largestStage().total()) + " (stage " + (e.largestStage().stage() + 1) + ")";
            if (markdown) {
                b.append(String.format(Locale.ROOT, "| %s | %s | %d | %s | %s | %s | %.0f | %.1f %% | %s | %s |%n", rank, l.sizes(),
                        l.microBatchSize(), opt, l.recomputeText(), l.sequenceParallel() ? "yes" : "no",
                        e.throughput().tokensPerSecondPerGpu(), 100 * e.throughput().mfu(), Units.seconds(e.time().step()), mem));
            } else {
                b.append(String.format(Locale.ROOT, "  %4s  %-28s %5d  %-9s %-9s %-3s %12.0f %5.1f%% %9s  %s%n", rank, l.sizes(),
                        l.microBatchSize(), opt, l.recomputeText(), l.sequenceParallel() ? "yes" : "no",
                        e.throughput().tokensPerSecondPerGpu(), 100 * e.throughput().mfu(), Units.seconds(e.time().step()), mem));
            }
        }
        // markdown: "- * ..." would be a list inside a list item (a nested bullet); the mark is written as code there
        b.append(markdown ? "\n" : "").append(line(markdown, (markdown ? "`*` marks" : "*") + " the job as written; `--candidate K` draws candidate K"));
        return b.toString();
    }

    /** The plan's verdict on the layout, under the job as written: its rank and loss, or why nothing is valid and the fix. */
    static List<String> headline(Planner.Plan p) {
        PlanSearch.Ranking r = p.ranking();
        if (r == null || r.search() == null) return List.of();
        if (r.infeasible() != null) return List.of(reason(r.infeasible()), fix(r.infeasible()));
        return List.of(yours(p));
    }

    /** "yours ranks 14th of 212: 23 % slower than tp 8, pp 4, vpp 5; its ..." or why it is rejected. */
    static String yours(Planner.Plan p) {
        SearchResult s = p.ranking().search();
        Candidate best = s.candidates().get(0);
        Estimate be = p.ranking().estimate(best);
        Candidate cur = s.current();
        String bestText = best.layout().sizes() + " (" + details(best.layout()) + String.format(Locale.ROOT, ", %.0f tokens/s/GPU)",
                be.throughput().tokensPerSecondPerGpu());
        if (!cur.valid()) {
            return "yours (" + cur.layout().sizes() + ") is rejected by " + String.join(", ", cur.rejectedBy()) + "; the best valid layout is "
                    + bestText;
        }
        if (cur.rank() == 1) return "yours ranks 1st of " + s.candidates().size() + ": the best layout gpulint finds";
        Estimate ce = p.ranking().estimate(cur);
        double slower = 1 - ce.throughput().tokensPerSecondPerGpu() / be.throughput().tokensPerSecondPerGpu();
        String head = String.format(Locale.ROOT, "yours ranks %s of %d: %.0f %% slower than %s", ordinal(cur.rank()), s.candidates().size(),
                100 * slower, bestText);
        String why = why(ce, be);
        return why == null ? head : head + "; " + why;
    }

    /** The term of the step where the job as written loses most against the best. */
    static String why(Estimate cur, Estimate best) {
        Estimate.Time c = cur.time(), b = best.time();
        String what = null;
        double worst = 0, mine = 0, theirs = 0;
        double[][] terms = {{c.compute(), b.compute()}, {c.bubble(), b.bubble()}, {c.optimizer(), b.optimizer()}};
        String[] names = {"its compute takes", "its pipeline bubble takes", "its optimizer step takes"};
        for (int i = 0; i < terms.length; i++) {
            double d = terms[i][0] - terms[i][1];
            if (d > worst) { worst = d; what = names[i]; mine = terms[i][0]; theirs = terms[i][1]; }
        }
        for (Tier t : Tier.values()) {
            double x = c.exposed().getOrDefault(t, 0.0), y = b.exposed().getOrDefault(t, 0.0);
            if (x - y > worst) {
                worst = x - y; mine = x; theirs = y;
                List<String> dims = new ArrayList<>();
                for (ParallelDim d : PlanReport.COMM_DIMS) {
                    if (c.tiers().get(d) == t && c.comm().getOrDefault(d, 0.0) > 0) dims.add(d.label());
                }
                what = "its " + (dims.isEmpty() ? "" : String.join(" and ", dims) + " ") + "communication crosses " + tier(t) + ", exposed for";
            }
        }
        if (what == null) return null;
        return String.format(Locale.ROOT, "%s %s of its %s step (the best's: %s)", what, Units.seconds(mine), Units.seconds(c.step()),
                Units.seconds(theirs));
    }

    private static String tier(Tier t) {
        return switch (t) { case NVLINK -> "NVLink"; case PCIE -> "PCIe"; case NETWORK -> "the network (RDMA NICs)"; };
    }

    /** Why nothing is valid: the leanest layout and what its memory is against the GPU's. */
    static String reason(PlanSearch.Infeasible inf) {
        Estimate e = inf.leanestEstimate();
        var st = e.largestStage();
        double states = st.weights() + st.gradients() + st.optimizer();
        String why;
        if (!inf.memoryOnly()) why = "every layout is rejected by a rule besides memory";
        else if (states > e.capacityBytes()) why = "the model states alone exceed the GPU's memory";
        else if (st.total() > e.capacityBytes()) why = "states and activations exceed the GPU's memory";
        else why = String.format(Locale.ROOT, "the model states alone take %.1f %% of it, leaving less than %s MEM002 keeps for "
                + "activations, NCCL buffers and the CUDA context", 100 * states / e.capacityBytes(), inf.warnAt() == 0.9 ? "the tenth"
                : "the " + PlanSearch.keptShare(inf.warnAt()));
        return String.format(Locale.ROOT, "no layout of %d × %s is valid. The leanest, %s (%s), rejected by %s, holds %s of model states "
                        + "per GPU on stage %d of %d (weights %s + gradients %s + optimizer %s) and %s of activations, against the GPU's %s: %s",
                e.layout().gpus(), e.gpu(), inf.leanest().sizes(), details(inf.leanest()), String.join(", ", inf.leanestRejectedBy()),
                Units.bytes(states), st.stage() + 1, e.layout().pp(), Units.bytes(st.weights()), Units.bytes(st.gradients()), Units.bytes(st.optimizer()),
                Units.bytes(st.activations()), Units.bytes(e.capacityBytes()), why);
    }

    /** What would make a layout valid. */
    static String fix(PlanSearch.Infeasible inf) {
        if (!inf.memoryOnly()) {
            return "to make one valid: every layout breaks a rule besides memory (the leanest: " + String.join(", ", inf.leanestRejectedBy())
                    + "); mend what `gpulint check` says about the job first, more GPUs or sharding do not";
        }
        List<String> ways = new ArrayList<>();
        if (inf.moreGpus() != null) {
            PlanSearch.Fix f = inf.moreGpus();
            ways.add(String.format(Locale.ROOT, "at least %d GPUs of the same nodes (%s): %d valid layouts there, the best %s (%s) at %.0f tokens/s/GPU",
                    f.gpus(), inf.clusterGpus() <= 0 ? "the cluster's size is not known" : f.gpus() <= inf.clusterGpus()
                            ? "the cluster has " + inf.clusterGpus() + "; `gpulint plan --gpus " + f.gpus() + "` ranks them"
                            : "more than the cluster's " + inf.clusterGpus(), f.valid(), f.best().sizes(), details(f.best()),
                    f.estimate().throughput().tokensPerSecondPerGpu()));
        }
        if (inf.sharded() != null) {
            PlanSearch.Fix f = inf.sharded();
            ways.add(String.format(Locale.ROOT, "on these %d GPUs, a ZeRO optimizer (DeepSpeed or FSDP: 2 + 2 + 12 bytes per parameter, "
                    + "sharded over dp by stage; optimizer.zero_stage: %d, FSDP FULL_SHARD is 3): the best is %s (%s) at %.0f tokens/s/GPU",
                    f.gpus(), f.best().zeroStage(), f.best().sizes(), details(f.best()), f.estimate().throughput().tokensPerSecondPerGpu()));
        }
        if (ways.isEmpty()) {
            return "to make one valid: no layout on up to " + inf.triedUpTo() + " GPUs of these nodes is valid either"
                    + (inf.clusterGpus() > 0 && inf.triedUpTo() >= inf.clusterGpus() ? " (the cluster has " + inf.clusterGpus() + ")" : "") + "; fewer bytes of "
                    + "optimizer state (optimizer.bytes_per_parameter, an 8-bit optimizer) or GPUs with more memory";
        }
        return "to make one valid: " + String.join("; or ", ways);
    }

    static String details(Layout l) {
        return "micro batch " + l.microBatchSize() + (l.zeroStage() > 0 ? ", ZeRO-" + l.zeroStage() : l.distributedOptimizer()
                ? ", distributed optimizer" : "") + ", recompute " + l.recomputeText() + (l.sequenceParallel() ? ", sequence parallel" : "");
    }

    private static String rejected(SearchResult s) {
        if (s.rejected().isEmpty()) return "";
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, Integer> e : s.rejected().entrySet()) parts.add(e.getKey() + " " + Units.count(e.getValue()));
        return ", " + Units.count(s.rejectedCandidates()) + " rejected (" + String.join(", ", parts) + ")";
    }

    static String ordinal(int n) {
        int h = n % 100, t = n % 10;
        String suf = h >= 11 && h <= 13 ? "th" : t == 1 ? "st" : t == 2 ? "nd" : t == 3 ? "rd" : "th";
        return n + suf;
    }

    private static String line(boolean markdown, String s) { return (markdown ? "- " : "  ") + s + "\n"; }
}
