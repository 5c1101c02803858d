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
 * configuration ({@code .gpulint.yaml}, the given file or the nearest from the base folder upwards),
 * the files to lint and the configuration's {@code include} context, the user rules of its
 * {@code rule_paths} and of an extra rules folder, its rule settings, thresholds, catalog and
 * {@code job_clusters}, and a baseline.
 *
 * <p>Display paths in findings are relative to the base folder when a file lies under it. A relative
 * configuration file or rules folder is resolved against the base folder; {@link #paths} are taken as
 * a command line gives them.
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

    /** Loads the configuration, finds the files, sets the linter up and lints. */
    public Outcome lint() {
        // set-up is contained like the stages (Contained): what fails is a finding, the rest still runs
        Contained guard = new Contained();
        Path cfgPath = configFile != null ? base.resolve(configFile) : Config.find(base);
        Config cfg = Config.none();
        if (cfgPath != null) {
            String shown = new Discovery(cfg, base).display(cfgPath);
            cfg = guard.stage("configuration (" + shown + ")", () -> Config.load(cfgPath, shown), Config.none());
        }
        Discovery d = new Discovery(cfg, base);
        if (maxFileSize != null) d.maxFileSize(maxFileSize);
        for (String p : paths) guard.stage("discovery of " + p, () -> { d.add(p); return null; }, null);
        for (Path p : files) guard.stage("discovery of " + d.display(p), () -> { d.addFile(p); return null; }, null);
        guard.stage("discovery of the configuration's include", () -> { d.addIncludes(); return null; }, null);
        List<Finding> earlier = new ArrayList<>(cfg.problems());
        earlier.addAll(d.problems());
        unreadable.forEach((p, e) -> earlier.add(Finding.of("SYN001", Span.at(d.display(p), 1, 1), "io",
                "cannot read '" + d.display(p) + "': " + Discovery.reason(e))));
        Config config = cfg;
        Linter linter = guard.stage("user rules", () -> linter(config, d, earlier), null);
        if (linter == null) linter = new Linter().configure(cfg);
        earlier.addAll(guard.problems());
        linter.baseline(baseline).maxFindingsPerRule(maxFindingsPerRule);
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
        if (rulesDir != null) ruleDirs.add(base.resolve(rulesDir));
        if (!ruleDirs.isEmpty()) {
            linter.withUserRules(UserRules.load(ruleDirs, d::display),
                    Span.at(d.display(ruleDirs.get(ruleDirs.size() - 1)), 1, 1));
        }
        problems.addAll(cfg.checkRuleNames(linter.rules()));
        problems.addAll(cfg.checkParams(linter.rules()));
        return linter.configure(cfg);
    }
}
