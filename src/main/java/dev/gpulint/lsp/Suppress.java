package dev.gpulint.lsp;

import dev.gpulint.read.Readers;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.CodeActionKind;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.TextEdit;
import org.eclipse.lsp4j.WorkspaceEdit;

/**
 * The "suppress with a reason" code action: gpulint's inline suppression ({@code # gpulint: ignore RULE -- reason},
 * README "Suppressions"), written as a comment line of its own above the finding's line, indented as that line (a
 * comment alone on its line covers the next one). The reason is a placeholder to replace: gpulint requires one, and
 * reports the placeholder as SYN005 (the finding stays shown) until it is replaced. Only
 * in the syntaxes whose comments start with {@code #}: YAML, the .topo DSL, shell scripts, TOML and CSV (JSON has no
 * comments, and a captured tool output is left as the tool printed it). A finding on a script's {@code #!} line gets
 * the comment at that line's end instead, so the interpreter line stays first.
 */
final class Suppress {
    private Suppress() {}

    /** The reason written in the comment, for the user to replace with theirs: until then SYN005 says so, and the finding stays. */
    static final String PLACEHOLDER = dev.gpulint.settle.Suppressions.PLACEHOLDER_REASON;

    private static final Set<String> COMMENTED = Set.of("YAML", "DSL", "shell", "TOML", "CSV");

    /** Whether files of this name take a {@code #} suppression comment. */
    static boolean supported(String fileName) {
        return Readers.named(fileName).map(s -> COMMENTED.contains(s.name())).orElse(false);
    }

    /** The action suppressing the rule of diagnostic {@code d} in the document, or null when it cannot be written. */
    static CodeAction action(OpenDocuments.Doc doc, Positions text, Diagnostic d) {
        String rule = Diagnostics.rule(d);
        if (rule == null || !supported(doc.path().getFileName().toString())) return null;
        int line = d.getRange().getStart().getLine();
        String content = text.line(line);
        TextEdit edit;
        String comment = "# gpulint: ignore " + rule + " -- " + PLACEHOLDER;
        if (line == 0 && content.startsWith("#!")) {
            edit = new TextEdit(new Range(new Position(0, content.length()), new Position(0, content.length())), "  " + comment);
        } else {
            int indent = 0;
            while (indent < content.length() && (content.charAt(indent) == ' ' || content.charAt(indent) == '\t')) indent++;
            edit = new TextEdit(new Range(new Position(line, 0), new Position(line, 0)), content.substring(0, indent) + comment
                    + (doc.text().contains("\r\n") ? "\r\n" : "\n"));
        }
        CodeAction a = new CodeAction("Suppress " + rule + " here (then replace the TODO with your reason)");
        a.setKind(CodeActionKind.QuickFix);
        a.setDiagnostics(List.of(d));
        a.setEdit(new WorkspaceEdit(Map.of(doc.uri(), List.of(edit))));
        return a;
    }
}
