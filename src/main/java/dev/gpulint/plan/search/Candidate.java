package dev.gpulint.plan.search;

import dev.gpulint.derive.estimate.Layout;
import java.util.List;

/**
 * One layout as the search found it: the rule IDs a check of it raises (PLAN.md's "findings", those that hold for
 * every layout left out), the errors that reject it, and its place among the valid candidates (1 = best, 0 when it is
 * rejected) with the score and memory headroom it was ranked by.
 */
public record Candidate(Layout layout, List<String> findings, List<String> rejectedBy, int rank, double score, double headroom) {
    public Candidate {
        findings = List.copyOf(findings);
        rejectedBy = List.copyOf(rejectedBy);
    }

    public boolean valid() { return rejectedBy.isEmpty(); }
}
