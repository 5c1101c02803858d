package dev.gpulint.lint;

import dev.gpulint.config.Config;
import dev.gpulint.core.Finding;
import dev.gpulint.core.ProjectPaths;
import dev.gpulint.core.Span;
import dev.gpulint.engine.UserRules;
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

    /**
     * The set-up linter, what discovery found, and the problems met on the way (findings); {@code where} names the root the
     * reports are relative to, {@code project} the folder a job's missing cluster is looked for in.
     */
    public record Setup(Linter linter, Discovery discovery, List<Finding> problems, ProjectPaths where, Path start, Config config,
                        Path configUsed, Path project) {}

    private final LintRequest request;

    public ProjectRun(LintRequest request) {
        this.request = request;
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
            String buffer = request.overlay().text(Overlay.key(base, cfgPath));
            cfg = dev.gpulint.config.Trust.apply(guard.stage("configuration (" + shown + ")", () -> Config.load(cfgPath, shown, buffer),
                    Config.none()), cfgPath, request.configFile() != null, request.session() == null || request.session().consent() == null ? List.of(baseAbs) : request.session().consent());
        }
        Path top = request.top() == null ? null : request.top().toAbsolutePath().normalize();
        Path fallback = top != null && baseAbs.startsWith(top) ? top : baseAbs;
        // the root the reports and fingerprints name files from: without a configuration or git top level above the
        // linted paths, the folder they have in common, never the working directory (the same bytes from any folder)
        ProjectPaths where = new ProjectPaths(baseAbs, ProjectRoot.find(cfgPath, start, top != null && baseAbs.startsWith(top) ? top : start));
        // the project a job's cluster is looked for in: there, the working directory stays the last resort (an editor's workspace)
        Path project = ProjectRoot.find(cfgPath, start, fallback);
        Discovery d = new Discovery(cfg, base);
        if (request.maxFileSize() != null) d.maxFileSize(request.maxFileSize());
        d.includeOutside(request.includeOutside());
        d.overlay(request.overlay());
        if (discover) discover(guard, d);
        List<Finding> earlier = new ArrayList<>(cfg.problems());
        if (request.configFile() == null) folderNamedLikeTheConfiguration(start, cfgPath, d).ifPresent(earlier::add);
        earlier.addAll(d.problems());
        request.unreadable().forEach((p, e) -> earlier.add(Finding.of("SYN001", Span.at(d.display(p), 1, 1), "io",
                "cannot read '" + d.display(p) + "': " + Discovery.reason(e))));
        Config config = cfg;
        Linter linter = guard.stage("user rules", () -> linter(config, d, earlier), null);
        if (linter == null) linter = new Linter();
        linter.configure(cfg, where).baseline(request.baseline()).maxFindingsPerRule(request.maxFindingsPerRule());
        earlier.addAll(guard.problems());
        return new Setup(linter, d, earlier, where, start, cfg, cfgPath == null ? null : cfgPath.toAbsolutePath().normalize(), project);
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
        }
        for (String p : request.paths()) guard.stage("discovery of " + p, () -> { d.add(p); return null; }, null);
        for (Path p : request.files()) guard.stage("discovery of " + d.display(p), () -> { d.addFile(p); return null; }, null);
        guard.stage("discovery of the configuration's include", () -> { d.addIncludes(); return null; }, null);
    }

    /** Sets up, discovers the request's files and lints: what the run made. */
    public RunOutcome lint() {
        Setup s = setUp(true);
        Linter linter = s.linter();
        // a job's cluster among no linted file is looked for in the project, when the run lies inside it
        // (never from the file system's root: that is no project)
        if (s.start().startsWith(s.project()) && s.project().getParent() != null) {
            linter.clusterSource(new ProjectClusters(s.discovery(), s.project(), request.session() == null ? null : request.session().clusters()));
        }
        Discovery d = s.discovery();
        String stdinShown = request.stdin() == null ? null : d.display(Path.of(request.stdinName()));
        List<dev.gpulint.read.SourceFile> files = d.files();
        Map<String, dev.gpulint.read.SourceFile> sources = dev.gpulint.read.SourceFile.byDisplayPath(files, d.context());
        List<Object> facts = new ArrayList<>();
        List<dev.gpulint.derive.estimate.JobEstimate> estimates = new ArrayList<>();
        var result = linter.lint(files, s.problems(), d.context(), facts::addAll, estimates::addAll);
        java.util.Set<Path> in = new java.util.HashSet<>();
        for (String f : linter.inputs()) if (s.where().absolute(f) != null) in.add(s.where().absolute(f));
        return new RunOutcome(result, linter.rules(), facts, estimates, sources, in, List.copyOf(d.excluded()), s.config(), s.configUsed(), stdinShown);
    }

    /**
     * What a long-lived front end keeps across runs: the folders whose configurations' rules may run when found by
     * searching ({@link dev.gpulint.config.Trust#apply}; the working folder when null; an editor's workspace folders),
     * and what earlier runs learnt of the project's clusters (or null).
     */
    public record Session(List<Path> consent, ClusterIndex clusters) {
        public Session {
            consent = consent == null ? null : List.copyOf(consent);
        }
    }

    /** The rules' IDs, names and parameter names, which the configuration's rule names are checked against. */
    public static dev.gpulint.config.RuleNames names(dev.gpulint.meta.RuleCatalog rules) {
        List<String> known = new ArrayList<>();
        Map<String, List<String>> params = new java.util.LinkedHashMap<>();
        for (var r : rules.all()) {
            known.add(r.id());
            known.add(r.name());
            params.put(r.id(), List.copyOf(r.params().keySet()));
        }
        return new dev.gpulint.config.RuleNames(known, params);
    }

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
        dev.gpulint.config.RuleNames names = names(linter.rules());
        problems.addAll(cfg.checkRuleNames(names));
        problems.addAll(cfg.checkParams(names));
        problems.addAll(cfg.fix().check(names, cfg.file()));
        return linter;
    }
}
