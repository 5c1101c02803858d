package dev.gpulint.report;

import dev.gpulint.core.Finding;
import dev.gpulint.core.LintResult;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A GitLab Code Quality report (artifacts:reports:codequality): a JSON array with one issue per
 * finding, in the fields GitLab documents (docs.gitlab.com/ci/testing/code_quality, "Code Quality
 * report format"): {@code description}, {@code check_name}, {@code fingerprint}, {@code severity} and
 * {@code location.path} with {@code location.lines.begin}.
 *
 * <p>Severity is the finding's level, already settled, named in GitLab's words: error is
 * {@code major}, warning {@code minor}, note {@code info}. Paths are relative to the project root (as
 * SARIF's), or to {@code CI_PROJECT_DIR} when set: GitLab resolves them from the repository root.
 * Fingerprints are gpulint's own, SARIF's and the baseline's (rule, file relative to the project root,
 * identity; no line numbers), the same from every working directory, so an issue keeps its
 * fingerprint when lines move and GitLab does not report it as fixed and new again; GitLab shows
 * only the first issue of a fingerprint, so a repeat gets {@code -2}, {@code -3}... in report order.
 * Suppressed findings are left out, as in the text report.
 */
public final class GitlabRenderer implements Renderer {
    private final Path rootOverride;

    /** Paths relative to the project root (the result's). */
    public GitlabRenderer() {
        this(null);
    }

    /** @param root the folder paths are relative to (CI_PROJECT_DIR), or null for the project root */
    public GitlabRenderer(Path root) {
        this.rootOverride = root;
    }

    @Override
    public void render(LintResult result, Writer out) throws IOException {
        result = ReportPaths.stable(result);     // the same bytes from any working directory
        List<Object> issues = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        Path root = ReportPaths.root(rootOverride, result.paths());
        for (Finding f : result.findings()) {
            if (f.suppressed()) continue;
            String fp = result.fingerprint(f);
            int n = seen.merge(fp, 1, Integer::sum);
            Map<String, Object> issue = new LinkedHashMap<>();
            issue.put("description", Visible.of(f.message()));
            issue.put("check_name", Visible.of(f.ruleId()));
            issue.put("fingerprint", n == 1 ? fp : fp + "-" + n);
            issue.put("severity", switch (f.level()) { case ERROR -> "major"; case WARNING -> "minor"; case NOTE -> "info"; });
            Map<String, Object> lines = new LinkedHashMap<>();
            lines.put("begin", f.span().startLine());
            lines.put("end", Math.max(f.span().endLine(), f.span().startLine()));
            Map<String, Object> location = new LinkedHashMap<>();
            location.put("path", ReportPaths.relative(root, result.paths(), f.span().file()));
            location.put("lines", lines);
            issue.put("location", location);
            issues.add(issue);
        }
        JsonOut.write(issues, out);
    }
}
