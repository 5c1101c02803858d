package dev.gpulint.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.LintResult;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.read.SourceFile;
import dev.gpulint.report.SarifRenderer;
import dev.gpulint.report.TextRenderer;
import dev.gpulint.tree.GroupFolder;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Folding repeated node groups ({@link GroupFolder}) changes nothing a user sees: generated clusters whose node groups
 * repeat a few shapes (with errors, mixed units, suppressions, duplicate names, jobs naming members) give the
 * same SARIF and text when every list folds from its second item as when nothing folds.
 */
class FoldingTest {

    static Stream<Arguments> cases() {
        return IntStream.range(0, 60).boxed().flatMap(seed -> Stream.of("block", "flow", "mixed", "topo").map(style -> Arguments.of(seed, style)));
    }

    @ParameterizedTest(name = "seed {0}, {1}")
    @MethodSource("cases")
    void foldedAndUnfoldedReportsAreTheSame(int seed, String style) throws Exception {
        List<SourceFile> files = generate(new Random(seed), style);
        String unfolded = report(files);
        String folded;
        try (AutoCloseable c = GroupFolder.foldFrom(1)) {
            folded = report(files);
        }
        assertEquals(unfolded, folded, String.join("\n----\n", files.stream().map(SourceFile::text).toList()));
    }

    /** Inputs reviews found differing, each a cluster file (and a job naming no node group, to list their names). */
    static Stream<String> found() {
        String gpu = "{ model: H100-SXM5-80GB, count: eight }";
        return Stream.of(
                // a block item's first key; an unnamed item after folded ones
                "node_groups:\n  - name: a\n    gpu: " + gpu + "\n  - name: b\n    gpu: " + gpu + "\n  - { gpu: " + gpu + " }\n",
                // block and flow items alike but for their style
                "node_groups:\n  - name: a1\n    count: 1\n    gpu:\n      count: 8\n  - { name: a2, count: 1, gpu: { count: 8 } }\n",
                // a key written twice
                "node_groups:\n  - { name: a, count: 1, count: 1, gpu: " + gpu + " }\n  - { name: b, count: 1, count: 1, gpu: " + gpu + " }\n",
                // an alias keeps its anchor's places
                "node_groups:\n  - name: a0\n    gpu: &d " + gpu + "\n  - name: a1\n    count: 1\n    gpu: *d\n"
                        + "  - name: a2\n    count: 1\n    gpu: " + gpu + "\n",
                // token characters in a name, and in the cluster's
                "node_groups:\n  - { name: \"\uE0001\uE001\", gpu: " + gpu + " }\n  - { name: b, gpu: " + gpu + " }\n",
                "name: \"f\uE000\"\nnode_groups:\n  - { name: a, gpu: " + gpu + " }\n  - { name: b, gpu: " + gpu + " }\n"
                        + "  - { name: c, gpu: " + gpu + " }\n");
    }

    @ParameterizedTest
    @MethodSource("found")
    void foundByReviewsTheSame(String body) throws Exception {
        String text = "kind: cluster\n" + (body.startsWith("name:") ? "" : "name: fleet\n") + body;
        List<SourceFile> files = List.of(SourceFile.of("fleet.yaml", text),
                SourceFile.of("job.yaml", "kind: training_job\nname: j\ncluster: fleet\nnodes: 1\n"));
        String unfolded = report(files);
        try (AutoCloseable c = GroupFolder.foldFrom(1)) {
            assertEquals(unfolded, report(files), text);
        }
    }

    @org.junit.jupiter.api.Test
    void mostGeneratedFilesFold() throws Exception {
        // the comparisons mean something only if folding happens: in most files something folds (items with a
        // key twice, without a name, or all of other shapes do not)
        long folding = 0, all = 0;
        try (AutoCloseable c = GroupFolder.foldFrom(1)) {
            for (Arguments a : cases().toList()) {
                List<SourceFile> files = generate(new Random((Integer) a.get()[0]), (String) a.get()[1]);
                var read = dev.gpulint.read.Readers.read(files.get(0));
                all++;
                if (read.documents().stream().anyMatch(d -> !d.folds().isEmpty())) folding++;
            }
        }
        assertTrue(folding * 10 >= all * 8, folding + " of " + all);
    }

    /** A team's rules that count node groups and read their names: they must see every node group, none folded. */
    private static dev.gpulint.engine.UserRules teamRules;

    @org.junit.jupiter.api.BeforeAll
    static void teamRules(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Files.writeString(dir.resolve("TEAM001.drl"), """
                package team;
                import dev.gpulint.facts.NodeGroupFact;
                global dev.gpulint.engine.FindingSink sink;
                rule "TEAM001 node group names"
                    @id("TEAM001")
                when
                    $g : NodeGroupFact( name not matches "g[0-9]+" )
                then
                    sink.report("TEAM001", $g.getSpan(), "team:" + $g.getName(), "node group '" + $g.getName() + "' is not named gN");
                end
                rule "TEAM001 node group count"
                    @id("TEAM001")
                when
                    $g : NodeGroupFact( $c : clusterName, $s : span )
                    not NodeGroupFact( clusterName == $c, span.startLine < $s.startLine )
                    $n : Number( intValue > 3 ) from accumulate( NodeGroupFact( clusterName == $c ), count(1) )
                then
                    sink.report("TEAM001", $s, "team:count", "cluster '" + $c + "' has " + $n + " node groups");
                end
                """);
        java.nio.file.Files.writeString(dir.resolve("TEAM001.yaml"), "id: TEAM001\nname: team-names\nlevel: warning\ntitle: t\ndescription: d\nremediation: r\n");
        teamRules = dev.gpulint.engine.UserRules.load(dir, p -> p.getFileName().toString());
        assertEquals(List.of(), teamRules.problems());
    }

    @ParameterizedTest(name = "seed {0}, {1}")
    @MethodSource("fewer")
    void aTeamsRulesSeeEveryNodeGroup(int seed, String style) throws Exception {
        List<SourceFile> files = generate(new Random(seed), style);
        String unfolded = report(files, true);
        String folded;
        try (AutoCloseable c = GroupFolder.foldFrom(1)) {
            folded = report(files, true);
        }
        assertTrue(unfolded.contains("TEAM001"), unfolded);
        assertEquals(unfolded, folded, files.get(0).text());
    }

    static Stream<Arguments> fewer() { return cases().limit(40); }

    private static String report(List<SourceFile> files) throws Exception {
        return report(files, false);
    }

    private static String report(List<SourceFile> files, boolean team) throws Exception {
        // a captured nvidia-smi topo -m tied to a node group, a job, or to nothing (then matched by its shape)
        String link = files.stream().filter(f -> f.displayPath().startsWith("link:")).map(SourceFile::text).findFirst().orElse("");
        String[] l = link.split(",", -1);
        dev.gpulint.core.Span at = dev.gpulint.core.Span.at(".gpulint.yaml", 1, 1);
        Linter linter = new Linter().serial().today(java.time.LocalDate.of(2026, 1, 1))
                .evidenceLinks(f -> !f.startsWith("evidence/") || l.length < 3 ? java.util.Optional.empty()
                        : java.util.Optional.of(l[2].isEmpty() ? new dev.gpulint.spec.EvidenceLink("fleet", l[1].isEmpty() ? null : l[1], null, at)
                                : new dev.gpulint.spec.EvidenceLink(null, null, l[2], at)));
        if (team) linter.withUserRules(teamRules, dev.gpulint.core.Span.at("team", 1, 1));
        // as a rule case runs (app.Checks): the unit fixes, given after the run, unfold as the findings do
        LintResult r = dev.gpulint.app.Checks.check(linter, files.stream().filter(f -> !f.displayPath().startsWith("link:")).toList());
        StringWriter sarif = new StringWriter();
        new SarifRenderer(linter.rules(), "0.1.0", Path.of("")).render(r, sarif);
        StringWriter text = new StringWriter();
        new TextRenderer(linter.rules(), false).render(r, text);
        return text + "\n" + sarif;
    }

    // ------------------------------------------------------------------ generated inputs

    private static final String[] MODELS = {"H100-SXM5-80GB", "A100-PCIe-40GB", "A100-SXM4-80GB", "X9000"};
    private static final String[] NVLINK = {"", "switch: true, bandwidth: 900 GB/s", "switch: true, bandwidth: 900 GB/s, direction: bidirectional",
            "switch: true, bandwidth: 7200 Gb/s", "switch: true, bandwidth: 900 GB", "switch: false, bridge: pairs, bandwidth: 600 GB/s",
            "switch: true, bandwidth: 450"};   // UNIT003 with a fix (450 GB/s, unidirectional) where the GPU's NVLink tells
    private static final String[] NIC = {"model: ConnectX-7, count: 8, speed: 400 Gb/s, protocol: infiniband, gpudirect_rdma: true",
            "model: ConnectX-7, count: 8, speed: 50 GB/s, protocol: infiniband", "model: ConnectX-6 Dx, count: 2, speed: 200 Gb/s, protocol: roce",
            "model: ConnectX-7, count: eight, speed: 400 Gb/s", "model: ConnectX-7, count: 8, sped: 400 Gb/s",
            "model: ConnectX-7, count: 8, speed: 400, protocol: infiniband"};

    /** One node group's fields as key, value pairs (a value is a text or a nested list of pairs). */
    private record Shape(List<Object[]> fields) {}

    private static Shape shape(Random r) {
        List<Object[]> f = new ArrayList<>();
        if (r.nextInt(6) > 0) f.add(new Object[] {"count", r.nextInt(4) == 0 ? "2" : "1"});   // else missing: SYN002
        List<Object[]> gpu = new ArrayList<>();
        if (r.nextInt(10) > 0) gpu.add(new Object[] {"model", MODELS[r.nextInt(MODELS.length)]});
        gpu.add(new Object[] {"count", r.nextInt(3) == 0 ? "4" : "8"});
        if (r.nextInt(3) == 0) gpu.add(new Object[] {"memory", r.nextBoolean() ? "80 GB" : "80 GiB"});
        f.add(new Object[] {"gpu", gpu});
        String nv = NVLINK[r.nextInt(NVLINK.length)];
        if (!nv.isEmpty()) f.add(new Object[] {"nvlink", pairs(nv)});
        int nics = r.nextInt(3);
        List<List<Object[]>> list = new ArrayList<>();
        for (int i = 0; i < nics; i++) list.add(pairs(NIC[r.nextInt(NIC.length)]));
        if (!list.isEmpty()) f.add(new Object[] {"nics", list});
        if (r.nextInt(8) == 0) f.add(new Object[] {"colour", "red"});
        if (r.nextInt(12) == 0) f.add(new Object[] {"count", "3"});   // a key twice: SYN002 names the line of the first
        return new Shape(f);
    }

    private static List<Object[]> pairs(String text) {
        List<Object[]> out = new ArrayList<>();
        for (String kv : text.split(", ")) {
            String[] p = kv.split(": ", 2);
            out.add(new Object[] {p[0], p[1]});
        }
        return out;
    }

    static List<SourceFile> generate(Random r, String style) {
        int shapes = 1 + r.nextInt(3);
        List<Shape> kinds = new ArrayList<>();
        for (int i = 0; i < shapes; i++) kinds.add(shape(r));
        // two of one shape at least: something folds; now and then more node groups than a message lists
        int n = shapes + 2 + r.nextInt(r.nextInt(4) == 0 ? 30 : 12);
        List<String> names = new ArrayList<>();
        StringBuilder sb = new StringBuilder();
        boolean roce = r.nextInt(3) == 0;
        String fabric = roce ? "roce" : "infiniband";
        boolean topo = style.equals("topo");
        boolean nameLast = r.nextBoolean();   // for the whole file: items that differ in it do not fold
        if (topo) sb.append("cluster \"fleet\" {\n  fabric { type = ").append(fabric).append("  topology = rail-optimized }\n");
        else sb.append("kind: cluster\nname: fleet\nfabric: { type: ").append(fabric).append(", topology: rail-optimized }\nnode_groups:\n");
        // now and then names long enough for messages to be cut, or holding the characters fold tokens are made of
        String suffix = r.nextInt(15) == 0 ? "x".repeat(1900) : "";
        for (int i = 0; i < n; i++) {
            String name = r.nextInt(10) == 0 && !names.isEmpty() ? names.get(r.nextInt(names.size())) : "g" + i * (1 + r.nextInt(200)) + suffix;
            if (r.nextInt(40) == 0) name = "\uE000" + r.nextInt(3) + "\uE001";
            if (r.nextInt(12) == 0) name = null;   // unnamed: SYN002, and numbered by its place
            if (name != null) names.add(name);
            Shape s = kinds.get(r.nextInt(kinds.size()));
            String pad = r.nextInt(5) == 0 ? "  " : "";
            if (r.nextInt(6) == 0) sb.append(topo ? "  // a comment\n" : "  # a comment\n");
            if (r.nextInt(7) == 0) sb.append(topo ? "  // gpulint: ignore UNIT004\n" : "  # gpulint: ignore UNIT004\n");
            if (topo) topo(sb, name, s, pad, r.nextBoolean());
            else if (style.equals("flow") && i > 0 && r.nextInt(8) == 0) sb.append("  - *first\n");   // an alias: the anchor's places
            else if (style.equals("flow")) flow(sb, (i == 0 ? "&first " : "") + "{", name, s, pad);
            else if (style.equals("mixed") && r.nextBoolean()) flow(sb, "{", name, s, pad);   // block and flow in one list
            else block(sb, name, s, nameLast);
        }
        if (topo) sb.append("}\n");
        List<SourceFile> files = new ArrayList<>();
        String ext = topo ? ".topo" : ".yaml";
        files.add(SourceFile.of("clusters/fleet" + ext, sb.toString()));
        int jobs = r.nextInt(4);
        for (int j = 0; j < jobs; j++) {
            String group = switch (r.nextInt(4)) {
                case 0 -> names.get(r.nextInt(names.size()));
                case 1 -> names.get(names.size() - 1);
                case 2 -> "nowhere" + j;
                default -> null;
            };
            files.add(SourceFile.of("jobs/job" + j + ".yaml", "kind: training_job\nname: job" + j + "\ncluster: fleet\n"
                    + (group != null ? "node_group: " + group + "\n" : "") + "nodes: 2\n"
                    + "model: { parameters: 70B, dtype: bf16, layers: 80, attention_heads: 64, kv_heads: 8 }\n"
                    + "parallelism: { tp: 8, pp: 2 }\nbatch: { micro_batch_size: 1, global_batch_size: 64 }\n"
                    + "network: { assumed_inter_node: " + (r.nextBoolean() ? "400 Gb/s" : "50 GB/s") + " }\n"));
        }
        if (r.nextBoolean()) {
            files.add(SourceFile.of("evidence/topo-m.txt", dev.gpulint.read.evidence.EvidenceTexts.TOPO));
            String group = r.nextBoolean() ? names.get(r.nextInt(names.size())) : "";
            String job = jobs > 0 && r.nextInt(3) == 0 ? "job0" : "";
            if (r.nextInt(3) > 0) files.add(SourceFile.of("link:", "fleet," + group + "," + job));
        }
        return files;
    }

    private static void flow(StringBuilder sb, String open, String name, Shape s, String pad) {
        sb.append("  - ").append(open).append(pad);
        List<String> fields = new ArrayList<>();
        if (name != null) fields.add(" name: " + name);
        for (Object[] f : s.fields()) fields.add(" " + f[0] + ": " + flowValue(f[1], pad));
        sb.append(String.join(",", fields));
        sb.append(" }\n");
    }

    @SuppressWarnings("unchecked")
    private static String flowValue(Object v, String pad) {
        if (v instanceof String t) return t;
        List<?> l = (List<?>) v;
        if (!l.isEmpty() && l.get(0) instanceof List) {
            List<String> items = new ArrayList<>();
            for (Object o : l) items.add(flowValue(o, pad));
            return "[" + String.join(", ", items) + "]";
        }
        List<String> kv = new ArrayList<>();
        for (Object[] p : (List<Object[]>) l) kv.add(p[0] + ": " + flowValue(p[1], pad));
        return "{" + pad + " " + String.join(", ", kv) + " }";
    }

    @SuppressWarnings("unchecked")
    private static void block(StringBuilder sb, String name, Shape s, boolean nameLast) {
        sb.append("  - ");
        String indent = "    ";
        boolean first = true;
        List<Object[]> fields = new ArrayList<>(s.fields());
        if (name == null) { } else if (nameLast) fields.add(new Object[] {"name", name}); else fields.add(0, new Object[] {"name", name});
        for (Object[] f : fields) {
            if (!first) sb.append(indent);
            first = false;
            if (f[1] instanceof String t) { sb.append(f[0]).append(": ").append(t).append('\n'); continue; }
            List<?> l = (List<?>) f[1];
            if (!l.isEmpty() && l.get(0) instanceof List) {
                sb.append(f[0]).append(":\n");
                for (Object o : l) {
                    sb.append(indent).append("  - ").append(flowValue(o, "").substring(1).replaceAll(" }$", "").strip().replace(", ", "\n" + indent + "    ")).append('\n');
                }
                continue;
            }
            sb.append(f[0]).append(":\n");
            for (Object[] p : (List<Object[]>) l) sb.append(indent).append("  ").append(p[0]).append(": ").append(p[1]).append('\n');
        }
    }

    @SuppressWarnings("unchecked")
    private static void topo(StringBuilder sb, String name, Shape s, String pad, boolean multiline) {
        String sep = multiline ? "\n    " : "  ";
        sb.append("  node_group ").append(name == null ? "" : "\"" + name + "\" ").append("{").append(pad).append(sep);
        for (Object[] f : s.fields()) {
            if (f[1] instanceof String t) { sb.append(f[0]).append(" = ").append(dsl(t)).append(sep); continue; }
            List<?> l = (List<?>) f[1];
            if (!l.isEmpty() && l.get(0) instanceof List) {
                for (Object o : l) sb.append("nic { ").append(dslPairs((List<Object[]>) o)).append(" }").append(sep);
                continue;
            }
            sb.append(f[0]).append(" { ").append(dslPairs((List<Object[]>) l)).append(" }").append(sep);
        }
        sb.append("}\n");
    }

    private static String dslPairs(List<Object[]> pairs) {
        List<String> out = new ArrayList<>();
        for (Object[] p : pairs) out.add(p[0] + " = " + dsl((String) p[1]));
        return String.join("  ", out);
    }

    /** Models and other texts with a dash are quoted in the DSL; numbers, units and words are not. */
    private static String dsl(String v) {
        return v.contains("-") || v.matches(".*[A-Z].*[0-9].*|[0-9]+ GiB") ? "\"" + v + "\"" : v;
    }
}
