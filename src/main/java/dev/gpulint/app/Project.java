package dev.gpulint.app;

import dev.gpulint.core.FailOn;
import dev.gpulint.core.Finding;
import dev.gpulint.lint.Discovery;
import dev.gpulint.lint.LintRequest;
import dev.gpulint.lint.ProjectRun;
import dev.gpulint.lint.RunOutcome;
import dev.gpulint.report.ReportOptions;
import dev.gpulint.settle.Baseline;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The options of one run turned into a request ({@link #request()}), the same way for every front end (the command
 * line's check, plan and test-rules, the Maven plugin, the language server); {@link Checks} carries it out. The run: the
 * configuration ({@code .gpulint.yaml}, the given file or the nearest from the linted paths upwards,
 * then from the base folder upwards), the files to lint and the configuration's {@code include}
 * context, the user rules of its {@code rule_paths} and of an extra rules folder, its rule settings,
 * thresholds, catalog and {@code job_clusters}, a baseline, the project root ({@link ProjectRoot}:
 * baselines and SARIF name files relative to it) and the project's clusters for jobs whose cluster no
 * linted file defines ({@link ProjectClusters}).
 *
 * <p>Display paths in findings are as given, and relative to the base folder when a file lies under
 * it. A relative configuration file, rules folder, baseline or path is resolved against the base folder.
 *
 * <p>The setters build one immutable {@link CheckRequest} ({@link #request()}); option values are parsed and
 * checked here, once for every front end, and what is wrong with them is in {@link #problems()},
 * each named as the front end names its options ({@link #naming}). Nothing of a run is kept here: what a run made
 * is its {@link RunOutcome}.
 */
public final class Project {

    private final Path base;
    private Path configFile;
    private Path rulesDir;
    private Set<String> baseline = Set.of();
    private Long maxFileSize;
    private final List<String> paths = new ArrayList<>();
    private final List<Path> files = new ArrayList<>();
    private final java.util.Map<Path, IOException> unreadable = new java.util.LinkedHashMap<>();
    private java.io.InputStream stdin;
    private String stdinName;
    private FailOn failOn = FailOn.error;
    private ReportOptions report = ReportOptions.DEFAULT;
    private final List<String> optionProblems = new ArrayList<>();
    private UnaryOperator<String> naming = name -> "--" + name;

    /** @param base the project folder: the working folder for the CLI, the basedir for Maven */
    public Project(Path base) {
        this.base = base;
    }

    /**
     * How the front end names its options in problems, from the command line's long name without dashes
     * ("fail-on"); by default the command line's own ("--fail-on"). Set it before the options.
     */
    public Project naming(UnaryOperator<String> names) {
        this.naming = names;
        return this;
    }

    private Path top;

    /**
     * The project root when neither a configuration nor a git top level is found above the linted
     * files (a Maven build's top-level project: a module's jobs then find their cluster in a sibling
     * module); it must hold the base folder, else it is not used.
     */
    public Project top(Path folder) {
        this.top = folder;
        return this;
    }

    /** The lowest level that fails the run: error, warning, note or never, in any case. */
    public Project failOn(String level) {
        try {
            this.failOn = FailOn.parse(level);
        } catch (IllegalArgumentException e) {
            optionProblems.add(naming.apply("fail-on") + " " + e.getMessage());
        }
        return this;
    }

    /** SARIF: run.automationDetails.id becomes gpulint/CATEGORY/ (null: gpulint/). */
    public Project sarifCategory(String category) {
        report = report.withSarifCategory(category);
        String problem = report.categoryProblem();
        if (problem != null) optionProblems.add(naming.apply("sarif-category") + " " + problem);
        return this;
    }

    /** SARIF: where the rules' help pages are published (null: none, the help is in the file). */
    public Project helpUriBase(String base) {
        report = report.withHelpUriBase(base);
        String problem = report.helpUriBaseProblem();
        if (problem != null) optionProblems.add(naming.apply("help-uri-base") + " " + problem);
        return this;
    }

    /** {@link #maxFileSize(long)} from a size as written ("8 MiB", "500kB"). */
    public Project maxFileSize(String size) {
        if (size == null) return this;
        var parsed = dev.gpulint.spec.Quantities.size(size);
        if (!parsed.ok()) optionProblems.add(naming.apply("max-file-size") + ": " + parsed.problem());
        else {
            String bound = dev.gpulint.core.RegularFiles.maxFileSizeProblem(parsed.value().bytes());
            if (bound != null) optionProblems.add(naming.apply("max-file-size") + " " + size + ": " + bound);
            else maxFileSize((long) parsed.value().bytes());
        }
        return this;
    }

    /** The configuration file; without one (or with null), the nearest .gpulint.yaml from the base folder up. */
    public Project config(Path file) {
        this.configFile = file;
        return this;
    }

    /** A folder of the team's own rules (ID.drl with ID.yaml beside it), run after the configuration's rule_paths. */
    public Project rules(Path dir) {
        this.rulesDir = dir;
        return this;
    }

    /** Reads a baseline (a SARIF file of an earlier run): findings with its fingerprints are not reported. */
    public Project baseline(Path sarif) throws IOException {
        this.baseline = Baseline.read(base.resolve(sarif));
        this.baselineFile = base.resolve(sarif).toAbsolutePath().normalize();
        return this;
    }

    private Path baselineFile;
    private boolean includeOutside;

    /** Lets the configuration's include name files and folders outside the project (--include-outside-project). */
    public Project includeOutside(boolean allowed) {
        this.includeOutside = allowed;
        return this;
    }

    /** Files larger than this are reported instead of read (default {@link Discovery#DEFAULT_MAX_FILE_SIZE}). */
    public Project maxFileSize(long bytes) {
        this.maxFileSize = bytes;
        return this;
    }

    private int maxFindingsPerRule = dev.gpulint.settle.FindingCap.DEFAULT_PER_RULE_PER_FILE;

    /** At most this many findings of one rule in one file are reported; a note says how many more there were. */
    public Project maxFindingsPerRule(int n) {
        if (n < 1) optionProblems.add(naming.apply("max-findings-per-rule") + " must be at least 1");
        else this.maxFindingsPerRule = n;
        return this;
    }

    /** Files and folders as given on a command line: folders recurse, and each is displayed as given. */
    public Project paths(List<String> given) {
        paths.addAll(given);
        return this;
    }

    /**
     * Lints text read from {@code in} (standard input) as the file {@code name} would be: its format by
     * the name's extension, findings under that name, the configuration and the project's clusters
     * found as for a file at that path ({@link Discovery#STDIN} when there is no name: read as YAML).
     */
    public Project stdin(java.io.InputStream in, String name) {
        this.stdin = in;
        this.stdinName = name == null ? Discovery.STDIN : name;
        return this;
    }

    /**
     * What is missing before anything is linted: a configuration file, rules folder or path that does
     * not exist, each as a sentence ("no such file or folder: x"). A command line reports these as
     * bad usage (exit 2); the project's own paths (include, rule_paths) are findings at their values.
     */
    public List<String> missing() {
        List<String> out = new ArrayList<>();
        if (configFile != null && !java.nio.file.Files.exists(base.resolve(configFile))) {
            out.add(naming.apply("config") + ": no such file: " + configFile);
        }
        if (rulesDir != null && !java.nio.file.Files.exists(base.resolve(rulesDir))) {
            out.add(naming.apply("rules") + ": no such folder: " + rulesDir);
        }
        for (String p : paths) {
            if (!java.nio.file.Files.exists(base.resolve(dev.gpulint.core.PathNames.given(p, base)))) out.add("no such file or folder: " + p);
        }
        return out;
    }

    /** What is wrong with the request before anything is linted: bad option values, then {@link #missing()}. */
    public List<String> problems() {
        List<String> out = new ArrayList<>(optionProblems);
        out.addAll(missing());
        return out;
    }

    /** The run these settings ask for. */
    public CheckRequest request() {
        return new CheckRequest(new LintRequest(base, configFile, rulesDir, paths, files, unreadable, stdin, stdinName, baseline,
                baselineFile, maxFileSize, maxFindingsPerRule, failOn, problems(), top, includeOutside, buffers,
                session),
                report);
    }

    /**
     * The files under the base folder that the include globs match and the exclude globs do not
     * (relative to the base folder), outside the {@code skipped} folders (the build folder, modules linted
     * on their own); the configuration's {@code exclude} still applies.
     */
    public Project matching(List<String> includes, List<String> excludes, List<Path> skipped) throws IOException {
        files.addAll(Globs.match(base.toAbsolutePath().normalize(), includes, excludes, skipped, unreadable));
        return this;
    }

    /** {@link #matching(List, List, List)} with {@code target/} as the only skipped folder. */
    public Project matching(List<String> includes, List<String> excludes) throws IOException {
        return matching(includes, excludes, List.of(Path.of("target")));
    }

    /** {@link Checks#check} of {@link #request()}: a run with every post-run step. */
    public RunOutcome lint() {
        return Checks.check(request());
    }

    private dev.gpulint.lint.ProjectRun.Session session;

    /**
     * What a long-lived front end keeps across runs (SECURITY.md): the folders whose configurations found by searching
     * may run their rule_paths (null: the base folder), and the project's cluster index (or null).
     */
    public Project session(List<Path> consent, dev.gpulint.lint.ClusterIndex clusters) {
        this.session = new dev.gpulint.lint.ProjectRun.Session(consent, clusters);
        return this;
    }

    private dev.gpulint.lint.Overlay buffers = dev.gpulint.lint.Overlay.NONE;
    /**
     * An editor's unsaved buffers by path: read instead of those files wherever the run meets them (lsp). Each path
     * is made absolute (a relative one against the base folder) and normalised here, so {@code a/../b.yaml} stands
     * for {@code b.yaml}; of two paths of one file, the later buffer wins.
     */
    public Project buffers(java.util.Map<Path, String> texts) {
        this.buffers = dev.gpulint.lint.Overlay.of(base, texts);
        return this;
    }
    /**
     * The linter this project's configuration sets up (its user rules, the extra rules folder, catalog,
     * thresholds, rule settings, job clusters and evidence links), without linting: for running rule
     * cases ({@code gpulint test-rules}) as the project's runs would. Problems of the configuration
     * and of the rules are in {@link ProjectRun.Setup#problems()}.
     */
    public ProjectRun.Setup setUp() {
        return Checks.setUp(request());
    }
}
