package dev.gpulint.settle;

import dev.gpulint.core.DidYouMean;
import dev.gpulint.read.SourceFile;
import dev.gpulint.core.Finding;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.core.Span;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Inline suppressions, in YAML and DSL comments, on the finding's line or the line above:
 * {@code # gpulint: ignore PAR002 -- TP=16 is intended, NVL36 rack} with an optional
 * {@code until=2027-06-30}. A reason is required. Suppressed findings are kept (SARIF lists them
 * with their justification); a suppression that lacks a reason, names an unknown rule, has expired
 * or matches nothing is itself a finding (SYN005).
 */
public final class Suppressions {

    /** One suppression comment. {@code standalone}: the comment is alone on its line, so it covers the next line. */
    /**
     * The reason the editor's "Suppress RULE here" action writes, for the user to replace: a placeholder, so
     * gpulint does not take it as a reason (SYN005), and the finding stays until someone writes theirs.
     */
    public static final String PLACEHOLDER_REASON = "TODO: say why this finding is accepted";

    /** Reasons that only hold a place: a marker word alone, or the wording of a suggestion, never a decision. */
    private static final java.util.Set<String> PLACEHOLDERS = java.util.Set.of("todo", "fixme", "tbd", "xxx", "reason", "why",
            "why this is intended", "...", "\u2026", "-", "?", PLACEHOLDER_REASON.toLowerCase(java.util.Locale.ROOT));

    /** Whether a suppression's reason is a placeholder ({@link #PLACEHOLDER_REASON}, a bare TODO, ...) rather than a reason. */
    public static boolean placeholder(String reason) {
        String r = reason.strip().toLowerCase(java.util.Locale.ROOT);
        while (r.length() > 1 && (r.endsWith(".") || r.endsWith(":") || r.endsWith("!")) && !r.equals("...")) r = r.substring(0, r.length() - 1).strip();
        return PLACEHOLDERS.contains(r);
    }

    record Entry(String file, int line, int column, boolean standalone, List<String> rules, String reason, String until,
                 Span span) {}

    private Suppressions() {}

    static List<Entry> parse(SourceFile f) {
        List<Entry> out = new ArrayList<>();
        String[] lines = f.text().split("\r\n|\r|\n", -1);
        for (int i = 0; i < lines.length; i++) {
            int[] at = SuppressionComment.find(lines[i]);
            if (at == null) continue;
            int col = at[0] + 1;
            boolean standalone = lines[i].substring(0, at[0]).isBlank();
            Span span = new Span(f.displayPath(), i + 1, col, i + 1, lines[i].length() + 1);
            SuppressionComment.Body b = SuppressionComment.parse(lines[i].substring(at[1]));
            out.add(new Entry(f.displayPath(), i + 1, col, standalone, b.rules(), b.reason(), b.until(), span));
        }
        return out;
    }

    /**
     * Applies the suppressions of {@code files} to {@code findings}; returns the findings (suppressed
     * ones marked) plus the SYN005 findings about the suppressions themselves. Only the
     * {@link Settler} applies them.
     */
    static List<Finding> apply(List<SourceFile> files, List<Finding> findings, RuleCatalog rules, LocalDate today) {
        List<Entry> entries = new ArrayList<>();
        for (SourceFile f : files) if (f.text().contains("gpulint:")) entries.addAll(parse(f));
        if (entries.isEmpty()) return findings;
        List<Finding> out = new ArrayList<>();
        boolean[] used = new boolean[entries.size()];
        List<Finding> problems = new ArrayList<>();
        boolean[] invalid = new boolean[entries.size()];
        String[] identity = identities(entries);
        for (int k = 0; k < entries.size(); k++) {
            Entry e = entries.get(k);
            if (e.rules().isEmpty()) {
                problems.add(Finding.of("SYN005", e.span(), identity[k],
                        "this suppression names no rule: write # gpulint: ignore RULE-ID -- reason"));
                invalid[k] = true;
                continue;
            }
            for (String id : e.rules()) {
                if (rules.get(id).isEmpty()) {
                    List<String> ids = new ArrayList<>();
                    rules.all().forEach(r -> ids.add(r.id()));
                    String guess = DidYouMean.closest(id, ids);
                    problems.add(Finding.of("SYN005", e.span(), identity[k] + "/" + id,
                            "this suppression names " + id + ", which is no gpulint rule" + (guess != null ? "; did you mean " + guess + "?" : "")));
                    invalid[k] = true;
                }
            }
            if (e.reason() == null) {
                problems.add(Finding.of("SYN005", e.span(), identity[k] + "#reason",
                        "this suppression of " + String.join(", ", e.rules()) + " gives no reason, so it does not apply: "
                                + "add one after --, e.g. # gpulint: ignore " + e.rules().get(0) + " -- why this is intended"));
                invalid[k] = true;
            } else if (placeholder(e.reason())) {
                problems.add(Finding.of("SYN005", e.span(), identity[k] + "#reason",
                        "this suppression of " + String.join(", ", e.rules()) + " gives '" + e.reason() + "' as its reason, a placeholder "
                                + "to fill in, so it does not apply: write after -- why the finding is accepted here"));
                invalid[k] = true;
            }
            if (e.until() != null) {
                try {
                    LocalDate.parse(e.until());
                } catch (DateTimeParseException ex) {
                    problems.add(Finding.of("SYN005", e.span(), identity[k] + "#until",
                            "this suppression's until=" + e.until() + " is not a date (YYYY-MM-DD), so it does not apply"));
                    invalid[k] = true;
                }
            }
        }
        // the entries by file and line, so each finding looks only at its own line and the one above
        Map<String, Map<Integer, List<Integer>>> byLine = new HashMap<>();
        for (int k = 0; k < entries.size(); k++) {
            if (invalid[k]) continue;
            Entry e = entries.get(k);
            byLine.computeIfAbsent(e.file(), x -> new HashMap<>()).computeIfAbsent(e.line(), x -> new ArrayList<>()).add(k);
        }
        List<Integer> candidates = new ArrayList<>();
        for (Finding f : findings) {
            Finding result = f;
            Map<Integer, List<Integer>> lines = byLine.get(f.span().file());
            int line = f.span().startLine();
            candidates.clear();
            if (lines != null) {
                for (int k : lines.getOrDefault(line - 1, List.of())) if (entries.get(k).standalone()) candidates.add(k);
                candidates.addAll(lines.getOrDefault(line, List.of()));
                if (candidates.size() > 1) candidates.sort(null);
            }
            for (int k : candidates) {
                Entry e = entries.get(k);
                if (!e.rules().contains(f.ruleId())) continue;
                used[k] = true;
                if (e.until() != null && LocalDate.parse(e.until()).isBefore(today)) {
                    result = f.withMessage(f.message() + " (its suppression at line " + e.line() + " expired on " + e.until() + ")");
                } else {
                    result = f.withSuppression(e.reason());
                }
                break;
            }
            out.add(result);
        }
        for (int k = 0; k < entries.size(); k++) {
            Entry e = entries.get(k);
            if (!invalid[k] && !used[k]) {
                problems.add(Finding.of("SYN005", e.span(), identity[k] + "#unused",
                        "this suppression of " + String.join(", ", e.rules()) + " matches no finding on "
                                + (e.standalone() ? "the next line" : "its line") + ": remove it, or move it next to the finding"));
            }
        }
        out.addAll(problems);
        return out;
    }

    /**
     * Each suppression's identity for SYN005 fingerprints: what it says (rules, until, reason) and how
     * many identical ones come before it in its file, never its line, so that lines inserted above
     * keep a baselined SYN005 baselined.
     */
    static String[] identities(List<Entry> entries) {
        String[] out = new String[entries.size()];
        Map<String, Integer> seen = new HashMap<>();
        for (int k = 0; k < entries.size(); k++) {
            Entry e = entries.get(k);
            String text = "suppression:" + String.join(",", e.rules()) + (e.until() != null ? " until=" + e.until() : "")
                    + (e.reason() != null ? " -- " + e.reason() : "");
            int n = seen.merge(e.file() + "\n" + text, 1, Integer::sum);
            out[k] = text + "[" + n + "]";
        }
        return out;
    }
}
