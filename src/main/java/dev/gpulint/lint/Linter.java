package dev.gpulint.lint;

import dev.gpulint.bind.Binder;
import dev.gpulint.bind.adapt.Adapters;
import dev.gpulint.catalog.Catalog;
import dev.gpulint.config.Config;
import dev.gpulint.core.Finding;
import dev.gpulint.core.Fold;
import dev.gpulint.core.LintResult;
import dev.gpulint.core.ProjectPaths;
import dev.gpulint.core.Span;
import dev.gpulint.derive.Deriver;
import dev.gpulint.derive.estimate.JobEstimate;
import dev.gpulint.derive.evid.EvidenceAnalysis;
import dev.gpulint.derive.unit.UnitEdits;
import dev.gpulint.derive.unit.UnitlessReadings;
import dev.gpulint.engine.RuleEngine;
import dev.gpulint.engine.RuleParams;
import dev.gpulint.engine.UserRuleRun;
import dev.gpulint.engine.UserRules;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.read.ReadResult;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.evidence.Evidence;
import dev.gpulint.settle.FindingCap;
import dev.gpulint.fix.FixSettings;
import dev.gpulint.settle.Settler;
import dev.gpulint.settle.Unfolder;
import dev.gpulint.spec.EvidenceLink;
import dev.gpulint.spec.JobPlacement;
import dev.gpulint.spec.Model;
import dev.gpulint.spec.Specs;
import dev.gpulint.tree.Document;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The pipeline: read (DSL or YAML) → bind → derive → rules → settle (settle.Settler). Files
 * that do not parse are reported (SYN001) and left out; every other file is
 * still linted.
 */
public final class Linter {

    private Catalog catalog;
    private Map<String, Double> params = Map.of();
    private Map<String, Double> planEfficiencies = Map.of();

    /**
     * The project's configuration, pushed in once: its catalog additions, rule settings, rule parameters,
     * and its job_clusters and evidence links, whose globs are matched against each file's absolute path
     * ({@code where} turns the display paths of findings into those).
     */
    public Linter configure(Config config, ProjectPaths where) {
        this.catalog = config.catalog();
        Map<String, Double> p = new LinkedHashMap<>();
        for (Config.ParamSetting x : config.params()) p.put(x.rule() + "." + x.name(), x.value());
        this.params = p;
        this.planEfficiencies = config.plan();
        this.ruleSettings = config.ruleLevels();
        this.fixSettings = FixSettings.of(config.fix());
        this.paths = where;
        this.jobPlacement = f -> {
            Path file = where.absolute(f);
            return file == null ? Optional.empty() : config.placement(file);
        };
        this.evidenceLinks = f -> {
            Path file = where.absolute(f);
            return file == null ? Optional.empty() : config.evidenceLink(file);
        };
        return this;
    }

    /** The configuration's {@code plan:} efficiencies, which the plan and check's estimates price the jobs with. */
    public Map<String, Double> planEfficiencies() { return planEfficiencies; }

    /** {@link #configure(Config, ProjectPaths)} for files named relative to the working folder. */
    public Linter configure(Config config) {
        return configure(config, ProjectPaths.here());
    }

    private Function<String, Optional<EvidenceLink>> evidenceLinks = f -> Optional.empty();

    /** What captured tool outputs belong to, by file (configuration {@code evidence}). */
    public Linter evidenceLinks(Function<String, Optional<EvidenceLink>> links) { this.evidenceLinks = links; return this; }

    /** The rule parameters alone ({@code "PAR006.note_at" → 0.1}), as a rule case's .gpulint.yaml sets them. */
    public Linter params(Map<String, Double> params) { this.params = Map.copyOf(params); return this; }

    private RuleCatalog rules;
    private final RuleEngine engine = new RuleEngine();
    private boolean parallel = true;
    private LocalDate today = LocalDate.now();
    private Map<String, String> ruleSettings = Map.of();

    private Set<String> baseline = Set.of();
    private Function<String, Optional<JobPlacement>> jobPlacement = f -> Optional.empty();

    /** Which cluster the jobs of other formats run on, by file (configuration {@code job_clusters}). */
    public Linter jobPlacement(Function<String, Optional<JobPlacement>> p) { this.jobPlacement = p; return this; }

    private ProjectPaths paths = ProjectPaths.here();

    /** Where the project root is: fingerprints (baseline, SARIF) name files relative to it. */
    public Linter projectPaths(ProjectPaths p) { this.paths = p; return this; }

    private Function<Set<String>, List<Document>> clusterSource;

    /**
     * Where to look for clusters that jobs name but no linted file defines (the project's manifests,
     * {@link ProjectClusters}): asked with the missing names, only when there are some; the documents
     * it returns are bound for their clusters only, and their own findings are not reported.
     */
    public Linter clusterSource(Function<Set<String>, List<Document>> source) {
        this.clusterSource = source;
        return this;
    }

    /** Fingerprints of accepted findings (from a baseline SARIF file): those are not reported. */
    public Linter baseline(Set<String> fingerprints) { this.baseline = fingerprints; return this; }

    /** The date suppressions' until= are compared with (tests fix it). */
    public Linter today(LocalDate d) { this.today = d; return this; }

    private UserRules userRules;
    private Span userRulesAt;

    /** Runs a team's own rules after the built-in ones (their metadata joins {@link #rules()}). */
    public Linter withUserRules(UserRules user, Span where) {
        this.userRules = user;
        this.userRulesAt = where;
        this.rules = rules.withExtra(user.metadata());
        return this;
    }

    /** The rule metadata this linter settles and renders with, the team's own rules included. */
    public RuleCatalog rules() { return rules; }

    private int maxFindingsPerRule = FindingCap.DEFAULT_PER_RULE_PER_FILE;

    /** At most this many findings of one rule in one file (1,000 by default); a note counts the rest. */
    public Linter maxFindingsPerRule(int n) { this.maxFindingsPerRule = n; return this; }

    private Duration userRuleBudget = UserRuleRun.DEFAULT_BUDGET;

    /** The wall-clock budget of the team's own rules in one run (60 s by default). */
    public Linter userRuleBudget(Duration budget) { this.userRuleBudget = budget; return this; }

    private final Set<String> inputs = Collections.synchronizedSet(new TreeSet<>());

    /**
     * The display paths of the files the last {@link #lint} took something from (manifests, other formats an
     * adapter bound, evidence, files that failed to parse), context files included: a report must not overwrite one.
     */
    public Set<String> inputs() { return inputs; }

    /** Reads files on one thread only (tests compare it with the parallel default). */
    public Linter serial() { parallel = false; return this; }

    public Linter() { this(Catalog.builtIn(), RuleCatalog.builtIn()); }

    /** Starts loading the rule base, the hardware catalog and the rule metadata in the background ({@link WarmUp}). */
    public static void warmUp() { WarmUp.start(); }

    public Linter(Catalog catalog, RuleCatalog rules) {
        this.catalog = catalog;
        this.rules = rules;
    }

    public LintResult lint(List<SourceFile> files) {
        return lint(files, List.of());
    }

    /** @param earlier findings met before reading (unreadable paths), settled with the rest */
    public LintResult lint(List<SourceFile> files, List<Finding> earlier) {
        return lint(files, earlier, Set.of());
    }

    /**
     * @param context display paths of files linted only as context (configuration `include`): their
     *                facts take part, their own findings are not reported
     */
    public LintResult lint(List<SourceFile> files, List<Finding> earlier, Set<String> context) {
        return lint(files, earlier, context, null);
    }

    /**
     * {@link #lint(List, List, Set)}, handing the derived facts (the built-in rules') to {@code factSink} before the
     * rules run (null: to none): how `gpulint plan` and the layout fixes read the jobs; then, once the findings are
     * unfolded, the unit fixes' edits ({@link UnitEdits}, at the places of the findings about their values), which
     * app.Checks gives to those findings. A sink per call, so one linter serves concurrent runs (the rule cases)
     * without a lock. Without a sink the findings carry no Java-made fix: app.Checks is the entry that adds them.
     */
    public LintResult lint(List<SourceFile> files, List<Finding> earlier, Set<String> context, Consumer<List<Object>> factSink) {
        return lint(files, earlier, context, factSink, null);
    }

    /**
     * As above, also handing each job's estimate, which derive makes beside the facts (dev.gpulint.derive.Derived) and no
     * rule matches, to {@code estimateSink} (null: to none): what the plan, diagnose and the layout fixes price.
     */
    public LintResult lint(List<SourceFile> files, List<Finding> earlier, Set<String> context, Consumer<List<Object>> factSink,
                           Consumer<List<JobEstimate>> estimateSink) {
        List<Finding> findings = new ArrayList<>(earlier);
        inputs.clear();
        List<Document> documents = new ArrayList<>();
        List<Adapters.Input> foreign = new ArrayList<>();
        List<String> linted = new ArrayList<>();
        List<Evidence> evidence = new ArrayList<>();
        boolean failed = !earlier.isEmpty();
        // Files are read and parsed in parallel; results keep the input order, so output does not
        // depend on thread scheduling.
        // Every stage is contained (Contained): a Throwable in one file's read or bind is a finding for
        // that file, in a shared stage a finding naming the stage; the rest is still reported.
        Contained guard = new Contained();
        List<ReadResult> results = (parallel ? files.parallelStream() : files.stream()).map(Contained::read).toList();
        for (ReadResult r : results) {
            SourceFile f = r.file();
            if (r.failed()) failed = true;
            findings.addAll(r.problems());
            if (r.manifest() && !context.contains(f.displayPath())) linted.add(f.displayPath());
            if (r.manifest() || r.failed() || !r.evidence().isEmpty()) inputs.add(f.displayPath());
            documents.addAll(r.documents());
            evidence.addAll(r.evidence());
            if (!r.foreign().isEmpty()) foreign.add(new Adapters.Input(f, r.foreign()));
        }
        results = null;
        // the specs live only inside facts(): a fleet file's million node-group specs are garbage before the rules run
        Derived facts = facts(guard, documents, foreign, evidence);
        findings.addAll(facts.findings());
        for (String f : facts.adapted()) if (!context.contains(f) && !linted.contains(f)) linted.add(f);
        inputs.addAll(facts.adapted());
        Set<String> quiet = new HashSet<>(context);
        quiet.addAll(facts.lookedUp());
        if (factSink != null) factSink.accept(facts.builtIn());
        if (estimateSink != null) estimateSink.accept(facts.estimates());
        findings.addAll(guard.stage("built-in rules", () -> engine.run(facts.builtIn()), List.of()));
        if (userRules != null) {
            if (!userRules.problems().isEmpty()) failed = true;
            findings.addAll(userRules.problems());
            if (userRules.kieBase() != null) {
                List<Finding> user = UserRuleRun.run(userRules.kieBase(), facts.user(), "rules of " + userRulesAt.file(),
                        100_000, userRulesAt, userRuleBudget, userRules::fileOf, userRules.metadata());
                if (user.stream().anyMatch(x -> x.identity().equals("rules#failed") || x.identity().equals("rules#budget"))) failed = true;
                findings.addAll(user);
            }
        }
        findings.addAll(guard.problems());
        if (guard.failed()) failed = true;
        // a folded node group's findings, once per node group it stands for
        Unfolder unfolder = new Unfolder(facts.folds());
        List<Finding> all = guard.stage("unfold", () -> unfolder.unfold(findings), List.copyOf(findings));
        // the unit fixes' edits where the findings about their values now are: handed out with the facts, for app.Checks
        if (factSink != null && !facts.unitEdits().isEmpty()) {
            factSink.accept(guard.stage("unfold", () -> {
                List<Object> moved = new ArrayList<>();
                for (UnitEdits e : facts.unitEdits()) moved.addAll(unfolder.unfold(e.identity(), e::moved));
                return moved;
            }, List.of()));
        }
        findings.clear();
        findings.addAll(all);
        // a context file's own findings are not reported, except that it does not parse: never silent
        findings.removeIf(x -> quiet.contains(x.span().file()) && !x.ruleId().equals("SYN001") && !x.ruleId().equals("TOOL001"));
        var settled = new Settler(rules, ruleSettings, baseline, today, paths).settle(files, findings);
        List<Finding> capped = FindingCap.apply(settled.findings(), maxFindingsPerRule);
        return new LintResult(fixSettings.place(capped, files, quiet, rules), linted, failed, settled.baselined(), paths);
    }

    private FixSettings fixSettings = FixSettings.ALL;

    /** Which rules' fixes are offered, and how safe (configuration {@code fix:}). */
    public Linter fixSettings(FixSettings s) { this.fixSettings = s; return this; }

    /**
     * Binds the documents and the other formats' configurations (freeing both lists as soon as they are bound),
     * links jobs to clusters, and derives the facts the rules match.
     */
    private Derived facts(Contained guard, List<Document> documents, List<Adapters.Input> foreign, List<Evidence> evidence) {
        List<Fold> folds = new ArrayList<>();
        for (Document d : documents) folds.addAll(d.folds().all());
        Model bound = guard.bind(documents);
        // the document trees are bound: free them before derive and rules (a fleet file's tree is most of the memory)
        documents.clear();
        // configurations of other formats (NeMo, Megatron-LM, Kubernetes, SkyPilot, DeepSpeed, DCGM)
        Model adapted = guard.adapt(foreign);
        foreign.clear();
        List<Specs.Cluster> clusters = new ArrayList<>(bound.clusters());
        clusters.addAll(adapted.clusters());     // a network operator's NIC settings: a fabric without node groups
        Set<String> lookedUp = new HashSet<>();
        if (clusterSource != null) {
            Set<String> missing = missingClusters(bound, adapted.jobs());
            if (!missing.isEmpty()) {
                List<Document> found = guard.stage("cluster lookup in the project", () -> clusterSource.apply(missing), List.of());
                for (Document d : found) folds.addAll(d.folds().all());
                clusters.addAll(guard.stage("cluster lookup in the project", () -> new Binder().bind(found).clusters(), List.of()));
                for (Document d : found) lookedUp.add(d.file());
            }
        }
        Model linked = guard.stage("link", () -> Adapters.link(adapted.jobs(), clusters, catalog, jobPlacement), Model.EMPTY);
        clusters.addAll(linked.clusters());
        List<Specs.Job> jobs = new ArrayList<>(bound.jobs());
        jobs.addAll(linked.jobs());
        List<Finding> findings = new ArrayList<>(bound.findings());
        findings.addAll(adapted.findings());
        Model bare = new Model(clusters, jobs, adapted.counters(), adapted.queries(), adapted.nicPolicies(), adapted.files(), findings,
                bound.unitless());
        Model model = bare;
        // the unit fix's edits (UNIT003's ID.yaml names fix-unit): the unit of a bandwidth the binder rejected, where the
        // catalog figure makes it certain; app.Checks gives them to the findings, titled, after the run
        List<UnitEdits> unitEdits = guard.stage("unit readings", () -> UnitEdits.of(UnitlessReadings.readings(bare.unitless(),
                bare.clusters(), bare.jobs(), catalog)), List.of());
        dev.gpulint.derive.Derived derived = derive(guard, model, evidence);
        List<Object> builtIn = derived.facts();
        // a team's own rules may count, join or name node groups: they match facts of every one, none folded
        List<Object> user = userRules == null || folds.isEmpty() ? builtIn
                : derive(guard, model.withClusters(clusters.stream().map(Specs.Cluster::unfolded).toList()), evidence).facts();
        return new Derived(builtIn, user, model.findings(), model.files(), lookedUp, folds, unitEdits, derived.estimates());
    }

    /**
     * What {@link #facts} made: the facts of the built-in rules and of a team's (the same list unless something folded), the
     * findings met binding, the files the adapters recognised, the cluster files found by lookup, the folded node groups,
     * the unit fixes' edits, and the jobs' estimates (of the built-in rules' model; no rule matches them).
     */
    private record Derived(List<Object> builtIn, List<Object> user, List<Finding> findings, List<String> adapted,
                           Set<String> lookedUp, List<Fold> folds, List<UnitEdits> unitEdits, List<JobEstimate> estimates) {}

    /** The derive stage's facts with the evidence's and the rule parameters' after them, and the jobs' estimates. */
    private dev.gpulint.derive.Derived derive(Contained guard, Model model, List<Evidence> evidence) {
        // the evidence first: NET003 prices its all-reduce at the nccl-tests bandwidths measured, as the plan does
        List<Object> measured = guard.stage("evidence", () -> new EvidenceAnalysis(catalog, model.clusters(), model.jobs(), evidenceLinks)
                .facts(evidence), List.of());
        dev.gpulint.derive.Derived derived = guard.stage("derive", () -> new Deriver(catalog).pricedAsPlanned(measured, planEfficiencies)
                .derive(model), new dev.gpulint.derive.Derived(List.of(), List.of()));
        List<Object> facts = new ArrayList<>(derived.facts());
        facts.addAll(measured);
        facts.addAll(guard.stage("rule parameters", () -> RuleParams.facts(rules, params), List.of()));
        return new dev.gpulint.derive.Derived(facts, derived.estimates());
    }

    /** Cluster names jobs refer to (by name, or through job_clusters) that none of the linted files defines. */
    private Set<String> missingClusters(Model bound, List<Specs.Job> foreign) {
        Set<String> names = new TreeSet<>();
        for (var j : bound.jobs()) if (j.cluster() != null && j.cluster().value() != null) names.add(j.cluster().value());
        for (var j : foreign) jobPlacement.apply(j.file()).ifPresent(p -> names.add(p.cluster()));
        for (var c : bound.clusters()) if (c.name() != null) names.remove(c.name().value());
        names.removeIf(n -> n.isBlank() || Binder.placeholder(n));
        return names;
    }
}
