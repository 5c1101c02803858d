package dev.gpulint.cli;

import dev.gpulint.lint.Discovery;
import dev.gpulint.lint.Linter;
import dev.gpulint.app.Project;
import dev.gpulint.lint.ProjectRun;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code gpulint test-rules DIR}: a team's own rules against their cases (README.md, "Command line"). */
@Command(name = "test-rules", mixinStandardHelpOptions = true,
        description = "Run the cases (ID.test.yaml) of your own rules in DIR, with those rules loaded and the "
                + "project's .gpulint.yaml applied, as a lint run would.")
final class TestRules implements Callable<Integer> {
    @Parameters(paramLabel = "DIR") Path dir;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        // set up as a lint run of the project around DIR is: its .gpulint.yaml (catalog additions, rule
        // parameters, levels, rule_paths), with DIR's rules loaded after those
        // DIR is taken from the run's working directory (the daemon's own is /); naming it is choosing its project, whose
        // configuration's rule_paths may then run (SECURITY.md)
        Path rules = Main.workingDir.resolve(dir);
        Project project = new Project(Main.workingDir).rules(dir).paths(List.of(dir.toString()))
                .session(List.of(Main.workingDir.toAbsolutePath(), rules.toAbsolutePath()), null);
        for (String problem : project.problems()) out.println("gpulint: " + problem);
        if (!project.problems().isEmpty()) return Main.BAD_INPUT;
        ProjectRun.Setup setup = project.setUp();
        for (dev.gpulint.core.Finding f : setup.problems()) {
            out.println(f.span().file() + ":" + f.span().startLine() + ":" + f.span().startColumn() + ": error: " + f.message());
        }
        if (!setup.problems().isEmpty()) return Main.BAD_INPUT;
        Linter linter = setup.linter();
        Discovery d = setup.discovery();
        int passed = 0, failed = 0;
        for (Path file : dev.gpulint.ruletest.RuleCases.testFiles(rules)) {
            for (dev.gpulint.ruletest.RuleCases.Case c : dev.gpulint.ruletest.RuleCases.load(file)) {
                String diff = dev.gpulint.ruletest.RuleCases.check(c, linter);
                if (diff == null) {
                    passed++;
                    out.println("PASS " + c.rule() + ": " + c.name());
                } else {
                    failed++;
                    out.println("FAIL " + c.rule() + ": " + c.name() + " (" + d.display(file) + ")");
                    for (String line : diff.split("\n")) out.println("    " + line);
                }
            }
        }
        out.println(passed + " passed, " + failed + " failed");
        out.flush();
        return failed > 0 ? Main.FINDINGS : passed == 0 ? Main.BAD_INPUT : Main.OK;
    }
}
