package dev.gpulint.lsp;

import dev.gpulint.report.ReportOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.lsp4j.ClientCapabilities;
import org.eclipse.lsp4j.DidChangeTextDocumentParams;
import org.eclipse.lsp4j.DidCloseTextDocumentParams;
import org.eclipse.lsp4j.DidOpenTextDocumentParams;
import org.eclipse.lsp4j.InitializeParams;
import org.eclipse.lsp4j.InitializeResult;
import org.eclipse.lsp4j.InitializedParams;
import org.eclipse.lsp4j.MessageActionItem;
import org.eclipse.lsp4j.MessageParams;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.RegistrationParams;
import org.eclipse.lsp4j.ShowMessageRequestParams;
import org.eclipse.lsp4j.TextDocumentContentChangeEvent;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.eclipse.lsp4j.TextDocumentItem;
import org.eclipse.lsp4j.VersionedTextDocumentIdentifier;
import org.eclipse.lsp4j.WorkspaceFolder;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.launch.LSPLauncher;
import org.eclipse.lsp4j.services.LanguageClient;
import org.eclipse.lsp4j.services.LanguageServer;
import dev.gpulint.testing.CpuBudget;
import dev.gpulint.testing.MemoryPipe;

/**
 * A scripted LSP client for tests: gpulint's server and this client talk JSON-RPC over piped streams through LSP4J's
 * launchers, as an editor and {@code gpulint lsp} do over standard input and output. It records what the server
 * sends: published diagnostics (in order), refresh requests, and registrations.
 */
final class ScriptedClient implements LanguageClient, AutoCloseable {
    final BlockingQueue<PublishDiagnosticsParams> published = new LinkedBlockingQueue<>();
    final AtomicInteger refreshes = new AtomicInteger();
    final List<RegistrationParams> registrations = new java.util.concurrent.CopyOnWriteArrayList<>();
    final LanguageServer server;
    final InitializeResult init;
    private final Future<Void> serverListening;
    private final Future<Void> clientListening;
    /** The two directions; not java.io's piped streams, whose reader dies with the last thread that wrote ({@link MemoryPipe}). */
    private final MemoryPipe toServer = new MemoryPipe(), toClient = new MemoryPipe();
    private int version = 1;

    ScriptedClient(Path root, ClientCapabilities caps, long debounceMs) throws Exception {
        GpulintServer impl = new GpulintServer(ReportOptions.DEFAULT.withHelpUriBase("https://example.com/rules/"), debounceMs);
        Launcher<LanguageClient> s = LSPLauncher.createServerLauncher(impl, toServer.in, toClient.out);
        impl.connect(s.getRemoteProxy());
        serverListening = s.startListening();
        Launcher<LanguageServer> c = LSPLauncher.createClientLauncher(this, toClient.in, toServer.out);
        clientListening = c.startListening();
        server = c.getRemoteProxy();
        InitializeParams p = new InitializeParams();
        p.setCapabilities(caps);
        p.setWorkspaceFolders(List.of(new WorkspaceFolder(root.toUri().toString(), "root")));
        init = await(server.initialize(p));
        server.initialized(new InitializedParams());
    }

    static String uri(Path p) { return p.toUri().toString(); }

    void open(Path file, String text) {
        server.getTextDocumentService().didOpen(new DidOpenTextDocumentParams(new TextDocumentItem(uri(file), "yaml", version++, text)));
    }

    void change(Path file, String text) {
        server.getTextDocumentService().didChange(new DidChangeTextDocumentParams(
                new VersionedTextDocumentIdentifier(uri(file), version++), List.of(new TextDocumentContentChangeEvent(text))));
    }

    void close(Path file) {
        server.getTextDocumentService().didClose(new DidCloseTextDocumentParams(new TextDocumentIdentifier(uri(file))));
    }

    /** Diagnostics published for other files while a test waited for one file's: kept, in order, for their turn. */
    private final List<PublishDiagnosticsParams> backlog = new ArrayList<>();

    /**
     * How much CPU a wait for the server may see spent (the server runs in this JVM) before it fails: a lint, the
     * first one building the rule base, needs a few seconds; never a wall-clock limit, which a loaded runner stretches.
     */
    static final long WAIT_CPU_SECONDS = 60;

    /** The value of a request to the server, or fails once {@link #WAIT_CPU_SECONDS} of CPU were spent without it. */
    static <T> T await(java.util.concurrent.Future<T> f) throws Exception {
        try {
            return CpuBudget.ofSeconds(WAIT_CPU_SECONDS).get(f);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; the threads then:" + threads(), e);
        }
    }

    /** Every thread's state and stack, for a wait that never ended: where the server or the client stood. */
    private static String threads() {
        StringBuilder b = new StringBuilder();
        Thread.getAllStackTraces().entrySet().stream().sorted(java.util.Comparator.comparing(e -> e.getKey().getName()))
                .forEach(e -> {
                    b.append("\n\"").append(e.getKey().getName()).append("\" ").append(e.getKey().getState());
                    for (StackTraceElement s : e.getValue()) b.append("\n    at ").append(s);
                });
        return b.toString();
    }

    /** The next diagnostics published for {@code file}, in the order published, or null when none came before {@code end} is spent. */
    private PublishDiagnosticsParams take(Path file, CpuBudget end) throws InterruptedException {
        for (int i = 0; i < backlog.size(); i++) if (backlog.get(i).getUri().equals(uri(file))) return backlog.remove(i);
        while (!end.exhausted()) {
            PublishDiagnosticsParams p = published.poll(200, TimeUnit.MILLISECONDS);   // wall-clock-ok: one poll; the budget bounds the wait
            if (p == null) continue;
            if (p.getUri().equals(uri(file))) return p;
            backlog.add(p);
        }
        return null;
    }

    /** The next diagnostics published for {@code file}, or fails once {@link #WAIT_CPU_SECONDS} of CPU were spent without them. */
    PublishDiagnosticsParams next(Path file) throws InterruptedException {
        CpuBudget end = CpuBudget.ofSeconds(WAIT_CPU_SECONDS);
        PublishDiagnosticsParams p = take(file, end);
        if (p == null) throw new AssertionError("no diagnostics published for " + file + ": the wait " + end.why());
        return p;
    }

    /** The diagnostics published for {@code file} until one satisfies {@code done}, or fails once the CPU budget is spent. */
    PublishDiagnosticsParams until(Path file, java.util.function.Predicate<PublishDiagnosticsParams> done) throws InterruptedException {
        List<String> seen = new ArrayList<>();
        CpuBudget end = CpuBudget.ofSeconds(WAIT_CPU_SECONDS);
        for (PublishDiagnosticsParams p = take(file, end); p != null; p = take(file, end)) {
            if (done.test(p)) return p;
            seen.add(p.getDiagnostics().toString());
        }
        throw new AssertionError("the diagnostics expected for " + file + " never came; published: " + seen);
    }

    @Override public void publishDiagnostics(PublishDiagnosticsParams d) { published.add(d); }

    @Override public CompletableFuture<Void> refreshDiagnostics() {
        refreshes.incrementAndGet();
        return CompletableFuture.completedFuture(null);
    }

    @Override public CompletableFuture<Void> registerCapability(RegistrationParams params) {
        registrations.add(params);
        return CompletableFuture.completedFuture(null);
    }

    @Override public void telemetryEvent(Object object) {}

    @Override public void showMessage(MessageParams messageParams) {}

    @Override public CompletableFuture<MessageActionItem> showMessageRequest(ShowMessageRequestParams requestParams) {
        return CompletableFuture.completedFuture(null);
    }

    @Override public void logMessage(MessageParams message) {}

    @Override
    public void close() throws Exception {
        await(server.shutdown());
        server.exit();
        serverListening.cancel(true);
        clientListening.cancel(true);
        toServer.close();
        toClient.close();
    }
}
