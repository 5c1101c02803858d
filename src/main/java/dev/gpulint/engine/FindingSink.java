package dev.gpulint.engine;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Fix;
import dev.gpulint.core.Safety;
import dev.gpulint.core.TextEdit;
import dev.gpulint.core.Fold;
import dev.gpulint.core.Interner;
import dev.gpulint.core.Level;
import dev.gpulint.core.Span;
import dev.gpulint.meta.Messages;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.meta.RuleMeta;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.kie.api.event.rule.AgendaEventListener;
import org.kie.api.event.rule.AfterMatchFiredEvent;
import org.kie.api.event.rule.BeforeMatchFiredEvent;
import org.kie.api.event.rule.DefaultAgendaEventListener;

/**
 * The one write-only channel from rules to the report (a Drools global).
 * Rules say what they found and where; the level comes later from metadata.
 *
 * <p>A built-in rule reports with a message key of its ID.yaml and named arguments:
 * {@code sink.at($p.getTpSpan(), $p.identity()).arg("tp", $p.getTp()).report("crosses")}. The rule ID is the
 * firing rule's {@code @id}, which {@link #listener()} tells the sink; the wording is the template's
 * ({@link Messages}). A rule reports its fact: {@code sink.about($g).at($g.getNvlinkSpan(), $g.identity() + "/nvlink")
 * .report("key")} lets the templates read {@code $g}'s properties by the names the conditions use ({@code {name}} is
 * {@code $g.getName()}, {@link FactProperties}); {@code .arg} is then only for what no fact holds. A team's rule may do
 * the same, or report a plain message under its ID: {@code sink.report("TEAM001", span, identity, message)}.
 */
public final class FindingSink {
    // synchronized: user rules run on a worker thread that may still be running when they are read
    private final List<Finding> findings = Collections.synchronizedList(new ArrayList<>());

    /** A rule's message templates by rule ID. */
    private final Function<String, Map<String, String>> templates;

    /** The @id of the rule whose consequence runs now (one session per sink, fired on one thread). */
    private volatile String firing;

    /** False: findings keep their rule, level, place and identity but no words, related place or fix ({@link #unworded}). */
    private boolean worded = true;

    /** With the built-in rules' templates. */
    public FindingSink() {
        this(id -> RuleCatalog.builtIn().get(id).map(RuleMeta::messages).orElse(Map.of()));
    }

    public FindingSink(Function<String, Map<String, String>> templates) {
        this.templates = templates;
    }

    /**
     * This sink records what was found and where, not its words: each finding's message is empty and it has no
     * related place and no fix. For a caller that reads only the rule IDs and identities of thousands of findings
     * nobody sees (the plan's candidate search), to whom wording them was most of the rules' time.
     */
    public FindingSink unworded() {
        this.worded = false;
        return this;
    }

    /** Tells this sink which rule fires (add it to the session that has this sink as its global). */
    public AgendaEventListener listener() {
        return new DefaultAgendaEventListener() {
            @Override public void beforeMatchFired(BeforeMatchFiredEvent e) {
                Object id = e.getMatch().getRule().getMetaData().get("id");
                firing = id == null ? null : String.valueOf(id);
            }

            @Override public void afterMatchFired(AfterMatchFiredEvent e) { firing = null; }
        };
    }

    /** Sets the firing rule's ID by hand (a test, or a rule base run without {@link #listener()}). */
    public void firing(String ruleId) { this.firing = ruleId; }

    /** A finding of the firing rule at span; name its arguments, then {@link Report#report} it by message key. */
    public Report at(Span span, String identity) {
        return new Report(span, identity);
    }

    /**
     * What a finding is about: the facts whose properties its templates read by name, the first fact that has a
     * property giving it (an {@code .arg} of the same name wins over every fact). Then {@link About#at}.
     */
    public About about(Object... facts) {
        return new About(facts);
    }

    /** The facts of a finding being written, before its place. */
    public final class About {
        private final Object[] facts;

        // unworded: no template reads the facts, so none is kept
        private About(Object[] facts) { this.facts = worded ? facts.clone() : null; }

        /** The finding at span, about these facts. */
        public Report at(Span span, String identity) {
            Report r = new Report(span, identity);
            if (facts != null) Collections.addAll(r.about, facts);
            return r;
        }
    }

    /** One finding being written: its arguments, related location and level, then its message key. */
    public final class Report {
        private final Span span;
        private final String identity;
        // null when unworded: no template reads them (the plan's search reports tens of thousands of findings a run)
        private final Map<String, Object> args = worded ? new LinkedHashMap<>() : null;
        /** The facts the templates read properties of, after {@link #args}. */
        private final List<Object> about = worded ? new ArrayList<>(2) : null;
        private Span related;
        private String relatedKey;
        private String level;
        /** Fixes being written: title key, safety and edits, worded when the finding is reported. */
        private final List<PendingFix> fixes = new ArrayList<>();

        private Report(Span span, String identity) {
            this.span = span;
            this.identity = identity;
        }

        /** A named argument of the templates ({@code {name}} in them). */
        public Report arg(String name, Object value) {
            if (args != null) args.put(name, value);
            return this;
        }

        /** The second place that explains the finding, worded by the template under key (same arguments). */
        public Report related(Span where, String key) {
            this.related = where;
            this.relatedKey = key;
            return this;
        }

        /** A level of its own, for a rule whose metadata allows two (PAR006); configuration may still override it. */
        public Report level(String level) {
            this.level = level;
            return this;
        }

        /**
         * Offers a fix: the text of {@code where} becomes {@code replacement}. Its title is the template under
         * {@code titleKey} in the rule's ID.yaml {@code messages:} (same arguments as the message), e.g.
         * {@code .fix(Safety.SAFE, "fix-unit", $b.getSpan(), "400 Gb/s")}. Further edits of the same fix:
         * {@link #edit}. A finding may offer several fixes; {@code --fix} applies the first it may.
         */
        public Report fix(Safety safety, String titleKey, Span where, String replacement) {
            fixes.add(new PendingFix(safety, titleKey));
            return edit(where, replacement);
        }

        /** As {@link #fix(Safety, String, Span, String)} with the safety written {@code "safe"} or {@code "unsafe"} (a team's DRL without the import). */
        public Report fix(String safety, String titleKey, Span where, String replacement) {
            return fix(Safety.parse(safety), titleKey, where, replacement);
        }

        /**
         * Offers a fix that replaces the one occurrence of {@code match} inside {@code where} (the unit inside a
         * value, whatever its quoting): dropped when the file's text there does not hold it exactly once.
         */
        public Report fixWithin(Safety safety, String titleKey, Span where, String match, String replacement) {
            fixes.add(new PendingFix(safety, titleKey));
            return editWithin(where, match, replacement);
        }

        /** One more edit of the fix offered last (the sizes of a layout change together). */
        public Report edit(Span where, String replacement) {
            PendingFix p = last();
            // a value the manifest does not write has no place to edit: the fix is not offered
            if (where == null || replacement == null) p.whole = false;
            else p.edits.add(TextEdit.replace(where, replacement));
            return this;
        }

        /** One more edit of the fix offered last, replacing {@code match} inside {@code where}. */
        public Report editWithin(Span where, String match, String replacement) {
            PendingFix p = last();
            if (where == null || match == null || match.isEmpty() || replacement == null) p.whole = false;
            else p.edits.add(TextEdit.within(where, match, replacement));
            return this;
        }

        /**
         * Offers one fix per edit of {@code alternatives}, all with the same title: for a change a rule can write out
         * in several shapes without seeing the file's text (a line as YAML, as an export, as a DSL line). The linter
         * keeps only the fixes whose text is there, so at most one survives when the shapes exclude each other; none
         * is offered when the list is empty. The safety is written {@code "safe"} or {@code "unsafe"}.
         */
        public Report fixEach(String safety, String titleKey, java.util.List<TextEdit> alternatives) {
            Safety s = Safety.parse(safety);
            for (TextEdit e : alternatives) {
                fixes.add(new PendingFix(s, titleKey));
                last().edits.add(e);
            }
            return this;
        }

        private PendingFix last() {
            if (fixes.isEmpty()) throw new IllegalStateException("edit(...) adds to a fix: call fix(...) first");
            return fixes.get(fixes.size() - 1);
        }

        /** Adds the finding, worded by the template under key in the firing rule's ID.yaml. */
        public void report(String key) {
            String id = firing;
            if (id == null) throw new IllegalStateException("a rule reported message '" + key + "' but has no @id");
            if (!worded) {
                findings.add(level == null ? Finding.of(id, span, identity, "") : new Finding(id, Level.parse(level), span, "", List.of(), identity));
                return;
            }
            Map<String, String> mine = templates.apply(id);
            String text = message(render(id, mine, key));
            Finding f = level == null ? Finding.of(id, span, identity, text)
                    : new Finding(id, Level.parse(level), span, text, List.of(), identity);
            if (related != null) f = f.withRelated(related, phrase(render(id, mine, relatedKey)));
            for (PendingFix p : fixes) {
                if (!p.whole || p.edits.isEmpty()) continue;
                f = f.withFix(new Fix(phrase(render(id, mine, p.titleKey)), p.safety, p.edits));
            }
            findings.add(f);
        }

        private String render(String id, Map<String, String> mine, String key) {
            String template = mine.get(key);
            if (template == null) throw new IllegalStateException(id + " has no message '" + key + "' in its ID.yaml messages:");
            return Messages.render(template, about.isEmpty() ? args : new Arguments(args, about));
        }
    }

    /** The arguments a template reads: the named ones, then the properties of the facts the finding is about. */
    private static final class Arguments extends java.util.AbstractMap<String, Object> {
        private final Map<String, Object> named;
        private final List<Object> facts;

        Arguments(Map<String, Object> named, List<Object> facts) {
            this.named = named;
            this.facts = facts;
        }

        @Override public boolean containsKey(Object key) {
            if (named.containsKey(key)) return true;
            for (Object f : facts) if (FactProperties.has(f, (String) key)) return true;
            return false;
        }

        @Override public Object get(Object key) {
            if (named.containsKey(key)) return named.get(key);
            for (Object f : facts) if (FactProperties.has(f, (String) key)) return FactProperties.get(f, (String) key);
            return null;
        }

        @Override public java.util.Set<Map.Entry<String, Object>> entrySet() { return named.entrySet(); }
    }

    /** A fix being written; not whole when one of its edits had no place (it is then not offered at all). */
    private static final class PendingFix {
        final Safety safety;
        final String titleKey;
        final List<TextEdit> edits = new ArrayList<>();
        boolean whole = true;

        PendingFix(Safety safety, String titleKey) {
            this.safety = java.util.Objects.requireNonNull(safety, "a fix's safety");
            this.titleKey = titleKey;
        }
    }

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
    private final Interner messages = new Interner(10_000);

    /**
     * A rule's message as the finding holds it: a sentence, bounded, shared. A message that names a folded node
     * group by its token is bounded only when the token is replaced ({@code settle.Unfolder}), so that each
     * node group's message is cut as it would be without folding.
     */
    private String message(String message) {
        if (message == null) return null;
        String sentence = Finding.sentence(message);
        return share(Fold.marked(sentence) ? sentence : bounded(sentence));
    }

    /** A related location's text: bounded (but see {@link #message}) and shared as it is (a phrase, not a sentence). */
    private String phrase(String text) {
        return share(Fold.marked(text) ? text : bounded(text));
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
        Finding f = new Finding(ruleId, Level.parse(level), span, message(message), List.of(), identity);
        if (related != null) f = f.withRelated(related, phrase(relatedMessage));
        findings.add(f);
    }

    public List<Finding> findings() {
        synchronized (findings) {
            return List.copyOf(findings);
        }
    }
}
