package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import org.junit.jupiter.api.Test;

/**
 * NeMo 1's MoE keys: its build_transformer_config copies each model key named as a Megatron-Core TransformerConfig field,
 * so moe_router_topk, moe_grouped_gemm, moe_expert_capacity_factor, moe_pad_expert_input_to_capacity and
 * moe_token_dispatcher_type are read as a NeMo 2 model.config's; moe_grouped_gemm not written is TransformerConfig's False.
 * Our own fixture (NemoNumbersTest's), in the shape of the NeMo Framework Launcher's Mixtral configurations.
 */
class NemoMoeKeysTest {

    @Test
    void theMoeKeysAreReadAsTransformerConfigsFields() {
        Specs.Model m = Foreign.bind("mixtral_8x7b.yaml", NemoNumbersTest.moe("moe_grouped_gemm: true",
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
        Specs.Model m = Foreign.bind("mixtral_8x7b.yaml", NemoNumbersTest.moe()).model();
        assertEquals(false, m.moe().groupedGemm().value(), "TransformerConfig's moe_grouped_gemm default");
        assertEquals(14, m.moe().groupedGemm().span().startLine(), "at num_moe_experts");
        assertNull(m.moe().capacityFactor(), "not written: dropless");
        Specs.Model dense = Foreign.bind("dense.yaml", NemoNumbersTest.moe().replace("num_moe_experts: 8", "num_moe_experts: 1")).model();
        assertNull(dense.moe() == null ? null : dense.moe().groupedGemm(), "a dense model has no grouped GEMM to state");
    }
}
