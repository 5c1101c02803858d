package dev.gpulint.report;

import dev.gpulint.core.Finding;

import dev.gpulint.core.LintResult;
import dev.gpulint.meta.RuleCatalog;
import java.io.IOException;
import java.io.Writer;

/**
 * GitHub Actions workflow commands, one per finding
 * ({@code ::error file=...,line=...,col=...,endLine=...,endColumn=...,title=...::message}), which
 * GitHub shows as annotations on the pull request. An annotation is all a reviewer sees, so its
 * message keeps the first related location (where the other half of the problem is) and the rule's
 * help, on lines of their own: newlines are encoded as {@code %0A}, as workflow commands require.
 */
public final class GithubRenderer implements Renderer {
    private final RuleCatalog rules;
    private final boolean summary;
    private final java.nio.file.Path workspace;

    public GithubRenderer(RuleCatalog rules) { this(rules, true, null); }

    /**
     * @param summary whether the closing count line is written (not with --quiet: findings only)
     * @param workspace the checkout's root ({@code GITHUB_WORKSPACE}): GitHub places an annotation by its
     *     path from there, so a run from a subfolder still annotates the right file; null keeps the paths
     *     as given (relative to the working directory)
     */
    public GithubRenderer(RuleCatalog rules, boolean summary, java.nio.file.Path workspace) {
        this.rules = rules;
        this.summary = summary;
        this.workspace = workspace == null ? null : workspace.toAbsolutePath().normalize();
    }

    /** Where the display paths of the result being rendered are relative to. */
    private dev.gpulint.core.ProjectPaths paths = dev.gpulint.core.ProjectPaths.here();

    private String path(String file) {
        return workspace == null ? file : ReportPaths.inside(workspace, paths, file);
    }

    @Override
    public void render(LintResult result, Writer out) throws IOException {
        paths = result.paths();
        for (Finding f : result.findings()) {
            if (f.suppressed()) continue;
            String command = switch (f.level()) { case ERROR -> "error"; case WARNING -> "warning"; case NOTE -> "notice"; };
            String title = f.ruleId() + rules.get(f.ruleId()).map(r -> " " + r.name()).orElse("");
            out.write("::" + command + " file=" + property(path(f.span().file())) + ",line=" + f.span().startLine()
                    + ",col=" + f.span().startColumn() + ",endLine=" + f.span().endLine()
                    + ",endColumn=" + f.span().endColumn() + ",title=" + property(title) + "::" + data(message(f)) + "\n");
        }
        if (summary) out.write("gpulint: " + TextRenderer.summary(result) + "\n");
    }

    /**
     * The finding's message, its first related location and the rule's help, one per line. Line breaks
     * inside the parts (a key or file name with a newline) show as visible escapes, so only these three
     * lines are lines.
     */
    String message(Finding f) {
        StringBuilder sb = new StringBuilder(Visible.of(f.message()));
        if (!f.related().isEmpty()) {
            Finding.Related r = f.related().get(0);
            sb.append("\nrelated: ").append(Visible.of(path(r.span().file()))).append(':').append(r.span().startLine()).append(':')
              .append(r.span().startColumn()).append(": ").append(Visible.of(r.message()));
            if (f.related().size() > 1) sb.append(" (and ").append(f.related().size() - 1).append(" more)");
        }
        rules.get(f.ruleId()).filter(m -> !m.remediation().isBlank()).ifPresent(m -> sb.append("\nhelp: ")
                .append(Visible.of(m.remediation().strip().replaceAll("\\s+", " "))).append("; see `gpulint explain ")
                .append(Visible.of(f.ruleId())).append('`'));
        return sb.toString();
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
