package dev.gpulint.plan.search;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.core.Finding;
import dev.gpulint.core.Level;
import dev.gpulint.derive.Deriver;
import dev.gpulint.derive.estimate.Layout;
import dev.gpulint.engine.RuleEngine;
import dev.gpulint.engine.RuleParams;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.spec.Specs;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Checks every layout of a {@link SearchSpace} with gpulint's own rules and ranks the valid ones by a caller's score.
 * Each candidate is the job with the candidate written in ({@link CandidateJobs}); derive and the built-in rules run
 * on all of them at once, in one session of the one KieBase, each candidate a job of its own name, so a finding's
 * identity ("training_job:NAME/...") says whose it is. Layouts the rules see alike (the same sizes, micro batch,
 * sharding and sequence parallelism; recompute is no fact of theirs) are checked once.
 *
 * <p>A candidate is rejected by an error of the layout's families (PAR, MEM, NET, CONSIST) about it. Rule IDs raised for
 * every layout that reject nothing (a fabric's, a NIC's, an NCCL variable's) are the {@code clusterFindings}, listed
 * once; so are findings about the cluster rather than a candidate.
 */
public final class CandidateSearch {

    /** The families whose errors about a candidate reject it. */
    public static final Set<String> LAYOUT_FAMILIES = Set.of("PAR", "MEM", "NET", "CONSIST");

    /** How a caller ranks a valid layout: higher {@code value} first (tokens/s/GPU), then more memory {@code headroom}. */
    public record Score(double value, double headroom) {}

    private static final String PREFIX = "gpulint-plan-candidate-";

    private final Catalog catalog;
    private final RuleCatalog rules;

    public CandidateSearch(Catalog catalog, RuleCatalog rules) {
        this.catalog = catalog;
        this.rules = rules;
    }

    /** What the rules see of a layout: recompute is left out (no rule reads it). */
    private record Key(int tp, int pp, int dp, int cp, int ep, int vpp, int micro, long global, int zero, boolean sp) {
        static Key of(Layout l) {
            return new Key(l.tp(), l.pp(), l.dp(), l.cp(), l.ep(), l.virtualPp(), l.microBatchSize(), l.globalBatchSize(),
                    l.distributedOptimizer() ? Math.max(1, l.zeroStage()) : l.zeroStage(), l.sequenceParallel());
        }
    }

    /**
     * Every layout of {@code space}, and the job's own {@code current} one, checked against {@code clusters} (the
     * clusters the job may run on, as the linter bound them) and ranked by {@code score}.
     */
    public SearchResult search(Specs.Job job, List<Specs.Cluster> clusters, Layout current, SearchSpace space,
                               Function<Layout, Score> score) {
        List<Layout> layouts = new ArrayList<>();
        layouts.add(current);
        for (Layout l : space.layouts()) if (!l.equals(current)) layouts.add(l);
        Map<Key, Integer> keys = new LinkedHashMap<>();
        List<Specs.Job> jobs = new ArrayList<>();
        for (Layout l : layouts) {
            keys.computeIfAbsent(Key.of(l), k -> {
                jobs.add(CandidateJobs.of(job, l, PREFIX + jobs.size()));
                return jobs.size() - 1;
            });
        }
        List<Finding> findings = check(clusters, jobs);

        List<Set<String>> raised = new ArrayList<>();
        List<Set<String>> rejecting = new ArrayList<>();
        for (int i = 0; i < jobs.size(); i++) { raised.add(new TreeSet<>()); rejecting.add(new TreeSet<>()); }
        Set<String> cluster = new TreeSet<>();
        for (Finding f : findings) {
            int k = candidateOf(f.identity());
            String family = family(f.ruleId());
            if (k < 0 || !LAYOUT_FAMILIES.contains(family)) { cluster.add(f.ruleId()); continue; }
            raised.get(k).add(f.ruleId());
            if (level(f.ruleId()) == Level.ERROR) rejecting.get(k).add(f.ruleId());
        }
        // raised for every layout and rejecting none: a property of the cluster, not of a layout
        Set<String> everywhere = new TreeSet<>(raised.get(0));
        for (Set<String> r : raised) everywhere.retainAll(r);
        for (String id : everywhere) {
            if (rejecting.get(0).contains(id)) continue;
            cluster.add(id);
            for (Set<String> r : raised) r.remove(id);
        }

        List<Candidate> valid = new ArrayList<>();
        Map<Layout, Candidate> checked = new HashMap<>();
        Map<String, Integer> rejected = new TreeMap<>();
        int rejectedCount = 0;
        for (Layout l : layouts) {
            int k = keys.get(Key.of(l));
            List<String> by = List.copyOf(rejecting.get(k));
            Candidate c;
            if (by.isEmpty()) {
                Score s = score.apply(l);
                c = new Candidate(l, List.copyOf(raised.get(k)), by, 0, s.value(), s.headroom());
                valid.add(c);
            } else {
                c = new Candidate(l, List.copyOf(raised.get(k)), by, 0, 0, 0);
                rejectedCount++;
                for (String id : by) rejected.merge(id, 1, Integer::sum);
            }
            checked.put(l, c);
        }
        // best first; ties by headroom, then by the search's own order (stable sort)
        valid.sort(Comparator.comparingDouble(Candidate::score).reversed().thenComparing(Comparator.comparingDouble(Candidate::headroom).reversed()));
        List<Candidate> ranked = new ArrayList<>();
        for (int i = 0; i < valid.size(); i++) {
            Candidate c = valid.get(i);
            Candidate r = new Candidate(c.layout(), c.findings(), c.rejectedBy(), i + 1, c.score(), c.headroom());
            ranked.add(r);
            checked.put(c.layout(), r);
        }
        return new SearchResult(checked.get(current), ranked, rejected, rejectedCount, List.copyOf(cluster), layouts.size(), jobs.size());
    }

    /**
     * Derive and the built-in rules over the candidate jobs: in two halves on two threads when the machine has two
     * cores (each half its own derive run and session of the one KieBase; the cluster's facts are derived in both, and
     * the findings about it meet in a set).
     */
    private List<Finding> check(List<Specs.Cluster> clusters, List<Specs.Job> jobs) {
        int parts = jobs.size() >= MIN_SPLIT && Runtime.getRuntime().availableProcessors() > 1 ? 2 : 1;
        List<List<Specs.Job>> halves = new ArrayList<>();
        for (int i = 0; i < parts; i++) halves.add(jobs.subList(jobs.size() * i / parts, jobs.size() * (i + 1) / parts));
        RuleEngine.builtInKieBase();
        return halves.parallelStream().flatMap(part -> {
            List<Object> facts = new ArrayList<>(new Deriver(catalog).derive(clusters, part));
            facts.addAll(RuleParams.facts(rules, Map.of()));
            return new RuleEngine().run(facts).stream();
        }).toList();
    }

    /** Fewer candidate jobs than this are checked on one thread. */
    static final int MIN_SPLIT = 256;

    /** The candidate a finding is about, from its identity ("training_job:NAME/..." or "job:NAME/..."), or −1. */
    static int candidateOf(String identity) {
        int at = identity.indexOf(PREFIX);
        if (at < 0 || !(identity.startsWith("training_job:" + PREFIX) || identity.startsWith("job:" + PREFIX))) return -1;
        int from = at + PREFIX.length(), to = from;
        while (to < identity.length() && Character.isDigit(identity.charAt(to))) to++;
        return to == from ? -1 : Integer.parseInt(identity.substring(from, to));
    }

    /** "PAR" of "PAR005": the letters of a rule ID. */
    static String family(String ruleId) {
        int i = 0;
        while (i < ruleId.length() && Character.isLetter(ruleId.charAt(i))) i++;
        return ruleId.substring(0, i);
    }

    private Level level(String ruleId) {
        return rules.get(ruleId).map(dev.gpulint.meta.RuleMeta::level).orElse(Level.ERROR);
    }
}
