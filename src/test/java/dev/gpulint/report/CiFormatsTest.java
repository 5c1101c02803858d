package dev.gpulint.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.gpulint.core.Finding;
import dev.gpulint.core.Level;
import dev.gpulint.core.LintResult;
import dev.gpulint.core.Span;
import dev.gpulint.lint.Linter;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.read.SourceFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.SchemaFactory;
import javax.xml.validation.Validator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/**
 * The report formats CI systems read besides SARIF: GitLab Code Quality JSON, checked against a JSON
 * schema written from GitLab's documentation (test/resources/schema/gitlab-codequality.schema.json),
 * and JUnit XML, checked against an XSD of the Jenkins junit-10 shape (test/resources/schema/junit.xsd).
 */
class CiFormatsTest {

    private static Schema gitlabSchema;
    private static javax.xml.validation.Schema junitSchema;

    @BeforeAll
    static void loadSchemas() throws Exception {
        try (InputStream in = CiFormatsTest.class.getClassLoader().getResourceAsStream("schema/gitlab-codequality.schema.json")) {
            gitlabSchema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7).getSchema(in, InputFormat.JSON);
        }
        SchemaFactory sf = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
        sf.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        sf.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        junitSchema = sf.newSchema(CiFormatsTest.class.getClassLoader().getResource("schema/junit.xsd"));
    }

    static final SourceFile CLUSTER = SarifTest.CLUSTER;
    static final SourceFile JOB = SarifTest.JOB;

    static String gitlab(LintResult r) throws IOException {
        StringWriter w = new StringWriter();
        new GitlabRenderer().render(r, w);
        return w.toString();
    }

    static String junit(LintResult r) throws IOException {
        StringWriter w = new StringWriter();
        new JunitRenderer(RuleCatalog.builtIn()).render(r, w);
        return w.toString();
    }

    static void assertGitlabValid(String json) {
        var errors = gitlabSchema.validate(json, InputFormat.JSON);
        assertTrue(errors.isEmpty(), errors + "\n" + json);
    }

    static void assertJunitValid(String xml) {
        Validator v = junitSchema.newValidator();
        try {
            v.validate(new StreamSource(new StringReader(xml)));
        } catch (SAXException | IOException e) {
            throw new AssertionError(e.getMessage() + "\n" + xml, e);
        }
    }

    static List<SourceFile> samples() throws IOException {
        List<SourceFile> files = new ArrayList<>();
        try (var walk = Files.walk(Path.of("..", "samples"))) {
            for (Path p : walk.filter(Files::isRegularFile).sorted().toList()) files.add(SourceFile.of(p.toString(), Files.readString(p)));
        }
        assertTrue(files.size() >= 8, files.toString());
        return files;
    }

    // ---- GitLab Code Quality ----

    @Test
    void gitlabReportsValidateAgainstGitLabsDocumentedFormat() throws IOException {
        assertGitlabValid(gitlab(GoldenReportTest.result()));
        assertGitlabValid(gitlab(new Linter().lint(samples())));
        String empty = gitlab(new Linter().lint(List.of()));
        assertEquals("[ ]\n", empty);
        assertGitlabValid(empty);
    }

    @Test
    void theGitlabSchemaRejectsWhatGitLabWouldNotRead() {
        // keeps the checks above honest: each document breaks one documented requirement
        String ok = "{\"description\":\"d\",\"check_name\":\"PAR002\",\"fingerprint\":\"f\",\"severity\":\"major\","
                + "\"location\":{\"path\":\"a.yaml\",\"lines\":{\"begin\":1}}}";
        assertTrue(gitlabSchema.validate("[" + ok + "]", InputFormat.JSON).isEmpty());
        for (String bad : List.of(ok.replace("\"major\"", "\"error\""), ok.replace("\"fingerprint\":\"f\",", ""),
                ok.replace("\"a.yaml\"", "\"./a.yaml\""), ok.replace("\"lines\":{\"begin\":1}", "\"lines\":{}"),
                ok.replace(",\"lines\":{\"begin\":1}", ""), "{\"issues\":[" + ok + "]}")) {
            assertFalse(gitlabSchema.validate(bad.startsWith("{\"issues") ? bad : "[" + bad + "]", InputFormat.JSON).isEmpty(), bad);
        }
    }

    @Test
    void aGitlabIssueNamesTheRuleTheLevelAndTheRelativePath() throws IOException {
        String s = gitlab(new Linter().lint(List.of(CLUSTER, JOB)));
        assertTrue(Pattern.compile("\\{\\s*\"description\" : \"tp=16 spans 2 nodes[^\"]*\",\\s*\"check_name\" : \"PAR002\",\\s*"
                + "\"fingerprint\" : \"[0-9a-f]{32}\",\\s*\"severity\" : \"major\",\\s*\"location\" : \\{\\s*\"path\" : \"jobs/job.yaml\",\\s*"
                + "\"lines\" : \\{\\s*\"begin\" : 5,\\s*\"end\" : 5\\s*}").matcher(s).find(), s);
        assertTrue(s.contains("\"severity\" : \"minor\""), "a warning is minor: " + s);
        // an absolute path inside the working directory becomes relative, as GitLab requires
        SourceFile abs = SourceFile.of(Path.of("jobs/job.yaml").toAbsolutePath().toString(), JOB.text());
        assertTrue(gitlab(new Linter().lint(List.of(CLUSTER, abs))).contains("\"path\" : \"jobs/job.yaml\""));
    }

    @Test
    void gitlabFingerprintsAreUniqueAndSurviveLinesInsertedAbove() throws IOException {
        Finding a = Finding.of("NET002", new Span("c.yaml", 3, 1, 3, 5), "cluster:c", "first").withLevel(Level.WARNING);
        Finding b = Finding.of("NET002", new Span("c.yaml", 9, 1, 9, 5), "cluster:c", "second").withLevel(Level.WARNING);
        String s = gitlab(new LintResult(List.of(a, b), List.of("c.yaml"), false));
        List<String> fp = fingerprints(s);
        assertEquals(2, fp.size(), s);
        assertEquals(fp.get(0) + "-2", fp.get(1), "GitLab shows one issue per fingerprint: a repeat gets a suffix");
        assertGitlabValid(s);

        String before = gitlab(new Linter().lint(List.of(CLUSTER, JOB)));
        String after = gitlab(new Linter().lint(List.of(CLUSTER, SourceFile.of("jobs/job.yaml", "# moved\n\n" + JOB.text()))));
        assertFalse(before.equals(after), "the lines moved");
        assertEquals(fingerprints(before), fingerprints(after));
        assertEquals(fingerprints(before).size(), new HashSet<>(fingerprints(before)).size());
    }

    @Test
    void gitlabLeavesSuppressedFindingsOutAndShowsControlCharactersVisibly() throws IOException {
        Finding sup = Finding.of("NET002", new Span("c.yaml", 3, 1, 3, 5), "cluster:c", "quiet").withLevel(Level.WARNING)
                .withSuppression("lab network");
        Finding odd = Finding.of("NET001", new Span("c.yaml", 4, 1, 4, 5), "cluster:c/x", "key \u001b[31mred\u202e").withLevel(Level.NOTE);
        String s = gitlab(new LintResult(List.of(sup, odd), List.of("c.yaml"), false));
        assertFalse(s.contains("quiet"), s);
        assertTrue(s.contains("\"description\" : \"key \\\\x1b[31mred\\\\u202E.\""), s);
        assertTrue(s.contains("\"severity\" : \"info\""), s);
        assertGitlabValid(s);
    }

    private static List<String> fingerprints(String json) {
        Matcher m = Pattern.compile("\"fingerprint\" : \"([^\"]+)\"").matcher(json);
        List<String> out = new ArrayList<>();
        while (m.find()) out.add(m.group(1));
        return out;
    }

    // ---- JUnit XML ----

    @Test
    void junitReportsValidateAgainstTheJunitSchema() throws Exception {
        assertJunitValid(junit(GoldenReportTest.result()));
        String all = junit(new Linter().lint(samples()));
        assertJunitValid(all);
        assertCountsAddUp(all);
        String empty = junit(new Linter().lint(List.of()));
        assertEquals("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"gpulint\" tests=\"0\" failures=\"0\" errors=\"0\" time=\"0\">\n"
                + "</testsuites>\n", empty);
        assertJunitValid(empty);
    }

    @Test
    void theJunitSchemaRejectsWhatCiSystemsWouldMisread() {
        String ok = "<testsuites name=\"gpulint\" tests=\"1\" failures=\"1\" errors=\"0\" time=\"0\"><testsuite name=\"a\" tests=\"1\""
                + " failures=\"1\" errors=\"0\" skipped=\"0\" time=\"0\" file=\"a\"><testcase name=\"PAR002\" classname=\"a\" time=\"0\">"
                + "<failure message=\"m\" type=\"error\">t</failure></testcase></testsuite></testsuites>";
        assertJunitValid(ok);
        for (String bad : List.of(ok.replace(" tests=\"1\" failures=\"1\" errors=\"0\" skipped", " skipped"),
                ok.replace("type=\"error\"", "type=\"fatal\""), ok.replace("<testsuites", "<suites").replace("</testsuites", "</suites"),
                ok.replace("<failure message=\"m\" type=\"error\">t</failure>", "<failure type=\"error\">t</failure>"),
                ok.replace("time=\"0\">", "time=\"a while\">"))) {
            assertThrows(AssertionError.class, () -> assertJunitValid(bad), bad);
        }
    }

    @Test
    void oneSuitePerFileOneCasePerFindingAndAPassingCaseForACleanFile() throws Exception {
        SourceFile clean = SourceFile.of("clusters/sound.yaml", """
                kind: cluster
                name: sound
                fabric: { type: infiniband }
                node_groups:
                  - { name: g, count: 1, gpu: { model: H100-SXM5-80GB, count: 8 } }
                """);
        String x = junit(new Linter().lint(List.of(CLUSTER, JOB, clean)));
        assertJunitValid(x);
        assertCountsAddUp(x);
        Document d = parse(x);
        NodeList suites = d.getElementsByTagName("testsuite");
        assertEquals(List.of("clusters/pod.yaml", "clusters/sound.yaml", "jobs/job.yaml"), names(suites));
        Element sound = (Element) suites.item(1);
        assertEquals("<testcase classname=\"clusters/sound\u00B7yaml\" name=\"no findings\" time=\"0\"/>", one(sound));
        assertTrue(x.contains("<testcase name=\"PAR002 tp-crosses-node\" classname=\"jobs/job\u00B7yaml\" time=\"0\">\n"
                + "      <failure message=\"5:20: tp=16 spans 2 nodes"), x);
        assertTrue(x.contains("\" type=\"error\">jobs/job.yaml:5:20: error: tp=16 spans 2 nodes"), x);
        assertTrue(x.contains("\n  related: clusters/pod.yaml:5:"), x);
        assertTrue(x.contains("\n  help: keep tp at most the NVLink domain size"), x);
    }

    @Test
    void unreadableFilesAreErrorsAndSuppressedFindingsSkipped() throws Exception {
        Finding syn = Finding.of("SYN001", new Span("b.yaml", 2, 7, 2, 7), "syntax", "YAML syntax error").withLevel(Level.ERROR);
        Finding sup = Finding.of("NET002", new Span("c.yaml", 3, 1, 3, 5), "cluster:c", "quiet").withLevel(Level.WARNING)
                .withSuppression("lab network");
        Finding n1 = Finding.of("NET002", new Span("c.yaml", 5, 1, 5, 5), "cluster:c", "again").withLevel(Level.WARNING);
        String x = junit(new LintResult(List.of(syn, sup, n1), List.of("b.yaml", "c.yaml"), true));
        assertJunitValid(x);
        assertCountsAddUp(x);
        assertTrue(x.contains("<testsuites name=\"gpulint\" tests=\"3\" failures=\"1\" errors=\"1\" time=\"0\">"), x);
        assertTrue(x.contains("<error message=\"2:7: YAML syntax error.\" type=\"error\">b.yaml:2:7: error: YAML syntax error. [SYN001]"), x);
        assertTrue(x.contains("<testcase name=\"NET002 roce-without-ecn\" classname=\"c\u00B7yaml\" time=\"0\">\n"
                + "      <skipped message=\"suppressed: lab network\"/>"), x);
        assertTrue(x.contains("<testcase name=\"NET002 roce-without-ecn #2\" classname=\"c\u00B7yaml\" time=\"0\">\n      <failure"), x);
        assertTrue(x.contains("failures=\"1\" errors=\"0\" skipped=\"1\" time=\"0\" file=\"c.yaml\""), x);
    }

    @Test
    void hostileTextStaysWellFormedAndVisible() throws Exception {
        String file = "a\u001b[31m<b>&\"c'\r\nd]]>\uffff.yaml";
        Finding f = Finding.of("NET001", new Span(file, 1, 1, 1, 2), "x", "key <x> & \"y\" \u0007 ]]> \ud800 \ufffe \uD83D\uDE80")
                .withLevel(Level.WARNING).withRelated(new Span("r\n.yaml", 1, 1, 1, 2), "line\nbreak");
        String x = junit(new LintResult(List.of(f), List.of(file), false));
        assertJunitValid(x);
        Document d = parse(x);
        Element failure = (Element) d.getElementsByTagName("failure").item(0);
        assertEquals("1:1: key <x> & \"y\" \\x07 ]]> \\uD800 \\uFFFE \uD83D\uDE80.", failure.getAttribute("message"));
        assertEquals("a\\x1b[31m<b>&\"c'\\r\\nd]]>\\uFFFF.yaml", ((Element) d.getElementsByTagName("testsuite").item(0)).getAttribute("name"));
        String body = failure.getTextContent();
        assertEquals(3, body.split("\n").length, body);
        assertTrue(body.contains("\n  related: r\\n.yaml:1:1: line\\nbreak\n"), body);
    }

    @Test
    void junitOutputIsDeterministic() throws Exception {
        String a = junit(new Linter().lint(samples()));
        List<SourceFile> reversed = new ArrayList<>(samples());
        java.util.Collections.reverse(reversed);
        assertEquals(a, junit(new Linter().lint(reversed)));
    }

    private static Document parse(String xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
    }

    private static List<String> names(NodeList l) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < l.getLength(); i++) out.add(((Element) l.item(i)).getAttribute("name"));
        return out;
    }

    private static String one(Element suite) throws Exception {
        NodeList cases = suite.getElementsByTagName("testcase");
        assertEquals(1, cases.getLength());
        var t = javax.xml.transform.TransformerFactory.newInstance().newTransformer();
        t.setOutputProperty(javax.xml.transform.OutputKeys.OMIT_XML_DECLARATION, "yes");
        StringWriter w = new StringWriter();
        t.transform(new javax.xml.transform.dom.DOMSource(cases.item(0)), new javax.xml.transform.stream.StreamResult(w));
        return w.toString();
    }

    /** The counts on every suite and on the root are the test cases, failures, errors and skips beneath them. */
    private static void assertCountsAddUp(String xml) throws Exception {
        Document d = parse(xml);
        int tests = 0, failures = 0, errors = 0;
        NodeList suites = d.getElementsByTagName("testsuite");
        for (int i = 0; i < suites.getLength(); i++) {
            Element s = (Element) suites.item(i);
            int t = s.getElementsByTagName("testcase").getLength();
            int f = s.getElementsByTagName("failure").getLength();
            int e = s.getElementsByTagName("error").getLength();
            assertEquals(String.valueOf(t), s.getAttribute("tests"), s.getAttribute("name"));
            assertEquals(String.valueOf(f), s.getAttribute("failures"), s.getAttribute("name"));
            assertEquals(String.valueOf(e), s.getAttribute("errors"), s.getAttribute("name"));
            assertEquals(String.valueOf(s.getElementsByTagName("skipped").getLength()), s.getAttribute("skipped"));
            tests += t;
            failures += f;
            errors += e;
        }
        Element root = d.getDocumentElement();
        assertEquals(String.valueOf(tests), root.getAttribute("tests"));
        assertEquals(String.valueOf(failures), root.getAttribute("failures"));
        assertEquals(String.valueOf(errors), root.getAttribute("errors"));
    }
}
