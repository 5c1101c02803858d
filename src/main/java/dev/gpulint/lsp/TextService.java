package dev.gpulint.lsp;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.CodeActionParams;
import org.eclipse.lsp4j.Command;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DidChangeTextDocumentParams;
import org.eclipse.lsp4j.DidCloseTextDocumentParams;
import org.eclipse.lsp4j.DidOpenTextDocumentParams;
import org.eclipse.lsp4j.DidSaveTextDocumentParams;
import org.eclipse.lsp4j.DocumentDiagnosticParams;
import org.eclipse.lsp4j.DocumentDiagnosticReport;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.HoverParams;
import org.eclipse.lsp4j.RelatedFullDocumentDiagnosticReport;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.services.TextDocumentService;

/** The text documents: open, change (whole text), close; diagnostics pulled, hover and code actions on them. */
final class TextService implements TextDocumentService {
    private final OpenDocuments docs;
    private final LintScheduler scheduler;
    private final dev.gpulint.lint.ClusterIndex clusters;

    TextService(OpenDocuments docs, LintScheduler scheduler, dev.gpulint.lint.ClusterIndex clusters) {
        this.docs = docs;
        this.scheduler = scheduler;
        this.clusters = clusters;
    }

    /** The file of a document has changed on the disk, or its buffer no longer stands for it: the cluster index reads it again. */
    private void reread(String uri) {
        java.nio.file.Path p = OpenDocuments.path(uri);
        if (p != null) clusters.changed(p);
    }

    @Override
    public void didOpen(DidOpenTextDocumentParams params) {
        var d = params.getTextDocument();
        if (docs.put(d.getUri(), d.getVersion(), d.getText())) scheduler.requestNow(d.getUri());
    }

    @Override
    public void didChange(DidChangeTextDocumentParams params) {
        String uri = params.getTextDocument().getUri();
        OpenDocuments.Doc before = docs.get(uri);
        if (before == null || params.getContentChanges().isEmpty()) return;
        // whole-text synchronisation: the last change holds the buffer's text
        TextDocumentContentChangeEvent last = params.getContentChanges().get(params.getContentChanges().size() - 1);
        Integer version = params.getTextDocument().getVersion();
        docs.put(uri, version == null ? before.version() + 1 : version, last.getText());
        scheduler.request(uri);
    }

    @Override
    public void didClose(DidCloseTextDocumentParams params) {
        String uri = params.getTextDocument().getUri();
        reread(uri);
        if (docs.remove(uri) != null) scheduler.closed(uri);
    }

    @Override
    public void didSave(DidSaveTextDocumentParams params) {
        // the buffer was linted already; but a saved file may be one the others find on the disk only (a new
        // .gpulint.yaml, a cluster in a folder that was not there), and clients without file watchers say nothing else
        reread(params.getTextDocument().getUri());
        scheduler.request(params.getTextDocument().getUri());
    }

    @Override
    public CompletableFuture<DocumentDiagnosticReport> diagnostic(DocumentDiagnosticParams params) {
        return scheduler.reportFor(params.getTextDocument().getUri()).thenApply(r ->
                new DocumentDiagnosticReport(new RelatedFullDocumentDiagnosticReport(r == null ? List.of() : r.diagnostics())));
    }

    @Override
    public CompletableFuture<Hover> hover(HoverParams params) {
        return scheduler.reportFor(params.getTextDocument().getUri()).thenApply(r -> Hovers.at(r, params.getPosition()));
    }

    /** Whether the client asks for actions of {@code kind}: it names no kinds, or a kind {@code kind} is of ("source", "source.fixAll"). */
    static boolean wanted(List<String> only, String kind) {
        if (only == null || only.isEmpty()) return true;
        for (String o : only) if (kind.equals(o) || kind.startsWith(o + ".")) return true;
        return false;
    }

    /**
     * The diagnostics a code action request is about: those its context names (a client that echoes one of gpulint's
     * without its {@code source}, as Vim's ALE does, gets gpulint's own of that range and code), or, when it names none
     * of gpulint's, the file's diagnostics that touch the requested range (ALE names none when the cursor is on a
     * word). Otherwise ":ALECodeAction" on '400 GB/s' got only the fix-all action.
     */
    private static List<Diagnostic> diagnostics(CodeActionParams params, Lints.FileReport r) {
        List<Diagnostic> out = new ArrayList<>();
        for (Diagnostic d : params.getContext().getDiagnostics()) {
            if (Diagnostics.rule(d) != null) {
                out.add(d);
                continue;
            }
            for (Diagnostic own : r.diagnostics()) {
                if (own.getRange().equals(d.getRange()) && java.util.Objects.equals(own.getCode(), d.getCode())) out.add(own);
            }
        }
        if (!out.isEmpty() || params.getRange() == null) return out;
        for (Diagnostic d : r.diagnostics()) if (touches(d.getRange(), params.getRange())) out.add(d);
        return out;
    }

    private static boolean touches(org.eclipse.lsp4j.Range a, org.eclipse.lsp4j.Range b) {
        return !before(a.getEnd(), b.getStart()) && !before(b.getEnd(), a.getStart());
    }

    private static boolean before(org.eclipse.lsp4j.Position x, org.eclipse.lsp4j.Position y) {
        return x.getLine() < y.getLine() || (x.getLine() == y.getLine() && x.getCharacter() < y.getCharacter());
    }

    @Override
    public CompletableFuture<List<Either<Command, CodeAction>>> codeAction(CodeActionParams params) {
        String uri = params.getTextDocument().getUri();
        return scheduler.reportFor(uri).thenApply(r -> {
            List<Either<Command, CodeAction>> out = new ArrayList<>();
            OpenDocuments.Doc doc = docs.get(uri);
            if (r == null || doc == null || params.getContext() == null || params.getContext().getDiagnostics() == null) return out;
            List<String> only = params.getContext().getOnly();
            if (wanted(only, org.eclipse.lsp4j.CodeActionKind.QuickFix)) {
                Positions text = new Positions(doc.text());
                for (Diagnostic d : diagnostics(params, r)) {
                    for (CodeAction a : FixActions.quickFixes(r, d)) out.add(Either.forRight(a));
                    CodeAction a = Suppress.action(doc, text, d);
                    if (a != null) out.add(Either.forRight(a));
                }
            }
            if (wanted(only, FixActions.FIX_ALL)) {
                CodeAction all = FixActions.fixAll(r);
                if (all != null) out.add(Either.forRight(all));
            }
            return out;
        });
    }
}
