package dev.gpulint.derive.unit;

import dev.gpulint.core.Fix;
import dev.gpulint.core.Safety;
import dev.gpulint.core.Span;
import dev.gpulint.core.TextEdit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * The unit fix of one rejected value ({@link UnitlessReadings.Reading}) without its words: the value's place, the
 * edits and what its title says. Derive computes it during the run (the lint stage hands it out with the facts); the
 * application layer, after the run, gives it to the findings about that value as a safe fix titled by their rule's
 * ID.yaml ({@link #fix}). Which rules take it is said there ({@link UnitlessReadings#TITLE}), not here.
 *
 * @param span     the value as written: the finding it fixes is at this span
 * @param identity the value's identity ({@code cluster:c/node_groups[g]/nvlink/bandwidth}): and has this identity
 * @param key      the title's message key, {@link UnitlessReadings#TITLE} or {@link UnitlessReadings#TITLE_DIRECTION}
 * @param args     the title's arguments: {@code written}, {@code fixed}, {@code direction}
 * @param edits    the value written with its unit; with a direction to add, the block's closing brace as well
 */
public record UnitEdits(Span span, String identity, String key, Map<String, Object> args, List<TextEdit> edits) {
    public UnitEdits {
        args = Map.copyOf(args);
        edits = List.copyOf(edits);
    }

    /**
     * The edits of a reading: the value as written becomes the reading (its quotes and the rest of the line stay);
     * with a direction to add, the block's closing {@code " }"} right after the value also becomes
     * {@code , direction: X }} in YAML or {@code   direction = X }} in the DSL. Null where that insertion has no
     * certain place (another format, a value on lines of its own): the fixed file would still not state its convention.
     */
    public static UnitEdits of(UnitlessReadings.Reading r) {
        Span s = r.value().span();
        String written = r.value().text().strip();
        Map<String, Object> args = Map.of("written", written, "fixed", r.fixed(), "direction", r.direction() == null ? "" : r.direction());
        List<TextEdit> edits = new ArrayList<>(List.of(TextEdit.within(s, written, r.fixed())));
        if (r.direction() != null) {
            String file = s.file();
            String entry = file.endsWith(".yaml") || file.endsWith(".yml") ? ", direction: " + r.direction()
                    : file.endsWith(".topo") ? "  direction = " + r.direction() : null;
            if (entry == null || s.startLine() != s.endLine()) return null;
            edits.add(TextEdit.within(new Span(file, s.endLine(), s.endColumn(), s.endLine(), s.endColumn() + 2), " }", entry + " }"));
        }
        return new UnitEdits(s, r.value().identity(), r.direction() == null ? UnitlessReadings.TITLE : UnitlessReadings.TITLE_DIRECTION,
                args, edits);
    }

    /** The edits of each reading that has certain ones. */
    public static List<UnitEdits> of(List<UnitlessReadings.Reading> readings) {
        List<UnitEdits> out = new ArrayList<>(readings.size());
        for (UnitlessReadings.Reading r : readings) {
            UnitEdits e = of(r);
            if (e != null) out.add(e);
        }
        return out;
    }

    /**
     * The same value as a member of a folded node group has it (settle.Unfolder): its identity, and every place moved
     * by {@code to}, as the findings about it are moved.
     */
    public UnitEdits moved(String identity, UnaryOperator<Span> to) {
        return new UnitEdits(to.apply(span), identity, key, args, edits.stream().map(e -> e.at(to.apply(e.span()))).toList());
    }

    /** The safe fix for a finding of {@code ruleId}, titled by its ID.yaml through {@code titles}; null when it has no title for it. */
    public Fix fix(String ruleId, UnitlessReadings.Titles titles) {
        String title = titles.title(ruleId, key, args);
        return title == null ? null : new Fix(title, Safety.SAFE, edits);
    }
}
