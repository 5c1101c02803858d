package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * NeMo 1's model numbers as NeMo 1 gets them (NemoNumbers: a list, a mapping, a quoted number, a null tp is SYN002 and the
 * default stands in). Our own fixtures, in the shape of the NeMo Framework Launcher's Mixtral configurations.
 */
class NemoNumbersTest {

    /** A NeMo 1 MoE configuration: 2 nodes × 8 GPUs, tp 2, ep 4, 8 experts; {@code %s} is more model keys. */
    private static final String MOE = """
            trainer:
              num_nodes: 2
              devices: 8
              precision: bf16
            model:
              micro_batch_size: 1
              global_batch_size: 128
              encoder_seq_length: 4096
              num_layers: 32
              hidden_size: 4096
              ffn_hidden_size: 14336
              num_attention_heads: 32
              num_query_groups: 8
              num_moe_experts: 8
              moe_router_topk: 2
              activation: fast-swiglu
              tensor_model_parallel_size: 2
              pipeline_model_parallel_size: 1
              expert_model_parallel_size: 4
            %s  optim:
                name: distributed_fused_adam
            """;

    private static String moe(String... more) {
        StringBuilder b = new StringBuilder();
        for (String m : more) b.append("  ").append(m).append('\n');
        return MOE.formatted(b);
    }

    @Test
    void aRefusedSizeTakesTheDefaultNotUnknown() {
        var m = Foreign.model("mixtral.yaml", moe().replace("tensor_model_parallel_size: 2", "tensor_model_parallel_size: [2]"));
        Specs.Job j = m.jobs().get(0);
        assertNull(j.parallelism().tp());
        assertFalse(j.parallelism().isUnknown(ParallelDim.TP), "refused, so NeMo's default stands in, as the message says");
        assertEquals(1, Foreign.syn002(m).size());
        assertTrue(j.origin().isLeftOut("model.tensor_model_parallel_size"));
    }

    @Test
    void anInterpolationThatLeadsToAListIsRefusedAtTheList() {
        var m = Foreign.model("mixtral.yaml", moe("sizes: [2]").replace("tensor_model_parallel_size: 2",
                "tensor_model_parallel_size: ${model.sizes}"));
        List<String> found = Foreign.syn002(m);
        assertEquals(1, found.size(), found.toString());
        assertTrue(found.get(0).startsWith("20:10 'model.tensor_model_parallel_size' is a list; expected a whole number, written plainly"
                + " (tensor_model_parallel_size: 2)"), found.get(0));
        assertFalse(m.jobs().get(0).parallelism() != null && m.jobs().get(0).parallelism().isUnknown(ParallelDim.TP));
    }

    @Test
    void theNullsNemoTakesAreQuiet() {
        var m = Foreign.model("mixtral.yaml", moe("virtual_pipeline_model_parallel_size: null", "kv_channels: null")
                .replace("num_query_groups: 8", "num_query_groups: null"));
        assertEquals(List.of(), Foreign.syn002(m));
        Specs.Job j = m.jobs().get(0);
        assertNull(j.parallelism().virtualPp());
        assertNull(j.model().kvHeads());
    }
}
