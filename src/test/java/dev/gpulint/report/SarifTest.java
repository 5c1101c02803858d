package dev.gpulint.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.networknt.schema.Error;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.gpulint.core.LintResult;
import dev.gpulint.lint.Linter;
import dev.gpulint.read.SourceFile;
import dev.gpulint.meta.RuleCatalog;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** SARIF output against the official 2.1.0 schema, and the properties code-review tools rely on. */
class SarifTest {

    private static Schema schema;

    @BeforeAll
    static synchronized void loadSchema() throws Exception {
        if (schema != null) return;
        try (InputStream in = SarifTest.class.getClassLoader().getResourceAsStream("schema/sarif-schema-2.1.0.json")) {
            SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_4);
            schema = registry.getSchema(in, InputFormat.JSON);
        }
    }

    static String sarif(List<SourceFile> files) throws Exception {
        return sarif(files, new SarifRenderer(RuleCatalog.builtIn(), "0.1.0", Path.of("")));
    }

    static String sarif(List<SourceFile> files, SarifRenderer renderer) throws Exception {
        LintResult r = new Linter().lint(files);
        StringWriter w = new StringWriter();
        renderer.render(r, w);
        return w.toString();
    }

    /** Valid against the schema; loads it first when a test of another class calls this without SarifTest having run. */
    static void assertValid(String sarif) {
        try {
            loadSchema();
        } catch (Exception e) {
            throw new AssertionError("the SARIF 2.1.0 schema could not be loaded", e);
        }
        List<Error> errors = schema.validate(sarif, InputFormat.JSON);
        assertTrue(errors.isEmpty(), errors + "\n" + sarif);
    }

    static final SourceFile JOB = SourceFile.of("jobs/job.yaml", """
            kind: training_job
            name: j
            cluster: pod
            nodes: 4
            parallelism: { tp: 16, pp: 2 }
            """);
    static final SourceFile CLUSTER = SourceFile.of("clusters/pod.yaml", """
            kind: cluster
            name: pod
            fabric: { type: roce }
            node_groups:
              - { name: dgx, count: 4, gpu: { model: H100-SXM5-80GB, count: 8 } }
            """);

    /** Issue #37: the multitool's SARIF2005 warned on every report; the driver names the project's home page. */
    @Test
    void theDriverNamesTheProjectsHomePage() throws Exception {
        String s = sarif(List.of(CLUSTER, JOB));
        assertTrue(s.contains("\"semanticVersion\" : \"0.1.0\",\n        \"informationUri\" : \"https://github.com/gpulint/gpulint\","), s);
    }

    @Test
    void findingsValidateAgainstTheSchema() throws Exception {
        String s = sarif(List.of(CLUSTER, JOB));
        assertValid(s);
        assertTrue(s.contains("\"$schema\" : \"https://json.schemastore.org/sarif-2.1.0.json\""));
        assertTrue(Pattern.compile("\"uri\" : \"jobs/job.yaml\",\\s*\"uriBaseId\" : \"%SRCROOT%\"").matcher(s).find(), s);
        assertTrue(s.contains("\"relatedLocations\""), s);
        assertTrue(s.contains("\"partialFingerprints\""), s);
        assertTrue(s.contains("\"executionSuccessful\" : true"), s);
        // no address that does not exist: the help is in the file; the tool's home page is the repository the README's
        // pre-commit snippet names (theDriverNamesTheProjectsHomePage)
        assertFalse(s.contains("helpUri"), s);
        assertFalse(s.contains("organization"), s);
        assertTrue(Pattern.compile("\"automationDetails\" : \\{\\s*\"id\" : \"gpulint/\"\\s*}").matcher(s).find(), s);
    }

    @Test
    void aHelpUriBaseGivesEveryRuleItsPage() throws Exception {
        SarifRenderer r = new SarifRenderer(RuleCatalog.builtIn(), "0.1.0", Path.of(""))
                .helpUriBase("https://git.example.com/ml/gpulint/-/blob/v0.1.0/docs/rules/");
        String s = sarif(List.of(CLUSTER, JOB), r);
        assertValid(s);
        assertTrue(s.contains("\"helpUri\" : \"https://git.example.com/ml/gpulint/-/blob/v0.1.0/docs/rules/PAR002.md\""), s);
        assertEquals(RuleCatalog.builtIn().all().size(), count(s, "\"helpUri\""));
        String t = sarif(List.of(), new SarifRenderer(RuleCatalog.builtIn(), "0.1.0", Path.of(""))
                .helpUriBase("https://docs.example.com/gpulint/rules/{id}.html"));
        assertValid(t);
        assertTrue(t.contains("\"helpUri\" : \"https://docs.example.com/gpulint/rules/PAR002.html\""), t);
    }

    @Test
    void aCategoryNamesTheRun() throws Exception {
        String s = sarif(List.of(CLUSTER, JOB), new SarifRenderer(RuleCatalog.builtIn(), "0.1.0", Path.of("")).category("/training-jobs/"));
        assertValid(s);
        assertTrue(s.contains("\"id\" : \"gpulint/training-jobs/\""), s);
    }

    @Test
    void badCategoriesAndHelpUriBasesAreRefusedWithAReason() {
        assertEquals(null, SarifRenderer.categoryProblem("clusters/eu"));
        assertEquals(null, SarifRenderer.helpUriBaseProblem("https://example.com/rules/"));
        assertEquals("must name a category, e.g. training-jobs", SarifRenderer.categoryProblem(" // "));
        assertEquals("must not contain control characters", SarifRenderer.categoryProblem("a\nb"));
        assertEquals("must be an absolute URI such as https://example.com/gpulint/docs/rules/ (got 'docs/rules/')",
                SarifRenderer.helpUriBaseProblem("docs/rules/"));
        assertTrue(SarifRenderer.helpUriBaseProblem("https://exa mple.com/").startsWith("is not a URI: "));
        SarifRenderer r = new SarifRenderer(RuleCatalog.builtIn(), "0.1.0", Path.of(""));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> r.helpUriBase("rules/"));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> r.category(""));
    }

    @Test
    void theValidatorRejectsBrokenSarif() {
        // keeps the schema checks above honest: a run without a tool, a level SARIF does not know
        assertFalse(schema.validate("{\"version\":\"2.1.0\",\"runs\":[{\"results\":[]}]}", InputFormat.JSON).isEmpty());
        assertFalse(schema.validate("{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"x\"}},"
                + "\"results\":[{\"level\":\"fatal\",\"message\":{\"text\":\"m\"}}]}]}", InputFormat.JSON).isEmpty());
    }

    @Test
    void everySampleValidates() throws Exception {
        List<SourceFile> files = new ArrayList<>();
        try (var walk = java.nio.file.Files.walk(Path.of("..", "samples"))) {
            for (Path p : walk.filter(java.nio.file.Files::isRegularFile).sorted().toList()) {
                files.add(SourceFile.of(p.toString(), java.nio.file.Files.readString(p)));
            }
        }
        assertTrue(files.size() >= 8, files.toString());
        for (SourceFile f : files) assertValid(sarif(List.of(f)));
        assertValid(sarif(files));
    }

    @Test
    void anEmptyRunStillHasResults() throws Exception {
        String s = sarif(List.of());
        assertValid(s);
        assertTrue(s.contains("\"results\" : [ ]"), s);
    }

    @Test
    void aParseErrorIsAResultAndANotification() throws Exception {
        String s = sarif(List.of(SourceFile.of("bad.topo", "cluster {\n"), JOB));
        assertValid(s);
        assertTrue(s.contains("\"executionSuccessful\" : false"), s);
        assertTrue(s.contains("\"toolExecutionNotifications\""), s);
        assertTrue(s.contains("\"ruleId\" : \"SYN001\""), s);
    }

    @Test
    void fingerprintsSurviveLinesInsertedAbove() throws Exception {
        String before = sarif(List.of(CLUSTER, JOB));
        SourceFile shifted = SourceFile.of("jobs/job.yaml", "# a comment\n# and another\n\n" + JOB.text());
        String after = sarif(List.of(CLUSTER, shifted));
        assertFalse(before.equals(after), "the lines moved");
        assertEquals(fingerprints(before), fingerprints(after));
        assertEquals(3, fingerprints(before).size(), "NET001, NET002, PAR002: one per finding");
    }

    @Test
    void suppressionProblemFingerprintsSurviveLinesInsertedAbove() throws Exception {
        String body = """
                fabric:
                  type: roce   # gpulint: ignore NET01 -- lab network
                node_groups:
                  # gpulint: ignore NET002
                  - { name: g, count: 1, gpu: { model: H100-SXM5-80GB, count: 8 } }
                # gpulint: ignore HW001 -- nothing here to silence
                # gpulint: ignore HW001 -- nothing here to silence
                """;
        String before = sarif(List.of(SourceFile.of("c.yaml", "kind: cluster\nname: c\n" + body)));
        String after = sarif(List.of(SourceFile.of("c.yaml", "kind: cluster\nname: c\n# moved down\n\n" + body)));
        assertFalse(before.equals(after), "the lines moved");
        assertEquals(4, count(before, "\"ruleId\" : \"SYN005\""), before);
        List<String> fp = fingerprints(before);
        assertEquals(fp, fingerprints(after));
        assertEquals(fp.size(), new java.util.HashSet<>(fp).size(), "two identical suppressions are still two: " + fp);
    }

    private static List<String> fingerprints(String sarif) {
        Matcher m = Pattern.compile("\"gpulint/v1\" : \"([0-9a-f]+)\"").matcher(sarif);
        List<String> out = new ArrayList<>();
        while (m.find()) out.add(m.group(1));
        return out;
    }

    @Test
    void everyRuleHasTheMetadataGitHubRequires() throws Exception {
        String s = sarif(List.of());
        for (var r : RuleCatalog.builtIn().all()) {
            assertTrue(s.contains("\"id\" : \"" + r.id() + "\""), r.id());
        }
        for (String key : List.of("shortDescription", "fullDescription", "help", "markdown", "defaultConfiguration")) {
            assertEquals(RuleCatalog.builtIn().all().size(), count(s, "\"" + key + "\""), key);
        }
    }

    private static int count(String s, String needle) {
        int n = 0;
        for (int i = s.indexOf(needle); i >= 0; i = s.indexOf(needle, i + 1)) n++;
        return n;
    }
}
