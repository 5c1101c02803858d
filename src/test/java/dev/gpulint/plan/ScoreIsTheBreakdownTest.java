package dev.gpulint.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.bind.Binder;
import dev.gpulint.catalog.Catalog;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.estimate.Estimate;
import dev.gpulint.derive.estimate.JobEstimate;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.plan.search.Candidate;
import dev.gpulint.plan.search.JobLayouts;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.yaml.YamlReader;
import dev.gpulint.spec.Model;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The search ranks every valid layout by Estimator.score (no breakdown built) and the report prints the full estimate of
 * the few it shows: for every candidate of a search, the score it was ranked by must be its printed estimate's
 * tokens/s/GPU and the headroom its printed fullest stage's, to the bit. A term priced differently with and without the
 * breakdown (a figure computed only where the record is made) would rank one number and print another.
 */
class ScoreIsTheBreakdownTest {

    /**
     * Every valid candidate of {@code text}'s job on its GPUs, at least {@code atLeast} of them; the kinds of term their
     * printed breakdowns hold (what the comparison covered).
     */
    private static java.util.Set<String> everyCandidate(String text, int atLeast) {
        Model b = new Binder().bind(new YamlReader().read(SourceFile.of("j.yaml", text)).documents());
        Resolved.Job r = JobLayouts.resolve(b.jobs().get(0), b.clusters(), Catalog.builtIn());
        JobEstimate job = JobEstimate.of(r, Catalog.builtIn());
        PlanSearch.Ranking ranking = PlanSearch.rank(job, Catalog.builtIn(), RuleCatalog.builtIn(), Map.of(), 0, 0, false);
        // a second pricer, which has scored nothing: its estimates are made from nothing the search kept
        Pricer printed = new Pricer(job.inputs(), b.jobs().get(0));
        int checked = 0;
        java.util.Set<String> kinds = new java.util.TreeSet<>();
        for (Candidate c : ranking.search().candidates()) {
            Estimate e = printed.estimate(c.layout());
            assertEquals(e.throughput().tokensPerSecondPerGpu(), c.score(), c.layout().toString());
            assertEquals(printed.usable() - e.largestStage().total(), c.headroom(), c.layout().toString());
            // and the pricer the search used prints the same step
            assertEquals(e.time().step(), ranking.estimate(c).time().step(), c.layout().toString());
            for (var t : e.terms()) kinds.add(t.getClass().getSimpleName());
            checked++;
        }
        assertTrue(checked >= atLeast, checked + " candidates");
        return kinds;
    }

    @Test
    void aDenseJobsCandidatesArePrintedAsTheyWereRanked() {
        everyCandidate(PricerTest.JOB, 100);
    }

    @Test
    void aHybridMoeJobWithMtpBlocksCandidatesArePrintedAsTheyWereRanked() {
        // Mamba-2, attention and MoE layers and an MTP block (PricerTest's hybrid), ep among the searched sizes
        everyCandidate(PricerTest.JOB.replace("gated_mlp: true,", "gated_mlp: true, experts: 8, top_k: 2,")
                .replace("layers: 80,", "layers: 8, hybrid: { pattern: \"M*M-ME*E/*E\", mamba_num_heads: 128 },"), 20);
    }

    @Test
    void anFp8JobWithHostStatesCandidatesArePrintedAsTheyWereRanked() {
        // terms the two jobs above never price: torchao's rowwise fp8 casts (Float8Scaling) and the optimizer's states in host
        // memory (StateOffload: its copies' exposed seconds, which the two above pass with the score computing them as 0)
        java.util.Set<String> kinds = everyCandidate(PricerTest.JOB.replace("dtype: bf16", "dtype: fp8").replace("layers: 80,", "layers: 16,")
                + "fp8_scaling: rowwise\noffload: { optimizer: cpu }\n", 20);
        assertTrue(kinds.containsAll(java.util.List.of("Float8", "HostStates")), kinds.toString());
    }
}
