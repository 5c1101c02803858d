package dev.gpulint.fix;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Fix;
import dev.gpulint.core.Safety;
import dev.gpulint.core.TextEdit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Applies findings' fixes to texts, one pass: of each unsuppressed finding the first fix as safe as asked whose
 * edits all fit, in the findings' order; a fix whose edits overlap one taken already (or touch the same point)
 * waits for the next pass, after re-linting (the CLI loops, ruff's way). Nothing but the edited characters
 * changes: line breaks, comments, quoting and the rest of the file stay as they were.
 */
public final class FixApplier {
    private FixApplier() {}

    /**
     * @param texts   the changed files' new texts (display path to text), only those that changed
     * @param applied the fixes applied, in order
     * @param waiting fixes left for another pass (their edits overlapped one applied)
     */
    public record Result(Map<String, String> texts, List<Applied> applied, int waiting) {}

    /** A fix applied, and the finding it fixes. */
    public record Applied(Finding finding, Fix fix) {}

    /**
     * One pass over {@code findings} against {@code texts} (display path to the text the findings were linted
     * from): edits not yet placed are placed here; a fix that cannot be is not applied.
     *
     * @param atMost SAFE applies safe fixes only; UNSAFE applies both
     */
    public static Result apply(Map<String, String> texts, List<Finding> findings, Safety atMost) {
        // the edits taken, per file by start: they never clash, so a new edit is checked against its two neighbours
        Map<String, java.util.NavigableMap<Integer, TextEdit>> taken = new TreeMap<>();
        List<Applied> applied = new ArrayList<>();
        int waiting = 0;
        var indexes = dev.gpulint.core.LineBreaks.indexes(texts);      // one line index per file per pass
        for (Finding f : findings) {
            if (f.suppressed()) continue;
            Fix chosen = null;
            boolean blocked = false;
            for (Fix x : f.fixes()) {
                if (x.safety().compareTo(atMost) > 0) continue;
                Fix placed = x.resolved() ? x : FixSettings.place(x, indexes);
                if (placed == null) continue;
                if (overlaps(taken, placed)) {
                    blocked = true;
                    continue;
                }
                chosen = placed;
                break;
            }
            if (chosen == null) {
                if (blocked) waiting++;
                continue;
            }
            for (TextEdit e : chosen.edits()) taken.computeIfAbsent(e.file(), k -> new java.util.TreeMap<>()).put(e.startOffset(), e);
            applied.add(new Applied(f, chosen));
        }
        Map<String, String> out = new TreeMap<>();
        for (Map.Entry<String, java.util.NavigableMap<Integer, TextEdit>> e : taken.entrySet()) {
            String before = texts.get(e.getKey());
            String after = edited(before, new ArrayList<>(e.getValue().values()));
            if (!after.equals(before)) out.put(e.getKey(), after);
        }
        return new Result(out, applied, waiting);
    }

    /** Whether one of the fix's edits overlaps an edit taken already, or another of its own. */
    private static boolean overlaps(Map<String, java.util.NavigableMap<Integer, TextEdit>> taken, Fix fix) {
        List<TextEdit> mine = fix.edits();
        for (int i = 0; i < mine.size(); i++) {
            TextEdit e = mine.get(i);
            java.util.NavigableMap<Integer, TextEdit> file = taken.get(e.file());
            if (file != null) {
                // taken edits do not clash with each other, so their ends rise with their starts: only the last one
                // starting before this edit and the first starting at or after it can reach it
                var before = file.lowerEntry(e.startOffset());
                var after = file.ceilingEntry(e.startOffset());
                if (before != null && clash(e, before.getValue()) || after != null && clash(e, after.getValue())) return true;
            }
            for (int j = 0; j < i; j++) if (mine.get(j).file().equals(e.file()) && clash(e, mine.get(j))) return true;
        }
        return false;
    }

    /** Overlapping ranges, or two at one point (two insertions there, or one ending where the other is inserted). */
    private static boolean clash(TextEdit a, TextEdit b) {
        if (a.startOffset() == b.startOffset()) return true;
        return a.startOffset() < b.endOffset() && b.startOffset() < a.endOffset();
    }

    /** {@code text} with the edits (placed in it, not overlapping) applied. */
    public static String edited(String text, List<TextEdit> edits) {
        List<TextEdit> sorted = new ArrayList<>(edits);
        sorted.sort(Comparator.comparingInt(TextEdit::startOffset));
        StringBuilder b = new StringBuilder(text.length() + 64);
        int at = 0;            // UTF-16 index in text
        int cp = 0;            // its code-point offset
        for (TextEdit e : sorted) {
            int from = text.offsetByCodePoints(at, e.startOffset() - cp);
            int to = text.offsetByCodePoints(from, e.endOffset() - e.startOffset());
            b.append(text, at, from).append(e.replacement());
            at = to;
            cp = e.endOffset();
        }
        return b.append(text, at, text.length()).toString();
    }
}
