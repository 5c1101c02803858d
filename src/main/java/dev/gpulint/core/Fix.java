package dev.gpulint.core;

import java.util.List;
import java.util.Objects;

/**
 * An edit a finding offers: a title (what it does, worded in the rule's ID.yaml like its messages), a
 * {@link Safety}, and one or more text edits that belong together (a layout's sizes change together, never one
 * alone). A finding carries zero or more ({@link Finding#fixes()}); {@code check --fix} applies the first
 * applicable one of each finding, the reports (JSON, SARIF, text) show them all.
 *
 * <p>Rules attach fixes through the sink: {@code sink.at(span, id).arg(...).fix(Safety.SAFE, "title-key", span,
 * "replacement").report("key")} (engine.FindingSink); Java that builds findings uses {@link Finding#withFix}.
 */
public record Fix(String title, Safety safety, List<TextEdit> edits) {
    public Fix {
        Objects.requireNonNull(title);
        Objects.requireNonNull(safety);
        edits = List.copyOf(edits);
        if (edits.isEmpty()) throw new IllegalArgumentException("a fix has at least one edit");
    }

    public static Fix of(String title, Safety safety, TextEdit... edits) {
        return new Fix(title, safety, List.of(edits));
    }

    public boolean safe() { return safety == Safety.SAFE; }

    /** The same fix with another safety (configuration may demote or promote a rule's fixes). */
    public Fix withSafety(Safety s) { return new Fix(title, s, edits); }

    /** The same fix with these edits (resolved, or moved to a folded node group's member). */
    public Fix withEdits(List<TextEdit> e) { return new Fix(title, safety, e); }

    /** Whether every edit is placed ({@link TextEdit#resolved()}). */
    public boolean resolved() { return edits.stream().allMatch(TextEdit::resolved); }

    /** The files its edits change, in order, each once. */
    public List<String> files() { return edits.stream().map(TextEdit::file).distinct().toList(); }
}
