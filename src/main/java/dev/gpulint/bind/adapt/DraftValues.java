package dev.gpulint.bind.adapt;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Span;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Quantities;
import dev.gpulint.tree.ScalarNode;
import java.util.List;
import java.util.Locale;

/**
 * The switches, shares and choices of the frameworks' configurations (an offload device, an FSDP offload switch,
 * Megatron's --tp-comm-overlap, an optimizer's offloaded fraction) read with the check the native binder gives
 * offload.optimizer, optimizer_fraction and the BOOL fields: a value the framework would not take is a SYN002 finding at
 * the value, in the format's key, and binds nothing (never a clamp, never a guess). The estimate then takes what it takes
 * when the key is not written, and says so in one line of the plan's assumptions. Placeholders and interpolations are
 * left unknown, as everywhere, and not reported.
 */
final class DraftValues {
    private DraftValues() {}

    /** A value an adapter read and refused: where, the key it was written under, what was written (quoted in the message), or
     *  when {@code described} what kind of value it is ("a list", "null": shown as it is), what is expected, what the
     *  estimate does instead. DraftBounds turns each into its finding once the job's name is known. */
    record Refused(Span at, String key, String written, boolean described, String expected, String instead) {}

    /**
     * A boolean key of the format: its value, or null when absent, null, a placeholder, or not a boolean (refused:
     * SYN002, and {@code instead} says what the estimate takes).
     */
    static Located<Boolean> bool(JobDraft j, ScalarNode s, String key, String instead) {
        if (s == null || s.isNull() || TreeValues.placeholder(s.text().strip())) return null;
        Located<Boolean> b = TreeValues.bool(s);
        if (b == null) refuse(j, s.span(), key, s.text(), "true or false", instead);
        return b;
    }

    /**
     * A command-line switch's value as the launch wrote it: the bare switch (read as "true"), or a word after it. True/1/yes
     * on, false/0/no off (null), anything else refused. A YAML value (MODEL_ARGS) may be true or false; in a launch script
     * ({@code script}) the switch is argparse's store_true, which takes no value after it, so the message says only that.
     */
    static Located<Boolean> switchValue(JobDraft j, String text, Span at, String key, boolean script, String instead) {
        Boolean b = TreeValues.boolWord(text);
        if (b != null) return b ? new Located<>(true, at) : null;
        if (!TreeValues.placeholder(text.strip().toLowerCase(Locale.ROOT))) {
            refuse(j, at, key, text, script ? scriptSwitch(key) : "the switch alone (" + key + "), or true or false after it", instead);
        }
        return null;
    }

    /** What a launch script's switch {@code key} takes (argparse's store_true): the switch alone, no word after it. */
    static String scriptSwitch(String key) {
        return "the switch alone (" + key + "), with no word after it (Megatron's argument parser takes no value after a switch)";
    }

    /** A share from 0 to 1 (an offloaded fraction): its value, or null when unknown or refused (out of 0–1, or no number). */
    static Located<Double> fraction(JobDraft j, String text, Span at, String key, String instead) {
        if (text == null || TreeValues.placeholder(text.strip())) return null;
        var p = Quantities.count(text.strip());
        if (p.ok() && p.value() >= 0 && p.value() <= 1) return new Located<>(p.value(), at);
        refuse(j, at, key, text, "a number from 0 to 1", instead);
        return null;
    }

    /**
     * One of {@code values} (compared without case): that value as {@code values} spells it, or null when absent, null, a
     * placeholder or refused.
     */
    static Located<String> choice(JobDraft j, ScalarNode s, String key, List<String> values, String instead) {
        if (s == null || s.isNull() || TreeValues.placeholder(s.text().strip())) return null;
        String t = s.text().strip();
        for (String v : values) if (v.equalsIgnoreCase(t)) return new Located<>(v, s.span());
        refuse(j, s.span(), key, s.text(), "one of " + String.join(", ", values), instead);
        return null;
    }

    /**
     * As {@link #choice}, for a framework that matches the word as spelt: one of {@code values} differing only in case is
     * refused too, its expectation followed by {@code spelling} (how the framework compares, so the fix is plain).
     */
    static Located<String> exactChoice(JobDraft j, ScalarNode s, String key, List<String> values, String spelling, String instead) {
        if (s == null || s.isNull() || TreeValues.placeholder(s.text().strip())) return null;
        String t = s.text().strip();
        if (values.contains(t)) return new Located<>(t, s.span());
        boolean caseOnly = values.stream().anyMatch(t::equalsIgnoreCase);
        refuse(j, s.span(), key, s.text(), "one of " + String.join(", ", values) + (caseOnly ? ", " + spelling : ""), instead);
        return null;
    }

    /** Refuses a value an adapter read (SYN002 at it once {@link #report} runs): the one way a value is refused. */
    static void refuse(JobDraft j, Span at, String key, String written, String expected, String instead) {
        refuse(j, new Refused(at, key, written, false, expected, instead));
    }

    /** Refuses a value of the wrong kind, named by {@code kind} ("a list", "a mapping", "null") rather than by its text. */
    static void refuseKind(JobDraft j, Span at, String key, String kind, String expected, String instead) {
        refuse(j, new Refused(at, key, kind, true, expected, instead));
    }

    private static void refuse(JobDraft j, Refused r) {
        j.refused.add(r);
        j.leftOut.add(r.key());
    }

    /**
     * The findings of the values {@code j}'s adapters refused (SYN002 at each value), each also a line of the plan's
     * assumptions, since the estimate runs without it.
     */
    static void report(JobDraft j, List<Finding> out) {
        String owner = j.name != null ? j.name.value() : j.file;
        for (Refused r : j.refused) {
            // trim(), not strip(): a no-break or other Unicode space the value holds is shown, as a finding may be about it
            String shown = r.described() ? r.written() : "'" + Quantities.shortText(r.written().trim()) + "'";
            out.add(Finding.of("SYN002", r.at(), j.format + ":" + owner + "/" + r.key(),
                    "'" + r.key() + "' is " + shown + "; expected " + r.expected() + "; the value is left out, so " + r.instead()));
            j.unpriced.add(r.key() + (r.described() ? " is " : " = ") + shown + " (SYN002, not " + r.expected()
                    + "): left out, so " + r.instead());
        }
        j.refused.clear();
    }
}
