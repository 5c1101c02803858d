package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.core.Finding;
import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import dev.gpulint.spec.Specs;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * torchtitan's activation checkpointing (our own fixtures in the shape of its llama3 8B preset): mode "full", "none",
 * and "selective" with selective_ac_option "op" or an integer (its default "2").
 */
class TorchtitanCheckpointTest {

    private static dev.gpulint.spec.Model bind(String ac) {
        SourceFile f = SourceFile.of("llama3_8b.toml", """
                [model]
                name = "llama3"
                flavor = "8B"

                [training]
                local_batch_size = 1
                seq_len = 8192

                [parallelism]
                data_parallel_shard_degree = -1
                tensor_parallel_degree = 1

                [activation_checkpoint]
                %s

                [compile]
                enable = true
                components = ["model", "loss"]
                """.formatted(ac));
        return Adapters.bind(List.of(new Adapters.Input(f, Readers.read(f).foreign())));
    }

    private static Specs.Job job(String ac) {
        return bind(ac).jobs().get(0);
    }

    @Test
    void opLevelSelectiveIsOpAtTheOption() {
        Specs.Job j = job("mode = \"selective\"  # [\"none\", \"selective\", \"full\"]\nselective_ac_option = \"op\"");
        assertEquals("op", j.recompute().value());
        assertEquals(15, j.recompute().span().startLine());
    }

    @Test
    void anIntegerOptionIsOneLayerInNAndTheDefaultIsTwo() {
        assertEquals("every:4", job("mode = \"selective\"\nselective_ac_option = \"4\"").recompute().value());
        Specs.Job dflt = job("mode = \"selective\"");
        assertEquals("every:2", dflt.recompute().value(), "torchtitan's selective_ac_option defaults to \"2\"");
        assertEquals(14, dflt.recompute().span().startLine());
    }

    @Test
    void fullAndNoneAreAsWrittenAndTheOptionIsIgnoredThere() {
        assertEquals("full", job("mode = \"full\"\nselective_ac_option = \"op\"").recompute().value());
        assertEquals("none", job("mode = \"none\"").recompute().value());
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
        SourceFile f = SourceFile.of("llama3_8b.toml", """
                [model]
                name = "llama3"
                flavor = "8B"

                [parallelism]
                data_parallel_shard_degree = -1
                """);
        Specs.Job j = Adapters.bind(List.of(new Adapters.Input(f, Readers.read(f).foreign()))).jobs().get(0);
        assertEquals("default:every:2", j.recompute().value(), "torchtitan's ActivationCheckpoint: mode selective, option 2");
        assertEquals(5, j.recompute().span().startLine(), "at the [parallelism] table when there is no [activation_checkpoint]");
    }

    @Test
    void aTableWithOnlyTheOptionTakesTheDefaultModeWithThatOption() {
        Specs.Job j = job("selective_ac_option = \"op\"");
        assertEquals("default:op", j.recompute().value());
        assertEquals(14, j.recompute().span().startLine());
    }
}
