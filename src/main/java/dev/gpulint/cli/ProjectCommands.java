package dev.gpulint.cli;

import dev.gpulint.app.CheckRequest;
import dev.gpulint.app.Checks;
import dev.gpulint.app.Project;
import dev.gpulint.core.Finding;
import dev.gpulint.core.Level;
import dev.gpulint.core.LintResult;
import dev.gpulint.lint.RunOutcome;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What the commands that lint a project and then answer from it (`plan`, `diagnose`) do alike around their own
 * work: the project of PATH... under --config with its usage problems, the input's syntax errors when it could not
 * be read, and the answer written to standard output or --output as check writes a report.
 */
final class ProjectCommands {
    private ProjectCommands() {}

    /**
     * The project of {@code paths} (the working folder when none) under {@code config}; null, each problem printed,
     * when a path is missing or {@code output} cannot be written.
     */
    static Project project(Path config, List<String> paths, String output, PrintWriter err) {
        Path wd = Main.workingDir;
        Project project = new Project(wd).config(config).paths(paths.isEmpty() ? List.of(".") : paths);
        List<String> usage = new ArrayList<>(project.missing());
        if (output != null) {
            String problem = ReportFile.problem(output, wd);
            if (problem != null) usage.add("cannot write --output " + output + ": " + problem);
        }
        for (String u : usage) err.println("gpulint: " + u);
        return usage.isEmpty() ? project : null;
    }

    /** When the input could not be read: its syntax errors, file:line:col as check prints them. */
    static void inputErrors(LintResult result, PrintWriter err) {
        if (!result.inputFailed()) return;
        for (Finding f : result.findings()) {
            if (f.level() == Level.ERROR && f.ruleId().startsWith("SYN")) {
                err.println(f.span().file() + ":" + f.span().startLine() + ":" + f.span().startColumn() + ": " + f.ruleId() + " " + f.message());
            }
        }
    }

    /**
     * {@code text} to standard output, or to {@code output} as check's --output: never over a file the run read, and
     * written whole or not at all. False, the reason printed, when it was not written.
     */
    static boolean emit(String text, String output, CheckRequest request, RunOutcome run, picocli.CommandLine cl) {
        PrintWriter err = cl.getErr();
        if (output == null) {
            cl.getOut().print(text);
            return true;
        }
        String over = Checks.overwrites(request, run, Path.of(output));
        if (over != null) {
            err.println("gpulint: will not write --output " + output + " over an input: " + over + "; nothing was written, name another file");
            return false;
        }
        try {
            ReportFile.toFile(text, Main.workingDir.resolve(output), "--output " + output);
            return true;
        } catch (ReportFile.Failure e) {
            err.println("gpulint: " + e.getMessage());
            return false;
        }
    }
}
