package dev.gpulint.cli;

import dev.gpulint.app.Checks;
import dev.gpulint.app.Project;
import dev.gpulint.diagnose.DiagnoseReport;
import dev.gpulint.diagnose.Diagnoser;
import dev.gpulint.lint.RunOutcome;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `gpulint diagnose` (docs/diagnose.md): why a job is slower than it should be. Thin: the diagnose stage does the work. */
@Command(name = "diagnose", mixinStandardHelpOptions = true, description = "Say why a training job is slower than it should be: its "
        + "measured step beside the plan's estimate on the catalog's links and on the links its captures measured, the path GPU "
        + "utilisation → NVLink → PCIe topology → NCCL → InfiniBand/RoCE with each step's verdict and evidence line, and what explains "
        + "the gap (docs/diagnose.md).",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:nothing found: the step is within the estimate's tolerance and no step of the path is bad",
                "1:a step of the path is bad, or the measured step is beyond the estimate's tolerance",
                "2:bad usage, or an input that could not be read or parsed"})
final class DiagnoseCommand implements Callable<Integer> {
    enum Format { text, json, markdown }

    @Parameters(paramLabel = "PATH", description = "files or folders (manifests and captures), loaded as check loads them; default: .")
    List<String> paths = new ArrayList<>();

    @Option(names = "--job", paramLabel = "NAME", description = "the job to diagnose (default: the only one)")
    String job;

    @Option(names = {"-f", "--format"}, description = "text, json or markdown (default: ${DEFAULT-VALUE})")
    Format format = Format.text;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "write the diagnosis here instead of standard output")
    String output;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE", description = "configuration file (default: the nearest .gpulint.yaml)")
    Path config;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        Path wd = Main.workingDir;
        Project project = new Project(wd).config(config).paths(paths.isEmpty() ? List.of(".") : paths);
        List<String> usage = new ArrayList<>(project.missing());
        if (output != null) {
            String problem = ReportFile.problem(output, wd);
            if (problem != null) usage.add("cannot write --output " + output + ": " + problem);
        }
        if (!usage.isEmpty()) {
            for (String u : usage) err.println("gpulint: " + u);
            return Main.BAD_INPUT;
        }
        dev.gpulint.app.CheckRequest request = project.request();
        RunOutcome run = Checks.check(request);
        if (run.result().inputFailed()) {
            for (var f : run.result().findings()) {
                if (f.level() == dev.gpulint.core.Level.ERROR && f.ruleId().startsWith("SYN")) {
                    err.println(f.span().file() + ":" + f.span().startLine() + ":" + f.span().startColumn() + ": " + f.ruleId() + " " + f.message());
                }
            }
        }
        Diagnoser.Outcome o = Diagnoser.diagnose(run.facts(), run.result().findings(), job, run.config().plan());
        if (o.problem() != null) {
            err.println("gpulint: diagnose: " + o.problem());
            return Main.BAD_INPUT;
        }
        String text;
        if (format == Format.json) {
            StringWriter w = new StringWriter();
            dev.gpulint.report.JsonOut.write(DiagnoseReport.json(o.diagnosis()), w);
            text = w.toString();
        } else {
            text = DiagnoseReport.text(o.diagnosis(), format == Format.markdown);
        }
        if (output != null) {
            String over = Checks.overwrites(request, run, Path.of(output));
            if (over != null) {
                err.println("gpulint: will not write --output " + output + " over an input: " + over + "; nothing was written, name another file");
                return Main.BAD_INPUT;
            }
            try {
                ReportFile.toFile(text, wd.resolve(output), "--output " + output);
            } catch (ReportFile.Failure e) {
                err.println("gpulint: " + e.getMessage());
                return Main.BAD_INPUT;
            }
        } else {
            spec.commandLine().getOut().print(text);
        }
        if (run.result().inputFailed()) return Main.BAD_INPUT;
        return o.diagnosis().attribution().found() ? Main.FINDINGS : Main.OK;
    }
}
