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
                "2:bad usage, an input that could not be read or parsed, or nothing captured of the job (no diagnosis)"})
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
        Project project = ProjectCommands.project(config, paths, output, err);
        if (project == null) return Main.BAD_INPUT;
        dev.gpulint.app.CheckRequest request = project.request();
        RunOutcome run = Checks.check(request);
        ProjectCommands.inputErrors(run.result(), err);
        Diagnoser.Outcome o = Diagnoser.diagnose(run.estimates(), run.facts(), run.result().findings(), job, run.config().plan());
        if (o.problem() != null) {
            err.println("gpulint: diagnose: " + o.problem());
            return Main.BAD_INPUT;
        }
        String text;
        if (format == Format.json) {
            StringWriter w = new StringWriter();
            // its files named from the project root, as every machine report names them: the same bytes from any working folder
            dev.gpulint.report.JsonOut.write(dev.gpulint.report.ReportPaths.stableDocument(DiagnoseReport.json(o.diagnosis()), run.result()), w);
            text = w.toString();
        } else {
            text = DiagnoseReport.text(o.diagnosis(), format == Format.markdown);
        }
        if (!ProjectCommands.emit(text, output, request, run, spec.commandLine())) return Main.BAD_INPUT;
        if (run.result().inputFailed()) return Main.BAD_INPUT;
        if (o.diagnosis().nothingCaptured()) {
            // no capture read: the report says so; the exit status must not read as "nothing found" in CI
            err.println("gpulint: diagnose: " + DiagnoseReport.NOTHING_CAPTURED_HEAD + " for job " + o.diagnosis().job() + ": no training"
                    + " log or capture of its nodes among the paths (docs/evidence.md says what to capture)");
            return Main.BAD_INPUT;
        }
        return o.diagnosis().attribution().found() ? Main.FINDINGS : Main.OK;
    }
}
