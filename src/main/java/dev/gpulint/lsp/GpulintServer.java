package dev.gpulint.lsp;

import dev.gpulint.report.ReportOptions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.eclipse.lsp4j.ClientCapabilities;
import org.eclipse.lsp4j.CodeActionKind;
import org.eclipse.lsp4j.CodeActionOptions;
import org.eclipse.lsp4j.DiagnosticRegistrationOptions;
import org.eclipse.lsp4j.DidChangeWatchedFilesRegistrationOptions;
import org.eclipse.lsp4j.FileSystemWatcher;
import org.eclipse.lsp4j.InitializeParams;
import org.eclipse.lsp4j.InitializeResult;
import org.eclipse.lsp4j.InitializedParams;
import org.eclipse.lsp4j.Registration;
import org.eclipse.lsp4j.RegistrationParams;
import org.eclipse.lsp4j.ServerCapabilities;
import org.eclipse.lsp4j.ServerInfo;
import org.eclipse.lsp4j.TextDocumentSyncKind;
import org.eclipse.lsp4j.WorkspaceFolder;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.services.LanguageClient;
import org.eclipse.lsp4j.services.LanguageClientAware;
import org.eclipse.lsp4j.services.LanguageServer;
import org.eclipse.lsp4j.services.TextDocumentService;
import org.eclipse.lsp4j.services.WorkspaceService;

/**
 * {@code gpulint lsp}: the language server. It offers diagnostics pulled ({@code textDocument/diagnostic}) when the
 * client can pull them, and pushes them ({@code textDocument/publishDiagnostics}) otherwise; hover with the rule's
 * help; code actions (suppress with a reason); and it watches {@code .gpulint.yaml}, the rules and the manifests on
 * the disk ({@code workspace/didChangeWatchedFiles}, registered when the client can). Documents are synchronised
 * whole. See docs/editors.md.
 */
public final class GpulintServer implements LanguageServer, LanguageClientAware {

    /** How long after the last change a lint starts (typing does not lint every keystroke). */
    public static final long DEBOUNCE_MS = 40;

    /** The files whose change on the disk re-lints the open documents: the configuration, rules, manifests, evidence. */
    static final List<String> WATCHED = List.of("**/" + dev.gpulint.config.Config.NAME, "**/*.drl",
            "**/*.{yaml,yml,topo,json,toml,csv,sh,bash,sbatch,slurm,txt,log}");

    private final OpenDocuments docs = new OpenDocuments();
    private final Lints lints;
    private final LintScheduler scheduler;
    private final TextService text;
    private final Workspace workspace;
    private LanguageClient client;
    private ClientCapabilities capabilities;
    private boolean exited;
    private int exitCode = 1;

    public GpulintServer(ReportOptions report) {
        this(report, DEBOUNCE_MS);
    }

    public GpulintServer(ReportOptions report, long debounceMs) {
        this.lints = new Lints(report);
        this.scheduler = new LintScheduler(lints, docs, debounceMs);
        this.text = new TextService(docs, scheduler, lints.clusters());
        this.workspace = new Workspace(scheduler, lints.clusters());
    }

    /** The launcher of {@code server} on a connection, with the LSP's lifecycle kept in front of it ({@link Lifecycle}). */
    public static org.eclipse.lsp4j.jsonrpc.Launcher<LanguageClient> launcher(GpulintServer server, java.io.InputStream in,
                                                                            java.io.OutputStream out) {
        return Lifecycle.launcher(server, in, out);
    }

    @Override
    public void connect(LanguageClient c) {
        this.client = c;
    }

    @Override
    public CompletableFuture<InitializeResult> initialize(InitializeParams params) {
        dev.gpulint.lint.Linter.warmUp();
        capabilities = params.getCapabilities() == null ? new ClientCapabilities() : params.getCapabilities();
        lints.roots(roots(params));
        boolean pull = capabilities.getTextDocument() != null && capabilities.getTextDocument().getDiagnostic() != null;
        boolean refresh = capabilities.getWorkspace() != null && capabilities.getWorkspace().getDiagnostics() != null
                && Boolean.TRUE.equals(capabilities.getWorkspace().getDiagnostics().getRefreshSupport());
        scheduler.connect(client, pull, refresh);
        ServerCapabilities caps = new ServerCapabilities();
        caps.setTextDocumentSync(TextDocumentSyncKind.Full);
        caps.setHoverProvider(true);
        caps.setCodeActionProvider(new CodeActionOptions(List.of(CodeActionKind.QuickFix, FixActions.FIX_ALL)));
        if (pull) {
            DiagnosticRegistrationOptions d = new DiagnosticRegistrationOptions(true, false);
            d.setIdentifier("gpulint");
            caps.setDiagnosticProvider(d);
        }
        return CompletableFuture.completedFuture(new InitializeResult(caps, new ServerInfo("gpulint", dev.gpulint.meta.Version.current())));
    }

    /** The workspace folders (or the root URI of older clients), as absolute paths. */
    private static List<Path> roots(InitializeParams params) {
        List<Path> out = new ArrayList<>();
        if (params.getWorkspaceFolders() != null) {
            for (WorkspaceFolder f : params.getWorkspaceFolders()) {
                Path p = OpenDocuments.path(f.getUri());
                if (p != null) out.add(p);
            }
        }
        @SuppressWarnings("deprecation") String root = params.getRootUri();
        if (out.isEmpty() && root != null && OpenDocuments.path(root) != null) out.add(OpenDocuments.path(root));
        return out;
    }

    @Override
    public void initialized(InitializedParams params) {
        boolean dynamic = capabilities != null && capabilities.getWorkspace() != null
                && capabilities.getWorkspace().getDidChangeWatchedFiles() != null
                && Boolean.TRUE.equals(capabilities.getWorkspace().getDidChangeWatchedFiles().getDynamicRegistration());
        if (dynamic && client != null) {
            List<FileSystemWatcher> watchers = new ArrayList<>();
            for (String glob : WATCHED) watchers.add(new FileSystemWatcher(Either.forLeft(glob)));
            client.registerCapability(new RegistrationParams(List.of(new Registration("gpulint-watched-files",
                    "workspace/didChangeWatchedFiles", new DidChangeWatchedFilesRegistrationOptions(watchers)))));
        }
    }

    @Override
    public CompletableFuture<Object> shutdown() {
        exitCode = 0;
        scheduler.shutdown();
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public void exit() {
        exited = true;
        synchronized (this) {
            notifyAll();
        }
    }

    /** Waits until the client says exit (or the connection ends, whichever is first: {@code ended}); the process's exit code. */
    public int awaitExit(java.util.concurrent.Future<Void> ended) {
        try {
            while (!exited && !ended.isDone()) {
                synchronized (this) {
                    if (!exited) wait(200);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return exited ? exitCode : 1;
    }

    @Override public TextDocumentService getTextDocumentService() { return text; }

    @Override public WorkspaceService getWorkspaceService() { return workspace; }
}
