package dev.gpulint.lsp;

import dev.gpulint.core.Finding;
import dev.gpulint.meta.RuleMeta;
import java.util.LinkedHashSet;
import java.util.Set;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.MarkupContent;
import org.eclipse.lsp4j.MarkupKind;
import org.eclipse.lsp4j.Position;

/**
 * Hover on a finding: the help page of its rule, as {@code gpulint explain ID} prints it (docs/rules/ID.md; a team's
 * own rule without a page: its name and description), in markdown. Several findings under the cursor give each
 * rule's page once, separated by a rule.
 */
final class Hovers {
    private Hovers() {}

    /** The hover at {@code p} of a document's last lint, or null when no finding covers it. */
    static Hover at(Lints.FileReport report, Position p) {
        if (report == null || p == null) return null;
        int[] lc = report.positions().lineColumn(p);
        Set<String> rules = new LinkedHashSet<>();
        for (Finding f : report.findings()) if (f.span().covers(lc[0], lc[1])) rules.add(f.ruleId());
        if (rules.isEmpty()) return null;
        StringBuilder md = new StringBuilder();
        for (String id : rules) {
            if (md.length() > 0) md.append("\n\n---\n\n");
            md.append(help(report.rules().get(id).orElse(null), id).strip()).append('\n');
        }
        return new Hover(new MarkupContent(MarkupKind.MARKDOWN, md.toString()));
    }

    /** What `gpulint explain ID` prints for a rule (without its wrapping to the terminal's width). */
    static String help(RuleMeta meta, String id) {
        if (meta == null) return "# " + id + "\n";
        return meta.helpMarkdown() != null ? meta.helpMarkdown() : "# " + meta.id() + " " + meta.name() + "\n\n" + meta.description() + "\n";
    }
}
