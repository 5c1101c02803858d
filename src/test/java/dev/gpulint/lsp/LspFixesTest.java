package dev.gpulint.lsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.lsp4j.ClientCapabilities;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.CodeActionContext;
import org.eclipse.lsp4j.CodeActionParams;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.Range;
import org.eclipse.lsp4j.TextDocumentIdentifier;
import org.eclipse.lsp4j.TextEdit;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The findings' fixes as code actions: each fix a quick fix (an unsafe one labelled, never preferred), whose edit
 * applied to the buffer makes the finding go away on the re-lint; {@code source.fixAll.gpulint} applies the safe
 * ones only. A team rule (rule_paths) offers a safe and an unsafe fix; UNIT001's own fix is checked on its own.
 */
class LspFixesTest {

    static final String TEAM_DRL = "package team;\nimport dev.gpulint.facts.JobFact;\nglobal dev.gpulint.engine.FindingSink sink;\n"
            + "rule \"TEAM001 one node\"\n    @id(\"TEAM001\")\nwhen\n    $j : JobFact( nodes > 1 )\nthen\n"
            + "    sink.at($j.getNodesSpan(), $j.identity()).arg(\"n\", $j.getNodes())\n"
            + "        .fix(\"safe\", \"one\", $j.getNodesSpan(), \"1\").fix(\"unsafe\", \"none\", $j.getNodesSpan(), \"0\").report(\"many\");\nend\n";
    static final String TEAM_YAML = "id: TEAM001\nname: single-node-queue\nlevel: warning\ntitle: Jobs on the shared queue use one node\n"
            + "description: The shared queue schedules single-node jobs only.\nremediation: ask for one node\n"
            + "messages:\n  many: \"the job asks for {n} nodes; the shared queue takes one\"\n  one: ask for one node\n  none: ask for no node\n";
    static final String JOB = "kind: training_job\nname: small\ncluster: pod\nnodes: 2\nparallelism: { tp: 8, pp: 2 }\n";

    @TempDir Path dir;

    private static List<CodeAction> actions(ScriptedClient c, Path file, Diagnostic d, List<String> only) throws Exception {
        CodeActionContext ctx = new CodeActionContext(d == null ? List.of() : List.of(d));
        ctx.setOnly(only);
        Range r = d == null ? new Range(new Position(0, 0), new Position(0, 0)) : d.getRange();
        return ScriptedClient.await(c.server.getTextDocumentService().codeAction(new CodeActionParams(new TextDocumentIdentifier(ScriptedClient.uri(file)), r, ctx))
                ).stream().map(Either::getRight).toList();
    }

    private static Range range(int l1, int c1, int l2, int c2) {
        return new Range(new Position(l1, c1), new Position(l2, c2));
    }

    private static List<TextEdit> edits(CodeAction a, Path file) {
        return a.getEdit().getChanges().get(ScriptedClient.uri(file));
    }

    @Test
    void quickFixesAndFixAll() throws Exception {
        Files.createDirectories(dir.resolve(".git"));
        Files.createDirectories(dir.resolve("team"));
        Files.writeString(dir.resolve("team/TEAM001.drl"), TEAM_DRL);
        Files.writeString(dir.resolve("team/TEAM001.yaml"), TEAM_YAML);
        Files.writeString(dir.resolve(".gpulint.yaml"), "rule_paths: [team/]\n");
        Files.writeString(dir.resolve("cluster.yaml"), LspServerTest.CLUSTER.replace("400 GB/s", "400 Gb/s"));
        Path job = dir.resolve("job.yaml");
        Files.writeString(job, JOB);
        try (ScriptedClient c = new ScriptedClient(dir, new ClientCapabilities(), 10)) {
            c.open(job, JOB);
            PublishDiagnosticsParams p = c.until(job, x -> x.getDiagnostics().stream().anyMatch(d -> "TEAM001".equals(Diagnostics.rule(d))));
            Diagnostic team = p.getDiagnostics().stream().filter(d -> "TEAM001".equals(Diagnostics.rule(d))).findFirst().orElseThrow();
            assertEquals("the job asks for 2 nodes; the shared queue takes one.", team.getMessage());

            List<CodeAction> quick = actions(c, job, team, List.of("quickfix"));
            assertEquals(List.of("Ask for one node", "Ask for no node" + FixActions.UNSAFE, "Suppress TEAM001 here (then replace the TODO with your reason)"),
                    quick.stream().map(CodeAction::getTitle).toList());
            assertTrue(quick.get(0).getIsPreferred(), "the safe fix is preferred");
            assertFalse(quick.get(1).getIsPreferred(), "an unsafe fix never is");
            assertEquals(List.of(new TextEdit(new Range(new Position(3, 7), new Position(3, 8)), "1")), edits(quick.get(0), job));
            assertTrue(actions(c, job, team, List.of("quickfix")).stream().noneMatch(a -> a.getKind().startsWith("source")));

            // source.fixAll.gpulint: the safe fix only (nodes: 1, not 0), as one edit of the document
            List<CodeAction> all = actions(c, job, null, List.of("source.fixAll"));
            assertEquals(1, all.size(), all.toString());
            assertEquals("source.fixAll.gpulint", all.get(0).getKind());
            String fixed = Edits.apply(JOB, edits(all.get(0), job));
            assertEquals(JOB.replace("nodes: 2", "nodes: 1"), fixed);

            // the quick fix applied: the finding is gone on the re-lint
            c.change(job, Edits.apply(JOB, edits(quick.get(0), job)));
            PublishDiagnosticsParams after = c.next(job);
            assertTrue(after.getDiagnostics().stream().noneMatch(d -> "TEAM001".equals(Diagnostics.rule(d))), after.toString());
        }
    }

    /**
     * Issue #37: the cluster's NIC speed is 8x off (400 GB/s) and the job's 400 Gb/s is right: the editor shows the job
     * no finding built on the wrong figure, and offers no fix that would write it into the job.
     */
    @Test
    void aJobIsNotJudgedAgainstANicSpeedTheRunCallsWrong() throws Exception {
        Files.createDirectories(dir.resolve(".git"));
        String cluster = "kind: cluster\nname: c\nnode_groups:\n  - name: g\n    count: 2\n    gpu: { model: H100-SXM5-80GB, count: 8 }\n"
                + "    nics:\n      - { model: ConnectX-7, count: 8, speed: 400 GB/s, protocol: infiniband }\n";
        String jobText = "kind: training_job\nname: j\ncluster: c\nnodes: 2\nnetwork:\n  assumed_inter_node: 400 Gb/s\n";
        Files.writeString(dir.resolve("cluster.yaml"), cluster);
        Path job = dir.resolve("job.yaml");
        Files.writeString(job, jobText);
        try (ScriptedClient c = new ScriptedClient(dir, new ClientCapabilities(), 10)) {
            c.open(job, jobText);
            assertEquals(List.of(), c.next(job).getDiagnostics(), "no UNIT001 '8x below' built on the cluster's wrong figure");
            assertEquals(List.of(), actions(c, job, null, List.of("source.fixAll")), "nothing to fix in the right job");
            c.open(dir.resolve("cluster.yaml"), cluster);
            assertEquals(List.of("UNIT001"), c.next(dir.resolve("cluster.yaml")).getDiagnostics().stream().map(Diagnostics::rule).toList());
        }
    }

    /**
     * Vim's ALE asks for the code actions of the word under the cursor and names no diagnostic (issue #37): the
     * findings that touch the range stand in, so ":ALECodeAction" on '400 GB/s' offers its fix, not only fix-all.
     */
    @Test
    void aRangeWithoutDiagnosticsGetsTheQuickFixesOfTheFindingsItTouches() throws Exception {
        Files.createDirectories(dir.resolve(".git"));
        Path cluster = dir.resolve("cluster.yaml");
        Files.writeString(cluster, LspServerTest.CLUSTER);
        try (ScriptedClient c = new ScriptedClient(dir, new ClientCapabilities(), 10)) {
            c.open(cluster, LspServerTest.CLUSTER);
            c.until(cluster, x -> !x.getDiagnostics().isEmpty());
            CodeActionContext ctx = new CodeActionContext(List.of());
            ctx.setOnly(List.of("quickfix"));
            List<CodeAction> word = ScriptedClient.await(c.server.getTextDocumentService().codeAction(new CodeActionParams(
                    new TextDocumentIdentifier(ScriptedClient.uri(cluster)), range(4, 117, 4, 119), ctx))).stream().map(Either::getRight).toList();
            assertEquals(List.of("Write 400 Gb/s instead of 400 GB/s", "Suppress UNIT001 here (then replace the TODO with your reason)"),
                    word.stream().map(CodeAction::getTitle).toList());
            List<CodeAction> elsewhere = ScriptedClient.await(c.server.getTextDocumentService().codeAction(new CodeActionParams(
                    new TextDocumentIdentifier(ScriptedClient.uri(cluster)), range(1, 0, 1, 4), ctx))).stream().map(Either::getRight).toList();
            assertEquals(List.of(), elsewhere, "no finding on line 2");
            // ALE with the cursor off a word echoes the diagnostic without its source: gpulint's own of that range and code
            Diagnostic echoed = new Diagnostic(range(4, 117, 4, 125), "400 GB/s ...");
            echoed.setCode("UNIT001");
            CodeActionContext withEcho = new CodeActionContext(List.of(echoed));
            withEcho.setOnly(List.of("quickfix"));
            List<CodeAction> echo = ScriptedClient.await(c.server.getTextDocumentService().codeAction(new CodeActionParams(
                    new TextDocumentIdentifier(ScriptedClient.uri(cluster)), range(4, 117, 4, 117), withEcho))).stream()
                    .map(Either::getRight).toList();
            assertEquals(word.stream().map(CodeAction::getTitle).toList(), echo.stream().map(CodeAction::getTitle).toList());
        }
    }

    /** UNIT001's fix (#28) as a quick fix: applied to the buffer, the finding is gone. */
    @Test
    void unit001QuickFixRemovesTheFinding() throws Exception {
        Files.createDirectories(dir.resolve(".git"));
        Path cluster = dir.resolve("cluster.yaml");
        Files.writeString(cluster, LspServerTest.CLUSTER);
        try (ScriptedClient c = new ScriptedClient(dir, new ClientCapabilities(), 10)) {
            c.open(cluster, LspServerTest.CLUSTER);
            Diagnostic d = c.until(cluster, x -> !x.getDiagnostics().isEmpty()).getDiagnostics().get(0);
            assertEquals("UNIT001", Diagnostics.rule(d));
            List<CodeAction> fixes = actions(c, cluster, d, List.of("quickfix")).stream()
                    .filter(a -> !a.getTitle().startsWith("Suppress")).toList();
            assertEquals(1, fixes.size(), "UNIT001's fix (bits for bytes, only the B changes): " + fixes);
            assertTrue(fixes.get(0).getIsPreferred(), "a safe fix is preferred");
            assertEquals(List.of(new TextEdit(new Range(new Position(4, 121), new Position(4, 125)), "Gb/s")), edits(fixes.get(0), cluster),
                    "the unit of '400 GB/s', in UTF-16 units after the emoji");
            c.change(cluster, Edits.apply(LspServerTest.CLUSTER, edits(fixes.get(0), cluster)));
            PublishDiagnosticsParams after = c.next(cluster);
            assertTrue(after.getDiagnostics().stream().noneMatch(x -> "UNIT001".equals(Diagnostics.rule(x))), after.toString());
        }
    }

    /** UNIT003's unit fix, given after the run by app.Checks (not a rule's DRL): the editor gets it too, and it clears the finding. */
    @Test
    void unit003sJavaMadeFixIsAQuickFix() throws Exception {
        Files.createDirectories(dir.resolve(".git"));
        Path cluster = dir.resolve("cluster.yaml");
        String text = "kind: cluster\nname: c\nnode_groups:\n  - name: g\n    count: 1\n    gpu: { model: H100-SXM5-80GB, count: 8 }\n"
                + "    nvlink: { bandwidth: 900 }\n";
        Files.writeString(cluster, text);
        try (ScriptedClient c = new ScriptedClient(dir, new ClientCapabilities(), 10)) {
            c.open(cluster, text);
            Diagnostic d = c.until(cluster, x -> !x.getDiagnostics().isEmpty()).getDiagnostics().get(0);
            assertEquals("UNIT003", Diagnostics.rule(d));
            List<CodeAction> fixes = actions(c, cluster, d, List.of("quickfix")).stream()
                    .filter(a -> !a.getTitle().startsWith("Suppress")).toList();
            assertEquals(List.of("Write 900 GB/s instead of 900, and add direction: bidirectional"), fixes.stream().map(CodeAction::getTitle).toList());
            assertEquals(List.of(new TextEdit(range(6, 25, 6, 28), "900 GB/s"), new TextEdit(range(6, 28, 6, 30), ", direction: bidirectional }")),
                    edits(fixes.get(0), cluster));
            c.change(cluster, Edits.apply(text, edits(fixes.get(0), cluster)));
            PublishDiagnosticsParams after = c.next(cluster);
            assertTrue(after.getDiagnostics().stream().noneMatch(x -> "UNIT003".equals(Diagnostics.rule(x))), after.toString());
        }
    }
}
