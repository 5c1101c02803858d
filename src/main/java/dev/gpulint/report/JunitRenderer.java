package dev.gpulint.report;

import dev.gpulint.core.Finding;
import dev.gpulint.core.LintResult;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.meta.RuleMeta;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * JUnit XML for the test tabs of CI systems (GitLab {@code artifacts:reports:junit}, Jenkins
 * {@code junit}, Azure Pipelines {@code PublishTestResults}), in the common shape of Jenkins'
 * junit-10.xsd: {@code <testsuites>} with one {@code <testsuite>} per file reported on
 * ({@link LintResult#reportedFiles()}, as many as the closing line counts; named by its path relative to
 * the project root, or to {@code CI_PROJECT_DIR} when set) and one {@code <testcase>} per finding.
 * A test case's {@code classname} is that path with its dots written as {@code ·} (U+00B7): Jenkins
 * splits a classname into package and class at its last dot, which would make {@code job.yaml} a
 * class {@code yaml} of a package {@code job}.
 *
 * <p>A finding is a {@code <failure>} whose type is its level, already settled; a file that could
 * not be read or parsed (SYN001) is an {@code <error>}, since it could not be checked; a suppressed
 * finding is {@code <skipped>} with its justification; a file without findings is one passing test
 * case, so the tab lists every file checked. A test case is named by its rule (and a counter for a
 * rule's second finding in a file), not its line, so test history follows a finding when lines
 * move; the line and column are in the failure message. Times are 0: the output is deterministic.
 * Control characters show as visible escapes ({@link Visible}), and characters XML 1.0 forbids as
 * {@code \\uXXXX}.
 */
public final class JunitRenderer implements Renderer {
    private final RuleCatalog rules;
    private final Path rootOverride;

    /** Paths relative to the project root (the result's). */
    public JunitRenderer(RuleCatalog rules) {
        this(rules, null);
    }

    /** @param root the folder paths are relative to (CI_PROJECT_DIR), or null for the project root */
    public JunitRenderer(RuleCatalog rules, Path root) {
        this.rules = rules;
        this.rootOverride = root;
    }

    /** A classname Jenkins does not split inside the file name: the path, its dots as middle dots. */
    static String classname(String path) {
        return path.replace('.', '\u00B7');
    }

    @Override
    public void render(LintResult result, Writer out) throws IOException {
        result = ReportPaths.stable(result);     // the same bytes from any working directory
        Map<String, List<Finding>> byFile = new TreeMap<>();
        Path root = ReportPaths.root(rootOverride, result.paths());
        for (String file : result.reportedFiles()) {
            byFile.computeIfAbsent(ReportPaths.relative(root, result.paths(), file), k -> new ArrayList<>());
        }
        for (Finding f : result.findings()) byFile.get(ReportPaths.relative(root, result.paths(), f.span().file())).add(f);
        StringBuilder suites = new StringBuilder();
        int tests = 0, failures = 0, errors = 0;
        for (Map.Entry<String, List<Finding>> e : byFile.entrySet()) {
            String file = e.getKey();
            StringBuilder cases = new StringBuilder();
            int t = 0, fail = 0, err = 0, skip = 0;
            Map<String, Integer> seen = new HashMap<>();
            for (Finding f : e.getValue()) {
                t++;
                String name = f.ruleId() + rules.get(f.ruleId()).map(r -> " " + r.name()).orElse("");
                int n = seen.merge(name, 1, Integer::sum);
                cases.append("    <testcase name=\"").append(attr(n == 1 ? name : name + " #" + n))
                     .append("\" classname=\"").append(attr(classname(file))).append("\" time=\"0\">\n");
                String message = f.span().startLine() + ":" + f.span().startColumn() + ": " + f.message();
                if (f.suppressed()) {
                    skip++;
                    cases.append("      <skipped message=\"").append(attr("suppressed: " + f.suppression())).append("\"/>\n");
                } else {
                    boolean unreadable = f.ruleId().equals("SYN001") || f.ruleId().equals("TOOL001");
                    String tag = unreadable ? "error" : "failure";
                    if (unreadable) err++; else fail++;
                    cases.append("      <").append(tag).append(" message=\"").append(attr(message)).append("\" type=\"")
                         .append(f.level().id()).append("\">")
                         .append(dev.gpulint.core.Xml.text(body(f))).append("</").append(tag).append(">\n");
                }
                cases.append("    </testcase>\n");
            }
            if (t == 0) {
                t = 1;
                cases.append("    <testcase name=\"no findings\" classname=\"").append(attr(classname(file))).append("\" time=\"0\"/>\n");
            }
            suites.append("  <testsuite name=\"").append(attr(file)).append("\" tests=\"").append(t).append("\" failures=\"")
                  .append(fail).append("\" errors=\"").append(err).append("\" skipped=\"").append(skip)
                  .append("\" time=\"0\" file=\"").append(attr(file)).append("\">\n").append(cases).append("  </testsuite>\n");
            tests += t;
            failures += fail;
            errors += err;
        }
        out.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        out.write("<testsuites name=\"gpulint\" tests=\"" + tests + "\" failures=\"" + failures + "\" errors=\"" + errors
                + "\" time=\"0\">\n");
        out.write(suites.toString());
        out.write("</testsuites>\n");
    }

    /** The text report's lines for one finding: headline, related locations, help. */
    private String body(Finding f) {
        StringBuilder sb = new StringBuilder(TextRenderer.headline(f));
        for (Finding.Related r : f.related()) {
            sb.append("\n  related: ").append(Visible.of(r.span().file())).append(':').append(r.span().startLine()).append(':')
              .append(r.span().startColumn()).append(": ").append(Visible.of(r.message()));
        }
        RuleMeta meta = rules.get(f.ruleId()).orElse(null);
        if (meta != null && !meta.remediation().isBlank()) {
            sb.append("\n  help: ").append(Visible.of(meta.remediation().strip().replaceAll("\\s+", " ")))
              .append("; see `gpulint explain ").append(Visible.of(f.ruleId())).append('`');
        }
        return sb.toString();
    }

    /** An attribute value: one line, control characters visible, markup escaped. */
    static String attr(String s) {
        return dev.gpulint.core.Xml.attribute(Visible.of(s));
    }

}
