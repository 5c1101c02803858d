package dev.gpulint.core;

import dev.gpulint.core.Span;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * One finding. Rules and front ends create it without a level; the settle
 * stage sets the level from the rule's metadata (and, later, configuration).
 *
 * @param identity the logical identity of what was found (kind, name, field
 *                 path), independent of line numbers: the base of fingerprints
 */
public record Finding(String ruleId, Level level, Span span, String message,
                      List<Related> related, String identity, String suppression, List<Fix> fixes) {

    public Finding(String ruleId, Level level, Span span, String message, List<Related> related, String identity) {
        this(ruleId, level, span, message, related, identity, null, List.of());
    }

    public Finding(String ruleId, Level level, Span span, String message, List<Related> related, String identity,
                   String suppression) {
        this(ruleId, level, span, message, related, identity, suppression, List.of());
    }

    /** Suppressed in source, with this justification; still reported in SARIF, counted in text. */
    public boolean suppressed() { return suppression != null; }

    public Finding withSuppression(String justification) {
        return new Finding(ruleId, level, span, message, related, identity, justification, fixes);
    }

    public Finding withMessage(String m) {
        return new Finding(ruleId, level, span, m, related, identity, suppression, fixes);
    }

    /** With one more fix offered ({@link Fix}): how Java that builds findings (not a rule's DRL) attaches one. */
    public Finding withFix(Fix fix) {
        List<Fix> f = new java.util.ArrayList<>(fixes);
        f.add(fix);
        return withFixes(f);
    }

    /** With these fixes instead (resolved against the file, filtered by configuration). */
    public Finding withFixes(List<Fix> f) {
        return new Finding(ruleId, level, span, message, related, identity, suppression, f);
    }

    /** Whether it offers a fix of this safety or a safer one: SAFE asks for a safe fix, UNSAFE for any. */
    public boolean fixable(Safety atMost) {
        return fixes.stream().anyMatch(x -> x.safety().compareTo(atMost) <= 0);
    }

    public record Related(Span span, String message) {}

    public static final Comparator<Finding> ORDER = Comparator
            .comparing(Finding::span)
            .thenComparing(Finding::ruleId)
            .thenComparing(Finding::message);

    public Finding {
        Objects.requireNonNull(ruleId);
        Objects.requireNonNull(span);
        Objects.requireNonNull(message);
        related = related == null ? List.of() : List.copyOf(related);
        fixes = fixes == null ? List.of() : List.copyOf(fixes);
        message = sentence(message);
        identity = identity == null ? "" : identity;
    }

    /** Messages are sentences (SARIF's TerminateMessagesWithPeriod): they end with a full stop. */
    public static String sentence(String m) {
        String t = m.strip();
        if (t.isEmpty() || t.endsWith(".") || t.endsWith("?") || t.endsWith("!")) return t;
        return t + ".";
    }

    /** The longest message a finding keeps (a rule's, or the binder's); longer ones are cut in the middle. */
    public static final int MAX_MESSAGE = 2000;

    /** The text, or its start and end around a mark saying how many characters were left out, when it is longer than {@code max}. */
    public static String bounded(String message, int max) {
        if (message == null || message.length() <= max) return message;
        int head = max / 2, tail = message.length() - max / 2;
        if (Character.isHighSurrogate(message.charAt(head - 1))) head--;      // never split a character in two
        if (Character.isLowSurrogate(message.charAt(tail))) tail++;
        return message.substring(0, head) + " … (" + String.format(java.util.Locale.ROOT, "%,d", tail - head)
                + " characters left out) … " + message.substring(tail);
    }

    public static Finding of(String ruleId, Span span, String identity, String message) {
        return new Finding(ruleId, null, span, message, List.of(), identity);
    }

    public Finding withLevel(Level l) { return new Finding(ruleId, l, span, message, related, identity, suppression, fixes); }

    public Finding withRelated(Span s, String msg) {
        List<Related> r = new java.util.ArrayList<>(related);
        r.add(new Related(s, msg));
        return new Finding(ruleId, level, span, message, r, identity, suppression, fixes);
    }
}
