package dev.gpulint.engine;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Span;
import java.util.ArrayList;
import java.util.List;

/**
 * The one write-only channel from rules to the report (a Drools global).
 * Rules say what they found and where; the level comes later from metadata.
 */
public final class FindingSink {
    // synchronized: user rules run on a worker thread that may still be running when they are read
    private final List<Finding> findings = java.util.Collections.synchronizedList(new ArrayList<>());

    /**
     * The longest message a rule may write. A rule quotes what the manifest says, and a manifest may say
     * anything: an 8 MiB GPU model name would otherwise be copied whole into every report format.
     */
    public static final int MAX_MESSAGE = Finding.MAX_MESSAGE;

    /**
     * One String per distinct message: a rule that fires on every node group of a fleet file writes the same
     * sentence a million times, and the findings are all kept until the per-rule cap applies after settling.
     * Shared as the finding will hold it (a sentence, see {@link Finding#sentence}).
     */
    private final dev.gpulint.core.Interner messages = new dev.gpulint.core.Interner(10_000);

    /**
     * A rule's message as the finding holds it: a sentence, bounded, shared. A message that names a folded node
     * group by its token is bounded only when the token is replaced ({@code settle.Unfolder}), so that each
     * node group's message is cut as it would be without folding.
     */
    private String message(String message) {
        if (message == null) return null;
        String sentence = Finding.sentence(message);
        return share(dev.gpulint.core.Fold.marked(sentence) ? sentence : bounded(sentence));
    }

    /** A related location's text: bounded (but see {@link #message}) and shared as it is (a phrase, not a sentence). */
    private String phrase(String text) {
        return share(dev.gpulint.core.Fold.marked(text) ? text : bounded(text));
    }

    private String share(String text) {
        synchronized (messages) {
            return messages.of(text);
        }
    }

    /** The message, or its start and end around a mark saying how many characters were left out ({@link Finding#bounded}). */
    public static String bounded(String message) {
        return Finding.bounded(message, MAX_MESSAGE);
    }

    public void report(String ruleId, Span span, String identity, String message) {
        findings.add(Finding.of(ruleId, span, identity, message(message)));
    }

    /** With a related location: the second place that explains the finding (e.g. the cluster line a job relies on). */
    public void report(String ruleId, Span span, String identity, String message, Span related, String relatedMessage) {
        Finding f = Finding.of(ruleId, span, identity, message(message));
        if (related != null) f = f.withRelated(related, phrase(relatedMessage));
        findings.add(f);
    }

    /**
     * With a level of its own, for a rule whose metadata allows two (PAR006: warning when half
     * the step idles, note above a quarter). Configuration may still override it.
     */
    public void reportAs(String ruleId, String level, Span span, String identity, String message, Span related,
                         String relatedMessage) {
        Finding f = new Finding(ruleId, dev.gpulint.core.Level.parse(level), span, message(message), List.of(), identity);
        if (related != null) f = f.withRelated(related, phrase(relatedMessage));
        findings.add(f);
    }

    public List<Finding> findings() {
        synchronized (findings) {
            return List.copyOf(findings);
        }
    }
}
