package dev.gpulint.lint;

import dev.gpulint.config.Config;
import dev.gpulint.core.Finding;
import dev.gpulint.core.LintResult;
import dev.gpulint.core.Span;
import dev.gpulint.engine.UserRules;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.settle.Baseline;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One lint run over a project, set up the same way for the command line and the Maven plugin: the
 * configuration ({@code .gpulint.yaml}, the given file or the nearest from the linted paths upwards,
 * then from the base folder upwards), the files to lint and the configuration's {@code include}
 * context, the user rules of its {@code rule_paths} and of an extra rules folder, its rule settings,
 * thresholds, catalog and {@code job_clusters}, a baseline, the project root ({@link ProjectRoot}:
 * baselines and SARIF name files relative to it) and the project's clusters for jobs whose cluster no
 * linted file defines ({@link ProjectClusters}).
 *
 * <p>Display paths in findings are as given, and relative to the base folder when a file lies under
 * it. A relative configuration file, rules folder, baseline or path is resolved against the base folder.
 */
public final class Project {

    /** What a run found, and the rule metadata (user rules included) to render it with. */
    public record Outcome(LintResult result, RuleCatalog rules) {}

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

    /** @param base the project folder: the working folder for the CLI, the basedir for Maven */
    public Project(Path base) {
        this.base = base;
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
        this.maxFindingsPerRule = n;
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
        if (configFile != null && !java.nio.file.Files.exists(base.resolve(configFile))) out.add("--config: no such file: " + configFile);
        if (rulesDir != null && !java.nio.file.Files.exists(base.resolve(rulesDir))) out.add("--rules: no such folder: " + rulesDir);
        for (String p : paths) {
            if (!java.nio.file.Files.exists(base.resolve(p))) out.add("no such file or folder: " + p);
        }
        return out;
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

    private java.util.function.Consumer<List<Object>> factSink;
    private Config loaded = Config.none();

    /** Hands the derived facts to {@code sink} (see Linter#factSink). */
    public Project factSink(java.util.function.Consumer<List<Object>> sink) { this.factSink = sink; return this; }

    /** The configuration the last {@link #lint()} loaded. */
    public Config config() { return loaded; }

    /** Loads the configuration, finds the files, sets the linter up and lints. */
    public Outcome lint() {
        // set-up is contained like the stages (Contained): what fails is a finding, the rest still runs
        Contained guard = new Contained();
        Path baseAbs = base.toAbsolutePath().normalize();
        List<String> linted = new ArrayList<>(paths);
        if (stdin != null && !stdinName.equals(Discovery.STDIN)) linted.add(stdinName);
        Path start = ProjectRoot.start(baseAbs, linted);
        Path found = Config.find(start);
        Path cfgPath = configFile != null ? base.resolve(configFile) : found != null ? found : Config.find(baseAbs);
        Config cfg = Config.none();
        if (cfgPath != null) {
            String shown = new Discovery(cfg, base).display(cfgPath);
            cfg = guard.stage("configuration (" + shown + ")", () -> Config.load(cfgPath, shown), Config.none());
        }
        dev.gpulint.core.ProjectPaths where = new dev.gpulint.core.ProjectPaths(baseAbs, ProjectRoot.find(cfgPath, start, baseAbs));
        Discovery d = new Discovery(cfg, base);
        if (maxFileSize != null) d.maxFileSize(maxFileSize);
        if (stdin != null) guard.stage("standard input", () -> { d.addText(stdinName, stdin); return null; }, null);
        for (String p : paths) guard.stage("discovery of " + p, () -> { d.add(p); return null; }, null);
        for (Path p : files) guard.stage("discovery of " + d.display(p), () -> { d.addFile(p); return null; }, null);
        guard.stage("discovery of the configuration's include", () -> { d.addIncludes(); return null; }, null);
        List<Finding> earlier = new ArrayList<>(cfg.problems());
        earlier.addAll(d.problems());
        unreadable.forEach((p, e) -> earlier.add(Finding.of("SYN001", Span.at(d.display(p), 1, 1), "io",
                "cannot read '" + d.display(p) + "': " + Discovery.reason(e))));
        Config config = cfg;
        loaded = cfg;
        Linter linter = guard.stage("user rules", () -> linter(config, d, earlier), null);
        if (linter == null) linter = new Linter().configure(cfg);
        earlier.addAll(guard.problems());
        linter.factSink(factSink).baseline(baseline).maxFindingsPerRule(maxFindingsPerRule).projectPaths(where)
                .jobPlacement(f -> {
                    Path file = where.absolute(f);
                    return file == null ? java.util.Optional.empty() : config.placement(file);
                })
                .evidenceLinks(f -> {
                    Path file = where.absolute(f);
                    return file == null ? java.util.Optional.empty() : config.evidenceLink(file);
                });
        // a job's cluster among no linted file is looked for in the project, when the run lies inside it
        // (never from the file system's root: that is no project)
        if (start.startsWith(where.root()) && where.root().getParent() != null) {
            linter.clusterSource(new ProjectClusters(d, where.root()));
        }
        return new Outcome(linter.lint(d.files(), earlier, d.context()), linter.rules());
    }

    /**
     * The linter for a configuration: its user rules (rule_paths, then the extra folder), catalog,
     * thresholds and rule settings. The configuration's rule names are checked against every rule,
     * user rules included; problems are added to {@code problems}.
     */
    private Linter linter(Config cfg, Discovery d, List<Finding> problems) {
        Linter linter = new Linter();
        List<Path> ruleDirs = new ArrayList<>(cfg.rulePathsResolved());
        java.util.Map<Path, Span> namedAt = new java.util.HashMap<>();
        for (String p : cfg.rulePaths()) namedAt.putIfAbsent(cfg.base().resolve(p), cfg.valueSpan("rule_paths", p));
        if (rulesDir != null) ruleDirs.add(base.resolve(rulesDir));
        if (!ruleDirs.isEmpty()) {
            linter.withUserRules(UserRules.load(ruleDirs, d::display, p -> namedAt.getOrDefault(p, Span.at(d.display(p), 1, 1))),
                    Span.at(d.display(ruleDirs.get(ruleDirs.size() - 1)), 1, 1));
        }
        problems.addAll(cfg.checkRuleNames(linter.rules()));
        problems.addAll(cfg.checkParams(linter.rules()));
        return linter.configure(cfg);
    }
}
