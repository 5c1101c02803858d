package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.FailOn;
import dev.gpulint.app.Project;
import dev.gpulint.testing.PlanCli;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line, the Maven plugin and test-rules share one request (app.Project, app.CheckRequest):
 * one version, one parse of the fail level, one check of the report options, and test-rules set up
 * from the project's .gpulint.yaml as a lint run is.
 */
class OneRequestCliTest {

    @Test
    void theVersionIsTheBuildsAndTheReportsSayIt() {
        String v = dev.gpulint.meta.Version.current();
        assertTrue(v.matches("\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?"), v);
        assertEquals("gpulint " + v + "\n", PlanCli.run("--version").out());
        String sarif = PlanCli.run("-f", "sarif", "../samples/broken/tp16-job.yaml").out();
        assertTrue(sarif.contains("\"version\" : \"" + v + "\""), sarif);
    }

    @Test
    void theFailLevelIsParsedOnceForEveryFrontEnd() {
        assertEquals(FailOn.warning, FailOn.parse(" Warning "));
        assertEquals(null, FailOn.never.threshold());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FailOn.parse("eror"));
        assertEquals("must be error, warning, note or never, not 'eror' (did you mean error?)", e.getMessage());
        // the Maven plugin names its parameters as the POM does
        Project p = new Project(Path.of("")).naming(n -> n.equals("fail-on") ? "failOn" : n).failOn("warnings")
                .maxFindingsPerRule(0).sarifCategory(" / ");
        assertEquals(List.of("failOn must be error, warning, note or never, not 'warnings' (did you mean warning?)",
                "max-findings-per-rule must be at least 1", "sarif-category must name a category, e.g. training-jobs"), p.problems());
    }

    @Test
    void testRulesAppliesTheProjectsConfiguration(@TempDir Path dir) throws IOException {
        Path rules = dir.resolve("team-rules");
        CliTest.write(rules, "MY002.drl", """
                package custom;
                import dev.gpulint.facts.JobFact;
                import dev.gpulint.facts.RuleParam;
                global dev.gpulint.engine.FindingSink sink;
                rule "MY002" @id("MY002")
                when RuleParam( rule == "MY002", name == "max_nodes", $max : value )
                     $j : JobFact( nodes > $max )
                then sink.report("MY002", $j.getNodesSpan(), $j.identity(), "job '" + $j.getName() + "' uses " + $j.getNodes() + " nodes");
                end
                """);
        CliTest.write(rules, "MY002.yaml", "id: MY002\nname: few-nodes\nlevel: warning\ntitle: Few nodes\n"
                + "description: Our queue limits jobs' nodes.\nremediation: split the job\nparams: { max_nodes: 1 }\n");
        // the team's queue allows 4 nodes: their .gpulint.yaml says so, and their cases are written for it
        CliTest.write(dir, ".gpulint.yaml", "params: { MY002: { max_nodes: 4 } }\n");
        CliTest.write(rules, "MY002.test.yaml", """
                rule: MY002
                cases:
                  - name: four nodes are allowed
                    files:
                      j.yaml: "kind: training_job\\nname: j\\nnodes: 4\\n"
                    expect: []
                  - name: five are not
                    files:
                      j.yaml: "kind: training_job\\nname: j\\nnodes: 5\\n"
                    expect:
                      - { file: j.yaml, line: 3, column: 8, message: "job 'j' uses 5 nodes." }
                """);
        PlanCli.Run r = PlanCli.run("test-rules", rules.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().endsWith("2 passed, 0 failed\n"), r.out());
        // the project's rule_paths may name the same folder: its rules are loaded once
        CliTest.write(dir, ".gpulint.yaml", "rule_paths: [team-rules/]\nparams: { MY002: { max_nodes: 4 } }\n");
        PlanCli.Run again = PlanCli.run("test-rules", rules.toString());
        assertEquals(0, again.code(), again.out() + again.err());
        assertTrue(again.out().endsWith("2 passed, 0 failed\n"), again.out());
    }
}
