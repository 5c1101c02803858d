package dev.gpulint.plan.search;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.core.Finding;
import dev.gpulint.core.Level;
import dev.gpulint.derive.Deriver;
import dev.gpulint.derive.nccl.EnvAnalysis;
import dev.gpulint.derive.estimate.Layout;
import dev.gpulint.engine.RuleEngine;
import dev.gpulint.engine.RuleParams;
import dev.gpulint.core.Span;
import dev.gpulint.facts.GroupFitFact;
import dev.gpulint.facts.MemoryFact;
import dev.gpulint.facts.StageMemoryFact;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.meta.RuleMeta;
import dev.gpulint.spec.Model;
import dev.gpulint.spec.Specs;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Checks every layout of a {@link SearchSpace} with gpulint's own rules and ranks the valid ones by a caller's score.
 * Each candidate is the job with the candidate written in ({@link CandidateJobs}); derive and the built-in rules run
 * on {@link #CHUNK} of them at a time, in sessions of the one KieBase on every core, each candidate a job of its own
 * name, so a finding's identity ("training_job:NAME/...") says whose it is. The work is linear in the layouts, which
 * {@link SearchSpace#MAX_LAYOUTS} bounds with a message, and a session's facts are bounded whatever their number. Layouts the rules see alike (the same sizes, micro batch,
 * sharding and sequence parallelism; recompute is no fact of theirs) are checked once.
 *
 * <p>A candidate is rejected by an error about it of a rule whose ID.yaml says {@code layout: errors} (PAR, NET,
 * CONSIST), and by any finding of a rule that says {@code layout: any} (MEM) whatever its level: a plan proposes no
 * layout gpulint expects to run out of memory. Rule IDs raised for every layout that reject nothing (a fabric's, a NIC's, an NCCL variable's) are the {@code clusterFindings}, listed
 * once; so are findings about the cluster rather than a candidate.
 */
public final class CandidateSearch {

    /** How a caller ranks a valid layout: higher {@code value} first (tokens/s/GPU), then more memory {@code headroom}. */
    public record Score(double value, double headroom) {}

    /**
     * How a caller prices a layout: its score, and the memory fact MEM003 judges it by (the estimate's fullest stage,
     * named {@code job} with the identity aspect {@code aspect}; null when the layout is not estimated). Memory
     * depends on recompute, which no other rule reads, so each recompute choice of a checked layout brings its own fact,
     * and a memory finding rejects the layouts of its recompute only, whatever its level: the plan proposes nothing the
     * estimate says runs out of memory.
     */
    public interface Pricing {
        Score score(Layout l);

        Object memoryFact(Layout l, String job, String aspect);

        /**
         * What a layout's memory fact and its score share (the pricing's own object, opaque to the search), made once for
         * each layout the rules check and handed to {@link #memoryFact(Layout, Object, String, String)} and, when the layout
         * is valid, to {@link #score(Layout, Object)}: the number is computed once and read by both. Null: nothing shared.
         */
        default Object memory(Layout l) { return null; }

        /** {@link #memoryFact(Layout, String, String)} from {@code memory}, what {@link #memory} made for {@code l}. */
        default Object memoryFact(Layout l, Object memory, String job, String aspect) { return memoryFact(l, job, aspect); }

        /** {@link #score(Layout)} from {@code memory}, what {@link #memory} made for {@code l} (null: none, priced alone). */
        default Score score(Layout l, Object memory) { return score(l); }
    }

    /** The aspect of a candidate's memory fact for one recompute choice. */
    static String memoryAspect(Layout.Recompute r) { return "stage-memory/recompute-" + r.id(); }

    private static final String PREFIX = "gpulint-plan-candidate-";

    /** How the identity of a finding about a candidate job opens ({@link #candidateOf}). */
    private static final String TRAINING_JOB_CANDIDATE = "training_job:" + PREFIX, JOB_CANDIDATE = "job:" + PREFIX;

    private final Catalog catalog;
    private final RuleCatalog rules;

    private long perNode;
    private Map<String, Double> params = Map.of();
    private int chunk = CHUNK;
    private boolean environmentOnce = true;

    public CandidateSearch(Catalog catalog, RuleCatalog rules) {
        this.catalog = catalog;
        this.rules = rules;
    }

    /**
     * Plan on another GPU count than the job's: each candidate asks for its GPUs ÷ {@code gpusPerNode} nodes (rounded
     * up) instead of the job's node count.
     */
    public CandidateSearch resized(long gpusPerNode) {
        this.perNode = gpusPerNode;
        return this;
    }

    /**
     * The project's rule parameters ({@code "MEM002.warn_at" → 0.85}, from .gpulint.yaml {@code params:}), the ones
     * `check` inserts as RuleParam facts: a candidate is judged by the thresholds the job's own check is.
     */
    public CandidateSearch params(Map<String, Double> params) {
        this.params = Map.copyOf(params);
        return this;
    }

    /**
     * For tests: check {@code jobs} candidate jobs per session, and derive the environment's facts and insert each
     * candidate's {@link GroupFitFact} per candidate job ({@code environmentOnce} false) rather than once per session; the
     * search must find the same either way.
     */
    CandidateSearch checkedAs(int jobs, boolean environmentOnce) {
        this.chunk = jobs;
        this.environmentOnce = environmentOnce;
        return this;
    }

    /** What the rules see of a layout: recompute is left out (no rule reads it). */
    private record Key(int tp, int pp, int dp, int cp, int ep, int vpp, int micro, long global, int zero, boolean sp) {
        static Key of(Layout l) {
            return new Key(l.tp(), l.pp(), l.dp(), l.cp(), l.ep(), l.virtualPp(), l.microBatchSize(), l.globalBatchSize(),
                    l.distributedOptimizer() ? Math.max(1, l.zeroStage()) : l.zeroStage(), l.sequenceParallel());
        }

        // written out, as Layout's are: the record's own go through method handles the launcher's C1 JIT does not inline
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && tp == k.tp && pp == k.pp && dp == k.dp && cp == k.cp && ep == k.ep && vpp == k.vpp
                    && micro == k.micro && global == k.global && zero == k.zero && sp == k.sp;
        }

        @Override
        public int hashCode() {
            int h = tp;
            h = 31 * h + pp;
            h = 31 * h + dp;
            h = 31 * h + cp;
            h = 31 * h + ep;
            h = 31 * h + vpp;
            h = 31 * h + micro;
            h = 31 * h + Long.hashCode(global);
            h = 31 * h + zero;
            return 31 * h + (sp ? 1 : 0);
        }
    }

    /**
     * Every layout of {@code space}, and the job's own {@code current} one, checked against {@code clusters} (the
     * clusters the job may run on, as the linter bound them) and ranked by {@code score}.
     */
    public SearchResult search(Specs.Job job, List<Specs.Cluster> clusters, Layout current, SearchSpace space,
                               Function<Layout, Score> score) {
        return search(job, clusters, current, space, new Pricing() {
            @Override public Score score(Layout l) { return score.apply(l); }
            @Override public Object memoryFact(Layout l, String name, String aspect) { return null; }
        });
    }

    /** As above, with each layout's memory checked by MEM003 on the caller's estimate. */
    public SearchResult search(Specs.Job job, List<Specs.Cluster> clusters, Layout current, SearchSpace space, Pricing pricing) {
        return search(job, clusters, current, JobLayouts.scheduled(space.layouts(), job), pricing);
    }

    /**
     * As above, on the given layouts of a space (a caller that has screened a space's layouts by memory checks only
     * those that can fit: a layout the estimate puts out of memory is rejected by MEM002 or MEM003 anyway).
     */
    public SearchResult search(Specs.Job job, List<Specs.Cluster> clusters, Layout current, List<Layout> space, Pricing pricing) {
        List<Layout> layouts = new ArrayList<>(space.size() + 1);
        layouts.add(current);
        for (Layout l : space) if (!l.equals(current)) layouts.add(l);
        // which check each layout is (layouts the rules see alike share one), and for each check the layout its candidate
        // job is written from and the first layout of each recompute choice, whose memory fact it carries
        // sized for a check per three layouts (the recompute choices share one), so that it is not rehashed on the way
        Map<Key, Integer> keys = new HashMap<>(Math.max(16, (int) (layouts.size() / 3 / 0.75f) + 1));
        int[] checkOf = new int[layouts.size()];
        List<Layout> checked = new ArrayList<>();
        List<Layout> memoryOf = new ArrayList<>();          // by check × recompute choice
        for (int i = 0; i < layouts.size(); i++) {
            Layout l = layouts.get(i);
            int k = keys.computeIfAbsent(Key.of(l), key -> {
                checked.add(l);
                for (int r = 0; r < RECOMPUTES; r++) memoryOf.add(null);
                return checked.size() - 1;
            });
            checkOf[i] = k;
            if (memoryOf.get(k * RECOMPUTES + l.recompute().ordinal()) == null) memoryOf.set(k * RECOMPUTES + l.recompute().ordinal(), l);
        }
        // what each check × recompute choice's memory fact was made from, kept for its score (Pricing#memory), one home
        Object[] memory = new Object[memoryOf.size()];
        Verdicts v = check(job, clusters, checked, memoryOf, pricing, memory);
        Set<String>[] raised = v.raised, rejecting = v.rejecting, outOfMemory = v.outOfMemory;
        Set<String> cluster = v.cluster;
        // raised for every layout and rejecting none: a property of the cluster, not of a layout
        Set<String> everywhere = new TreeSet<>(orEmpty(raised[0]));
        for (Set<String> r : raised) everywhere.retainAll(orEmpty(r));
        for (String id : everywhere) {
            if (orEmpty(rejecting[0]).contains(id)) continue;
            cluster.add(id);
            for (Set<String> r : raised) if (r != null) r.remove(id);
        }

        Map<String, Integer> rejected = new TreeMap<>();
        int rejectedCount = 0;
        List<Candidate> rejectedLayouts = new ArrayList<>();
        Candidate currentCandidate = null;
        List<Layout> validLayouts = new ArrayList<>();
        List<List<String>> validFindings = new ArrayList<>();
        List<Object> validMemory = new ArrayList<>();      // what its memory fact was made from, or null (another layout's)
        // what the rules said of a layout is its check's IDs and its recompute choice's memory IDs; the lists (sorted, as the
        // sets are) are made once per distinct content and shared by every layout that has it (a few hundred lists, not a
        // pair per layout, for the hybrid plan's 189,012 layouts). Each content is numbered once, a check's pair of sets and a
        // recompute choice's memory set, so that a verdict is found by the two numbers rather than by hashing and comparing
        // three sets per layout; the numbering and each check × recompute choice's verdict are found on all cores (the sets
        // are only read now: the numbers tell equal contents apart, whichever content gets which, and a verdict's lists are
        // made from its content alone), and the layouts, in order, only read them (the serial part of a search: ~4 % of a
        // plan-hybrid profile when it was done here per layout)
        List<List<String>>[] verdicts = verdicts(checked.size(), raised, rejecting, outOfMemory);
        // the layouts each verdict rejects, counted by verdict (one list object each, shared by its layouts) and added to
        // the counts by rule ID once per verdict rather than once per rejected layout (sums: the order does not matter)
        Map<List<String>, int[]> rejectedBy = new java.util.IdentityHashMap<>();
        for (int i = 0; i < layouts.size(); i++) {
            Layout l = layouts.get(i);
            int at = checkOf[i] * RECOMPUTES + l.recompute().ordinal();
            List<List<String>> verdict = verdicts[at];
            List<String> by = verdict.get(1);
            if (by.isEmpty()) {
                validLayouts.add(l);
                validFindings.add(verdict.get(0));
                // the memory made for this very layout (a check's other layouts of one recompute choice are priced alone)
                validMemory.add(memoryOf.get(at) == l ? memory[at] : null);
            } else {
                Candidate c = new Candidate(l, verdict.get(0), by, 0, 0, 0);
                rejectedCount++;
                rejectedLayouts.add(c);
                rejectedBy.computeIfAbsent(by, x -> new int[1])[0]++;
                if (l == current) currentCandidate = c;
            }
        }
        for (Map.Entry<List<String>, int[]> e : rejectedBy.entrySet()) {
            for (String id : e.getKey()) rejected.merge(id, e.getValue()[0], Integer::sum);
        }
        // every valid layout priced, on all cores (the pricing keeps what it shares in concurrent maps)
        memory = null;          // the rejected layouts' memory is no longer read
        Score[] scores = java.util.stream.IntStream.range(0, validLayouts.size()).parallel()
                .mapToObj(i -> pricing.score(validLayouts.get(i), validMemory.get(i))).toArray(Score[]::new);
        // best first; ties by headroom, then the layout that keeps the job's own choices (micro batch, sharding, recompute,
        // sequence parallelism: what its sizes do not decide, so a wrong tp changes nothing), then the search's order
        // (a stable sort of the valid layouts' indices by their scores, read from arrays)
        int[] order = Ranking.order(validLayouts, scores, current);
        List<Candidate> ranked = new ArrayList<>(order.length);
        for (int i = 0; i < order.length; i++) {
            int at = order[i];
            Layout l = validLayouts.get(at);
            Candidate r = new Candidate(l, validFindings.get(at), List.of(), i + 1, scores[at].value(), scores[at].headroom());
            ranked.add(r);
            if (l == current) currentCandidate = r;
        }
        return new SearchResult(currentCandidate, ranked, rejected, rejectedCount, List.copyOf(cluster), layouts.size(), checked.size(),
                rejectedLayouts);
    }

    /**
     * The verdict of each check × recompute choice ({@code at} = check · {@link #RECOMPUTES} + the choice's ordinal): the IDs
     * raised about it and those that reject it, each a sorted list, one list object per distinct content (equal verdicts
     * are the same object: the caller counts rejected layouts by verdict). A check's pair of sets and a choice's memory set
     * are numbered by content first, and a verdict found by the two numbers.
     */
    @SuppressWarnings("unchecked")
    private static List<List<String>>[] verdicts(int checks, Set<String>[] raised, Set<String>[] rejecting, Set<String>[] outOfMemory) {
        Map<List<Set<String>>, Integer> pairs = new java.util.concurrent.ConcurrentHashMap<>();
        Map<Set<String>, Integer> memories = new java.util.concurrent.ConcurrentHashMap<>();
        Map<Long, List<List<String>>> distinct = new java.util.concurrent.ConcurrentHashMap<>();
        java.util.concurrent.atomic.AtomicInteger pairCount = new java.util.concurrent.atomic.AtomicInteger(),
                memoryCount = new java.util.concurrent.atomic.AtomicInteger(1);     // 1: no memory ID
        List<List<String>>[] out = new List[checks * RECOMPUTES];
        java.util.stream.IntStream.range(0, checks).parallel().forEach(k -> {
            Set<String> raisedK = orEmpty(raised[k]), rejectingK = orEmpty(rejecting[k]);
            int pair = pairs.computeIfAbsent(List.of(raisedK, rejectingK), x -> pairCount.incrementAndGet());
            for (int r = 0; r < RECOMPUTES; r++) {
                int at = k * RECOMPUTES + r;
                Set<String> mem = orEmpty(outOfMemory[at]);
                int memory = mem.isEmpty() ? 1 : memories.computeIfAbsent(mem, x -> memoryCount.incrementAndGet());
                out[at] = distinct.computeIfAbsent(((long) pair << 32) | memory, x -> {
                    if (mem.isEmpty()) return List.of(List.copyOf(raisedK), List.copyOf(rejectingK));
                    Set<String> byAll = new TreeSet<>(rejectingK);
                    byAll.addAll(mem);
                    Set<String> seen = new TreeSet<>(raisedK);
                    seen.addAll(mem);
                    return List.of(List.copyOf(seen), List.copyOf(byAll));
                });
            }
        });
        return out;
    }

    /**
     * The order of the valid layouts: higher score first, then more headroom, then those that keep the job's own choices
     * ({@link #sameChoices}), then the search's order. A stable merge sort of the layouts' indices whose keys are read
     * from arrays (a chain of Comparators over boxed candidates costs several calls per comparison under the launcher's
     * C1 JIT, on tens of thousands of layouts); CandidateSearchTest holds it to that chain's order.
     */
    static final class Ranking {
        private final double[] value, headroom;
        private final boolean[] same;

        private Ranking(double[] value, double[] headroom, boolean[] same) {
            this.value = value;
            this.headroom = headroom;
            this.same = same;
        }

        static int[] order(List<Layout> layouts, Score[] scores, Layout current) {
            int n = layouts.size();
            double[] value = new double[n], headroom = new double[n];
            boolean[] same = new boolean[n];
            int[] order = new int[n], merged = new int[n];
            for (int i = 0; i < n; i++) {
                value[i] = scores[i].value();
                headroom[i] = scores[i].headroom();
                same[i] = sameChoices(layouts.get(i), current);
                order[i] = i;
            }
            Ranking r = new Ranking(value, headroom, same);
            // bottom-up merge sort; a later index goes first only when it ranks strictly before (stable)
            for (int width = 1; width < n; width *= 2) {
                for (int lo = 0; lo < n; lo += 2 * width) {
                    int mid = Math.min(lo + width, n), hi = Math.min(lo + 2 * width, n), i = lo, j = mid, k = lo;
                    while (i < mid && j < hi) merged[k++] = r.compare(order[j], order[i]) < 0 ? order[j++] : order[i++];
                    while (i < mid) merged[k++] = order[i++];
                    while (j < hi) merged[k++] = order[j++];
                }
                int[] t = order;
                order = merged;
                merged = t;
            }
            return order;
        }

        /** Below 0 when layout {@code a} ranks before layout {@code b}, 0 when the keys tie. */
        int compare(int a, int b) {
            int c = Double.compare(value[b], value[a]);
            if (c != 0) return c;
            c = Double.compare(headroom[b], headroom[a]);
            if (c != 0) return c;
            return Boolean.compare(!same[a], !same[b]);
        }
    }

    /** {@code l} makes the choices {@code job} makes besides its parallel sizes. */
    static boolean sameChoices(Layout l, Layout job) {
        return l.microBatchSize() == job.microBatchSize() && l.zeroStage() == job.zeroStage()
                && l.distributedOptimizer() == job.distributedOptimizer() && l.recompute() == job.recompute()
                && l.sequenceParallel() == job.sequenceParallel();
    }

    private static Set<String> orEmpty(Set<String> s) { return s == null ? Set.of() : s; }

    /**
     * What the rules said, by check: the rule IDs raised about it and those that reject it, and by check × recompute choice
     * the memory rules that reject it (null: none); the IDs of findings about the cluster.
     */
    private record Verdicts(Set<String>[] raised, Set<String>[] rejecting, Set<String>[] outOfMemory, Set<String> cluster) {}

    /**
     * Derive and the built-in rules over a candidate job per check, {@link #CHUNK} at a time (each chunk its own derive run
     * and session of the one KieBase, on as many threads as the machine has cores; the cluster's facts are derived in each,
     * and the findings about it meet in a set), so that a session holds a bounded number of facts however many layouts
     * the search has. Each chunk writes its candidate jobs and memory facts and sorts its own findings by candidate, so
     * that nothing of the search's size is done on one thread. The environment's facts are derived once per chunk when
     * every rule that reads them speaks of the cluster (no {@code layout:} in their ID.yaml): they are the same for every
     * candidate job but for its name.
     */
    @SuppressWarnings("unchecked")
    private Verdicts check(Specs.Job job, List<Specs.Cluster> clusters, List<Layout> checked, List<Layout> memoryOf, Pricing pricing,
                           Object[] memory) {
        int n = checked.size();
        Set<String>[] raised = new Set[n], rejecting = new Set[n], outOfMemory = new Set[n * RECOMPUTES];
        int chunk = this.chunk;
        int chunks = Math.max(1, (int) ((n + (long) chunk - 1) / chunk));
        boolean environmentOnce = this.environmentOnce && environmentSpeaksOfCluster(rules);
        boolean groupFitOnce = this.environmentOnce && groupFitSpeaksOfCluster(rules);
        RuleEngine.builtInKieBase();
        EnvAnalysis.Readings readings = new EnvAnalysis.Readings();     // the job's environment, read once for every session
        Set<String> cluster = new TreeSet<>();
        Specs.Origin origin = CandidateJobs.origin(job.origin());      // one object for every candidate job
        java.util.stream.IntStream.range(0, chunks).parallel().mapToObj(i -> {
            int from = (int) Math.min(n, (long) i * chunk), to = (int) Math.min(n, (long) from + chunk);
            List<Specs.Job> jobs = new ArrayList<>(to - from);
            // each candidate's name made once (String.concat: sized once), read again below for its memory facts
            String[] names = new String[to - from];
            for (int k = from; k < to; k++) names[k - from] = PREFIX.concat(Integer.toString(k));
            for (int k = from; k < to; k++) jobs.add(CandidateJobs.of(job, checked.get(k), names[k - from], perNode, origin));
            List<Object> facts = new ArrayList<>();
            // derive's own estimate of a candidate job (its memory for the job's recompute) is left out: the caller's
            // memory facts, one per recompute choice, take its place, and the valid layouts are priced by the caller
            List<Object> derived = new Deriver(catalog, false, environmentOnce, readings).derive(Model.of(clusters, jobs)).facts();
            // the facts their rules read alone, each distinct one once (AloneFacts); the test's per-candidate mode inserts all
            AloneFacts.Kept kept = AloneFacts.keep(groupFitOnce ? oneGroupFitEach(derived) : derived, from, to,
                    this.environmentOnce ? name -> candidateNamed(name, from, to) : name -> -1);
            facts.addAll(kept.facts());
            // a memory fact's rules (MEM002, MEM003) read it alone but for its job's name, which they join to the job's
            // MemoryFact (CandidateSearchTest holds it): among the candidates with no MemoryFact of their own, memory facts
            // that say the same ({@link StageMemoryFact#saying}: the same bytes of the same stage, whatever the layout and
            // recompute choice they price) are checked once, the first of them inserted and its verdict read for the others
            // (the hybrid plan's 189,012 memory facts say ~122,000 things a session); the test's per-candidate mode inserts all
            boolean[] ownMemory = new boolean[to - from];
            for (Object f : derived) {
                if (f instanceof MemoryFact m) {
                    int c = candidateNamed(m.getJobName(), from, to);
                    if (c >= 0) ownMemory[c - from] = true;
                }
            }
            Map<Object, Integer> said = new HashMap<>();
            int[] standsIn = new int[(to - from) * RECOMPUTES];      // the memory fact checked in each one's place, or −1
            java.util.Arrays.fill(standsIn, -1);
            for (int k = from; k < to; k++) {
                String name = names[k - from];
                for (int r = 0; r < RECOMPUTES; r++) {
                    Layout l = memoryOf.get(k * RECOMPUTES + r);
                    if (l == null) continue;
                    // the layout's memory made once: its fact now, its score if it is valid (memory[], each chunk its own slots)
                    Object made = pricing.memory(l);
                    memory[k * RECOMPUTES + r] = made;
                    Object fact = pricing.memoryFact(l, made, name, ASPECT_OF[r]);
                    // a memory fact is checked with its candidate job, which its name says
                    if (!(fact instanceof StageMemoryFact m) || !name.equals(m.getJobName())) continue;
                    if (this.environmentOnce && !ownMemory[k - from]) {
                        Integer first = said.putIfAbsent(m.saying(), k * RECOMPUTES + r);
                        if (first != null) {
                            standsIn[(k - from) * RECOMPUTES + r] = first;
                            continue;
                        }
                    }
                    facts.add(fact);
                }
            }
            facts.addAll(RuleParams.facts(rules, params));
            // which rules fire about which candidate is all the search reads: the findings are not worded
            Set<String> about = new TreeSet<>();
            for (Finding f : new RuleEngine().runUnworded(facts)) {
                int k = candidateOf(f.identity());
                // which rules judge a layout, and how, is said by their ID.yaml's layout: (PAR, MEM, NET, CONSIST say it)
                String layout = rules.get(f.ruleId()).map(RuleMeta::layout).orElse(null);
                // a finding names a candidate job of its own session only (k in from..to): each chunk writes its own
                if (k < from || k >= to || layout == null) { about.add(f.ruleId()); continue; }
                int r = recomputeOf(f.identity());
                if (r != NOT_MEMORY) {
                    // a memory fact of another aspect than the search's is no recompute choice of a candidate: not read
                    if (r >= 0) add(outOfMemory, k * RECOMPUTES + r, f.ruleId());
                    continue;
                }
                boolean rejects = level(f.ruleId()) == Level.ERROR || layout.equals(RuleMeta.LAYOUT_ANY);
                for (int c : kept.whose(f.ruleId(), k)) {
                    add(raised, c, f.ruleId());
                    if (rejects) add(rejecting, c, f.ruleId());
                }
            }
            // a memory fact left out has the verdict of the one checked in its place (the same set, only read from now on)
            for (int at = 0; at < standsIn.length; at++) {
                if (standsIn[at] >= 0) outOfMemory[from * RECOMPUTES + at] = outOfMemory[standsIn[at]];
            }
            return about;
        }).toList().forEach(cluster::addAll);
        return new Verdicts(raised, rejecting, outOfMemory, cluster);
    }

    private static void add(Set<String>[] sets, int at, String id) {
        if (sets[at] == null) sets[at] = new TreeSet<>();
        sets[at].add(id);
    }

    /** The memory aspect of each recompute choice, by its ordinal (made once: the search asks for one per layout). */
    private static final String[] ASPECT_OF = java.util.Arrays.stream(Layout.Recompute.values())
            .map(CandidateSearch::memoryAspect).toArray(String[]::new);

    /**
     * Whether the rules of the environment's facts (the NCCL family, {@link #ENVIRONMENT_RULES}) all say something about
     * the cluster, not a layout (no {@code layout:} in their ID.yaml): then their findings about one candidate job are
     * those about every other, and the search lists them once among the cluster's findings.
     */
    static boolean environmentSpeaksOfCluster(RuleCatalog rules) {
        return rules.all().stream().filter(m -> m.id().startsWith(ENVIRONMENT_RULES)).allMatch(m -> m.layout() == null);
    }

    /** The ID prefix of the rules that read the environment's facts (EnvFact), and only them (CandidateSearchTest holds it). */
    static final String ENVIRONMENT_RULES = "NCCL";

    /**
     * The rule that reads {@link GroupFitFact}, and the only one (CandidateSearchTest holds it: no other DRL names the fact,
     * and its conditions read no job name).
     */
    static final String GROUP_FIT_RULE = "CONSIST012";

    /**
     * Whether {@link #GROUP_FIT_RULE} says something about the cluster, not a layout (no {@code layout:} in its ID.yaml):
     * then the search reads only whether it fired, as one of the cluster's findings, and a session needs each distinct
     * {@link GroupFitFact} once ({@link #oneGroupFitEach}).
     */
    static boolean groupFitSpeaksOfCluster(RuleCatalog rules) {
        return rules.get(GROUP_FIT_RULE).map(m -> m.layout() == null).orElse(true);
    }

    /**
     * {@code facts} with each {@link GroupFitFact} kept only when no earlier one says the same but for its job's name
     * ({@link GroupFit}). Every candidate job of a search keeps the job's cluster, node group, GPUs per node and node count
     * (CandidateJobs; with {@code plan --gpus}, its GPUs ÷ GPUs per node, which may differ between the job's own layout and
     * the others), so a session of ~1,024 candidates holds one or two such facts instead of 1,024, and the rule that reads
     * them fires on the same values: the same rule IDs among the cluster's findings.
     */
    static List<Object> oneGroupFitEach(List<Object> facts) {
        Set<GroupFit> seen = new java.util.HashSet<>();
        List<Object> out = new ArrayList<>(facts.size());
        for (Object f : facts) if (!(f instanceof GroupFitFact g) || seen.add(GroupFit.of(g))) out.add(f);
        return out;
    }

    /** A {@link GroupFitFact} as its rule reads it: every field but the job's name. */
    private record GroupFit(String group, String cluster, long nodes, Span nodesSpan, long groupNodes, Span groupNodesSpan,
                            long gpusPerNode, Span gpusPerNodeSpan, long groupGpus, Span groupGpusSpan) {
        static GroupFit of(GroupFitFact f) {
            return new GroupFit(f.getGroupName(), f.getClusterName(), f.getNodes(), f.getNodesSpan(), f.getGroupNodes(),
                    f.getGroupNodesSpan(), f.getGpusPerNode(), f.getGpusPerNodeSpan(), f.getGroupGpus(), f.getGroupGpusSpan());
        }

        // written out, as Key's are: the record's own go through method handles the launcher's C1 JIT does not inline (one
        // of these per candidate job: 1.9 % of a plan-hybrid profile's samples with the record's own)
        @Override
        public boolean equals(Object o) {
            return o instanceof GroupFit g && nodes == g.nodes && groupNodes == g.groupNodes && gpusPerNode == g.gpusPerNode
                    && groupGpus == g.groupGpus && java.util.Objects.equals(group, g.group) && java.util.Objects.equals(cluster, g.cluster)
                    && java.util.Objects.equals(nodesSpan, g.nodesSpan) && java.util.Objects.equals(groupNodesSpan, g.groupNodesSpan)
                    && java.util.Objects.equals(gpusPerNodeSpan, g.gpusPerNodeSpan) && java.util.Objects.equals(groupGpusSpan, g.groupGpusSpan);
        }

        @Override
        public int hashCode() {
            int h = Long.hashCode(nodes);
            h = 31 * h + Long.hashCode(groupNodes);
            h = 31 * h + Long.hashCode(gpusPerNode);
            return 31 * h + Long.hashCode(groupGpus);
        }
    }

    /** Candidate jobs per derive run and rule session: bounds a session's facts (~1,000 jobs, tens of thousands of facts). */
    static final int CHUNK = 1024;

    private static final int RECOMPUTES = Layout.Recompute.values().length;

    /** The candidate of this session ({@code from} ≤ k < {@code to}) a job name names, or −1 for another job's. */
    static int candidateNamed(String name, int from, int to) {
        if (name == null || !name.startsWith(PREFIX) || name.length() == PREFIX.length() || name.length() > PREFIX.length() + 9) return -1;
        int k = 0;
        for (int i = PREFIX.length(); i < name.length(); i++) {
            char c = name.charAt(i);
            if (c < '0' || c > '9') return -1;
            k = k * 10 + (c - '0');
        }
        return k >= from && k < to ? k : -1;
    }

    /** Where a memory aspect opens in a finding's identity ("training_job:NAME/stage-memory/recompute-full"). */
    private static final String MEMORY_ASPECT = "/stage-memory/";

    /** {@link #recomputeOf}: the identity names no memory aspect. */
    static final int NOT_MEMORY = -2;

    /**
     * The recompute choice whose memory aspect ({@link #memoryAspect}) a finding's identity names, its whole rest from the
     * first {@code /stage-memory/} on (less the slash), compared in place rather than cut out and looked up in a map (a
     * search reads ~60,000 memory findings a run): its ordinal, −1 for another memory aspect, {@link #NOT_MEMORY} when the
     * identity names none.
     */
    static int recomputeOf(String identity) {
        int at = identity.indexOf(MEMORY_ASPECT);
        if (at < 0) return NOT_MEMORY;
        int from = at + 1, length = identity.length() - from;
        for (int r = 0; r < ASPECT_OF.length; r++) {
            if (ASPECT_OF[r].length() == length && identity.startsWith(ASPECT_OF[r], from)) return r;
        }
        return -1;
    }

    /** The candidate a finding is about, from its identity ("training_job:NAME/..." or "job:NAME/..."), or −1. */
    static int candidateOf(String identity) {
        // the two openings made once, not concatenated per finding (tens of thousands a search); neither kind's
        // opening holds the prefix, so its first occurrence is where the opening ends
        int at = identity.startsWith(TRAINING_JOB_CANDIDATE) ? TRAINING_JOB_CANDIDATE.length() - PREFIX.length()
                : identity.startsWith(JOB_CANDIDATE) ? JOB_CANDIDATE.length() - PREFIX.length() : -1;
        if (at < 0) return -1;
        // the digits read in place (no substring to parse); a number past int's range names no candidate of a search
        int from = at + PREFIX.length(), to = from;
        long k = 0;
        for (char c; to < identity.length() && (c = identity.charAt(to)) >= '0' && c <= '9'; to++) {
            k = k * 10 + (c - '0');
            if (k > Integer.MAX_VALUE) return -1;
        }
        return to == from ? -1 : (int) k;
    }

    private Level level(String ruleId) {
        return rules.get(ruleId).map(RuleMeta::level).orElse(Level.ERROR);
    }
}
