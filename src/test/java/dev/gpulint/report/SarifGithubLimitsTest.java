package dev.gpulint.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import dev.gpulint.core.Finding;
import dev.gpulint.core.LintResult;
import dev.gpulint.core.Span;
import dev.gpulint.meta.RuleCatalog;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What GitHub code scanning needs of a SARIF run: related locations linked from the message, and at most 25,000 results. */
class SarifGithubLimitsTest {

    @org.junit.jupiter.api.BeforeAll
    static void loadSchema() throws Exception {
        SarifTest.loadSchema();
    }

    private static JsonNode render(SarifRenderer r, LintResult result) throws Exception {
        StringWriter w = new StringWriter();
        r.render(result, w);
        SarifTest.assertValid(w.toString());
        return new ObjectMapper().readTree(w.toString());
    }

    @Test
    void relatedLocationsAreLinkedFromTheMessageByTheirIds() throws Exception {
        String s = SarifTest.sarif(List.of(SarifTest.CLUSTER, SarifTest.JOB));
        SarifTest.assertValid(s);
        JsonNode results = new ObjectMapper().readTree(s).at("/runs/0/results");
        int linked = 0;
        for (JsonNode r : results) {
            JsonNode rel = r.get("relatedLocations");
            if (rel == null) continue;
            String text = r.at("/message/text").asText();
            for (JsonNode l : rel) {
                String link = "[" + l.at("/message/text").asText().replace("[", "\\[").replace("]", "\\]") + "](" + l.get("id").asInt() + ")";
                assertTrue(text.contains(link), link + " in " + text);
                linked++;
            }
        }
        assertTrue(linked > 0, s);
    }

    @Test
    void bracketsOfTheTextAreEscapedSoOnlyTheLinksAreLinks() {
        Finding f = Finding.of("PAR002", Span.at("j.yaml", 3, 1), "j", "ranks [0-15](a) cross nodes.")
                .withRelated(Span.at("c.yaml", 2, 1), "node group [dgx]");
        assertEquals("ranks \\[0-15\\](a) cross nodes. Related: [node group \\[dgx\\]](1).", SarifRenderer.linked(f));
    }

    @Test
    void aRunHoldsAtMost25000ResultsAndSaysHowManyItLeftOut() throws Exception {
        List<Finding> many = new ArrayList<>();
        for (int i = 1; i <= 25_003; i++) many.add(Finding.of("PAR002", Span.at("j.yaml", i, 1), "j" + i, "finding " + i)
                .withLevel(dev.gpulint.core.Level.ERROR));
        LintResult result = new LintResult(many, List.of("j.yaml"), false);
        JsonNode run = render(new SarifRenderer(RuleCatalog.builtIn(), "0.1.0"), result).at("/runs/0");
        assertEquals(25_000, run.get("results").size());
        assertEquals(25_000, run.at("/results/24999/locations/0/physicalLocation/region/startLine").asInt());
        JsonNode notes = run.at("/invocations/0/toolExecutionNotifications");
        assertEquals(1, notes.size(), notes.toString());
        assertEquals("gpulint/results-capped", notes.at("/0/descriptor/id").asText());
        assertTrue(notes.at("/0/message/text").asText().startsWith("3 more results were left out of this run: it holds the first 25000"),
                notes.toString());
        JsonNode small = render(new SarifRenderer(RuleCatalog.builtIn(), "0.1.0").maxResults(2), result).at("/runs/0");
        assertEquals(2, small.get("results").size());
    }
}
