package dev.gpulint.fix;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Fix;
import dev.gpulint.core.Safety;
import dev.gpulint.core.TextEdit;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.read.SourceFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which fixes a run offers, and how safe: the configuration's {@code fix:} (ruff's fixable / unfixable, and
 * per-rule safety), then each fix placed in the text it edits ({@link TextEdit#resolve}). A fix is left out when
 * its rule is not fixable, when its finding is suppressed, or when one of its edits is not where the rule said
 * (a file that is not linted, a span past the end, a match that is not there): reports and {@code --fix} then
 * offer exactly what can be applied.
 *
 * @param fixable   rule IDs or names whose fixes are offered; empty: every rule's
 * @param unfixable rule IDs or names whose fixes are never offered (it wins over fixable)
 * @param safe      rule IDs or names whose unsafe fixes count as safe (applied by --fix)
 * @param unsafe    rule IDs or names whose safe fixes count as unsafe (applied only with --unsafe-fixes)
 */
public record FixSettings(Set<String> fixable, Set<String> unfixable, Set<String> safe, Set<String> unsafe) {
    public FixSettings {
        fixable = Set.copyOf(fixable);
        unfixable = Set.copyOf(unfixable);
        safe = Set.copyOf(safe);
        unsafe = Set.copyOf(unsafe);
    }

    /** The configuration's {@code fix:}: its per-rule level off joins unfixable, safe and unsafe change the safety. */
    public static FixSettings of(dev.gpulint.config.FixConfig c) {
        Set<String> un = new java.util.LinkedHashSet<>(c.unfixable()), safe = new java.util.LinkedHashSet<>(), unsafe = new java.util.LinkedHashSet<>();
        c.levels().forEach((rule, level) -> (level.equals("off") ? un : level.equals("safe") ? safe : unsafe).add(rule));
        return new FixSettings(c.fixable(), un, safe, unsafe);
    }

    /** Every rule's fixes, as the rules offer them. */
    public static final FixSettings ALL = new FixSettings(Set.of(), Set.of(), Set.of(), Set.of());

    /**
     * The findings with their fixes settled and placed in the texts linted ({@link #apply}); a context file's text
     * (display path in {@code quiet}) is never edited.
     */
    public List<Finding> place(List<Finding> findings, List<SourceFile> files, Set<String> quiet, RuleCatalog rules) {
        if (findings.stream().allMatch(f -> f.fixes().isEmpty())) return findings;
        return apply(findings, SourceFile.texts(files, quiet), rules);
    }

    /**
     * The findings with their fixes settled: filtered by these settings, safety as configured, each edit placed in
     * {@code texts} (display path to the text linted; a file not there is not edited).
     */
    public List<Finding> apply(List<Finding> findings, Map<String, String> texts, RuleCatalog rules) {
        List<Finding> out = new ArrayList<>(findings.size());
        var indexes = dev.gpulint.core.LineBreaks.indexes(texts);      // one line index per file, not one per edit
        for (Finding f : findings) {
            if (f.fixes().isEmpty()) {
                out.add(f);
                continue;
            }
            List<Fix> kept = new ArrayList<>();
            if (!f.suppressed() && offered(f.ruleId(), rules)) {
                for (Fix x : f.fixes()) {
                    Fix placed = place(x, indexes);
                    if (placed != null) kept.add(placed.withSafety(safety(f.ruleId(), x.safety(), rules)));
                }
            }
            out.add(f.withFixes(kept));
        }
        return out;
    }

    /** Whether the configuration lets this rule's fixes be offered. */
    public boolean offered(String ruleId, RuleCatalog rules) {
        if (named(unfixable, ruleId, rules)) return false;
        return fixable.isEmpty() || named(fixable, ruleId, rules);
    }

    /** A fix's safety as configured for its rule. */
    public Safety safety(String ruleId, Safety given, RuleCatalog rules) {
        if (given == Safety.UNSAFE && named(safe, ruleId, rules)) return Safety.SAFE;
        if (given == Safety.SAFE && named(unsafe, ruleId, rules)) return Safety.UNSAFE;
        return given;
    }

    private static boolean named(Set<String> set, String ruleId, RuleCatalog rules) {
        if (set.isEmpty()) return false;
        if (set.contains(ruleId) || set.contains("ALL")) return true;
        return rules != null && rules.get(ruleId).map(m -> set.contains(m.name())).orElse(false);
    }

    /** The fix with every edit placed in its file's text (its line index, by display path), or null when one cannot be. */
    static Fix place(Fix x, java.util.function.Function<String, dev.gpulint.core.LineBreaks.Index> indexes) {
        List<TextEdit> placed = new ArrayList<>(x.edits().size());
        for (TextEdit e : x.edits()) {
            dev.gpulint.core.LineBreaks.Index text = indexes.apply(e.file());
            TextEdit r = text == null ? null : e.resolve(text);
            if (r == null) return null;
            placed.add(r);
        }
        return x.withEdits(placed);
    }
}
