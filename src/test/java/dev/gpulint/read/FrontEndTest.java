package dev.gpulint.read;

import dev.gpulint.spec.Model;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.bind.Binder;
import dev.gpulint.catalog.Catalog;
import dev.gpulint.derive.Deriver;
import dev.gpulint.core.LintResult;
import dev.gpulint.lint.Linter;
import dev.gpulint.read.dsl.DslReader;
import dev.gpulint.read.yaml.YamlReader;
import dev.gpulint.core.Finding;
import dev.gpulint.tree.Document;
import dev.gpulint.tree.TreeDump;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Both front ends build the same tree with exact spans, and bind to equal facts. */
class FrontEndTest {

    private static final Path RES = Path.of("test", "resources");

    private static SourceFile file(String rel) throws IOException {
        return SourceFile.of(rel, Files.readString(RES.resolve(rel), StandardCharsets.UTF_8));
    }

    private static String dump(ReadResult r) {
        StringBuilder sb = new StringBuilder();
        for (Document d : r.documents()) sb.append("document ").append(d.index()).append('\n').append(TreeDump.dump(d.root(), true));
        return sb.toString();
    }

    private static void golden(String input, ReadResult r) throws IOException {
        Path g = RES.resolve(input + ".dump");
        String actual = dump(r);
        if (Boolean.getBoolean("gpulint.updateGolden")) Files.writeString(g, actual, StandardCharsets.UTF_8);
        assertEquals(Files.readString(g, StandardCharsets.UTF_8), actual, "golden tree dump " + g);
    }

    @Test
    void yamlTreeWithSpans() throws IOException {
        ReadResult r = new YamlReader().read(file("golden/small.yaml"));
        assertTrue(r.problems().isEmpty(), r.problems().toString());
        golden("golden/small.yaml", r);
    }

    @Test
    void dslTreeWithSpans() throws IOException {
        ReadResult r = new DslReader().read(file("golden/small.topo"));
        assertTrue(r.problems().isEmpty(), r.problems().toString());
        golden("golden/small.topo", r);
    }

    @Test
    void sameManifestBindsToEqualFacts() throws IOException {
        List<Document> yaml = new YamlReader().read(file("equivalence/pod.yaml")).documents();
        List<Document> dsl = new DslReader().read(file("equivalence/pod.topo")).documents();
        Model a = new Binder().bind(yaml);
        Model b = new Binder().bind(dsl);
        assertEquals(a.clusters().toString(), b.clusters().toString());
        assertEquals(a.jobs().toString(), b.jobs().toString());
        assertEquals(2, a.jobs().size());
        List<Object> fa = new Deriver(Catalog.builtIn()).derive(a).facts();
        List<Object> fb = new Deriver(Catalog.builtIn()).derive(b).facts();
        assertEquals(fa.toString(), fb.toString());
        assertTrue(fa.size() >= 8, "clusters, groups, bandwidths, jobs, placement: " + fa);
    }

    @Test
    void sameMistakesGiveSameFindings() throws IOException {
        LintResult y = new Linter().lint(List.of(file("equivalence/pod.yaml")));
        LintResult d = new Linter().lint(List.of(file("equivalence/pod.topo")));
        assertEquals(ids(y), ids(d));
        assertTrue(ids(y).containsAll(List.of("HW001", "NET001", "NET002", "PAR001", "PAR002", "SYN003", "UNIT001")),
                ids(y).toString());
        for (int i = 0; i < y.findings().size(); i++) {
            Finding fy = y.findings().get(i);
            Finding fd = d.findings().get(i);
            assertEquals(fy.ruleId() + ": " + fy.message(), fd.ruleId() + ": " + fd.message());
            assertEquals(fy.related().size(), fd.related().size());
        }
    }

    private static List<String> ids(LintResult r) {
        List<String> out = new ArrayList<>();
        for (Finding f : r.findings()) out.add(f.ruleId());
        return out;
    }

    @Test
    void quantitySpansCoverNumberAndUnit() throws IOException {
        ReadResult y = new YamlReader().read(SourceFile.of("a.yaml", "kind: cluster\nspeed: 400 Gb/s\n"));
        ReadResult d = new DslReader().read(SourceFile.of("a.topo", "cluster {\n  speed = 400 Gb/s\n}\n"));
        assertEquals("scalar \"400 Gb/s\" 2:8-2:16", line(y, "400"));
        assertEquals("scalar \"400 Gb/s\" 2:11-2:19", line(d, "400"));
    }

    private static String line(ReadResult r, String needle) {
        for (String l : dump(r).split("\n")) if (l.contains(needle)) return l.strip();
        throw new AssertionError("no line with " + needle + " in " + dump(r));
    }

    @Test
    void yamlFilesThatAreNoManifestsAreSkipped() {
        ReadResult r = new YamlReader().read(SourceFile.of("chart/values.yaml", "replicaCount: 2\n---\nkind: Deployment\n"));
        assertFalse(r.manifest());
        assertTrue(r.documents().isEmpty());
        assertTrue(r.problems().isEmpty());
    }

    @Test
    void dslRepeatedAndLabelledBlocksBecomeLists() {
        ReadResult r = new DslReader().read(SourceFile.of("a.topo",
                "cluster \"c\" { node_group \"a\" { nic { count = 1 } nic { count = 2 } } }"));
        String dump = TreeDump.dump(r.documents().get(0).root(), false);
        assertEquals("""
                map
                  key "kind"
                    scalar "cluster"
                  key "name"
                    str "c"
                  key "node_groups"
                    list
                      map
                        key "name"
                          str "a"
                        key "nics"
                          list
                            map
                              key "count"
                                scalar "1"
                            map
                              key "count"
                                scalar "2"
                """, dump);
    }
}
