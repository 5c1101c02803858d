package dev.gpulint.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import dev.gpulint.core.LintResult;
import dev.gpulint.lint.Linter;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.read.SourceFile;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The same fixes in every report that carries them: SARIF results[].fixes[], the JSON report's fixes, the text hint. */
class FixReportsTest {

    /** An NDR port written in bytes, after a line with a two-char emoji: columns and offsets count code points. */
    static final SourceFile CLUSTER = SourceFile.of("c.yaml", "kind: cluster\nname: c   # \uD83D\uDE00\nnode_groups:\n  - name: g\n    count: 1\n"
            + "    gpu: { model: H100-SXM5-80GB, count: 8 }\n    nics:\n      - { model: ConnectX-7, count: 8, speed: \"400 GB/s\", protocol: infiniband }\n");

    private static LintResult result() {
        return new Linter().lint(List.of(CLUSTER));
    }

    private static String render(Renderer r) throws Exception {
        StringWriter w = new StringWriter();
        r.render(result(), w);
        return w.toString();
    }

    @Test
    void sarifGivesTheReplacementByLineColumnAndOffset() throws Exception {
        String sarif = render(new SarifRenderer(RuleCatalog.builtIn(), "0.1.0", Path.of("")));
        SarifTest.assertValid(sarif);        // the SARIF 2.1.0 schema; .ci/sarif-check runs the multitool on the same shape
        JsonNode fixes = new ObjectMapper().readTree(sarif).at("/runs/0/results/0/fixes");
        assertEquals(1, fixes.size(), fixes.toString());
        JsonNode fix = fixes.get(0);
        assertEquals("write 400 Gb/s instead of 400 GB/s (safe fix).", fix.at("/description/text").asText());
        assertEquals("c.yaml", fix.at("/artifactChanges/0/artifactLocation/uri").asText());
        JsonNode r = fix.at("/artifactChanges/0/replacements/0");
        JsonNode region = r.get("deletedRegion");
        assertEquals(8, region.get("startLine").asInt());
        assertEquals(52, region.get("startColumn").asInt());
        assertEquals(56, region.get("endColumn").asInt());
        int offset = CLUSTER.text().codePointCount(0, CLUSTER.text().indexOf("GB/s"));
        assertEquals(offset, region.get("charOffset").asInt(), "the emoji counts once, as columns count it");
        assertEquals(4, region.get("charLength").asInt());
        assertEquals("Gb/s", r.at("/insertedContent/text").asText());
        assertEquals("safe", fix.at("/properties/safety").asText());
    }

    @Test
    void sarifGivesUnit003sUnitAndDirectionAsOneFixOfTwoReplacements() throws Exception {
        SourceFile unitless = SourceFile.of("c.yaml", "kind: cluster\nname: c\nnode_groups:\n  - name: g\n    count: 1\n"
                + "    gpu: { model: H100-SXM5-80GB, count: 8 }\n    nvlink: { bandwidth: 900 }\n");
        StringWriter w = new StringWriter();
        new SarifRenderer(RuleCatalog.builtIn(), "0.1.0", Path.of("")).render(dev.gpulint.app.Checks.check(new Linter(), List.of(unitless)), w);   // the unit fix: app's post-run step
        SarifTest.assertValid(w.toString());
        JsonNode result = new ObjectMapper().readTree(w.toString()).at("/runs/0/results/0");
        assertEquals("UNIT003", result.get("ruleId").asText());
        JsonNode fix = result.at("/fixes/0");
        assertEquals("write 900 GB/s instead of 900, and add direction: bidirectional (safe fix).", fix.at("/description/text").asText());
        JsonNode replacements = fix.at("/artifactChanges/0/replacements");
        assertEquals(2, replacements.size(), fix.toString());
        assertEquals("900 GB/s", replacements.get(0).at("/insertedContent/text").asText());
        assertEquals(26, replacements.get(0).at("/deletedRegion/startColumn").asInt());
        assertEquals(", direction: bidirectional }", replacements.get(1).at("/insertedContent/text").asText());
        assertEquals(29, replacements.get(1).at("/deletedRegion/startColumn").asInt());
    }

    @Test
    void jsonListsEachFindingsFixesAndTextHintsAtThem() throws Exception {
        JsonNode f = new ObjectMapper().readTree(render(new JsonRenderer(RuleCatalog.builtIn(), "0.1.0"))).at("/findings/0");
        assertEquals("UNIT001", f.get("ruleId").asText());
        JsonNode fix = f.at("/fixes/0");
        assertEquals("safe", fix.get("safety").asText());
        assertEquals("write 400 Gb/s instead of 400 GB/s", fix.get("title").asText());
        JsonNode e = fix.at("/edits/0");
        assertEquals(8, e.get("startLine").asInt());
        assertEquals(52, e.get("startColumn").asInt());
        assertEquals(e.get("startOffset").asInt() + 4, e.get("endOffset").asInt());
        assertEquals("Gb/s", e.get("replacement").asText());
        String text = render(new TextRenderer(RuleCatalog.builtIn(), false));
        assertTrue(text.contains("\n  fix available (safe): write 400 Gb/s instead of 400 GB/s; `gpulint check --fix` applies it\n"), text);
    }
}
