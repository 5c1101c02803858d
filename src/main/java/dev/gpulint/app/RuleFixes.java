package dev.gpulint.app;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.core.Finding;
import dev.gpulint.core.Fix;
import dev.gpulint.core.LintResult;
import dev.gpulint.derive.unit.UnitEdits;
import dev.gpulint.derive.unit.UnitlessReadings;
import dev.gpulint.fix.FixSettings;
import dev.gpulint.meta.Messages;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.plan.LayoutFixes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The rules' Java-made fixes, the ones a rule's ID.yaml names by a message key: the unit fix ({@code fix-unit},
 * {@code fix-unit-direction}: the unit of a bandwidth the binder rejected, where the catalog figure makes it certain;
 * UNIT003) and the layout fix ({@code fix-layout}: the plan's best layout, {@link LayoutFixes}; PAR002, PAR005,
 * MEM001). Run in this one place, after the run, by {@link Checks} for every front end: each is given to the settled
 * findings of the rules whose ID.yaml has its key, settled by the configuration's {@code fix:} and placed in the
 * texts linted as a rule's own fixes are ({@link FixSettings#apply}), after them.
 */
final class RuleFixes {
    private RuleFixes() {}

    /**
     * The result with the unit fixes, then the layout fixes, added.
     *
     * @param facts what the run derived: its facts and the unit fixes' edits ({@link UnitEdits})
     * @param texts the texts linted, by display path
     * @param overrides the configuration's {@code plan:} efficiencies, which the layout fix's plan prices with as `gpulint plan` does
     */
    static LintResult apply(List<dev.gpulint.derive.estimate.JobEstimate> estimates, List<Object> facts, LintResult result, Map<String, String> texts,
                            RuleCatalog rules, FixSettings settings, Map<String, Double> overrides) {
        return LayoutFixes.apply(estimates, facts, unit(facts, result, texts, rules, settings), texts, Catalog.builtIn(), rules, settings,
                overrides);
    }

    /** Each finding at the span and identity of a value with unit edits gets them, titled by its rule's ID.yaml (none without a title). */
    static LintResult unit(List<Object> facts, LintResult result, Map<String, String> texts, RuleCatalog rules, FixSettings settings) {
        Map<List<Object>, UnitEdits> byValue = new HashMap<>();
        for (Object o : facts) if (o instanceof UnitEdits e) byValue.putIfAbsent(List.of(e.span(), e.identity()), e);
        if (byValue.isEmpty()) return result;
        UnitlessReadings.Titles titles = (rule, key, args) -> rules.get(rule).map(m -> m.messages().get(key))
                .map(t -> Messages.render(t, args)).orElse(null);
        List<Finding> out = new ArrayList<>(result.findings().size());
        boolean changed = false;
        for (Finding f : result.findings()) {
            UnitEdits e = f.span() == null || f.identity() == null ? null : byValue.get(List.of(f.span(), f.identity()));
            Fix fix = e == null ? null : e.fix(f.ruleId(), titles);
            List<Fix> placed = fix == null ? List.of() : settings.apply(List.of(f.withFixes(List.of(fix))), texts, rules).get(0).fixes();
            if (placed.isEmpty()) {
                out.add(f);
                continue;
            }
            List<Fix> all = new ArrayList<>(f.fixes());
            all.addAll(placed);
            out.add(f.withFixes(all));
            changed = true;
        }
        return changed ? new LintResult(out, result.files(), result.inputFailed(), result.baselined(), result.paths()) : result;
    }
}
