package dev.gpulint.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.meta.RuleCatalog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.lsp4j.ClientCapabilities;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.CodeActionContext;
import org.eclipse.lsp4j.CodeActionParams;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DiagnosticCapabilities;
import org.eclipse.lsp4j.DiagnosticSeverity;
import org.eclipse.lsp4j.DiagnosticWorkspaceCapabilities;
import org.eclipse.lsp4j.DidChangeWatchedFilesCapabilities;
import org.eclipse.lsp4j.DidChangeWatchedFilesParams;
import org.eclipse.lsp4j.DocumentDiagnosticParams;
import org.eclipse.lsp4j.FileChangeType;
import org.eclipse.lsp4j.FileEvent;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.HoverParams;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.TextDocumentClientCapabilities;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.eclipse.lsp4j.TextEdit;
import org.eclipse.lsp4j.WorkspaceClientCapabilities;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.gpulint.testing.CpuBudget;

/**
 * gpulint lsp with a scripted client (LSP4J's launchers over piped streams): initialize, open a broken job and its
 * cluster, diagnostics with exact code, range (UTF-16: the node group's name holds an emoji, two code units) and
 * message; a change re-lints; hover gives the rule's help; the suppression code action's edit silences the finding; a
 * cluster's edit refreshes the job that runs on it (in the buffer, and on the disk through watched files); close
 * clears; the pull model with its refresh.
 */
class LspServerTest {

    /** A node group named "é😀" (3 UTF-16 code units, 2 code points) before a bandwidth written in bytes. */
    static final String CLUSTER = "kind: cluster\nname: pod\nfabric: { type: infiniband, topology: rail-optimized }\nnode_groups:\n"
            + "  - { name: \"é😀\", count: 2, gpu: { model: H100-SXM5-80GB, count: 8 }, nics: [ { model: ConnectX-7, count: 8, "
            + "speed: 400 GB/s, protocol: infiniband } ] }\n";
    static final String JOB = "kind: training_job\nname: llama\ncluster: pod\nnodes: 2\nparallelism: { tp: 16, pp: 1 }\n";
    static final String UNIT001 = "400 GB/s for the ConnectX-7 InfiniBand port speed is 8× above the catalog figure (it reads as "
            + "3200 Gb/s): InfiniBand NDR ports run at 400 Gb/s = 50 GB/s per direction; write 400 Gb/s or 50 GB/s (bits are not "
            + "bytes: 1 GB/s = 8 Gb/s).";
    static final String SYN003 = "job 'llama' runs on cluster 'pod', which no linted file defines; lint the cluster's file together "
            + "with the job (e.g. gpulint clusters/ jobs/) or correct the name.";

    @TempDir Path dir;

    private Path project() throws Exception {
        Files.createDirectories(dir.resolve(".git"));
        Files.writeString(dir.resolve("cluster.yaml"), CLUSTER);
        Files.writeString(dir.resolve("job.yaml"), JOB);
        return dir;
    }

    private static Range range(int l1, int c1, int l2, int c2) {
        return new Range(new Position(l1, c1), new Position(l2, c2));
    }

    private static List<String> codes(PublishDiagnosticsParams p) {
        return p.getDiagnostics().stream().map(Diagnostics::rule).toList();
    }

    @Test
    void pushedDiagnosticsHoverSuppressionAndClose() throws Exception {
        Path root = project();
        Path cluster = root.resolve("cluster.yaml");
        try (ScriptedClient c = new ScriptedClient(root, new ClientCapabilities(), 10)) {
            assertNull(c.init.getCapabilities().getDiagnosticProvider(), "a client that cannot pull gets pushed diagnostics");
            c.open(cluster, CLUSTER);
            PublishDiagnosticsParams p = c.until(cluster, x -> !x.getDiagnostics().isEmpty());
            assertEquals(1, p.getDiagnostics().size(), p.toString());
            Diagnostic d = p.getDiagnostics().get(0);
            assertEquals("UNIT001", d.getCode().getLeft());
            assertEquals("gpulint", d.getSource());
            assertEquals(DiagnosticSeverity.Error, d.getSeverity());
            assertEquals(UNIT001, d.getMessage());
            // column 117 in code points (gpulint's, SARIF's) is 117 UTF-16 units from the line's start: the emoji is two
            assertEquals(range(4, 117, 4, 125), d.getRange());
            assertEquals("400 GB/s", CLUSTER.split("\n")[4].substring(117, 125));
            assertEquals("https://example.com/rules/UNIT001.md", d.getCodeDescription().getHref());

            Hover h = ScriptedClient.await(c.server.getTextDocumentService().hover(new HoverParams(new TextDocumentIdentifier(ScriptedClient.uri(cluster)),
                    new Position(4, 120))));
            assertEquals("markdown", h.getContents().getRight().getKind());
            String help = RuleCatalog.builtIn().get("UNIT001").orElseThrow().helpMarkdown();
            assertEquals(help.strip() + "\n", h.getContents().getRight().getValue());
            assertTrue(help.startsWith("# UNIT001"), help);
            assertNull(ScriptedClient.await(c.server.getTextDocumentService().hover(new HoverParams(new TextDocumentIdentifier(ScriptedClient.uri(cluster)),
                    new Position(1, 2)))), "no finding there, no hover");

            // the suppression action: a comment line above, with a placeholder reason; applied, the finding stays and SYN005
            // says the placeholder is no reason (issue #37); with a reason written in its place, the finding is gone
            var actions = ScriptedClient.await(c.server.getTextDocumentService().codeAction(new CodeActionParams(new TextDocumentIdentifier(ScriptedClient.uri(cluster)),
                    d.getRange(), new CodeActionContext(List.of(d)))));
            CodeAction suppress = actions.stream().map(a -> a.getRight()).filter(a -> a.getTitle().startsWith("Suppress UNIT001")).findFirst().orElseThrow();
            TextEdit edit = suppress.getEdit().getChanges().get(ScriptedClient.uri(cluster)).get(0);
            assertEquals(range(4, 0, 4, 0), edit.getRange());
            assertEquals("  # gpulint: ignore UNIT001 -- " + Suppress.PLACEHOLDER + "\n", edit.getNewText());
            String suppressed = Edits.apply(CLUSTER, List.of(edit));
            c.change(cluster, suppressed);
            assertEquals(List.of("SYN005", "UNIT001"), codes(c.next(cluster)).stream().sorted().toList(), "a placeholder is no reason");
            c.change(cluster, suppressed.replace(Suppress.PLACEHOLDER, "lab cluster, the ports really are 400GbE"));
            assertEquals(List.of(), c.next(cluster).getDiagnostics(), "the suppressed finding is not shown, and the suppression is valid");

            // a change re-lints: the bandwidth in bits is right, and stays quiet
            c.change(cluster, CLUSTER.replace("400 GB/s", "400 Gb/s"));
            assertEquals(List.of(), c.next(cluster).getDiagnostics());
            c.change(cluster, CLUSTER);
            assertEquals(List.of("UNIT001"), codes(c.until(cluster, x -> !x.getDiagnostics().isEmpty())));

            c.close(cluster);
            assertEquals(List.of(), c.next(cluster).getDiagnostics(), "a closed document's diagnostics are cleared");
        }
    }

    @Test
    void aClusterEditRefreshesItsJob() throws Exception {
        Path root = project();
        Path cluster = root.resolve("cluster.yaml"), job = root.resolve("job.yaml");
        try (ScriptedClient c = new ScriptedClient(root, new ClientCapabilities(), 10)) {
            c.open(job, JOB);
            PublishDiagnosticsParams p = c.until(job, x -> !x.getDiagnostics().isEmpty());
            Diagnostic par = p.getDiagnostics().get(0);
            assertEquals("PAR002", par.getCode().getLeft());
            assertEquals(range(4, 19, 4, 21), par.getRange());
            // the cluster came from the disk (the project's lookup); its place is in UTF-16 units too
            var rel = par.getRelatedInformation().get(0);
            assertEquals(ScriptedClient.uri(cluster), rel.getLocation().getUri());
            assertEquals(range(4, 66, 4, 67), rel.getLocation().getRange());

            // the cluster opened and renamed in the buffer, unsaved: the job no longer finds it
            c.open(cluster, CLUSTER);
            c.change(cluster, CLUSTER.replace("name: pod", "name: pod2"));
            Diagnostic syn = c.until(job, x -> codes(x).equals(List.of("SYN003"))).getDiagnostics().get(0);
            assertEquals(SYN003, syn.getMessage());
            assertEquals(range(2, 9, 2, 12), syn.getRange());
            // and back
            c.change(cluster, CLUSTER);
            assertEquals(List.of("PAR002"), codes(c.until(job, x -> codes(x).equals(List.of("PAR002")))));

            // closed, the cluster is the file on the disk again; renamed there, a watched-file event re-lints the job
            c.close(cluster);
            Files.writeString(cluster, CLUSTER.replace("name: pod", "name: pod3"));
            c.server.getWorkspaceService().didChangeWatchedFiles(new DidChangeWatchedFilesParams(
                    List.of(new FileEvent(ScriptedClient.uri(cluster), FileChangeType.Changed))));
            assertEquals(List.of("SYN003"), codes(c.until(job, x -> codes(x).equals(List.of("SYN003")))));
        }
    }

    @Test
    void anUnsavedConfigurationApplies() throws Exception {
        Path root = project();
        Path cluster = root.resolve("cluster.yaml"), config = root.resolve(".gpulint.yaml");
        Files.writeString(config, "exclude: []\n");
        try (ScriptedClient c = new ScriptedClient(root, new ClientCapabilities(), 10)) {
            c.open(cluster, CLUSTER);
            assertEquals(List.of("UNIT001"), codes(c.until(cluster, x -> !x.getDiagnostics().isEmpty())));
            c.open(config, "exclude: []\n");
            c.change(config, "rules: { UNIT001: off }\n");
            assertEquals(List.of(), c.until(cluster, x -> x.getDiagnostics().isEmpty()).getDiagnostics(), "the buffer's rules: apply unsaved");
            c.change(config, "rules: { UNIT01: off }\n");
            Diagnostic typo = c.until(config, x -> !x.getDiagnostics().isEmpty()).getDiagnostics().get(0);
            assertEquals(range(0, 9, 0, 15), typo.getRange(), "the configuration's own finding, in its buffer: " + typo);
            assertEquals(List.of("UNIT001"), codes(c.until(cluster, x -> !x.getDiagnostics().isEmpty())));
        }
    }

    @Test
    void pulledDiagnosticsWithRefreshAndWatchedFiles() throws Exception {
        Path root = project();
        Path cluster = root.resolve("cluster.yaml"), job = root.resolve("job.yaml");
        ClientCapabilities caps = new ClientCapabilities();
        TextDocumentClientCapabilities td = new TextDocumentClientCapabilities();
        td.setDiagnostic(new DiagnosticCapabilities());
        caps.setTextDocument(td);
        WorkspaceClientCapabilities ws = new WorkspaceClientCapabilities();
        ws.setDiagnostics(new DiagnosticWorkspaceCapabilities(true));
        ws.setDidChangeWatchedFiles(new DidChangeWatchedFilesCapabilities(true));
        caps.setWorkspace(ws);
        try (ScriptedClient c = new ScriptedClient(root, caps, 10)) {
            assertNotNull(c.init.getCapabilities().getDiagnosticProvider());
            assertTrue(c.init.getCapabilities().getDiagnosticProvider().isInterFileDependencies());
            c.open(job, JOB);
            c.open(cluster, CLUSTER);
            var report = ScriptedClient.await(c.server.getTextDocumentService().diagnostic(new DocumentDiagnosticParams(
                    new TextDocumentIdentifier(ScriptedClient.uri(job)))));
            assertEquals(List.of("PAR002"), report.getLeft().getItems().stream().map(Diagnostics::rule).toList());
            int before = c.refreshes.get();
            c.change(cluster, CLUSTER.replace("name: pod", "name: pod2"));
            var cl = ScriptedClient.await(c.server.getTextDocumentService().diagnostic(new DocumentDiagnosticParams(
                    new TextDocumentIdentifier(ScriptedClient.uri(cluster)))));
            assertEquals(List.of("UNIT001"), cl.getLeft().getItems().stream().map(Diagnostics::rule).toList());
            CpuBudget.ofSeconds(60).until(() -> c.refreshes.get() > before, "the job's diagnostics changed: the client is asked to pull again");
            var again = ScriptedClient.await(c.server.getTextDocumentService().diagnostic(new DocumentDiagnosticParams(
                    new TextDocumentIdentifier(ScriptedClient.uri(job)))));
            assertEquals(List.of("SYN003"), again.getLeft().getItems().stream().map(Diagnostics::rule).toList());
            assertTrue(c.published.isEmpty(), "a pulling client is not pushed to: " + c.published);
            CpuBudget.ofSeconds(60).until(() -> !c.registrations.isEmpty(), "the watched-files registration");
            assertEquals("workspace/didChangeWatchedFiles", c.registrations.get(0).getRegistrations().get(0).getMethod());
        }
    }
}
