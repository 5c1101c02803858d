package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import dev.gpulint.testing.PlanCli;
import dev.gpulint.testing.Recipes;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * NeMo 1's model numbers as NeMo 1 gets them (NemoNumbers: a list, a mapping, a quoted number, a null tp is SYN002 and the
 * default stands in) and its expert tensor parallelism (expert tp = tp whatever model.expert_tensor_parallel_size says),
 * against NeMo 2, whose MegatronStrategy passes expert_tensor_parallel_size on. Our own fixtures, in the shape of the NeMo
 * Framework Launcher's Mixtral configurations (Recipes.nemo1Moe).
 */
class NemoNumbersTest {

    @Test
    void nemo1sExpertGroupsTakeTpWhateverTheKeySays() {
        var m = Foreign.model("mixtral.yaml", Recipes.nemo1Moe("expert_tensor_parallel_size: 1", "moe_token_dispatcher_type: alltoall"));
        Specs.Job j = m.jobs().get(0);
        assertEquals(List.of(), Foreign.syn002(m));
        assertNull(j.parallelism().expertTp(), "NeMo 1 does not pass it to Megatron-Core: expert tp is tp's");
        assertFalse(j.parallelism().isUnknown(ParallelDim.ETP));
        assertEquals(List.of("model.expert_tensor_parallel_size = 1: NeMo 1 does not pass it to Megatron-Core's initialize_model_parallel"
                + " (nlp_overrides.py), whose expert groups then take tp; priced with expert tp = tp (2); write tp (2) or leave it out, as the"
                + " TransformerConfig NeMo 1 builds takes the written value"), j.origin().unpriced());
        // written equal to tp: nothing to say
        assertEquals(List.of(), Foreign.bind("mixtral.yaml", Recipes.nemo1Moe("expert_tensor_parallel_size: 2", "moe_token_dispatcher_type: alltoall"))
                .origin().unpriced());
    }

    @Test
    void nemo2PassesItsExpertTpOn() {
        // NeMo 2's init_parallel_ranks and init_model_parallel pass parallel_config.expert_tensor_parallel_size on
        String recipe = Recipes.nemo2(128, 1, 4096)
                .model("mixtral.MixtralModel", "mixtral.MixtralConfig8x7B", "num_moe_experts: 8")
                .trainer(8, 2)
                .strategy("tensor_model_parallel_size: 2", "pipeline_model_parallel_size: 1", "expert_model_parallel_size: 4",
                        "expert_tensor_parallel_size: 1")
                .yaml();
        Specs.Parallelism p = Foreign.bind("mixtral_nemo2.yaml", recipe).parallelism();
        assertEquals(2L, p.tp().value());
        assertEquals(1L, p.expertTp().value(), "the strategy's expert tp, not tp's");
    }

    @Test
    @SuppressWarnings("unchecked")
    void thePlanPricesNemo1sExpertsAtTpAndSaysWhy(@TempDir Path dir) {
        Map<String, Object> written = plan(dir.resolve("a"), Recipes.nemo1Moe("expert_tensor_parallel_size: 1"));
        Map<String, Object> left = plan(dir.resolve("b"), Recipes.nemo1Moe());
        assertEquals(stage(left).get("parameters"), stage(written).get("parameters"), "the key changes nothing NeMo 1 runs");
        List<String> as = (List<String>) written.get("assumptions");
        assertTrue(as.stream().anyMatch(a -> a.startsWith("model.expert_tensor_parallel_size = 1: NeMo 1 does not pass it")), as.toString());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> stage(Map<String, Object> doc) {
        return (Map<String, Object>) ((List<Object>) ((Map<String, Object>) ((Map<String, Object>) doc.get("current")).get("memory"))
                .get("stages")).get(0);
    }

    private static Map<String, Object> plan(Path dir, String config) {
        try {
            java.nio.file.Files.createDirectories(dir);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("mixtral.yaml", config).jobClusters("lab", "mixtral.yaml")
                .planJson().json();
    }

    @Test
    void aRefusedSizeTakesTheDefaultNotUnknown() {
        var m = Foreign.model("mixtral.yaml", Recipes.nemo1Moe().replace("tensor_model_parallel_size: 2", "tensor_model_parallel_size: [2]"));
        Specs.Job j = m.jobs().get(0);
        assertNull(j.parallelism().tp());
        assertFalse(j.parallelism().isUnknown(ParallelDim.TP), "refused, so NeMo's default stands in, as the message says");
        assertEquals(1, Foreign.syn002(m).size());
        assertTrue(j.origin().isLeftOut("model.tensor_model_parallel_size"));
    }

    @Test
    void anInterpolationThatLeadsToAListIsRefusedAtTheList() {
        var m = Foreign.model("mixtral.yaml", Recipes.nemo1Moe("sizes: [2]").replace("tensor_model_parallel_size: 2",
                "tensor_model_parallel_size: ${model.sizes}"));
        List<String> found = Foreign.syn002(m);
        assertEquals(1, found.size(), found.toString());
        assertTrue(found.get(0).startsWith("20:10 'model.tensor_model_parallel_size' is a list; expected a whole number, written plainly"
                + " (tensor_model_parallel_size: 2)"), found.get(0));
        assertFalse(m.jobs().get(0).parallelism() != null && m.jobs().get(0).parallelism().isUnknown(ParallelDim.TP));
    }

    @Test
    void theNullsNemoTakesAreQuiet() {
        var m = Foreign.model("mixtral.yaml", Recipes.nemo1Moe("virtual_pipeline_model_parallel_size: null", "kv_channels: null")
                .replace("num_query_groups: 8", "num_query_groups: null"));
        assertEquals(List.of(), Foreign.syn002(m));
        Specs.Job j = m.jobs().get(0);
        assertNull(j.parallelism().virtualPp());
        assertNull(j.model().kvHeads());
    }
}
