package dev.gpulint.lsp;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.services.LanguageClient;

/**
 * When the open documents are linted, and who hears of it. Changes are debounced: a lint starts {@link #delayMs}
 * after the last change asked for one, so typing does not queue a lint per keystroke; lints run one at a time on one
 * thread. Every lint re-lints all open documents (each project in one run, {@link Lints}): a cluster's edit reaches
 * the jobs that run on it, and a configuration's every file. Then, in push mode, each document whose diagnostics
 * changed (and each the change was made in) gets them published; in pull mode the client asks
 * ({@link #reportFor}, which waits for the lint that covers the latest change), and is told to ask again for the
 * other documents ({@code workspace/diagnostic/refresh}) when theirs changed.
 */
final class LintScheduler {
    private final Lints lints;
    private final OpenDocuments docs;
    private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "gpulint-lsp-lint");
        t.setDaemon(true);
        return t;
    });
    private final long delayMs;

    private LanguageClient client;
    private boolean pull;
    private boolean refresh;

    private ScheduledFuture<?> pending;
    private CompletableFuture<Void> next;
    private CompletableFuture<Void> latest = CompletableFuture.completedFuture(null);
    private final java.util.Set<String> touched = new java.util.HashSet<>();
    private volatile Map<String, Lints.FileReport> reports = Map.of();
    private final Map<String, List<Diagnostic>> shown = new HashMap<>();

    LintScheduler(Lints lints, OpenDocuments docs, long delayMs) {
        this.lints = lints;
        this.docs = docs;
        this.delayMs = delayMs;
    }

    /** The client, and how it takes diagnostics: pulled (with or without refresh) or pushed. */
    synchronized void connect(LanguageClient client, boolean pull, boolean refresh) {
        this.client = client;
        this.pull = pull;
        this.refresh = refresh;
    }

    /** Asks for a lint after the debounce delay; {@code uri} (or null) is the document the change was made in. */
    synchronized CompletableFuture<Void> request(String uri) {
        return schedule(uri, delayMs);
    }

    /** Asks for a lint now (a document just opened: its first diagnostics should not wait). */
    synchronized CompletableFuture<Void> requestNow(String uri) {
        return schedule(uri, 0);
    }

    private CompletableFuture<Void> schedule(String uri, long delay) {
        if (uri != null) touched.add(uri);
        if (pending != null && pending.cancel(false)) pending = null;
        if (next == null) next = new CompletableFuture<>();
        CompletableFuture<Void> mine = next;
        pending = thread.schedule(this::run, delay, TimeUnit.MILLISECONDS);
        latest = mine;
        return mine;
    }

    private void run() {
        CompletableFuture<Void> done;
        Set<String> changedIn;
        synchronized (this) {
            pending = null;
            done = next;
            next = null;
            changedIn = Set.copyOf(touched);
            touched.clear();
        }
        try {
            Map<String, Lints.FileReport> fresh = lints.lintAll(docs);
            reports = fresh;
            tell(fresh, changedIn);
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            log("gpulint: the lint failed: " + e + " (please report it)");
        } finally {
            if (done != null) done.complete(null);
        }
    }

    private void tell(Map<String, Lints.FileReport> fresh, Set<String> changedIn) {
        LanguageClient c;
        boolean others = false;
        synchronized (this) {
            c = client;
        }
        if (c == null) return;
        for (Lints.FileReport r : fresh.values()) {
            List<Diagnostic> before = shown.put(r.uri(), r.diagnostics());
            boolean changed = !Objects.equals(before, r.diagnostics());
            if (pull) {
                if (changed && !changedIn.contains(r.uri())) others = true;
            } else if (changed || changedIn.contains(r.uri())) {
                OpenDocuments.Doc d = docs.get(r.uri());
                c.publishDiagnostics(new PublishDiagnosticsParams(r.uri(), r.diagnostics(), d == null ? null : d.version()));
            }
        }
        shown.keySet().retainAll(fresh.keySet());
        if (pull && refresh && others) c.refreshDiagnostics();
    }

    /** A closed document: its diagnostics are cleared, and the others re-linted (its file on the disk counts again). */
    void closed(String uri) {
        LanguageClient c;
        synchronized (this) {
            c = client;
        }
        if (c != null) c.publishDiagnostics(new PublishDiagnosticsParams(uri, List.of()));
        request(null);
    }

    /** The report of a document from the lint that covers every change made so far. */
    CompletableFuture<Lints.FileReport> reportFor(String uri) {
        CompletableFuture<Void> wait;
        synchronized (this) {
            wait = latest;
        }
        return wait.thenApply(v -> reports.get(uri));
    }

    /** The last lint's report of a document (hover, code actions: what the user sees), or null. */
    Lints.FileReport last(String uri) { return reports.get(uri); }

    void log(String message) {
        System.err.println(message);
    }

    void shutdown() {
        thread.shutdown();     // never interrupted mid-write: a half-written message would break the stream
    }
}
