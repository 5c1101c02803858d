package dev.gpulint.plan;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.catalog.Catalog;
import dev.gpulint.core.Finding;
import dev.gpulint.core.Fix;
import dev.gpulint.core.LintResult;
import dev.gpulint.core.Safety;
import dev.gpulint.core.Span;
import dev.gpulint.core.TextEdit;
import dev.gpulint.derive.estimate.JobEstimate;
import dev.gpulint.derive.estimate.Layout;
import dev.gpulint.facts.JobFact;
import dev.gpulint.meta.Messages;
import dev.gpulint.plan.search.Candidate;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.fix.FixSettings;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The layout fixes of #28: the rules whose ID.yaml names the fix ({@link #TITLE}: PAR002, PAR005 and MEM001) offer the plan's best valid layout ({@link Planner#best}) as
 * one unsafe fix that edits every parallel size that changes (tp, pp, vpp, dp, cp), never one alone. No fix when a
 * size that must change is not written in the file as a plain number at the job's span for it, or when the plan
 * finds no valid layout. The plan is computed only when one of these rules fired, once per job. The linter cannot
 * do this (the plan is a higher stage): app.Checks applies it to every check's result, whichever front end asked.
 */
public final class LayoutFixes {
    private LayoutFixes() {}

    /**
     * The message key of the fix's title in a rule's ID.yaml; a rule whose ID.yaml has it offers the plan's best layout
     * (PAR002, PAR005 and MEM001 do): which rules take this Java-made fix is said there, not in this class.
     */
    public static final String TITLE = "fix-layout";

    /** Whether the rule's ID.yaml names the layout fix ({@link #TITLE} among its messages). */
    public static boolean offers(RuleCatalog rules, String ruleId) {
        return rules.get(ruleId).map(m -> m.messages().containsKey(TITLE)).orElse(false);
    }

    /**
     * The result with a layout fix added to each finding of {@link #RULES} whose job the plan can improve.
     *
     * @param estimates the jobs' estimates of the run that produced {@code result} (what the plan prices)
     * @param facts    the derived facts of that run (the jobs the findings are about)
     * @param texts    the texts linted, by display path (the edits are placed in them)
     * @param settings the configuration's fix settings
     * @param overrides the configuration's {@code plan:} efficiencies: the plan behind the fix prices with them, as `gpulint plan`
     */
    public static LintResult apply(List<JobEstimate> estimates, List<Object> facts, LintResult result, Map<String, String> texts, Catalog catalog,
                                   RuleCatalog rules, FixSettings settings, Map<String, Double> overrides) {
        boolean any = false;
        for (Finding f : result.findings()) if (wanted(f, rules)) any = true;
        if (!any) return result;
        Map<String, Optional<Fix>> byJob = new HashMap<>();
        Map<String, Best> plans = new HashMap<>(); // one plan per job, whichever of the rules fired
        List<Finding> out = new ArrayList<>(result.findings().size());
        boolean changed = false;
        for (Finding f : result.findings()) {
            JobFact job = wanted(f, rules) ? jobOf(facts, f.span()) : null;
            if (job == null) {
                out.add(f);
                continue;
            }
            String key = job.getFile() + "\u0000" + job.getName() + "\u0000" + f.ruleId();
            Optional<Fix> fix = byJob.computeIfAbsent(key, k -> fix(estimates, facts, result, catalog, rules, job, f.ruleId(), plans, overrides));
            if (fix.isEmpty()) {
                out.add(f);
                continue;
            }
            Finding placed = settings.apply(List.of(f.withFixes(List.of(fix.get()))), texts, rules).get(0);
            if (placed.fixes().isEmpty() || !plain(placed.fixes().get(0))) {
                out.add(f);
                continue;
            }
            List<Fix> all = new ArrayList<>(f.fixes());
            all.addAll(placed.fixes());
            out.add(f.withFixes(all));
            changed = true;
        }
        return changed ? new LintResult(out, result.files(), result.inputFailed(), result.baselined(), result.paths()) : result;
    }

    private static boolean wanted(Finding f, RuleCatalog rules) {
        return !f.suppressed() && f.span() != null && offers(rules, f.ruleId());
    }

    /** The job a finding is about: the job of its file whose name comes last at or before the finding's line. */
    static JobFact jobOf(List<Object> facts, Span at) {
        JobFact chosen = null;
        for (Object o : facts) {
            if (!(o instanceof JobFact j) || !at.file().equals(j.getFile())) continue;
            Span n = j.getNameSpan();
            int line = n == null ? 0 : n.startLine();
            int best = chosen == null || chosen.getNameSpan() == null ? -1 : chosen.getNameSpan().startLine();
            if (line <= at.startLine() && line > best) chosen = j;
        }
        return chosen;
    }

    /** The fix of one job: the edits to its best layout, or empty when there is none or a size is not a plain number. */
    static Optional<Fix> fix(List<JobEstimate> estimates, List<Object> facts, LintResult result, Catalog catalog, RuleCatalog rules, JobFact job, String ruleId,
                             Map<String, Best> plans, Map<String, Double> overrides) {
        Best planned = plans.computeIfAbsent(job.getFile() + "\u0000" + job.getName(), k -> {
            double[] t = {0};
            return new Best(best(estimates, facts, result, catalog, job.getName(), t, overrides), t[0]);
        });
        Optional<Candidate> best = planned.candidate();
        double[] tokens = {planned.tokens()};
        if (best.isEmpty()) return Optional.empty();
        Layout l = best.get().layout();
        Map<ParallelDim, long[]> sizes = new LinkedHashMap<>();
        sizes.put(ParallelDim.TP, new long[] {job.getTp(), l.tp()});
        sizes.put(ParallelDim.PP, new long[] {job.getPp(), l.pp()});
        sizes.put(ParallelDim.VPP, new long[] {Math.max(1, job.getVirtualPp()), l.virtualPp()});
        sizes.put(ParallelDim.DP, new long[] {job.getDp(), l.dp()});
        sizes.put(ParallelDim.CP, new long[] {Math.max(1, job.getCp()), l.cp()});
        sizes.put(ParallelDim.EP, new long[] {Math.max(1, job.getEp()), l.ep()});
        Map<ParallelDim, Span> spans = new EnumMap<>(ParallelDim.class);
        spans.put(ParallelDim.TP, job.getTpSpan());
        spans.put(ParallelDim.PP, job.getPpSpan());
        spans.put(ParallelDim.VPP, job.getVirtualPpSpan());
        spans.put(ParallelDim.DP, job.getDpSpan());
        spans.put(ParallelDim.CP, job.getCpSpan());
        spans.put(ParallelDim.EP, job.getEpSpan());
        List<TextEdit> edits = new ArrayList<>();
        for (Map.Entry<ParallelDim, long[]> e : sizes.entrySet()) {
            long was = e.getValue()[0], now = e.getValue()[1];
            if (was == now) continue;
            Span s = spans.get(e.getKey());
            // a size the file does not state, states other than as the number the job runs with, or shares with another
            // size (NeMo's pp: ${.tensor_model_parallel_size}): no fix at all
            if (s == null || was <= 0 || !job.editable(s)) return Optional.empty();
            edits.add(TextEdit.replace(s, Long.toString(now)));
        }
        if (edits.isEmpty()) return Optional.empty();
        String template = rules.get(ruleId).map(m -> m.messages().get(TITLE)).orElse(null);
        if (template == null) return Optional.empty();
        String title = Messages.render(template, Map.of("sizes", l.sizes(), "tokens", Math.round(tokens[0])));
        return Optional.of(new Fix(title, Safety.UNSAFE, List.copyOf(edits)));
    }

    /**
     * The best valid layout of the plan that differs from the job as written in its parallel sizes only: the plan's
     * first candidate may also choose another optimizer sharding, recomputation, micro batch or sequence parallelism,
     * which a fix of the sizes would not write, so such a candidate's validity would not hold for the fixed file.
     */
    static Optional<Candidate> best(List<JobEstimate> estimates, List<Object> facts, LintResult result, Catalog catalog, String job, double[] tokens,
                                    Map<String, Double> overrides) {
        // the plan's own search, without its advice for an infeasible job: a fix needs a valid candidate, not more GPUs; priced
        // with the nccl-tests runs among the facts and the plan: efficiencies, as `gpulint plan` prices it
        Planner.Outcome o = Planner.plan(estimates, facts, result, catalog, job, 0, 0, overrides, false);
        if (o.plan() == null || o.plan().current().estimate() == null || o.plan().ranking() == null
                || o.plan().ranking().search() == null) return Optional.empty();
        Layout now = o.plan().current().estimate().layout();
        for (Candidate c : o.plan().ranking().search().candidates()) {
            Layout l = c.layout();
            if (!c.valid()) continue;
            if (l.withSizes(now.tp(), now.pp(), now.dp(), now.cp(), now.ep(), now.virtualPp()).equals(now)) {
                tokens[0] = o.plan().ranking().estimate(c).throughput().tokensPerSecondPerGpu();
                return Optional.of(c);
            }
        }
        return Optional.empty();
    }

    /** A job's best layout by sizes alone, and its estimated tokens/s per GPU. */
    private record Best(Optional<Candidate> candidate, double tokens) {}

    /** Whether every edit replaces a plain number (a size written as an expression or a variable is not edited). */
    private static boolean plain(Fix x) {
        for (TextEdit e : x.edits()) if (e.match() == null || !e.match().matches("[0-9]+")) return false;
        return true;
    }
}
