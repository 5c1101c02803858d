package dev.gpulint.derive.estimate;

import dev.gpulint.spec.ParallelDim;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.plan.EstimateWords;
import dev.gpulint.derive.Fixture;
import dev.gpulint.testing.EstimateManifest;
import org.junit.jupiter.api.Test;

/**
 * A data-parallel collective hidden behind compute still costs what the compute beside it loses. Lee et al. 2025:
 * overlapped compute is 18.9 % slower than compute alone, and compute then communication in sequence 10.2 % slower
 * than overlapped; so the collectives were 1.102 × 1.189 − 1 = 0.310 of the compute and 0.189/0.310 = 61 % of their
 * time stays on the step: dp_overlap = 1 − 0.609 = 0.39.
 */
class DpExposureTest {

    @Test
    void aHiddenFsdpCollectiveCostsWhatTheComputeBesideItLoses() {
        Fixture f = EstimateManifest.h100().model("layers: 32, hidden_size: 4096, attention_heads: 32, seq_length: 2048, vocab_size: 50368")
                .parallelism("tp: 1, pp: 1").batch(6, 96).optimizer("zero_stage: 3").fixture();
        JobEstimate j = JobEstimate.of(f.jobs().get(0), f.catalog());
        Estimate e = j.estimate();
        double overlap = f.catalog().compute().efficiencies("H100").orElseThrow().values().get("dp_overlap");
        double comm = 1.102 * 1.189 - 1;                 // the collectives' time over the compute's in Lee et al.'s runs
        assertEquals(1 - 0.189 / comm, overlap, 0.005, "dp_overlap is the share Lee et al.'s two averages leave hidden");
        double dp = e.time().comm().get(ParallelDim.DP);
        assertTrue(dp > 0 && dp < e.time().compute() / 2, "the FSDP collectives hide behind compute here");
        assertEquals((1 - overlap) * dp, e.time().exposedTotal(), 1e-9 * dp, "what stays exposed of them");
        assertTrue(e.terms().stream().anyMatch(n -> n.term().equals("dp") && EstimateWords.text(n).contains("Lee et al. 2025")), "the text says so");
    }
}
