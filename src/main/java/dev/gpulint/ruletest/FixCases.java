package dev.gpulint.ruletest;

import dev.gpulint.core.Finding;
import dev.gpulint.core.LintResult;
import dev.gpulint.core.Safety;
import dev.gpulint.lint.Linter;
import dev.gpulint.read.SourceFile;
import dev.gpulint.fix.FixApplier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The fix half of a rule case (ID.test.yaml): an expected finding may state its fixes
 * ({@code fix: { safety: safe, title: "..." }}, a list of those, or {@code fix: none}), and a case may state
 * {@code fixed:}, its files after its rule's fixes are applied (safe and unsafe alike; a file not named stays as
 * it was). Then the fixed files are linted again: every fixed finding is gone, no finding is new (a fix never
 * makes a file worse; findings are told apart by rule and identity), and applying the rule's fixes again
 * changes nothing.
 */
final class FixCases {
    private FixCases() {}

    /** A case's {@code fix:} as {@link RuleCases.Expected#fix()} holds it. */
    @SuppressWarnings("unchecked")
    static List<String> expected(Object o) {
        if (o == null || "none".equals(o)) return List.of();
        List<Object> items = o instanceof List<?> l ? (List<Object>) l : List.of(o);
        List<String> out = new ArrayList<>();
        for (Object i : items) {
            if (!(i instanceof Map<?, ?> m)) throw new IllegalArgumentException("a case's fix: is none, or { safety, title } (or a list of them), not " + i);
            out.add(Safety.parse(String.valueOf(m.get("safety"))).id() + ": " + m.get("title"));
        }
        return out;
    }

    /** Null when the case's {@code fixed:} holds, else what went wrong. */
    static String check(RuleCases.Case c, List<SourceFile> files, LintResult before, Linter linter) {
        Map<String, String> texts = new LinkedHashMap<>();
        for (SourceFile f : files) texts.put(f.displayPath(), f.text());
        List<Finding> fixable = mine(c, before);
        if (fixable.isEmpty()) return "the case states fixed: but no finding of " + c.rule() + " offers a fix";
        FixApplier.Result first = FixApplier.apply(texts, fixable, Safety.UNSAFE);
        Map<String, String> after = new LinkedHashMap<>(texts);
        after.putAll(first.texts());
        for (String name : texts.keySet()) {
            String want = c.fixed().getOrDefault(name, texts.get(name));
            if (!want.equals(after.get(name))) {
                return "after the fixes, " + name + (c.fixed().containsKey(name) ? "" : " (not in fixed:, so unchanged)")
                        + ":\nexpected:\n" + want + "\nactual:\n" + after.get(name);
            }
        }
        for (String name : c.fixed().keySet()) {
            if (!texts.containsKey(name)) return "fixed: names " + name + ", which is not one of the case's files";
        }
        List<SourceFile> again = new ArrayList<>();
        for (Map.Entry<String, String> e : after.entrySet()) again.add(SourceFile.of(e.getKey(), e.getValue()));
        LintResult relinted = RuleCases.lint(linter, again);
        Map<String, Integer> was = count(before.findings()), is = count(relinted.findings());
        for (Finding f : relinted.findings()) {
            if (is.get(key(f)) > was.getOrDefault(key(f), 0)) return "the fixed files have a new finding: " + describe(f);
        }
        for (FixApplier.Applied a : first.applied()) {
            if (is.getOrDefault(key(a.finding()), 0) >= was.get(key(a.finding()))) {
                return "the fixed files still have the finding the fix '" + a.fix().title() + "' was for: " + describe(a.finding());
            }
        }
        FixApplier.Result second = FixApplier.apply(after, mine(c, relinted), Safety.UNSAFE);
        if (!second.texts().isEmpty()) return "applying the fixes a second time changes " + second.texts().keySet();
        return null;
    }

    private static List<Finding> mine(RuleCases.Case c, LintResult r) {
        return r.findings().stream().filter(f -> f.ruleId().equals(c.rule()) && !f.fixes().isEmpty()).toList();
    }

    private static String key(Finding f) { return f.ruleId() + " " + f.identity(); }

    private static Map<String, Integer> count(List<Finding> findings) {
        Map<String, Integer> m = new HashMap<>();
        for (Finding f : findings) m.merge(key(f), 1, Integer::sum);
        return m;
    }

    private static String describe(Finding f) {
        return f.ruleId() + " " + f.span().file() + ":" + f.span().startLine() + ":" + f.span().startColumn() + ": " + f.message();
    }
}
