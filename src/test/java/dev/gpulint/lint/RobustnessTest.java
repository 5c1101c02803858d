package dev.gpulint.lint;

import dev.gpulint.core.LintResult;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.read.SourceFile;
import dev.gpulint.core.Finding;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Bad input gets a finding with a location, never an exception; the other files are still linted. */
class RobustnessTest {

    private static final SourceFile GOOD = SourceFile.of("ok.yaml",
            "kind: training_job\nname: ok\ncluster: missing\n");

    private static List<String> lint(SourceFile bad) {
        LintResult r = new Linter().lint(List.of(bad, GOOD));
        List<String> out = new ArrayList<>();
        for (Finding f : r.findings()) {
            out.add(f.span().file() + ":" + f.span().startLine() + ":" + f.span().startColumn() + " " + f.ruleId() + " " + f.message());
        }
        assertTrue(out.stream().anyMatch(s -> s.startsWith("ok.yaml:3:10 SYN003")), "the good file is still linted: " + out);
        return out;
    }

    private static String first(List<String> findings, String file) {
        return findings.stream().filter(s -> s.startsWith(file)).findFirst().orElseThrow(() -> new AssertionError(findings));
    }

    @Test
    void tenThousandNestedBracketsInTheDsl() {
        String text = "training_job \"j\" { " + "a { ".repeat(10_000) + "}".repeat(10_000) + " }\n";
        assertEquals("deep.topo:1:1042 SYN001 nesting deeper than 256 levels: gpulint stops reading this file here "
                + "(manifests need a handful of levels).", first(lint(SourceFile.of("deep.topo", text)), "deep.topo"));
    }

    @Test
    void tenThousandNestedFlowCollectionsInYaml() {
        String text = "kind: cluster\nname: x\nnode_groups: " + "[".repeat(10_000) + "]".repeat(10_000) + "\n";
        assertTrue(first(lint(SourceFile.of("deep.yaml", text)), "deep.yaml").startsWith("deep.yaml:3:270 SYN001 nesting deeper than 256"));
    }

    @Test
    void thousandsOfNestedBlockMappings() {
        StringBuilder sb = new StringBuilder("kind: cluster\nname: x\nnode_groups:\n");
        String indent = "";
        for (int i = 0; i < 5000; i++) { sb.append(indent).append("- a:\n"); indent += "    "; }
        String f = first(lint(SourceFile.of("block.yaml", sb.toString())), "block.yaml");
        assertTrue(f.startsWith("block.yaml:1:1 SYN001") || f.contains("SYN002"), f);
    }

    @Test
    void billionLaughs() {
        StringBuilder sb = new StringBuilder("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (int i = 1; i < 10; i++) {
            sb.append("a").append(i).append(": &a").append(i).append(" [");
            for (int k = 0; k < 9; k++) sb.append(k > 0 ? ", " : "").append("*a").append(i - 1);
            sb.append("]\n");
        }
        sb.append("kind: cluster\n");
        // the bound is on the nodes aliases expand to, not on how many aliases there are
        assertEquals("lol.yaml:1:1 SYN001 YAML could not be read: its aliases expand to more than " + (sb.length() + 100_000)
                + " nodes: gpulint does not expand alias bombs (billion laughs).", first(lint(SourceFile.of("lol.yaml", sb.toString())), "lol.yaml"));
    }

    @Test
    void emptyFilesAndComments() {
        assertEquals(1, lint(SourceFile.of("empty.yaml", "")).size());
        assertEquals(1, lint(SourceFile.of("empty.topo", "")).size());
        assertEquals(1, lint(SourceFile.of("comment.topo", "// nothing here\n/* nor here */\n")).size());
    }

    @Test
    void crlfAndTabsKeepColumnsRight() {
        String crlf = "kind: training_job\r\nname: j\r\ncluster: nowhere\r\n";
        assertTrue(first(lint(SourceFile.of("crlf.yaml", crlf)), "crlf.yaml").startsWith("crlf.yaml:3:10 SYN003"));
        String dsl = "training_job \"j\" {\r\n\tcluster = \"nowhere\"\r\n}\r\n";
        assertTrue(first(lint(SourceFile.of("tabs.topo", dsl)), "tabs.topo").startsWith("tabs.topo:2:12 SYN003"));
    }

    @Test
    void tabIndentedYamlIsASyntaxError() {
        String f = first(lint(SourceFile.of("tab.yaml", "kind: cluster\nname: c\nfabric:\n\ttype: roce\n")), "tab.yaml");
        assertTrue(f.startsWith("tab.yaml:4:1 SYN001 YAML syntax error"), f);
    }

    @Test
    void yamlTagsAreReadNotRejected() {
        List<String> out = lint(SourceFile.of("tags.yaml", "kind: training_job\nname: !Ref JobName\ncluster: !Sub pod\n"));
        assertTrue(out.stream().anyMatch(s -> s.startsWith("tags.yaml:3:10 SYN003")), out.toString());
        assertTrue(out.stream().noneMatch(s -> s.startsWith("tags.yaml") && s.contains("SYN001")), out.toString());
    }

    @Test
    void placeholdersAndQuotedNumbersAreNotGuessed() {
        List<String> out = lint(SourceFile.of("p.yaml", """
                kind: training_job
                name: p
                nodes: "2"
                gpus_per_node: 8
                parallelism:
                  tp: ${TP}
                  pp: "???"
                """));
        assertTrue(out.stream().noneMatch(s -> s.startsWith("p.yaml")), "placeholders are unknown values, not errors: " + out);
        List<String> typo = lint(SourceFile.of("q.yaml", "kind: training_job\nname: q\nnodes: two\n"));
        assertTrue(typo.contains("q.yaml:3:8 SYN002 'nodes' must be an integer, found 'two'."), typo.toString());
        assertTrue(out.stream().noneMatch(s -> s.contains("PAR0")), "no rule reasons on a placeholder: " + out);
    }

    // Regressions found by FuzzTest

    @Test
    void unknownTopLevelDslBlock() {
        assertEquals("typo.topo:1:1 SYN002 unknown top-level block 'clustr'; a manifest holds cluster and training_job blocks "
                + "(did you mean 'cluster'?).", first(lint(SourceFile.of("typo.topo", "clustr \"c\" { }\n")), "typo.topo"));
    }

    @Test
    void aJobOnAClusterWhoseOnlyGroupHasNoName() {
        List<String> out = lint(SourceFile.of("c.yaml", """
                kind: cluster
                name: c
                node_groups:
                  - { count: 2, gpu: { model: H100-SXM5-80GB, count: 8 } }
                ---
                kind: training_job
                name: j
                cluster: c
                nodes: 2
                parallelism: { tp: 16 }
                """));
        assertTrue(out.stream().anyMatch(s -> s.startsWith("c.yaml:4:7 SYN002") && s.contains("missing required field 'name'")), out.toString());
    }

    @Test
    void loneCarriageReturnsEndLinesInTheDsl() {
        String text = "# a comment\rtraining_job \"j\" {\r  cluster = \"nowhere\"\r}\r";
        assertTrue(first(lint(SourceFile.of("cr.topo", text)), "cr.topo").startsWith("cr.topo:3:13 SYN003"));
    }

    @Test
    void severalDslErrorsPerFileWithoutCascades() {
        String text = "cluster \"a\" {\n  count = = 2\n  gpu { model = }\n  x = 1 y = \n}\n";
        List<String> out = lint(SourceFile.of("many.topo", text));
        List<String> errors = out.stream().filter(s -> s.startsWith("many.topo")).toList();
        assertEquals(List.of(
                "many.topo:2:11 SYN001 syntax error: unexpected '='; expected '[' or a name or a number or a quoted string.",
                "many.topo:3:17 SYN001 syntax error: unexpected '}'; expected '[' or a name or a number or a quoted string.",
                "many.topo:4:5 SYN001 syntax error: unexpected '='; expected '}' or a name or a quoted string.",
                "many.topo:5:1 SYN001 syntax error: unexpected '}'; expected '[' or a name or a number or a quoted string."), errors);
    }

    @Test
    void parallelAndSerialReadingGiveTheSameResult() throws Exception {
        List<SourceFile> files = new ArrayList<>();
        try (var walk = java.nio.file.Files.walk(java.nio.file.Path.of("..", "samples"))) {
            for (var p : walk.filter(java.nio.file.Files::isRegularFile).sorted().toList()) {
                files.add(SourceFile.of(p.toString(), java.nio.file.Files.readString(p)));
            }
        }
        for (int i = 0; i < 200; i++) files.add(SourceFile.of("gen/j" + i + ".yaml",
                "kind: training_job\nname: j" + i + "\ncluster: h100-pod\nnodes: 2\nparallelism: { tp: " + (1 + i % 16) + " }\n"));
        LintResult serial = new Linter().serial().lint(files);
        for (int k = 0; k < 3; k++) {
            LintResult parallel = new Linter().lint(files);
            assertEquals(serial.findings(), parallel.findings());
            assertEquals(serial.files(), parallel.files());
        }
        assertTrue(serial.findings().size() > 100);
    }
}
