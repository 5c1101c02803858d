package dev.gpulint.report;

import dev.gpulint.core.Finding;

import dev.gpulint.core.LintResult;
import dev.gpulint.meta.RuleCatalog;
import java.io.IOException;
import java.io.Writer;

/**
 * GitHub Actions workflow commands, one per finding
 * ({@code ::error file=...,line=...,col=...,endLine=...,endColumn=...,title=...::message}), which
 * GitHub shows as annotations on the pull request.
 */
public final class GithubRenderer implements Renderer {
    private final RuleCatalog rules;
    private final boolean summary;

    public GithubRenderer(RuleCatalog rules) { this(rules, true); }

    /** @param summary whether the closing count line is written (not with --quiet: findings only) */
    public GithubRenderer(RuleCatalog rules, boolean summary) {
        this.rules = rules;
        this.summary = summary;
    }

    @Override
    public void render(LintResult result, Writer out) throws IOException {
        for (Finding f : result.findings()) {
            if (f.suppressed()) continue;
            String command = switch (f.level()) { case ERROR -> "error"; case WARNING -> "warning"; case NOTE -> "notice"; };
            String title = f.ruleId() + rules.get(f.ruleId()).map(r -> " " + r.name()).orElse("");
            out.write("::" + command + " file=" + property(f.span().file()) + ",line=" + f.span().startLine()
                    + ",col=" + f.span().startColumn() + ",endLine=" + f.span().endLine()
                    + ",endColumn=" + f.span().endColumn() + ",title=" + property(title) + "::" + data(f.message()) + "\n");
        }
        if (summary) out.write("gpulint: " + TextRenderer.summary(result) + "\n");
    }

    /** Escapes for a workflow command's message; other control characters become visible escapes. */
    static String data(String s) {
        String d = s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A");
        return Visible.of(d);
    }

    /** Escapes for a workflow command's property values, which also end at ',' and ':'. */
    static String property(String s) {
        return data(s).replace(":", "%3A").replace(",", "%2C");
    }
}
