package dev.gpulint.plan.search;

import java.util.List;
import java.util.Map;

/**
 * What a search found (../spec/PLAN.md): the job's own layout, the valid candidates best first, how many candidates
 * each rule rejected (a candidate with two errors counts under both; {@code rejectedCandidates} counts each once),
 * the rule IDs that hold for every layout ({@code clusterFindings}: the fabric, the NICs, NCCL variables), and how many
 * layouts were evaluated in how many distinct checks ({@code checks}: layouts the rules see alike are checked once),
 * and the rejected layouts themselves, each with the rules that rejected it ({@code rejectedLayouts}, in the search's order).
 */
public record SearchResult(Candidate current, List<Candidate> candidates, Map<String, Integer> rejected, int rejectedCandidates,
                           List<String> clusterFindings, int evaluated, int checks, List<Candidate> rejectedLayouts) {
    public SearchResult {
        candidates = List.copyOf(candidates);
        rejectedLayouts = List.copyOf(rejectedLayouts);
        rejected = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(rejected));
        clusterFindings = List.copyOf(clusterFindings);
    }

    /** The best {@code n} valid candidates. */
    public List<Candidate> top(int n) { return candidates.subList(0, Math.min(n, candidates.size())); }
}
