package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** An estimate's notes are written when first read, once, and are then what a note written at once would be. */
class LazyNoteTest {

    @Test
    void aNoteIsWrittenWhenFirstReadAndOnlyOnce() {
        AtomicInteger written = new AtomicInteger();
        Estimate.Note lazy = new Estimate.Note("dp", () -> {
            written.incrementAndGet();
            return "gradient all-reduce: 1.2 s";
        });
        assertEquals("dp", lazy.term());
        assertEquals(0, written.get(), "no words before they are read");
        assertEquals("gradient all-reduce: 1.2 s", lazy.text());
        assertEquals("gradient all-reduce: 1.2 s", lazy.text());
        assertEquals(1, written.get(), "written once");
        Estimate.Note eager = new Estimate.Note("dp", "gradient all-reduce: 1.2 s");
        assertEquals(eager, lazy);
        assertEquals(eager.hashCode(), lazy.hashCode());
        assertEquals("Note[term=dp, text=gradient all-reduce: 1.2 s]", lazy.toString());
        assertNotEquals(new Estimate.Note("tp", "gradient all-reduce: 1.2 s"), lazy);
        assertNotEquals(new Estimate.Note("dp", "gradient all-reduce: 1.3 s"), lazy);
    }

    private static JobEstimate job(String name, String parallelism) {
        dev.gpulint.derive.Fixture f = dev.gpulint.derive.Fixture.of("""
                kind: cluster
                name: c
                node_groups:
                  - name: g
                    count: 1
                    gpu: { model: H100-SXM5-80GB, count: 8 }
                    nvlink: { switch: true }
                ---
                kind: training_job
                name: %s
                cluster: c
                node_group: g
                nodes: 1
                gpus_per_node: 8
                model: { dtype: bf16, layers: 32, hidden_size: 4096, attention_heads: 32, kv_heads: 8, ffn_hidden_size: 14336,
                         vocab_size: 128256, gated_mlp: true, tied_embeddings: false, seq_length: 8192 }
                parallelism: %s
                batch: { micro_batch_size: 1, global_batch_size: 64 }
                optimizer: { distributed: true }
                recompute: none
                """.formatted(name, parallelism));
        return JobEstimate.of(f.jobs().get(0), f.catalog());
    }

    private static String note(Estimate e, String term) {
        return e.notes().stream().filter(n -> n.term().equals(term)).findFirst().map(Estimate.Note::text).orElse(null);
    }

    @Test
    void anEstimatesNotesSayTheFiguresOfTheirOwnLayout() {
        // two layouts priced one after the other, their notes read after both: each says its own figures
        Estimate a = job("a", "{ tp: 1, pp: 1 }").estimate(), b = job("b", "{ tp: 4, pp: 2, sequence_parallel: true }").estimate();
        String ca = note(a, "compute"), cb = note(b, "compute");
        assertEquals("32", ca.substring(0, ca.indexOf(' ')), ca);
        assertEquals("16", cb.substring(0, cb.indexOf(' ')), cb);
        assertEquals(null, note(a, "tp"), "one GPU per tensor-parallel group: no tp term");
        assertEquals(true, note(b, "tp").contains("over 4 ranks"), note(b, "tp"));
        assertEquals(true, note(b, "bubble").startsWith("(pp − 1)/vpp = 1/1"), note(b, "bubble"));
        assertEquals(true, cb.endsWith(Units.seconds(b.time().compute() / 64) + " per micro-batch"), cb + " vs " + b.time().compute());
    }
}
