package dev.gpulint.cli;

import dev.gpulint.core.FailOn;
import dev.gpulint.core.LintResult;
import dev.gpulint.app.CheckRequest;
import dev.gpulint.app.Checks;
import dev.gpulint.lint.RunOutcome;
import dev.gpulint.lint.Linter;
import dev.gpulint.app.Project;
import dev.gpulint.report.Renderer;
import dev.gpulint.report.ReportOptions;
import dev.gpulint.report.TextRenderer;
import dev.gpulint.meta.RuleCatalog;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The command line: check (the default), rules, explain, test-rules, help and version (README.md, "Command line"). */
@Command(name = "gpulint", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        subcommands = {Main.Check.class, PlanCommand.class, DiagnoseCommand.class, CatalogCommands.Rules.class, CatalogCommands.Explain.class, TestRules.class,
                DiscoverCommand.class, LspCommand.class, DaemonCommand.class, CommandLine.HelpCommand.class, Main.VersionCommand.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:no finding at or above --fail-on", "1:at least one finding at or above --fail-on",
                "2:bad usage, or an input that could not be read or parsed"})
public final class Main implements Callable<Integer> {

    static final int OK = 0, FINDINGS = 1, BAD_INPUT = 2;
    /** Standard output was closed by its reader: the status of a process SIGPIPE ended (128 + 13), as grep and git end. */
    static final int CLOSED_PIPE = 141;
    /** The commands that lint their input, and so need the rule base, the catalog and the rules' metadata at once. */
    private static final Set<String> LINTS = Set.of("check", "plan", "diagnose");
    private static final Set<String> COMMANDS = Set.of("check", "plan", "diagnose", "rules", "explain", "test-rules", "discover", "lsp", "daemon", "help", "version");

    public static void main(String[] args) {
        // The report goes to the file descriptor itself, not System.out: a PrintStream swallows write
        // errors (a full disk, /dev/full, a closed pipe), and a lost report must not pass silently.
        ReportFile.stdout = new ReportFile.Stdout(new java.io.FileOutputStream(java.io.FileDescriptor.out));
        System.exit(run(RawArgs.recover(args), new PrintWriter(new OutputStreamWriter(ReportFile.stdout, StandardCharsets.UTF_8), false),
                new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true)));
    }

    /** Runs the CLI; `check` is the default command, so `gpulint samples/` works. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        List<String> list = new ArrayList<>(List.of(args));
        // after `--` everything is a path: a `-` there is the file named '-', not standard input
        int end = list.indexOf("--");
        if (end >= 0) for (int i = end + 1; i < list.size(); i++) if (list.get(i).equals("-")) list.set(i, "./-");
        boolean global = !list.isEmpty() && Set.of("-h", "--help", "-V", "--version").contains(list.get(0));
        String mistyped = list.isEmpty() || global ? null : BadUsage.mistypedCommand(list.get(0), COMMANDS, workingDir);
        if (mistyped != null && !COMMANDS.contains(list.get(0))) {
            err.println(mistyped);
            err.flush();
            return BAD_INPUT;
        }
        if (!global && (list.isEmpty() || !COMMANDS.contains(list.get(0)))) list.add(0, "check");
        // The rule base, catalog and metadata load on the second core while picocli builds its model: for every command
        // that lints its input first (plan and diagnose lint before they plan or compare)
        if (LINTS.contains(list.get(0))) Linter.warmUp();
        CommandLine cl = new CommandLine(new Main());
        Usage.install(cl, Wrap.width(env::apply, true));
        cl.setOut(out);
        cl.setErr(err);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        // Paths come from file names (pre-commit passes committed names): no @file expansion, and
        // everything after `--` is a path (picocli's end of options).
        cl.setExpandAtFiles(false);
        cl.setParameterExceptionHandler(new BadUsage());
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            err.println("gpulint: internal error: " + ex + " (please report it)");
            if (env.apply("GPULINT_DEBUG") != null) ex.printStackTrace(err);
            return BAD_INPUT;
        });
        int code;
        try {
            code = cl.execute(list.toArray(String[]::new));
        } catch (Throwable t) {
            // picocli hands on JVM errors (StackOverflowError, OutOfMemoryError): never a stack trace
            err.println("gpulint: internal error: " + t + " (please report it)");
            if (env.apply("GPULINT_DEBUG") != null) t.printStackTrace(err);
            code = BAD_INPUT;
        }
        out.flush();
        err.flush();
        return code;
    }

    @Override public Integer call() { return OK; }

    /** The checkout GitHub Actions annotates ({@code GITHUB_WORKSPACE}), when it is set to a path. */
    static java.nio.file.Path githubWorkspace(java.util.function.UnaryOperator<String> env) {
        String w = env.apply("GITHUB_WORKSPACE");
        if (w == null || w.isBlank()) return null;
        try {
            return workingDir.resolve(w);      // a relative one from the working directory (the daemon's is not the client's)
        } catch (java.nio.file.InvalidPathException e) {
            return null;
        }
    }

    /** GitLab's checkout ({@code CI_PROJECT_DIR}), which its reports' paths are relative to, when set to a path. */
    static Path ciProjectDir(java.util.function.UnaryOperator<String> env) {
        String w = env.apply("CI_PROJECT_DIR");
        if (w == null || w.isBlank()) return null;
        try {
            return workingDir.resolve(w);
        } catch (java.nio.file.InvalidPathException e) {
            return null;
        }
    }

    static String version() {
        return dev.gpulint.meta.Version.current();
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override public String[] getVersion() { return new String[] {"gpulint " + version()}; }
    }

    @Command(name = "version", description = "Print gpulint's version (as --version does).")
    static final class VersionCommand implements Callable<Integer> {
        @CommandLine.Spec CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            spec.commandLine().getOut().println("gpulint " + version());
            spec.commandLine().getOut().flush();
            return OK;
        }
    }

    enum Format { text, json, sarif, github, junit, gitlab }

    /** The environment, replaceable in tests. */
    static java.util.function.UnaryOperator<String> env = System::getenv;

    /** The working directory relative paths are taken from, replaceable in tests (the JVM's cannot change). */
    static Path workingDir = Path.of("");

    /** Standard input, replaceable in tests. */
    static final java.util.function.Supplier<InputStream> SYSTEM_IN = () -> System.in;
    static java.util.function.Supplier<InputStream> stdin = SYSTEM_IN;

    enum ColorMode { auto, always, never }

    @Command(name = "check", mixinStandardHelpOptions = true, parameterListHeading = "%nParameters:%n",
            optionListHeading = "%nOptions:%n")   // its description (the extensions it reads) is set by Usage
    static final class Check implements Callable<Integer> {
        @Parameters(paramLabel = "PATH", description = "files or folders; default: . ('-' alone: standard input)")
        List<String> paths = new ArrayList<>();

        @Option(names = "--stdin-filename", paramLabel = "PATH",
                description = "lint standard input as the file at PATH would be: its format by PATH's extension, findings "
                        + "under PATH, configuration and clusters from PATH's project (without it, '-' is read as YAML named <stdin>)")
        String stdinFilename;

        @Option(names = {"-q", "--quiet"}, description = "print the findings only: no closing count line, and nothing at all when there is no finding")
        boolean quiet;

        @Option(names = {"-f", "--format"}, description = "text, json, sarif, github, junit (JUnit XML) or gitlab (GitLab Code Quality) (default: text; github when GITHUB_ACTIONS=true)")
        Format format;

        @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "write the report here instead of standard output")
        String output;

        @Option(names = "--fail-on", description = "lowest level that makes the exit code 1: error, warning, note, never (default: ${DEFAULT-VALUE})")
        FailOn failOn = FailOn.error;

        @Option(names = {"-c", "--config"}, paramLabel = "FILE",
                description = "configuration file (default: the nearest .gpulint.yaml above the linted paths, else above the current folder)")
        Path config;

        @Option(names = "--baseline", paramLabel = "FILE",
                description = "a SARIF file of an earlier run: report only findings that are not in it")
        Path baseline;

        @Option(names = "--write-baseline", paramLabel = "FILE",
                description = "write this run's findings as a baseline (SARIF) for --baseline")
        String writeBaseline;

        @Option(names = "--rules", paramLabel = "DIR",
                description = "a folder of your own rules (ID.drl with ID.yaml beside it), compiled at run time")
        Path rulesDir;

        @Option(names = "--max-file-size", paramLabel = "SIZE",
                description = "files larger than this are reported instead of read (default: 8 MiB)")
        String maxFileSize;

        @Option(names = "--max-findings-per-rule", paramLabel = "N",
                description = "report at most N findings of one rule in one file, and a note counting the rest (default: ${DEFAULT-VALUE})")
        int maxFindingsPerRule = dev.gpulint.settle.FindingCap.DEFAULT_PER_RULE_PER_FILE;

        @Option(names = "--include-outside-project",
                description = "let include in .gpulint.yaml name files and folders outside the project (absolute paths, ../, links out); "
                        + "a configuration comes with the repository, so by default it reads nothing outside it")
        boolean includeOutside;

        @Option(names = "--fail-if-no-manifests", description = "exit 2 when no gpulint manifest was found")
        boolean failIfNoManifests;

        @Option(names = "--color", description = "auto, always or never (default: ${DEFAULT-VALUE}; auto colours when standard output is a "
                + "terminal, unless NO_COLOR, TERM=dumb or CLICOLOR=0; FORCE_COLOR or CLICOLOR_FORCE forces it)")
        ColorMode color = ColorMode.auto;

        @Option(names = "--no-color", description = "no colour (as --color never)")
        boolean noColor;

        @Option(names = "--sarif-category", paramLabel = "NAME",
                description = "SARIF: run.automationDetails.id becomes gpulint/NAME/, so code scanning tells this analysis apart")
        String sarifCategory;

        @Option(names = "--help-uri-base", paramLabel = "URL",
                description = "SARIF: each rule's helpUri is URL + ID.md (or URL with {id} replaced); default: none, the help is in the file")
        String helpUriBase;

        @Option(names = "--fix", description = "apply the safe fixes to the files (never to standard input), then report what remains")
        boolean fix;

        @Option(names = "--unsafe-fixes", description = "with --fix or --diff: the unsafe fixes too (each rule's help page says why they are unsafe)")
        boolean unsafeFixes;

        @Option(names = "--diff", description = "print what --fix would change as a unified diff and write nothing; exit 1 when there is a change")
        boolean diff;

        @CommandLine.Spec CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws IOException {
            PrintWriter err = spec.commandLine().getErr();
            boolean fromStdin = stdinFilename != null || paths.contains("-");
            String fixUsage = Fixing.refused(fix, unsafeFixes, diff, fromStdin, output);
            if (fixUsage != null) {
                err.println("gpulint: " + fixUsage);
                return BAD_INPUT;
            }
            List<String> named = paths.stream().filter(p -> !p.equals("-")).toList();
            if (fromStdin) {
                String closed = StdinCheck.closed(env);
                if (closed != null) {
                    err.println("gpulint: " + closed);
                    return BAD_INPUT;
                }
            }
            // standard input is linted with the files and folders named beside it (gpulint - samples/sound)
            List<String> given = fromStdin ? named : paths.isEmpty() ? List.of(".") : paths;
            Project project = new Project(workingDir).config(config).rules(rulesDir).paths(given)
                    .maxFindingsPerRule(maxFindingsPerRule).maxFileSize(maxFileSize).failOn(failOn.name())
                    .sarifCategory(sarifCategory).helpUriBase(helpUriBase).includeOutside(includeOutside);
            if (fromStdin) project.stdin(stdin.get(), stdinFilename);
            List<String> usage = new ArrayList<>(project.problems());
            for (String[] target : new String[][] {{"--output", output}, {"--write-baseline", writeBaseline}}) {
                String problem = target[1] == null ? null : ReportFile.problem(target[1], workingDir);
                if (problem != null) usage.add("cannot write " + target[0] + " " + target[1] + ": " + problem);
            }
            if (!usage.isEmpty()) {
                for (String u : usage) err.println("gpulint: " + u);
                return BAD_INPUT;
            }
            if (baseline != null) {
                try {
                    project.baseline(baseline);
                } catch (IOException e) {
                    spec.commandLine().getErr().println("gpulint: cannot read the baseline " + baseline + ": "
                            + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : ReportFile.reason(e)));
                    return BAD_INPUT;
                }
            }
            CheckRequest request = project.request();
            Checks.Fixed fixed = fix || diff ? Checks.fix(request, Fixing.atMost(unsafeFixes)) : null;
            if (diff) return Fixing.diff(fixed, spec.commandLine().getOut(), err, unsafeFixes, quiet);
            if (fixed != null) fixed = Fixing.write(fixed, request, err);
            boolean written = fixed == null || fixed.unwritten().isEmpty() && fixed.refused() == null;
            RunOutcome outcome = fixed != null ? fixed.last() : Checks.check(request);
            LintResult result = outcome.result();
            List<String> overwrites = ReportFile.overInputs(target -> Checks.overwrites(request, outcome, target), output, writeBaseline,
                    result.findings().size());
            if (!overwrites.isEmpty()) {
                for (String o : overwrites) err.println("gpulint: " + o);
                return BAD_INPUT;
            }
            RuleCatalog rules = outcome.rules();
            boolean useColor = output == null && !noColor && switch (color) {
                case always -> true;
                case never -> false;
                case auto -> Colour.auto(env, Colour.stdoutIsTerminal(env));
            };
            Format f = format != null ? format : "true".equals(env.apply("GITHUB_ACTIONS")) ? Format.github : Format.text;
            Renderer r = switch (f) {
                case text -> new TextRenderer(rules, useColor, !quiet);
                case json -> request.report().json(rules);
                case sarif -> request.report().sarif(rules);
                case github -> new dev.gpulint.report.GithubRenderer(rules, !quiet, githubWorkspace(env));
                case junit -> new dev.gpulint.report.JunitRenderer(rules, ciProjectDir(env));
                case gitlab -> new dev.gpulint.report.GitlabRenderer(ciProjectDir(env));
            };
            try {
                if (writeBaseline != null) {
                    ReportFile.toFile(ReportOptions.baseline(rules), dev.gpulint.settle.Baseline.recordable(result), workingDir.resolve(writeBaseline),
                            "--write-baseline " + writeBaseline);
                }
                if (output != null) ReportFile.toFile(r, result, workingDir.resolve(output), "--output " + output);
                else ReportFile.toStream(r, result, spec.commandLine().getOut(), "standard output");
            } catch (ReportFile.ClosedPipe e) {
                return CLOSED_PIPE;      // quietly: whoever read the output has what they wanted
            } catch (ReportFile.Failure e) {
                spec.commandLine().getErr().println("gpulint: " + e.getMessage());
                return BAD_INPUT;
            }
            if (fixed != null && !quiet) {
                // after the text report's own closing line; a machine-read report on standard output stays as it is
                PrintWriter to = f == Format.text && output == null ? spec.commandLine().getOut() : err;
                to.println(Fixing.closing(fixed, unsafeFixes));
                to.flush();
            }
            if (!written) return BAD_INPUT;
            if (result.files().isEmpty() && !result.inputFailed() && (!quiet || failIfNoManifests)) {
                spec.commandLine().getErr().println("gpulint: no gpulint manifests found in "
                        + (fromStdin ? String.join(" ", java.util.stream.Stream.concat(java.util.stream.Stream.of("standard input"),
                                given.stream()).toList()) : String.join(" ", given))
                        + " (a manifest is a .topo file, or YAML with kind: cluster or kind: training_job)"
                        + (outcome.excluded().isEmpty() ? "" : "; " + outcome.excluded().size() + " of the files named "
                        + (outcome.excluded().size() == 1 ? "is" : "are") + " left out by exclude in the configuration"));
            }
            if (result.files().isEmpty() && !result.inputFailed() && failIfNoManifests) return BAD_INPUT;
            if (result.inputFailed()) return BAD_INPUT;
            return request.failOn().failed(result) ? FINDINGS : OK;
        }
    }
}
