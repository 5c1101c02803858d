package dev.gpulint.facts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** PAR007's fix value against cases worked out by hand: the bubble (pp−1)/(v·m+pp−1) at PAR006's 25% / 50%. */
class BatchFitTest {
    private static final double NOTE = 0.25, WARN = 0.5;

    @Test
    void withoutABubbleThePlainNearestStands() {
        assertEquals(1024, BatchFit.quiet(1000, 64, 1, 1, false, NOTE, WARN));   // pp 1
        assertEquals(24, BatchFit.quiet(1, 24, 2, 1, true, NOTE, WARN));        // micro_batches stated: PAR006 counts that
        assertEquals(24, BatchFit.quiet(1, 24, 2, 0, false, NOTE, WARN));       // virtual stages unknown: no bubble estimate
        assertEquals(0, BatchFit.quiet(12, 8, 1, 1, false, NOTE, WARN));        // a tie offers none
    }

    @Test
    void tooFewMicroBatchesRaiseTheBatch() {
        // pp 2: m 1 → 50%, m 2 → 33%, m 3 → 25% (at note_at, quiet)
        assertEquals(72, BatchFit.quiet(1, 24, 2, 1, false, NOTE, WARN));
        // 30 sits nearer 24 than 48, but both leave the bubble too large
        assertEquals(72, BatchFit.quiet(30, 24, 2, 1, false, NOTE, WARN));
        // 2 virtual stages: 1/(2·2+1) = 20% already with m 2
        assertEquals(48, BatchFit.quiet(30, 24, 2, 2, false, NOTE, WARN));
        // pp 8 needs m ≥ 21 (7/(21+7) = 25%); 98 with quantum 8 is nearest 96 (m 12, 37%): 168
        assertEquals(168, BatchFit.quiet(98, 8, 8, 1, false, NOTE, WARN));
    }

    @Test
    void quietNeighboursKeepTheNearestAndItsTie() {
        assertEquals(96, BatchFit.quiet(98, 8, 2, 1, false, NOTE, WARN));
        // 36 between 24 (m 1, 50%) and 48 (m 2, 33%) at a 40% note_at: only 48 is quiet, so the tie does not matter
        assertEquals(48, BatchFit.quiet(36, 24, 2, 1, false, 0.4, WARN));
        // 60 between 48 (m 2) and 72 (m 3), both quiet at 40%: a tie, no fix
        assertEquals(0, BatchFit.quiet(60, 24, 2, 1, false, 0.4, WARN));
    }

    @Test
    void theSearchIsBoundedAndNeverOverflows() {
        // a 1% note_at needs m ≥ 99 with pp 2: past the 64 multiples searched
        assertEquals(0, BatchFit.quiet(1, 24, 2, 1, false, 0.01, WARN));
        assertEquals(0, BatchFit.quiet(Long.MAX_VALUE - 1, Long.MAX_VALUE / 2, 2, 1, false, NOTE, WARN));
        assertEquals(BatchFit.bubble(4, 2, 6), 3.0 / 15, 1e-12);
    }
}
