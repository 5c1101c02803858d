package dev.gpulint.settle;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Level;
import dev.gpulint.core.Span;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * At most so many findings of one rule in one file: a generated file can hold a million of them,
 * which would write close to a gigabyte of SARIF and help nobody. The first ones in report order are
 * kept, and one note per (rule, file) says how many were left out.
 */
public final class FindingCap {
    /** The default cap (`--max-findings-per-rule`). */
    public static final int DEFAULT_PER_RULE_PER_FILE = 1000;

    private FindingCap() {}

    /** @param settled findings in report order; the notes are placed after the last kept finding of their (rule, file) */
    public static List<Finding> apply(List<Finding> settled, int max) {
        Map<List<String>, Integer> counts = new LinkedHashMap<>();
        for (Finding f : settled) counts.merge(List.of(f.ruleId(), f.span().file()), 1, Integer::sum);
        if (counts.values().stream().allMatch(n -> n <= max)) return settled;
        Map<List<String>, Integer> kept = new LinkedHashMap<>();
        List<Finding> out = new ArrayList<>();
        for (Finding f : settled) {
            List<String> key = List.of(f.ruleId(), f.span().file());
            int n = kept.merge(key, 1, Integer::sum);
            if (n <= max) out.add(f);
            if (n == max) {
                int left = counts.get(key) - max;
                if (left > 0) {
                    out.add(new Finding(f.ruleId(), Level.NOTE, Span.at(f.span().file(), 1, 1),
                            left + " more " + f.ruleId() + " findings in '" + f.span().file() + "' were left out: at most " + max
                                    + " per rule and file are reported (--max-findings-per-rule)",
                            List.of(), "cap#" + f.ruleId()));
                }
            }
        }
        return out;
    }
}
