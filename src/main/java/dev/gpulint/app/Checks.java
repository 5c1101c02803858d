package dev.gpulint.app;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.core.LintResult;
import dev.gpulint.core.Safety;
import dev.gpulint.fix.FixLoop;
import dev.gpulint.fix.FixSettings;
import dev.gpulint.lint.Linter;
import dev.gpulint.lint.ProjectRun;
import dev.gpulint.lint.RunOutcome;
import dev.gpulint.plan.Planner;
import dev.gpulint.read.SourceFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The one entry of every front end (the command line's check, plan and test-rules, the Maven plugin, the language
 * server): an immutable {@link CheckRequest} in, a {@link RunOutcome} out. A run here always ends with its post-run
 * steps, so no front end can forget one: the rules' Java-made fixes named in their ID.yaml ({@link RuleFixes}: the
 * unit fix, the layout fix the plan offers) on every check, and on {@link #fix} the fix loop (fix.FixLoop), which lints again after each pass
 * through {@link #check}, the same steps included.
 */
public final class Checks {
    private Checks() {}

    /** Lints the request's files: the settled findings, with the rules' Java-made fixes added (the unit fix, the layout fix). */
    public static RunOutcome check(CheckRequest request) {
        RunOutcome run = new ProjectRun(request.lint()).lint();
        return run.withResult(ruleFixes(run.estimates(), run.facts(), run.result(), run.texts(), run.rules(), FixSettings.of(run.config().fix()),
                run.config().plan()));
    }

    /**
     * {@link #check}, then the fixes up to {@code atMost} applied in memory until a pass applies none
     * ({@link FixLoop}); nothing is written (fix.FixWriter writes, fix.UnifiedDiff shows).
     */
    public static Fixed fix(CheckRequest request, Safety atMost) {
        RunOutcome[] last = {check(request)};
        FixLoop.Result texts = FixLoop.run(last[0].sources(), last[0].stdinShown(), last[0].result().findings(), current -> {
            last[0] = check(overlaid(request, last[0].sources(), current));
            return last[0].result().findings();
        }, atMost, FixLoop.roots(request.lint().base(), request.lint().paths()));
        return new Fixed(texts, last[0]);
    }

    /**
     * {@code fixed} without the files fix.FixWriter could not write: the run linted again with those files' texts as
     * read (their fixes undone) and the other fixed files as fixed, so an unwritten file is reported as linted, its
     * fixes not counted.
     */
    public static Fixed unwritten(CheckRequest request, Fixed fixed, List<String> notWritten) {
        if (notWritten.isEmpty()) return fixed;
        Map<String, String> texts = new java.util.LinkedHashMap<>();
        for (SourceFile f : fixed.texts().sources().values()) texts.put(f.displayPath(), f.text());
        for (Map.Entry<String, String> e : fixed.after().entrySet()) if (!notWritten.contains(e.getKey())) texts.put(e.getKey(), e.getValue());
        RunOutcome relinted = check(overlaid(request, fixed.texts().sources(), texts));
        return new Fixed(fixed.texts().without(notWritten), relinted);
    }

    /**
     * The request with {@code texts} (by display path, fixed in memory) overlaid on its own overlay (an editor's buffers):
     * each keyed by the path of the file the run read under that display path, so a fixed text is read exactly as an
     * editor's buffer is, wherever the next pass meets the file.
     */
    private static CheckRequest overlaid(CheckRequest request, Map<String, SourceFile> sources, Map<String, String> texts) {
        Map<Path, String> byPath = new java.util.LinkedHashMap<>();
        texts.forEach((shown, text) -> {
            SourceFile f = sources.get(shown);
            byPath.put(f != null ? f.path() : Path.of(shown), text);
        });
        dev.gpulint.lint.LintRequest lint = request.lint();
        return new CheckRequest(lint.withOverlay(lint.overlay().with(lint.base(), byPath)), request.report());
    }

    /**
     * What {@link #fix} did: the texts before and after ({@code texts}, which fix.FixWriter writes and fix.UnifiedDiff
     * shows) and the last pass's run (the findings that remain).
     */
    public record Fixed(FixLoop.Result texts, RunOutcome last) {
        public Map<String, String> before() { return texts.before(); }
        public Map<String, String> after() { return texts.after(); }
        public int fixed() { return texts.fixed(); }
        public boolean changed() { return texts.changed(); }
        /** Why no fix was applied at all (an error in the configuration's fix:), or null. */
        public String refused() { return texts.refused(); }
        /** The changed files that could not be written ({@link Checks#unwritten}). */
        public List<String> unwritten() { return texts.unwritten(); }

        /** Findings left with a fix of exactly this safety (the closing line's "more with --unsafe-fixes"). */
        public long fixable(Safety s) {
            if (texts.refused() != null) return 0;
            return last.result().findings().stream().filter(f -> !f.suppressed() && f.fixes().stream().anyMatch(x -> x.safety() == s)
                    && (s == Safety.SAFE || !f.fixable(Safety.SAFE))).count();
        }
    }

    /**
     * `gpulint plan`: a check of the request's files (its findings are the plan's "as written" verdicts; no fix is
     * shown, so none is computed), then the plan of {@code job} at {@code gpus} or {@code nodes} (0: as written) with
     * the configuration's {@code plan:} efficiencies.
     */
    public static Planned plan(CheckRequest request, String job, long gpus, long nodes) {
        RunOutcome run = new ProjectRun(request.lint()).lint();
        return new Planned(run, Planner.plan(run.estimates(), run.facts(), run.result(), Catalog.builtIn(), job, gpus, nodes, run.config().plan()));
    }

    /** A plan and the run it was made from. */
    public record Planned(RunOutcome run, Planner.Outcome plan) {}

    /**
     * The linter the request's configuration sets up (its user rules, the extra rules folder, catalog, thresholds, rule
     * settings, job clusters and evidence links), without linting: test-rules runs the cases of a team's rules with it.
     */
    public static ProjectRun.Setup setUp(CheckRequest request) {
        return new ProjectRun(request.lint()).setUp();
    }

    /**
     * Lints {@code files} as given (no discovery, no configuration beyond the linter's own) with the same post-run
     * steps as {@link #check}: how a rule case ({@code ID.test.yaml}) runs, built-in or a team's.
     */
    public static LintResult check(Linter linter, List<SourceFile> files) {
        List<Object> facts = new ArrayList<>();
        List<dev.gpulint.derive.estimate.JobEstimate> estimates = new ArrayList<>();
        LintResult r = linter.lint(files, List.of(), Set.of(), facts::addAll, estimates::addAll);
        return ruleFixes(estimates, facts, r, SourceFile.texts(files, Set.of()), linter.rules(), FixSettings.ALL, linter.planEfficiencies());
    }

    /**
     * Why writing a report to {@code target} would destroy an input of the run, or null: the target is a file named to
     * be linted, the configuration, the baseline, or a file the run took findings or facts from. A file of the walk that
     * is not gpulint's (an earlier JSON report) is no input.
     */
    public static String overwrites(CheckRequest request, RunOutcome run, Path target) {
        return Overwrites.why(request.lint().base(), target, request.lint().baselineFile(), run.configUsed(), request.lint().paths(),
                run.inputs());
    }

    /** The rules' Java-made fixes named in their ID.yaml (the unit fix, the plan's layout), in their one place: {@link RuleFixes}. */
    private static LintResult ruleFixes(List<dev.gpulint.derive.estimate.JobEstimate> estimates, List<Object> facts, LintResult result,
                                        Map<String, String> texts, dev.gpulint.meta.RuleCatalog rules, FixSettings settings,
                                        Map<String, Double> overrides) {
        return RuleFixes.apply(estimates, facts, result, texts, rules, settings, overrides);
    }
}
