package dev.gpulint.plan;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.estimate.Estimate;
import dev.gpulint.derive.estimate.JobEstimate;
import dev.gpulint.derive.estimate.Layout;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.plan.search.Candidate;
import dev.gpulint.plan.search.CandidateSearch;
import dev.gpulint.plan.search.JobLayouts;
import dev.gpulint.plan.search.SearchResult;
import dev.gpulint.plan.search.SearchSpace;
import dev.gpulint.spec.Specs;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The plan's candidates (../spec/PLAN.md "Candidates"): every layout of the job's {@link SearchSpace} checked by
 * gpulint's own rules ({@link CandidateSearch}), its memory by MEM003 on the estimate, the valid ones ranked by the
 * estimate's tokens/s/GPU ({@link Pricer}). When none is valid, {@link Infeasible} says why and what would make one
 * valid: the fewest GPUs of the same nodes that give a valid layout (every whole-node count up to the GPUs the cluster
 * has, each one's layouts screened by memory and those that fit checked by the rules, then a few counts beyond it), or
 * the sharding that does.
 */
public final class PlanSearch {
    private PlanSearch() {}

    /** The most larger GPU counts tried for the fix of an infeasible job (each one a search of its own). */
    static final int MAX_FIX_SEARCHES = 3;
    /** The fix looks up to this many times the job's GPUs. */
    static final int MAX_FIX_FACTOR = 64;
    /** The most layouts the fix screens by memory over all the GPU counts it tries (about a second's work). */
    static final int MAX_FIX_SCREENED = 200_000;

    /**
     * @param search    the search, with every layout's estimate in {@code pricer}
     * @param infeasible why no layout is valid and what would make one, or null when some is
     * @param problem   why no search was made (the job's batch or GPU count is not known, too many layouts), or null
     * @param narrowed  what the search kept as written to stay within {@link SearchSpace#MAX_LAYOUTS} (an assumption's
     *                  words), or null when it searched the whole space
     */
    public record Ranking(SearchResult search, Pricer pricer, Infeasible infeasible, String problem, String narrowed) {
        public Estimate estimate(Candidate c) { return pricer.estimate(c.layout()); }

        /** The best valid layout, if any. */
        public Optional<Candidate> best() {
            return search == null || search.candidates().isEmpty() ? Optional.empty() : Optional.of(search.candidates().get(0));
        }
    }

    /**
     * @param leanest     the layout that needs the least memory per GPU, and its estimate
     * @param usableBytes the memory a layout may take per GPU (capacity less the allowance)
     * @param moreGpus    the fewest GPUs (whole nodes) with a valid layout, and the best there; null when none within reach
     * @param sharded     the best valid layout on the job's GPUs when ZeRO stages 1–3 are allowed; null when none or already allowed
     * @param memoryOnly  some layout is rejected by memory rules alone (else every one breaks another rule, and no fix is sought)
     * @param clusterGpus the GPUs of the job's node group (count × GPUs per node; 0 when unknown): every whole-node count
     *                    up to it is searched before more GPUs than the cluster has are proposed
     * @param warnAt      MEM002's warn_at the candidates were judged by (0.9, or the project's .gpulint.yaml params:)
     */
    public record Infeasible(Layout leanest, Estimate leanestEstimate, List<String> leanestRejectedBy, double usableBytes, long triedUpTo,
                             Fix moreGpus, Fix sharded, boolean memoryOnly, long clusterGpus, double warnAt) {}

    /** A change that makes a layout valid: on {@code gpus} GPUs, the best valid layout and its estimate. */
    public record Fix(long gpus, Layout best, Estimate estimate, int valid) {}

    /**
     * Search the layouts of {@code current}'s job on its GPUs ({@code gpus} > 0: on that many), each judged with the
     * project's rule parameters {@code params} ({@code "MEM002.warn_at" → 0.85}; empty: every rule's default).
     */
    public static Ranking rank(JobEstimate current, Catalog catalog, RuleCatalog rules, Map<String, Double> params, long gpus, long perNode) {
        return rank(current, catalog, rules, params, gpus, perNode, true);
    }

    /** As above; {@code advise} false: no search for what would make an infeasible job valid ({@code infeasible} null). */
    public static Ranking rank(JobEstimate current, Catalog catalog, RuleCatalog rules, Map<String, Double> params, long gpus, long perNode,
                               boolean advise) {
        Resolved.Job r = current.job();
        Specs.Job job = r.spec();
        List<Specs.Cluster> clusters = r.cluster() == null ? List.of() : List.of(r.cluster().spec());
        Layout cur = current.inputs().layout();
        Pricer pricer = new Pricer(current.inputs(), job,
                dev.gpulint.derive.estimate.GpuMemory.of(r.group()).map(dev.gpulint.derive.estimate.GpuMemory::overridesCatalog).orElse(false));
        Optional<SearchSpace> space = JobLayouts.space(r, cur.gpus());
        if (space.isEmpty()) return new Ranking(null, pricer, null, "the job's global batch or GPU count is not known: no layout to compare", null);
        SearchSpace whole = space.get(), searched = whole.narrowed(cur);
        SearchResult s;
        try {
            s = search(job, clusters, cur, searched, pricer, catalog, rules, params, gpus > 0 ? perNode : 0);
        } catch (IllegalStateException e) {
            return new Ranking(null, pricer, null, e.getMessage(), null);
        }
        long node = perNode > 0 ? perNode : r.gpusPerNode() > 0 ? r.gpusPerNode() : r.group() == null ? 0 : r.group().gpusPerNode();
        Infeasible inf = s.candidates().isEmpty() && advise ? infeasible(s, job, clusters, searched, pricer, catalog, rules, params, node, clusterGpus(r)) : null;
        return new Ranking(s, pricer, inf, null, searched == whole ? null : narrowing(whole, searched, cur));
    }

    /**
     * The assumption a narrowed search states: "2,048 GPUs give 305,904 layouts, more than the 250,000 one search checks:
     * it keeps the micro batch (1) as written (77,784 layouts) ...".
     */
    static String narrowing(SearchSpace whole, SearchSpace searched, Layout written) {
        List<String> kept = new ArrayList<>();
        for (SearchSpace.Kept d : searched.keptInOrder()) {
            kept.add(d.words() + " (" + switch (d) {
                case MICRO_BATCH -> String.valueOf(written.microBatchSize());
                case VIRTUAL_PP -> String.valueOf(written.virtualPp());
                case OPTIMIZER -> whole.zeroStages() ? "ZeRO-" + written.zeroStage()
                        : written.distributedOptimizer() ? "distributed optimizer" : "unsharded";
                case EP -> String.valueOf(written.ep());
                case CP -> String.valueOf(written.cp());
            } + ")");
        }
        String list = kept.size() == 1 ? kept.get(0)
                : String.join(", ", kept.subList(0, kept.size() - 1)) + " and " + kept.get(kept.size() - 1);
        long all = whole.size();
        return String.format(java.util.Locale.ROOT, "%,d GPUs give %s%,d layouts, more than the %,d one search checks: the search keeps "
                + "the %s as written (%,d layouts; a candidate whose sizes do not allow the written value takes the largest "
                + "they allow below it), and ranks the job as written among them", whole.gpus(), all > SearchSpace.MAX_COUNTED ? "over " : "",
                Math.min(all, SearchSpace.MAX_COUNTED), SearchSpace.MAX_LAYOUTS, list,
                searched.size());
    }

    /** MEM002's warn_at in {@code params}, else its ID.yaml default 0.9. */
    static double warnAt(Map<String, Double> params) {
        return params.getOrDefault("MEM002.warn_at", 0.9);
    }

    /** The share of memory MEM002 keeps free at {@code warnAt}, and where that is set: "20% (warn_at 0.8, .gpulint.yaml params:)". */
    static String keptShare(double warnAt) {
        return plain(Math.round((1 - warnAt) * 1000) / 10.0) + "% (warn_at " + plain(warnAt) + ", .gpulint.yaml params:)";
    }

    private static String plain(double v) {
        return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }

    /** The GPUs of the job's node group: its node count × GPUs per node; 0 when either is unknown. */
    static long clusterGpus(Resolved.Job r) {
        Resolved.Group g = r.group();
        if (g == null || g.spec().count() == null || g.spec().count().value() == null || g.gpusPerNode() <= 0) return 0;
        return dev.gpulint.facts.Sizes.product(g.spec().count().value(), g.gpusPerNode());
    }

    private static SearchResult search(Specs.Job job, List<Specs.Cluster> clusters, Layout cur, SearchSpace space, Pricer pricer,
                                       Catalog catalog, RuleCatalog rules, Map<String, Double> params, long perNode) {
        List<Layout> all = new ArrayList<>(JobLayouts.scheduled(space.layouts(), job));
        all.add(cur);
        return new CandidateSearch(catalog, rules).params(params).resized(perNode).search(job, clusters, cur, all, pricer);
    }

    /** Why nothing is valid, and the fewest GPUs (whole nodes) or the sharding that gives a valid layout. */
    private static Infeasible infeasible(SearchResult found, Specs.Job job, List<Specs.Cluster> clusters, SearchSpace space,
                                         Pricer pricer, Catalog catalog, RuleCatalog rules, Map<String, Double> params, long perNode,
                                         long clusterGpus) {
        // the layout that needs the least memory among those only memory rejects (or among all, when every one breaks another rule)
        Candidate leanest = null;
        boolean memoryOnly = false;
        for (boolean only : new boolean[] {true, false}) {
            for (Candidate c : found.rejectedLayouts()) {
                if (only && !c.rejectedBy().stream().allMatch(id -> id.startsWith("MEM"))) continue;
                if (leanest == null || pricer.peakBytes(c.layout()) < pricer.peakBytes(leanest.layout())) leanest = c;
            }
            if (leanest != null) { memoryOnly = only; break; }
        }
        Layout cur = found.current().layout();
        if (leanest == null) leanest = found.current();
        if (!memoryOnly) {
            // every layout breaks a rule besides memory: more GPUs or sharding do not mend that
            return new Infeasible(leanest.layout(), pricer.estimate(leanest.layout()), leanest.rejectedBy(), pricer.usable(), space.gpus(),
                    null, null, false, clusterGpus, warnAt(params));
        }
        long node = perNode > 0 ? perNode : 1;
        Fix more = null;
        int beyond = 0;
        long tried = space.gpus();
        long screened = 0;
        // every whole-node count up to the GPUs the cluster has, then up to MAX_FIX_SEARCHES counts beyond it
        long limit = Math.min(SearchSpace.MAX_GPUS, Math.max(space.gpus() * MAX_FIX_FACTOR, clusterGpus));
        for (long n = (space.gpus() / node + 1) * node; n <= limit && screened < MAX_FIX_SCREENED; n += node) {
            if (n > clusterGpus && beyond >= MAX_FIX_SEARCHES) break;
            tried = n;
            SearchSpace bigger = space.on(n);
            List<Layout> layouts;
            try {
                layouts = JobLayouts.scheduled(bigger.layouts(), job);
            } catch (IllegalStateException e) {
                break;
            }
            screened += layouts.size();
            // the memory alone first (cheap); the rules only on the layouts that fit
            List<Layout> fitting = layouts.parallelStream().filter(l -> pricer.peakBytes(l) <= pricer.usable()).toList();
            if (fitting.isEmpty()) continue;
            if (n > clusterGpus) beyond++;
            SearchResult s = new CandidateSearch(catalog, rules).params(params).resized(node).search(job, clusters, fitting.get(0), fitting, pricer);
            if (!s.candidates().isEmpty()) {
                Candidate b = s.candidates().get(0);
                more = new Fix(n, b.layout(), pricer.estimate(b.layout()), s.candidates().size());
                break;
            }
        }
        Fix sharded = null;
        if (!space.zeroStages()) {
            SearchSpace zero = space.withZeroStages().narrowed(cur);
            SearchResult s;
            try {
                s = search(job, clusters, cur, zero, pricer, catalog, rules, params, 0);
            } catch (IllegalStateException e) {
                s = null;            // ZeRO's space is too large even narrowed: no sharded fix is named
            }
            if (s != null && !s.candidates().isEmpty()) {
                Candidate b = s.candidates().get(0);
                sharded = new Fix(space.gpus(), b.layout(), pricer.estimate(b.layout()), s.candidates().size());
            }
        }
        return new Infeasible(leanest.layout(), pricer.estimate(leanest.layout()), leanest.rejectedBy(), pricer.usable(), tried, more, sharded,
                true, clusterGpus, warnAt(params));
    }
}
