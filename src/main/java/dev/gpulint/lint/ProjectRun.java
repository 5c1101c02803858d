package dev.gpulint.lint;

import dev.gpulint.config.Config;
import dev.gpulint.core.Finding;
import dev.gpulint.core.ProjectPaths;
import dev.gpulint.core.Span;
import dev.gpulint.engine.UserRules;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One {@link LintRequest} carried out: the configuration found and loaded, the linter set up from it
 * once ({@link Linter#configure}), the files discovered, then linted. Set-up is contained like the
 * stages ({@link Contained}): what fails is a finding, the rest still runs.
 */
public final class ProjectRun {

    /** The set-up linter, what discovery found, and the problems met on the way (findings). */
    public record Setup(Linter linter, Discovery discovery, List<Finding> problems, ProjectPaths where, Path start) {}

    private final LintRequest request;
    private final Map<Path, IOException> unreadable;

    ProjectRun(LintRequest request, Map<Path, IOException> unreadable) {
        this.request = request;
        this.unreadable = unreadable;
    }

    /**
     * Loads the configuration (the nearest to the request's paths) and sets the linter up, without
     * reading the paths themselves.
     */
    public Setup setUp() {
        return setUp(false);
    }

    private Setup setUp(boolean discover) {
        Contained guard = new Contained();
        Path base = request.base();
        Path baseAbs = base.toAbsolutePath().normalize();
        List<String> linted = new ArrayList<>(request.paths());
        if (request.stdin() != null && !request.stdinName().equals(Discovery.STDIN)) linted.add(request.stdinName());
        Path start = ProjectRoot.start(baseAbs, linted);
        Path found = Config.find(start);
        Path cfgPath = request.configFile() != null ? base.resolve(request.configFile()) : found != null ? found : Config.find(baseAbs);
        Config cfg = Config.none();
        if (cfgPath != null) {
            String shown = new Discovery(cfg, base).display(cfgPath);
            String buffer = buffers.get(cfgPath.toAbsolutePath().normalize());
            cfg = dev.gpulint.config.Trust.apply(guard.stage("configuration (" + shown + ")", () -> Config.load(cfgPath, shown, buffer),
                    Config.none()), cfgPath, request.configFile() != null, consent == null ? List.of(baseAbs) : consent);
        }
        Path top = request.top() == null ? null : request.top().toAbsolutePath().normalize();
        Path fallback = top != null && baseAbs.startsWith(top) ? top : baseAbs;
        ProjectPaths where = new ProjectPaths(baseAbs, ProjectRoot.find(cfgPath, start, fallback));
        Discovery d = new Discovery(cfg, base);
        if (request.maxFileSize() != null) d.maxFileSize(request.maxFileSize());
        d.includeOutside(request.includeOutside());
        d.overlay(buffers);
        configUsed = cfgPath == null ? null : cfgPath.toAbsolutePath().normalize();
        if (discover) discover(guard, d);
        List<Finding> earlier = new ArrayList<>(cfg.problems());
        if (request.configFile() == null) folderNamedLikeTheConfiguration(start, cfgPath, d).ifPresent(earlier::add);
        earlier.addAll(d.problems());
        unreadable.forEach((p, e) -> earlier.add(Finding.of("SYN001", Span.at(d.display(p), 1, 1), "io",
                "cannot read '" + d.display(p) + "': " + Discovery.reason(e))));
        Config config = cfg;
        Linter linter = guard.stage("user rules", () -> linter(config, d, earlier), null);
        if (linter == null) linter = new Linter();
        linter.configure(cfg, where).factSink(factSink).baseline(request.baseline()).maxFindingsPerRule(request.maxFindingsPerRule());
        loaded = cfg;
        earlier.addAll(guard.problems());
        return new Setup(linter, d, earlier, where, start);
    }

    /**
     * A folder named .gpulint.yaml nearer to the linted files than the configuration in use (or with
     * none found): it was meant as the configuration, and passing over it silently would lint with
     * another one, or none.
     */
    private static java.util.Optional<Finding> folderNamedLikeTheConfiguration(Path start, Path used, Discovery d) {
        Path stop = used == null ? null : used.toAbsolutePath().normalize().getParent();
        for (Path dir = start; dir != null && !dir.equals(stop); dir = dir.getParent()) {
            Path c = dir.resolve(Config.NAME);
            if (java.nio.file.Files.isDirectory(c)) {
                return java.util.Optional.of(Finding.of("SYN001", Span.at(d.display(c), 1, 1), "io", "'" + d.display(c)
                        + "' is a folder, not a configuration file: gpulint reads its configuration from a file of that name; "
                        + (used == null ? "no configuration is used" : "the one used is '" + d.display(used) + "'")
                        + ". Move the settings into a file .gpulint.yaml, or pass --config FILE"));
            }
        }
        return java.util.Optional.empty();
    }

    private void discover(Contained guard, Discovery d) {
        if (request.stdin() != null) {
            guard.stage("standard input", () -> { d.addText(request.stdinName(), request.stdin()); return null; }, null);
            stdinShown = d.display(Path.of(request.stdinName()));
        }
        for (String p : request.paths()) guard.stage("discovery of " + p, () -> { d.add(p); return null; }, null);
        for (Path p : request.files()) guard.stage("discovery of " + d.display(p), () -> { d.addFile(p); return null; }, null);
        guard.stage("discovery of the configuration's include", () -> { d.addIncludes(); return null; }, null);
    }

    /** Sets up, discovers the request's files and lints. */
    public Project.Outcome lint() {
        Setup s = setUp(true);
        Linter linter = s.linter();
        // a job's cluster among no linted file is looked for in the project, when the run lies inside it
        // (never from the file system's root: that is no project)
        if (s.start().startsWith(s.where().root()) && s.where().root().getParent() != null) {
            linter.clusterSource(new ProjectClusters(s.discovery(), s.where().root(), clusters));
        }
        Discovery d = s.discovery();
        excluded = List.copyOf(d.excluded());
        List<dev.gpulint.read.SourceFile> files = d.files();
        if (!fixedTexts.isEmpty()) {
            // texts fixed in memory (check --fix, --diff) stand for the files read: linted as if they were on disk
            files = files.stream().map(f -> fixedTexts.containsKey(f.displayPath())
                    ? new dev.gpulint.read.SourceFile(f.path(), f.displayPath(), fixedTexts.get(f.displayPath())) : f).toList();
        }
        sources = dev.gpulint.read.SourceFile.byDisplayPath(files, d.context());
        var result = linter.lint(files, s.problems(), d.context());
        java.util.Set<Path> in = new java.util.HashSet<>();
        for (String f : linter.inputs()) if (s.where().absolute(f) != null) in.add(s.where().absolute(f));
        inputs = java.util.Set.copyOf(in);
        return new Project.Outcome(result, linter.rules());
    }

    private java.util.function.Consumer<List<Object>> factSink;
    private Map<Path, String> buffers = Map.of();
    private List<Path> consent;
    private ClusterIndex clusters;

    /**
     * What a long-lived front end keeps across runs: the folders whose configurations' rules may run when found by
     * searching ({@link dev.gpulint.config.Trust#apply}; the working folder when null; an editor's workspace folders),
     * and what earlier runs learnt of the project's clusters (or null).
     */
    public record Session(List<Path> consent, ClusterIndex clusters) {}

    ProjectRun session(Session s) {
        this.consent = s == null || s.consent() == null ? null : List.copyOf(s.consent());
        this.clusters = s == null ? null : s.clusters();
        return this;
    }

    /** Texts that stand for files, by absolute path (an editor's unsaved buffers; {@link Discovery#overlay}). */
    ProjectRun buffers(Map<Path, String> texts) {
        this.buffers = texts;
        return this;
    }

    private Config loaded = Config.none();
    private Map<String, String> fixedTexts = Map.of();
    private Map<String, dev.gpulint.read.SourceFile> sources = Map.of();
    private String stdinShown;

    /** Texts to lint instead of what the files of these display paths hold (fixed in memory, not yet written). */
    ProjectRun fixedTexts(Map<String, String> texts) {
        this.fixedTexts = Map.copyOf(texts);
        return this;
    }

    /** The files linted (not context), by display path, with the texts linted (after {@link #lint}). */
    Map<String, dev.gpulint.read.SourceFile> sources() { return sources; }

    /** Standard input's display path, or null when it was not read (after {@link #lint}). */
    String stdinShown() { return stdinShown; }

    /** Hands the derived facts to {@code sink} (Linter#factSink). */
    ProjectRun factSink(java.util.function.Consumer<List<Object>> sink) {
        this.factSink = sink;
        return this;
    }

    /** The configuration loaded (after {@link #setUp} or {@link #lint}). */
    Config config() { return loaded; }

    private List<String> excluded = List.of();
    private java.util.Set<Path> inputs = java.util.Set.of();
    private Path configUsed;

    /** Files named to be linted that the configuration's exclude left out (after {@link #lint}). */
    List<String> excluded() { return excluded; }

    /** The files the run took findings or facts from, absolute (after {@link #lint}). */
    java.util.Set<Path> inputs() { return inputs; }

    /** The configuration file used, absolute, or null. */
    Path configUsed() { return configUsed; }

    /**
     * The linter of a configuration's user rules (rule_paths, then the extra folder). The configuration's
     * rule names and parameters are checked against every rule, user rules included; problems are added
     * to {@code problems}.
     */
    private Linter linter(Config cfg, Discovery d, List<Finding> problems) {
        Linter linter = new Linter();
        List<Path> ruleDirs = new ArrayList<>(cfg.rulePathsResolved());
        Map<Path, Span> namedAt = new java.util.HashMap<>();
        for (String p : cfg.rulePaths()) namedAt.putIfAbsent(cfg.base().resolve(p), cfg.valueSpan("rule_paths", p));
        if (request.rulesDir() != null) {
            // a folder both in rule_paths and given again (test-rules DIR, --rules) is loaded once
            Path extra = request.base().resolve(request.rulesDir()).toAbsolutePath().normalize();
            if (ruleDirs.stream().noneMatch(p -> p.toAbsolutePath().normalize().equals(extra))) ruleDirs.add(extra);
        }
        if (!ruleDirs.isEmpty()) {
            linter.withUserRules(UserRules.load(ruleDirs, d::display, p -> namedAt.getOrDefault(p, Span.at(d.display(p), 1, 1))),
                    Span.at(d.display(ruleDirs.get(ruleDirs.size() - 1)), 1, 1));
        }
        problems.addAll(cfg.checkRuleNames(linter.rules()));
        problems.addAll(cfg.checkParams(linter.rules()));
        problems.addAll(cfg.fix().check(linter.rules(), cfg.file()));
        return linter;
    }
}
