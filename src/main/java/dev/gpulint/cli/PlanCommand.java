package dev.gpulint.cli;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.app.Checks;
import dev.gpulint.app.Project;
import dev.gpulint.plan.PlanReport;
import dev.gpulint.plan.PlanPictures;
import dev.gpulint.plan.Planner;
import dev.gpulint.derive.estimate.Layout;
import dev.gpulint.plan.draw.Pictures;
import dev.gpulint.plan.search.Candidate;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** `gpulint plan` (../spec/PLAN.md): what one step of a job costs. Thin: the plan stage does the work. */
@Command(name = "plan", mixinStandardHelpOptions = true, description = "Estimate what one step of a training job costs "
        + "(memory per pipeline stage, time per parallel dimension and tier, throughput) and rank every layout gpulint's rules "
        + "pass by the estimate (docs/plan.md).")
final class PlanCommand implements Callable<Integer> {
    enum Format { text, json, markdown, mermaid, dot, svg }

    @Parameters(paramLabel = "PATH", description = "files or folders, loaded as check loads them; default: .")
    List<String> paths = new ArrayList<>();

    @Option(names = "--job", paramLabel = "NAME", description = "the job to plan (default: the only one)")
    String job;

    @Option(names = "--gpus", paramLabel = "N", description = "plan for this many GPUs of the same node group")
    Long gpus;

    @Option(names = "--nodes", paramLabel = "N", description = "plan for this many nodes of the same node group")
    Long nodes;

    @Option(names = "--top", paramLabel = "N", description = "candidates shown (default: ${DEFAULT-VALUE})")
    int top = 10;

    @Option(names = "--candidate", paramLabel = "K", description = "draw candidate K of the ranking (1 = the best; 0 = the job as written, the default)")
    int candidate;

    @Option(names = {"-f", "--format"}, description = "text, json, markdown, mermaid, dot or svg (default: ${DEFAULT-VALUE})")
    Format format = Format.text;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "write the plan here instead of standard output")
    String output;

    @Option(names = "--collective", paramLabel = "KIND[:SIZE]", description = "also price this collective on every tier: all-reduce, "
            + "reduce-scatter, all-gather or all-to-all, of SIZE per GPU (e.g. 2GB; default: the data-parallel gradients), over the "
            + "data-parallel group (an all-to-all: the expert-parallel group when ep > 1)")
    String collective;

    @Option(names = {"-c", "--config"}, paramLabel = "FILE", description = "configuration file (default: the nearest .gpulint.yaml)")
    Path config;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        // --gpus 0 planned the job as written while the message said the sizes are positive: a size given is at least 1
        if ((gpus != null && gpus < 1) || (nodes != null && nodes < 1) || top < 0 || candidate < 0 || (gpus != null && nodes != null)) {
            err.println("gpulint: plan: --gpus and --nodes are at least 1 and exclude each other; --top and --candidate are at least 0");
            return Main.BAD_INPUT;
        }
        dev.gpulint.derive.estimate.Collective named = null;
        double namedBytes = 0;
        if (collective != null) {
            String[] kv = collective.split(":", 2);
            named = dev.gpulint.derive.estimate.Collective.of(kv[0]);
            if (named == null || named == dev.gpulint.derive.estimate.Collective.SEND) {
                err.println("gpulint: plan: --collective " + collective + ": the kind is all-reduce, reduce-scatter, all-gather or all-to-all");
                return Main.BAD_INPUT;
            }
            if (kv.length > 1) {
                var size = dev.gpulint.spec.Quantities.size(kv[1].trim());
                if (!size.ok() || size.value().bytes() <= 0) {
                    err.println("gpulint: plan: --collective " + collective + ": the size is a positive amount of data such as 2GB or 512 MiB"
                            + (size.ok() ? "" : " (" + size.problem() + ")"));
                    return Main.BAD_INPUT;
                }
                namedBytes = size.value().bytes();
            }
        }
        Project project = ProjectCommands.project(config, paths, output, err);
        if (project == null) return Main.BAD_INPUT;
        dev.gpulint.app.CheckRequest request = project.request();
        Checks.Planned planned = Checks.plan(request, job, gpus == null ? 0L : gpus, nodes == null ? 0L : nodes);
        var outcome = planned.run();
        ProjectCommands.inputErrors(outcome.result(), err);
        Planner.Outcome o = planned.plan();
        if (o.problem() != null) {
            err.println("gpulint: plan: " + o.problem());
            return Main.BAD_INPUT;
        }
        Planner.Plan plan = named == null ? o.plan() : Planner.withCollective(o.plan(), named, namedBytes);
        o = new Planner.Outcome(plan, null);
        Layout drawn = null;
        if (candidate > 0) {
            List<Candidate> valid = o.plan().ranking() == null || o.plan().ranking().search() == null ? List.of()
                    : o.plan().ranking().search().candidates();
            if (candidate > valid.size()) {
                err.println("gpulint: plan: --candidate " + candidate + ": the plan has " + valid.size() + " valid candidate"
                        + (valid.size() == 1 ? "" : "s") + (valid.isEmpty() ? "" : " (1 to " + valid.size() + ")") + "; 0 draws the job as written");
                return Main.BAD_INPUT;
            }
            drawn = valid.get(candidate - 1).layout();
        }
        String text;
        if (format == Format.json) {
            StringWriter w = new StringWriter();
            // its files named from the project root, as every machine report names them: the same bytes from any working folder
            dev.gpulint.report.JsonOut.write(dev.gpulint.report.ReportPaths.stableDocument(PlanReport.json(o.plan(), top), outcome.result()), w);
            text = w.toString();
        } else {
            String table = PlanReport.text(o.plan(), format == Format.markdown, top);
            Pictures.Format pf = switch (format) {
                case text -> Pictures.Format.TEXT;
                case markdown -> Pictures.Format.MARKDOWN;
                case mermaid -> Pictures.Format.MERMAID;
                case dot -> Pictures.Format.DOT;
                case svg -> Pictures.Format.SVG;
                default -> null;
            };
            String picture = pf == null ? null : PlanPictures.draw(o.plan(), pf, pf == Pictures.Format.MARKDOWN ? table : null, drawn);
            if (drawn != null && picture != null && !(format == Format.mermaid || format == Format.dot || format == Format.svg)) {
                String title = "Candidate " + candidate + ": " + drawn.sizes() + "\n";
                picture = format == Format.markdown ? picture.replace("```mermaid", "#### " + title + "\n```mermaid") : title + picture;
            }
            boolean pictureOnly = format == Format.mermaid || format == Format.dot || format == Format.svg;
            if (pictureOnly && picture == null) {
                err.println("gpulint: plan: no " + format + " picture: the job's layout cannot be priced from what its files say; "
                        + "`gpulint plan -f text` names what is missing");
                return Main.BAD_INPUT;
            }
            text = pictureOnly ? picture : format == Format.markdown ? (picture != null ? picture : table)
                    : picture == null ? table : table + (table.endsWith("\n") ? "" : "\n") + "\n" + picture;
        }
        if (!ProjectCommands.emit(text, output, request, planned.run(), spec.commandLine())) return Main.BAD_INPUT;
        return outcome.result().inputFailed() ? Main.BAD_INPUT : Main.OK;
    }
}
