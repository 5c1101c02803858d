package dev.gpulint.report;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Level;

import dev.gpulint.core.LintResult;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.meta.RuleMeta;
import java.io.IOException;
import java.io.Writer;

/**
 * The text report: {@code file:line:col: level: message [ID]}, a help line,
 * related locations, and a closing count line. Control characters in file names, keys and messages
 * are shown as visible escapes ({@link Visible}), so no input forges a line or drives the terminal.
 */
public final class TextRenderer implements Renderer {
    private final RuleCatalog rules;
    private final boolean color;
    private final boolean summary;

    public TextRenderer(RuleCatalog rules, boolean color) {
        this(rules, color, true);
    }

    /** @param summary whether the closing count line is written (not with --quiet: findings only) */
    public TextRenderer(RuleCatalog rules, boolean color, boolean summary) {
        this.rules = rules;
        this.color = color;
        this.summary = summary;
    }

    @Override
    public void render(LintResult result, Writer out) throws IOException {
        for (Finding f : result.findings()) {
            if (f.suppressed()) continue;
            out.write(location(f) + level(f.level()) + ": " + Visible.of(f.message()) + " [" + Visible.of(f.ruleId()) + "]\n");
            for (Finding.Related r : f.related()) {
                out.write("  related: " + Visible.of(r.span().file()) + ":" + r.span().startLine() + ":" + r.span().startColumn()
                        + ": " + Visible.of(r.message()) + "\n");
            }
            RuleMeta meta = rules.get(f.ruleId()).orElse(null);
            if (meta != null && !meta.remediation().isEmpty()) {
                out.write("  help: " + Visible.of(meta.remediation().replaceAll("\\s+", " ")) + "; see `gpulint explain "
                        + Visible.of(f.ruleId()) + "`\n");
            }
            for (dev.gpulint.core.Fix x : f.fixes()) out.write(fixHint(x) + "\n");
        }
        if (summary) out.write(summary(result) + "\n");
    }

    /** "  fix available (safe): TITLE; gpulint check --fix applies it" (with --unsafe-fixes for an unsafe fix). */
    public static String fixHint(dev.gpulint.core.Fix x) {
        return "  fix available (" + x.safety().id() + "): " + Visible.of(x.title()) + "; `gpulint check --fix"
                + (x.safe() ? "" : " --unsafe-fixes") + "` applies it";
    }

    /** The text format's finding line without colour: {@code file:line:col: level: message [ID]}. */
    public static String headline(Finding f) {
        return location(f) + f.level().id() + ": " + Visible.of(f.message()) + " [" + Visible.of(f.ruleId()) + "]";
    }

    /** The headline with the file named as {@code file} (the Maven plugin's absolute paths). */
    public static String headline(Finding f, String file) {
        return Visible.of(file) + ":" + f.span().startLine() + ":" + f.span().startColumn() + ": " + f.level().id() + ": "
                + Visible.of(f.message()) + " [" + Visible.of(f.ruleId()) + "]";
    }

    private static String location(Finding f) {
        return Visible.of(f.span().file()) + ":" + f.span().startLine() + ":" + f.span().startColumn() + ": ";
    }

    /** The closing line: "2 errors, 1 warning, 0 notes in 3 files", with suppressed and baselined counts. */
    public static String summary(LintResult result) {
        long e = result.count(Level.ERROR), w = result.count(Level.WARNING), n = result.count(Level.NOTE);
        long s = result.suppressedCount();
        return plural(e, "error") + ", " + plural(w, "warning") + ", " + plural(n, "note") + " in "
                + plural(result.reportedFiles().size(), "file") + (s > 0 ? " (" + s + " suppressed)" : "")
                + (result.baselined() > 0 ? " (" + result.baselined() + " in the baseline)" : "");
    }

    private String level(Level l) {
        if (!color) return l.id();
        String code = switch (l) { case ERROR -> "31"; case WARNING -> "33"; case NOTE -> "36"; };
        return "\u001b[1;" + code + "m" + l.id() + "\u001b[0m";
    }

    static String plural(long n, String word) { return n + " " + word + (n == 1 ? "" : "s"); }
}
