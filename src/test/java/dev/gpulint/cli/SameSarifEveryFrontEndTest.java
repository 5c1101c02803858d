package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.app.CheckRequest;
import dev.gpulint.app.Checks;
import dev.gpulint.app.Project;
import dev.gpulint.core.LintResult;
import dev.gpulint.core.ProjectPaths;
import dev.gpulint.lint.Linter;
import dev.gpulint.lint.RunOutcome;
import dev.gpulint.read.SourceFile;
import dev.gpulint.testing.PlanCli;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every front end goes through app.Checks, so the same files give the same SARIF, fixes included: the command line's
 * check, the Maven plugin's run (a Project of include globs, as CheckMojo builds it, rendered as CheckMojo renders it)
 * and a rule case's run (the files as given to a Linter, as RuleCases runs them). The files are the layout-fix case of
 * LayoutFixCliTest: PAR005's one fix is the plan's (app.Checks' post-run step), which the Maven plugin's SARIF once
 * lacked.
 */
class SameSarifEveryFrontEndTest {

    @AfterEach
    void restore() {
        Main.workingDir = Path.of("");
    }

    @Test
    void theCommandLineTheMavenPluginAndARuleCaseGiveTheSameSarif(@TempDir Path dir) throws IOException {
        CliTest.write(dir, "cluster.yaml", LayoutFixCliTest.CLUSTER);
        CliTest.write(dir, "job.yaml", LayoutFixCliTest.JOB);
        Main.workingDir = dir;
        PlanCli.Run cli = PlanCli.run("check", "-f", "sarif", "cluster.yaml", "job.yaml");
        assertEquals(1, cli.code(), cli.err());

        // CheckMojo: options through Project, files by the include globs, SARIF by the request's report options
        CheckRequest maven = new Project(dir).naming(n -> n).failOn("warning").matching(List.of("**/*.yaml"), List.of()).request();
        RunOutcome run = Checks.check(maven);
        StringWriter mavenSarif = new StringWriter();
        maven.report().sarif(run.rules()).render(run.result(), mavenSarif);

        // a rule case: the same texts under the same names, linted as given; its files lie nowhere, so it is told the
        // project root the other two found (SARIF's %SRCROOT%), which is all that tells the runs apart
        Linter linter = new Linter().projectPaths(new ProjectPaths(dir.toAbsolutePath(), dir.toAbsolutePath()));
        LintResult ruleCase = Checks.check(linter, List.of(SourceFile.of("cluster.yaml", LayoutFixCliTest.CLUSTER),
                SourceFile.of("job.yaml", LayoutFixCliTest.JOB)));
        StringWriter caseSarif = new StringWriter();
        maven.report().sarif(linter.rules()).render(ruleCase, caseSarif);

        assertTrue(cli.out().contains("set tp 2, pp 1, dp 8: the fastest layout gpulint plan finds"), "the layout fix is in: " + cli.out());
        assertEquals(cli.out(), mavenSarif.toString(), "the Maven plugin's SARIF is the command line's");
        assertEquals(cli.out(), caseSarif.toString(), "a rule case's SARIF is the command line's");
    }

    /** UNIT003's unit fix (app.RuleFixes, after the run) in the command line's, the Maven plugin's and a rule case's SARIF alike. */
    @Test
    void theUnitFixIsInEveryFrontEndsSarif(@TempDir Path dir) throws IOException {
        String cluster = "kind: cluster\nname: c\nnode_groups:\n  - name: g\n    count: 1\n    gpu: { model: H100-SXM5-80GB, count: 8 }\n"
                + "    nvlink: { bandwidth: 900 }\n";
        CliTest.write(dir, "cluster.yaml", cluster);
        Main.workingDir = dir;
        PlanCli.Run cli = PlanCli.run("check", "-f", "sarif", "cluster.yaml");
        assertEquals(1, cli.code(), cli.err());
        CheckRequest maven = new Project(dir).naming(n -> n).failOn("warning").matching(List.of("**/*.yaml"), List.of()).request();
        RunOutcome run = Checks.check(maven);
        StringWriter mavenSarif = new StringWriter();
        maven.report().sarif(run.rules()).render(run.result(), mavenSarif);
        Linter linter = new Linter().projectPaths(new ProjectPaths(dir.toAbsolutePath(), dir.toAbsolutePath()));
        LintResult ruleCase = Checks.check(linter, List.of(SourceFile.of("cluster.yaml", cluster)));
        StringWriter caseSarif = new StringWriter();
        maven.report().sarif(linter.rules()).render(ruleCase, caseSarif);

        assertTrue(cli.out().contains("\"text\" : \"write 900 GB/s instead of 900, and add direction: bidirectional (safe fix).\""), cli.out());
        assertEquals(cli.out(), mavenSarif.toString(), "the Maven plugin's SARIF is the command line's");
        assertEquals(cli.out(), caseSarif.toString(), "a rule case's SARIF is the command line's");
        // the linter alone (below the application layer) adds no Java-made fix: Checks is the one place that does
        assertTrue(linter.lint(List.of(SourceFile.of("cluster.yaml", cluster))).findings().get(0).fixes().isEmpty());
    }
}
