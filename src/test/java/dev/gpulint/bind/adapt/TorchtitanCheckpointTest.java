package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Finding;
import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import dev.gpulint.testing.Recipes;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * torchtitan's activation checkpointing (our own fixtures in the shape of its llama3 8B preset): mode "full", "none",
 * and "selective" with selective_ac_option "op" or an integer (its default "2").
 */
class TorchtitanCheckpointTest {

    private static dev.gpulint.spec.Model bind(String ac) {
        return Foreign.model("llama3_8b.toml", Recipes.torchtitan("8B").training("local_batch_size = 1", "seq_len = 8192")
                .parallelism("data_parallel_shard_degree = -1", "tensor_parallel_degree = 1").table("[activation_checkpoint]\n" + ac)
                .table("[compile]\nenable = true\ncomponents = [\"model\", \"loss\"]").toml());
    }

    private static Specs.Job job(String ac) {
        return bind(ac).jobs().get(0);
    }

    @Test
    void opLevelSelectiveIsOpAtTheOption() {
        Specs.Job j = job("mode = \"selective\"  # [\"none\", \"selective\", \"full\"]\nselective_ac_option = \"op\"");
        assertEquals("op", j.recompute().granularity().value());
        assertEquals(15, j.recompute().granularity().span().startLine());
    }

    @Test
    void anIntegerOptionIsOneLayerInNAndTheDefaultIsTwo() {
        Specs.Job four = job("mode = \"selective\"\nselective_ac_option = \"4\"");
        assertEquals("every", four.recompute().granularity().value());
        assertEquals(4, four.recompute().every());
        Specs.Job dflt = job("mode = \"selective\"");
        assertEquals("every", dflt.recompute().granularity().value());
        assertEquals(2, dflt.recompute().every(), "torchtitan's selective_ac_option defaults to \"2\"");
        assertFalse(dflt.recompute().formatDefault(), "the mode is written");
        assertEquals(14, dflt.recompute().granularity().span().startLine());
    }

    @Test
    void fullAndNoneAreAsWrittenAndTheOptionIsIgnoredThere() {
        assertEquals("full", job("mode = \"full\"\nselective_ac_option = \"op\"").recompute().granularity().value());
        assertEquals("none", job("mode = \"none\"").recompute().granularity().value());
    }

    @Test
    void aBadOptionIsSyn002AtItAndTheRecomputeIsLeftOut() {
        dev.gpulint.spec.Model m = bind("mode = \"selective\"\nselective_ac_option = \"0\"");
        assertNull(m.jobs().get(0).recompute());
        List<Finding> syn = m.findings().stream().filter(f -> f.ruleId().equals("SYN002")).toList();
        assertEquals(1, syn.size(), m.findings().toString());
        assertEquals(15, syn.get(0).span().startLine());
        assertEquals("'selective_ac_option' is '0'; expected \"op\" or a positive integer n (one transformer block in n "
                + "fully checkpointed), as torchtitan accepts; the recompute is left out, so the estimate takes its default.",
                syn.get(0).message());
    }

    @Test
    void withoutAModeItIsTorchtitansDefaultSelectiveOneLayerInTwoMarkedAsDefault() {
        Specs.Job j = Foreign.bind("llama3_8b.toml", Recipes.torchtitan("8B").parallelism("data_parallel_shard_degree = -1").toml());
        assertEquals("every", j.recompute().granularity().value(), "torchtitan's ActivationCheckpoint: mode selective, option 2");
        assertEquals(2, j.recompute().every());
        assertTrue(j.recompute().formatDefault());
        assertEquals(5, j.recompute().granularity().span().startLine(), "at the [parallelism] table when there is no [activation_checkpoint]");
    }

    @Test
    void aTableWithOnlyTheOptionTakesTheDefaultModeWithThatOption() {
        Specs.Job j = job("selective_ac_option = \"op\"");
        assertEquals("op", j.recompute().granularity().value());
        assertTrue(j.recompute().formatDefault());
        assertEquals(14, j.recompute().granularity().span().startLine());
    }
}
