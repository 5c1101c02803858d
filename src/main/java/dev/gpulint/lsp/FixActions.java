package dev.gpulint.lsp;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Fix;
import dev.gpulint.core.Safety;
import dev.gpulint.fix.FixApplier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.CodeActionKind;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.TextEdit;
import org.eclipse.lsp4j.WorkspaceEdit;

/**
 * The findings' fixes (#28) as code actions. Each fix of a finding under the client's diagnostics is a quick fix
 * with the fix's title; an unsafe one (it changes what the job does, not only how it is written) says so in its
 * title and is never preferred. {@code source.fixAll.gpulint} applies the document's safe fixes only, one pass
 * as {@code gpulint check --fix} makes it ({@link FixApplier}).
 */
final class FixActions {
    private FixActions() {}

    /** The kind of the fix-all action: a source action of gpulint's, as ruff's {@code source.fixAll.ruff}. */
    static final String FIX_ALL = CodeActionKind.SourceFixAll + ".gpulint";

    /** What an unsafe fix's title says after the fix's own words. */
    static final String UNSAFE = " (unsafe: it changes what runs; check it)";

    /** The quick fixes of the findings a diagnostic stands for. */
    static List<CodeAction> quickFixes(Lints.FileReport r, Diagnostic d) {
        String rule = Diagnostics.rule(d);
        List<CodeAction> out = new ArrayList<>();
        if (rule == null) return out;
        for (Finding f : r.findings()) {
            if (!f.ruleId().equals(rule) || !r.positions().range(f.span()).equals(d.getRange())) continue;
            boolean first = true;
            for (Fix x : f.fixes()) {
                if (!x.resolved()) continue;
                CodeAction a = new CodeAction(capital(x.title()) + (x.safe() ? "" : UNSAFE));
                a.setKind(CodeActionKind.QuickFix);
                a.setDiagnostics(List.of(d));
                a.setIsPreferred(first && x.safe());
                a.setEdit(edit(r, x.edits()));
                out.add(a);
                first = false;
            }
        }
        return out;
    }

    /** The fix-all action of a document: its safe fixes whose edits stay in it, applied in one pass; null when there are none. */
    static CodeAction fixAll(Lints.FileReport r) {
        List<Finding> own = new ArrayList<>();
        for (Finding f : r.findings()) {
            List<Fix> safe = f.fixes().stream().filter(x -> x.safe() && x.files().equals(List.of(r.display()))).toList();
            if (!safe.isEmpty()) own.add(f.withFixes(safe));
        }
        if (own.isEmpty()) return null;
        FixApplier.Result result = FixApplier.apply(Map.of(r.display(), r.text()), own, Safety.SAFE);
        String after = result.texts().get(r.display());
        if (after == null) return null;
        Positions p = r.positions();
        int last = p.lines() - 1;
        Range whole = new Range(new Position(0, 0), new Position(last, p.line(last).length()));
        CodeAction a = new CodeAction("Fix all safely fixable gpulint findings (" + result.applied().size() + ")");
        a.setKind(FIX_ALL);
        a.setEdit(new WorkspaceEdit(Map.of(r.uri(), List.of(new TextEdit(whole, after)))));
        return a;
    }

    /** A menu entry starts with a capital, as the editors' own do (the fix's title is worded as a phrase). */
    static String capital(String title) {
        return title.isEmpty() ? title : title.substring(0, 1).toUpperCase(java.util.Locale.ROOT) + title.substring(1);
    }

    /** A fix's edits, placed in each file's text (this document's buffer, another open buffer, or the file on the disk). */
    private static WorkspaceEdit edit(Lints.FileReport r, List<dev.gpulint.core.TextEdit> edits) {
        Map<String, List<TextEdit>> changes = new LinkedHashMap<>();
        for (dev.gpulint.core.TextEdit e : edits) {
            Diagnostics.Place at = e.file().equals(r.display()) ? new Diagnostics.Place(r.uri(), r.positions())
                    : r.texts().place(r.base(), e.file());
            changes.computeIfAbsent(at.uri(), k -> new ArrayList<>()).add(new TextEdit(at.range(e.span()), e.replacement()));
        }
        return new WorkspaceEdit(changes);
    }
}
