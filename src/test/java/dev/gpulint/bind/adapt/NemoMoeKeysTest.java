package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import dev.gpulint.testing.Recipes;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * NeMo 1's MoE keys: its build_transformer_config copies each model key named as a Megatron-Core TransformerConfig field,
 * so moe_router_topk, moe_grouped_gemm, moe_expert_capacity_factor, moe_pad_expert_input_to_capacity and
 * moe_token_dispatcher_type are read as a NeMo 2 model.config's; moe_grouped_gemm not written is TransformerConfig's False.
 * Our own fixture (Recipes.nemo1Moe), in the shape of the NeMo Framework Launcher's Mixtral configurations.
 */
class NemoMoeKeysTest {

    @Test
    void theMoeKeysAreReadAsTransformerConfigsFields() {
        Specs.Model m = Foreign.bind("mixtral_8x7b.yaml", Recipes.nemo1Moe("moe_grouped_gemm: true",
                "moe_token_dispatcher_type: alltoall", "moe_pad_expert_input_to_capacity: True", "moe_expert_capacity_factor: 1.0")).model();
        assertEquals(2L, m.topK().value());
        assertEquals(true, m.moe().groupedGemm().value());
        assertEquals("alltoall", m.moe().dispatcher().value());
        assertEquals(true, m.moe().padToCapacity().value());
        assertEquals(1.0, m.moe().capacityFactor().value());
        assertEquals(23, m.moe().capacityFactor().span().startLine());
    }

    @Test
    void groupedGemmNotWrittenIsTransformerConfigsFalseOnAnMoeModelOnly() {
        Specs.Model m = Foreign.bind("mixtral_8x7b.yaml", Recipes.nemo1Moe()).model();
        assertEquals(false, m.moe().groupedGemm().value(), "TransformerConfig's moe_grouped_gemm default");
        assertEquals(14, m.moe().groupedGemm().span().startLine(), "at num_moe_experts");
        assertNull(m.moe().capacityFactor(), "not written: dropless");
        Specs.Model dense = Foreign.bind("dense.yaml", Recipes.nemo1Moe().replace("num_moe_experts: 8", "num_moe_experts: 1")).model();
        assertNull(dense.moe() == null ? null : dense.moe().groupedGemm(), "a dense model has no grouped GEMM to state");
    }

    /** The assumptions line of a NeMo 1 MoE job at ep 4 that writes no dispatcher. */
    static final String ALLGATHER = "model.moe_token_dispatcher_type not written: the allgather dispatcher, NeMo 1's default"
            + " (Megatron-Core's TransformerConfig.moe_token_dispatcher_type = \"allgather\"): every expert-parallel rank all-gathers"
            + " the group's tokens and reduce-scatters the outputs; write alltoall (or flex) for the all-to-all dispatch";

    @Test
    void aDispatcherNotWrittenIsTransformerConfigsAllgatherAndSaysSo() {
        Specs.Job j = Foreign.bind("mixtral_8x7b.yaml", Recipes.nemo1Moe());
        assertEquals("allgather", j.model().moe().dispatcher().value(), "TransformerConfig's moe_token_dispatcher_type default");
        assertEquals(14, j.model().moe().dispatcher().span().startLine(), "at num_moe_experts");
        assertEquals(List.of(ALLGATHER), j.origin().unpriced());
        // written: as written, nothing to say; a placeholder: not known, no default stands in
        Specs.Job written = Foreign.bind("mixtral_8x7b.yaml", Recipes.nemo1Moe("moe_token_dispatcher_type: alltoall"));
        assertEquals("alltoall", written.model().moe().dispatcher().value());
        assertEquals(List.of(), written.origin().unpriced());
        Specs.Job unknown = Foreign.bind("mixtral_8x7b.yaml", Recipes.nemo1Moe("moe_token_dispatcher_type: ???"));
        assertNull(unknown.model().moe().dispatcher());
        // ep 1: allgather still, but no expert-parallel traffic to speak of
        Specs.Job ep1 = Foreign.bind("mixtral_8x7b.yaml", Recipes.nemo1Moe().replace("expert_model_parallel_size: 4", "expert_model_parallel_size: 1"));
        assertEquals("allgather", ep1.model().moe().dispatcher().value());
        assertEquals(List.of(), ep1.origin().unpriced());
    }
}
