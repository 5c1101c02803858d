package dev.gpulint.config;

import dev.gpulint.core.DidYouMean;
import dev.gpulint.read.ReadResult;
import dev.gpulint.read.SourceFile;
import dev.gpulint.core.Finding;
import dev.gpulint.tree.ListNode;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The project configuration, `.gpulint.yaml` in the current folder or the
 * nearest above (or `--config FILE`). Keys so far:
 * <ul>
 *   <li>{@code include}: files or folders always linted with the given paths, as context (the
 *       cluster inventories jobs refer to): their own findings are not reported unless they are
 *       linted explicitly too, so a commit that changes one job still resolves its cluster;</li>
 *   <li>{@code exclude}: globs, relative to the configuration's folder, never linted.</li>
 * </ul>
 * The file is validated like a manifest: an unknown key or a wrong type is a SYN002 finding.
 */
public record Config(Path base, String file, List<String> include, List<PathMatcher> exclude,
                     java.util.Map<String, RuleSetting> rules, List<String> rulePaths,
                     List<ParamSetting> params, dev.gpulint.catalog.Catalog catalog, List<Finding> problems,
                     List<JobCluster> jobClusters, Map<String, dev.gpulint.core.Span> valueSpans,
                     List<EvidenceEntry> evidence, Map<String, Double> plan, FixConfig fix) {

    /** Without {@code fix:} settings: every rule's fixes, as the rules offer them. */
    public Config(Path base, String file, List<String> include, List<PathMatcher> exclude,
                  java.util.Map<String, RuleSetting> rules, List<String> rulePaths, List<ParamSetting> params,
                  dev.gpulint.catalog.Catalog catalog, List<Finding> problems, List<JobCluster> jobClusters,
                  Map<String, dev.gpulint.core.Span> valueSpans, List<EvidenceEntry> evidence, Map<String, Double> plan) {
        this(base, file, include, exclude, rules, rulePaths, params, catalog, problems, jobClusters, valueSpans, evidence, plan, FixConfig.NONE);
    }

    /** Without {@code plan:} efficiencies. */
    public Config(Path base, String file, List<String> include, List<PathMatcher> exclude,
                  java.util.Map<String, RuleSetting> rules, List<String> rulePaths, List<ParamSetting> params,
                  dev.gpulint.catalog.Catalog catalog, List<Finding> problems, List<JobCluster> jobClusters,
                  Map<String, dev.gpulint.core.Span> valueSpans, List<EvidenceEntry> evidence) {
        this(base, file, include, exclude, rules, rulePaths, params, catalog, problems, jobClusters, valueSpans, evidence, Map.of());
    }

    public Config(Path base, String file, List<String> include, List<PathMatcher> exclude,
                  java.util.Map<String, RuleSetting> rules, List<String> rulePaths, List<ParamSetting> params,
                  dev.gpulint.catalog.Catalog catalog, List<Finding> problems, List<JobCluster> jobClusters) {
        this(base, file, include, exclude, rules, rulePaths, params, catalog, problems, jobClusters, Map.of(), List.of());
    }

    /** Where an {@code include} or {@code rule_paths} entry is written, for findings about the path it names. */
    public dev.gpulint.core.Span valueSpan(String key, String value) {
        dev.gpulint.core.Span s = valueSpans.get(key + "\u0000" + value);
        return s != null ? s : dev.gpulint.core.Span.at(file == null ? NAME : file, 1, 1);
    }

    /** What configuration {@code evidence} says a captured tool output in {@code displayPath} belongs to: the first matching entry. */
    public java.util.Optional<dev.gpulint.spec.EvidenceLink> evidenceLink(String displayPath) {
        return evidenceLink(Path.of(displayPath));
    }

    /** The same for a file's path (a relative one is taken from the working directory). */
    public java.util.Optional<dev.gpulint.spec.EvidenceLink> evidenceLink(Path file) {
        if (evidence.isEmpty()) return java.util.Optional.empty();
        Path rel = relative(file);
        for (EvidenceEntry e : evidence) if (matchesOrAbove(e.matcher(), rel)) return java.util.Optional.of(e.link());
        return java.util.Optional.empty();
    }

    /** A rule parameter set in the configuration (params:, or a thresholds: name), with where its rule and name are written. */
    public record ParamSetting(String rule, String name, double value, dev.gpulint.core.Span ruleSpan, dev.gpulint.core.Span nameSpan) {}

    /** A {@code job_clusters} entry: jobs of other formats in files matching {@code files} run on this cluster. */
    public record JobCluster(String files, PathMatcher matcher, String cluster, String nodeGroup, dev.gpulint.core.Span at) {}

    /** An {@code evidence} entry: captured tool outputs in files matching {@code files} belong to {@code link}. */
    public record EvidenceEntry(String files, PathMatcher matcher, dev.gpulint.spec.EvidenceLink link) {}

    public Config(Path base, String file, List<String> include, List<PathMatcher> exclude,
                  java.util.Map<String, RuleSetting> rules, List<String> rulePaths,
                  List<ParamSetting> params, dev.gpulint.catalog.Catalog catalog, List<Finding> problems) {
        this(base, file, include, exclude, rules, rulePaths, params, catalog, problems, List.of());
    }

    /** The cluster configuration names for a job of another format in {@code displayPath}: the first matching entry. */
    public java.util.Optional<dev.gpulint.spec.JobPlacement> placement(String displayPath) {
        return placement(Path.of(displayPath));
    }

    /** The same for a file's path (a relative one is taken from the working directory). */
    public java.util.Optional<dev.gpulint.spec.JobPlacement> placement(Path file) {
        if (jobClusters.isEmpty()) return java.util.Optional.empty();
        Path rel = relative(file);
        for (JobCluster j : jobClusters) {
            if (matchesOrAbove(j.matcher(), rel)) return java.util.Optional.of(new dev.gpulint.spec.JobPlacement(j.cluster(), j.nodeGroup(), j.at()));
        }
        return java.util.Optional.empty();
    }

    /** A `rules:` entry: off or a level, with the span of its key for findings about it. */
    public record RuleSetting(String value, dev.gpulint.core.Span keySpan) {}

    public Config(Path base, String file, List<String> include, List<PathMatcher> exclude, List<Finding> problems) {
        this(base, file, include, exclude, java.util.Map.of(), List.of(), List.of(),
                dev.gpulint.catalog.Catalog.builtIn(), problems);
    }

    /** The configuration's rule_paths, resolved against its folder. */
    public List<Path> rulePathsResolved() {
        List<Path> out = new ArrayList<>();
        for (String p : rulePaths) out.add(base.resolve(p));
        return out;
    }

    /** The `rules:` settings as rule ID or name → off/error/warning/note. */
    public java.util.Map<String, String> ruleLevels() {
        java.util.Map<String, String> m = new java.util.LinkedHashMap<>();
        rules.forEach((k, v) -> m.put(k, v.value()));
        return m;
    }

    /** SYN002 findings for `rules:` keys that name no rule of the catalog (with a did-you-mean). */
    public List<Finding> checkRuleNames(RuleNames names) {
        List<Finding> out = new ArrayList<>();
        List<String> known = names.idsAndNames();
        rules.forEach((k, v) -> {
            if (!known.contains(k)) {
                String guess = DidYouMean.closest(k, known);
                out.add(Finding.of("SYN002", v.keySpan(), "config/rules/" + k, "'" + k + "' in the rules of " + file
                        + " is no gpulint rule ID or name" + (guess != null ? "; did you mean '" + guess + "'?" : "")));
            }
        });
        return out;
    }

    /** SYN002 findings for params: entries that name no rule, or no parameter of that rule's metadata. */
    public List<Finding> checkParams(RuleNames names) {
        List<Finding> out = new ArrayList<>();
        for (ParamSetting p : params) {
            List<String> known = names.params().get(p.rule());
            if (known == null) {
                out.add(Finding.of("SYN002", p.ruleSpan(), "config/params/" + p.rule(), "'" + p.rule() + "' in the params of "
                        + file + " is no gpulint rule ID"));
            } else if (!known.contains(p.name())) {
                String guess = DidYouMean.closest(p.name(), known);
                out.add(Finding.of("SYN002", p.nameSpan(), "config/params/" + p.rule() + "/" + p.name(), p.rule() + " has no parameter '"
                        + p.name() + "'" + (known.isEmpty() ? "; it takes none"
                        : guess != null ? "; did you mean '" + guess + "'?" : "; its parameters: " + String.join(", ", known))));
            }
        }
        return out;
    }

    public static final String NAME = ".gpulint.yaml";
    static final List<String> KEYS = List.of("include", "exclude", "rules", "rule_paths", "thresholds", "params", "catalog", "job_clusters", "evidence", "plan", "fix");
    static final List<String> THRESHOLDS = List.of("allreduce_seconds", "bubble_warning", "bubble_note", "memory_warning_percent");
    static final List<String> SETTINGS = List.of("off", "error", "warning", "note");

    public static Config none() { return new Config(Path.of("").toAbsolutePath(), null, List.of(), List.of(), List.of()); }

    /** The nearest .gpulint.yaml from {@code start} upwards, within {@link Trust#searchEnds}; {@link Trust#apply} decides its use. */
    public static Path find(Path start) {
        for (Path d = start.toAbsolutePath().normalize(); d != null; d = d.getParent()) {
            Path c = d.resolve(NAME);
            if (Files.isRegularFile(c)) return c;
            if (Trust.searchEnds(d)) return null;
        }
        return null;
    }

    /** Reads a configuration file; a missing or unreadable file is a finding, never an exception. */
    public static Config load(Path path, String display) {
        return load(path, display, null);
    }

    /** The configuration at {@code path} from {@code text} (an editor's unsaved buffer), or from the file when it is null. */
    public static Config load(Path path, String display, String text) {
        List<Finding> problems = new ArrayList<>();
        Path base = path.toAbsolutePath().normalize().getParent();
        if (text == null) try {
            text = dev.gpulint.core.RegularFiles.readString(path, dev.gpulint.core.RegularFiles.SIDE_FILE_LIMIT);
        } catch (IOException e) {
            String why = e instanceof dev.gpulint.core.RegularFiles.NotRegular || e instanceof dev.gpulint.core.RegularFiles.TooLarge
                    ? e.getMessage() : e instanceof java.nio.file.NoSuchFileException ? "no such file"
                    : e instanceof java.nio.file.AccessDeniedException ? "permission denied" : e.getClass().getSimpleName();
            problems.add(Finding.of("TOOL001", dev.gpulint.core.Span.at(display, 1, 1), "config",
                    "cannot read the configuration '" + display + "': " + why));
            return new Config(base, display, List.of(), List.of(), problems);
        }
        java.util.Map<String, RuleSetting> ruleSettings = new java.util.LinkedHashMap<>();
        List<String> rulePaths = new ArrayList<>();
        List<ParamSetting> params = new ArrayList<>();
        dev.gpulint.catalog.Catalog catalog = dev.gpulint.catalog.Catalog.builtIn();
        ReadResult r = ConfigInput.read(SourceFile.of(display, text));
        problems.addAll(r.problems());
        List<String> include = new ArrayList<>();
        List<PathMatcher> exclude = new ArrayList<>();
        List<JobCluster> jobClusters = new ArrayList<>();
        Map<String, dev.gpulint.core.Span> spans = new java.util.HashMap<>();
        List<EvidenceEntry> evidence = new ArrayList<>();
        Map<String, Double> plan = new java.util.LinkedHashMap<>();
        FixConfig fix = FixConfig.NONE;
        for (var doc : r.documents()) {
            ConfigInput.duplicates(doc.root(), display, problems);
            for (MappingNode.Entry e : doc.root().entries()) {
                String key = e.key().text();
                switch (key) {
                    case "include" -> strings(e, display, problems).forEach(n -> {
                        if (ConfigInput.glob(n.text(), n, key, problems) != null) include.add(n.text());
                        spans.putIfAbsent(key + "\u0000" + n.text(), n.span());
                    });
                    case "rule_paths" -> strings(e, display, problems).forEach(n -> {
                        rulePaths.add(n.text());
                        spans.putIfAbsent(key + "\u0000" + n.text(), n.span());
                    });
                    case "thresholds" -> ParamSettings.thresholds(e, display, problems, params);
                    case "params" -> ParamSettings.params(e, display, problems, params);
                    case "job_clusters" -> FileEntries.jobClusters(e, display, problems, jobClusters);
                    case "evidence" -> FileEntries.evidence(e, display, problems, evidence);
                    case "plan" -> PlanSettings.read(e, display, problems, plan);
                    case "fix" -> fix = FixConfig.read(e, display, problems);
                    case "catalog" -> catalog = catalog(e, display, text, problems);
                    case "exclude" -> strings(e, display, problems).forEach(n -> {
                        PathMatcher m = ConfigInput.glob(n.text(), n, key, problems);
                        if (m != null) exclude.add(m);
                    });
                    case "rules" -> {
                        if (!(e.value() instanceof MappingNode rm)) {
                            problems.add(Finding.of("SYN002", e.value().span(), "config/rules",
                                    "'rules' in " + display + " must map rule IDs or names to off, error, warning or note"));
                            break;
                        }
                        for (MappingNode.Entry re : rm.entries()) {
                            String v = re.value() instanceof ScalarNode sv ? sv.text().toLowerCase(java.util.Locale.ROOT) : "";
                            if (v.equals("false")) v = "off";   // YAML reads a plain off as false
                            if (!SETTINGS.contains(v)) {
                                problems.add(Finding.of("SYN002", re.value().span(), "config/rules/" + re.key().text(),
                                        "rule setting '" + v + "' for " + re.key().text() + " must be off, error, warning or note"));
                                continue;
                            }
                            ruleSettings.put(re.key().text(), new RuleSetting(v, re.key().span()));
                        }
                    }
                    default -> {
                        String guess = DidYouMean.closest(key, KEYS);
                        problems.add(Finding.of("SYN002", e.key().span(), "config/" + key,
                                "unknown key '" + key + "' in " + display + (guess != null ? "; did you mean '" + guess + "'?"
                                        : "; valid keys: " + String.join(", ", KEYS))));
                    }
                }
            }
        }
        return new Config(base, display, include, exclude, ruleSettings, rulePaths, params, catalog, problems, jobClusters, spans,
                evidence, Map.copyOf(plan), fix);
    }


    @SuppressWarnings("unchecked")
    private static dev.gpulint.catalog.Catalog catalog(MappingNode.Entry e, String display, String text, List<Finding> problems) {
        dev.gpulint.catalog.Catalog builtIn = dev.gpulint.catalog.Catalog.builtIn();
        try {
            Map<String, Object> all = (Map<String, Object>) new org.snakeyaml.engine.v2.api.Load(
                    org.snakeyaml.engine.v2.api.LoadSettings.builder().build()).loadFromString(text);
            Object c = all.get("catalog");
            if (!(c instanceof Map)) throw new IllegalArgumentException("'catalog' must be a mapping with gpus: and nics: lists");
            for (Object k : ((Map<String, Object>) c).keySet()) {
                if (!List.of("gpus", "nics").contains(String.valueOf(k))) {
                    throw new IllegalArgumentException("unknown catalog section '" + k + "'; the sections are gpus and nics");
                }
            }
            return builtIn.with((Map<String, Object>) c);
        } catch (RuntimeException ex) {
            problems.add(Finding.of("SYN002", e.key().span(), "config/catalog", "the catalog of " + display + ": " + ex.getMessage()));
            return builtIn;
        }
    }

    private static List<ScalarNode> strings(MappingNode.Entry e, String display, List<Finding> problems) {
        List<ScalarNode> out = new ArrayList<>();
        Node v = e.value();
        List<Node> items = v instanceof ListNode l ? l.items() : List.of(v);
        for (Node n : items) {
            if (n instanceof ScalarNode s && !s.isNull()) out.add(s);
            else problems.add(Finding.of("SYN002", n.span(), "config/" + e.key().text(),
                    "'" + e.key().text() + "' in " + display + " must be a path or a list of paths, found " + n.describe()));
        }
        return out;
    }

    /** Whether a file is excluded (globs match the path relative to the configuration's folder). */
    public boolean excluded(Path file) {
        if (exclude.isEmpty()) return false;
        Path rel = relative(file);
        for (PathMatcher m : exclude) if (matchesOrAbove(m, rel)) return true;
        return false;
    }

    /** A file's path relative to the configuration's folder (absolute when it lies outside it). */
    private Path relative(Path file) {
        Path abs = file.toAbsolutePath().normalize();
        return abs.startsWith(base) ? base.relativize(abs) : abs;
    }

    /** The glob matches the path or a folder above it: "legacy/**" takes the folder's files at any depth. */
    private static boolean matchesOrAbove(PathMatcher m, Path rel) {
        if (m.matches(rel)) return true;
        for (Path p = rel.getParent(); p != null; p = p.getParent()) if (m.matches(p)) return true;
        return false;
    }
}
