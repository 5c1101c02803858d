package dev.gpulint.lint;

import dev.gpulint.config.Config;
import dev.gpulint.core.LintResult;
import dev.gpulint.derive.estimate.JobEstimate;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.read.SourceFile;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one run made, immutable: everything a front end reads after it, so that nothing is copied back out of a
 * run object and no front end keeps state between runs.
 *
 * @param result     the settled findings
 * @param rules      the rule metadata to render them with, the team's own rules included
 * @param facts      the facts the built-in rules matched (plan and diagnose read measurements and jobs from them), and the
 *                   unit fixes' edits (derive.unit.UnitEdits) that app.Checks gives to the findings
 * @param estimates  each job's estimate, which derive makes beside the facts and no rule matches
 *                   (dev.gpulint.derive.Derived): what plan, diagnose and the layout fixes price
 * @param sources    the files linted (not context), by display path, with the texts linted
 * @param inputs     the files the run took findings or facts from, absolute: a report must not overwrite one
 * @param excluded   files named to be linted that the configuration's exclude left out, as given
 * @param config     the configuration loaded ({@link Config#none()} without one)
 * @param configUsed the configuration file, absolute, or null
 * @param stdinShown standard input's display path, or null when none was read
 */
public record RunOutcome(LintResult result, RuleCatalog rules, List<Object> facts, List<JobEstimate> estimates, Map<String, SourceFile> sources,
                         Set<Path> inputs, List<String> excluded, Config config, Path configUsed, String stdinShown) {
    public RunOutcome {
        facts = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(facts));
        estimates = List.copyOf(estimates);
        sources = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(sources));
        inputs = Set.copyOf(inputs);
        excluded = List.copyOf(excluded);
    }

    /** The same run with another result (the post-run steps: layout fixes). */
    public RunOutcome withResult(LintResult r) {
        return new RunOutcome(r, rules, facts, estimates, sources, inputs, excluded, config, configUsed, stdinShown);
    }

    /** The texts linted, by display path (what fixes are placed in). */
    public Map<String, String> texts() {
        return SourceFile.texts(sources.values(), Set.of());
    }
}
