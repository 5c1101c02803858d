package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import dev.gpulint.testing.Recipes;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Megatron-Bridge's and NeMo 2's whole numbers read as the frameworks get them (NemoNumbers, the one home NeMo 1 uses): a
 * list, a mapping, a quoted number, a word, a null tp where an int is needed is SYN002 at the value with the framework's
 * wording, and the default (or "not written") stands in; {@code true} is Python's 1, read so with a line in the assumptions.
 * Our own fixtures, in the shapes of Megatron-Bridge's override files and the fiddle YAML NeMo-Run writes.
 */
class FrameworkNumbersTest {

    /** A Megatron-Bridge override file: tp 2, pp 1, micro 1, global 128, seq 4096 in dataset; %s is more model keys (line 4 on). */
    private static final String BRIDGE = """
            model:
              tensor_model_parallel_size: 2
              pipeline_model_parallel_size: 1
            %s  num_layers: 32
            train:
              micro_batch_size: 1
              global_batch_size: 128
            dataset:
              seq_length: 4096
            """;

    private static String bridge(String... more) {
        StringBuilder b = new StringBuilder();
        for (String m : more) b.append("  ").append(m).append('\n');
        return BRIDGE.formatted(b);
    }

    private static final String BRIDGE_WHY = ": Megatron-Bridge sets the config's field to the value as the YAML writes it"
            + " (ConfigContainer.from_yaml, and omegaconf_utils' apply_overrides for an override file, convert nothing) and"
            + " computes with it as an int (";

    @Test
    void bridgeNumbersOfTheWrongKindAreRefusedAtTheValue() {
        var m = Foreign.model("overrides.yaml", bridge("context_parallel_size: null", "expert_model_parallel_size: [4]")
                .replace("tensor_model_parallel_size: 2", "tensor_model_parallel_size: \"2\"")
                .replace("num_layers: 32", "num_layers: {n: 32}")
                .replace("global_batch_size: 128", "global_batch_size: 12.8"));
        assertEquals(List.of(
                "2:31 'model.tensor_model_parallel_size' is a quoted string ('2'); expected a whole number, written plainly"
                        + " (tensor_model_parallel_size: 2)" + BRIDGE_WHY + "ConfigContainer.validate and Megatron-Core's"
                        + " initialize_model_parallel multiply the parallel sizes), so the job stops at start-up; the value is left"
                        + " out, so the estimate takes Megatron-Core's default, 1.",
                "4:26 'model.context_parallel_size' is null; expected a whole number, written plainly" + BRIDGE_WHY
                        + "ConfigContainer.validate and Megatron-Core's initialize_model_parallel multiply the parallel sizes), so the"
                        + " job stops at start-up; the value is left out, so the estimate takes Megatron-Core's default, 1.",
                "5:31 'model.expert_model_parallel_size' is a list; expected a whole number, written plainly"
                        + " (expert_model_parallel_size: 4)" + BRIDGE_WHY + "ConfigContainer.validate and Megatron-Core's"
                        + " initialize_model_parallel multiply the parallel sizes), so the job stops at start-up; the value is left"
                        + " out, so the estimate takes Megatron-Core's default, 1.",
                "9:22 'train.global_batch_size' is '12.8', a float; expected a whole number, written plainly" + BRIDGE_WHY
                        + "the micro-batches of a step are counted from it), so the job stops at start-up; the value is left out, so"
                        + " the estimate reads train.global_batch_size as not written.",
                "6:15 'model.num_layers' is a mapping; expected a whole number, written plainly" + BRIDGE_WHY
                        + "Megatron-Core's TransformerConfig computes the model's shapes from it), so the job stops at start-up; the"
                        + " value is left out, so the estimate reads model.num_layers as not written."), Foreign.syn002(m));
        Specs.Job j = m.jobs().get(0);
        assertNull(j.parallelism().tp());
        assertFalse(j.parallelism().isUnknown(ParallelDim.TP), "refused, so the default stands in, as the message says");
        assertFalse(j.parallelism().isUnknown(ParallelDim.EP));
        assertNull(j.model() == null ? null : j.model().layers());
        assertNull(j.batch().globalBatchSize());
        assertEquals(1L, j.batch().microBatchSize().value());
    }

    @Test
    void bridgeNullsTheDataclassesTakeAndPlaceholdersAreQuiet() {
        var m = Foreign.model("overrides.yaml", bridge("virtual_pipeline_model_parallel_size: null", "expert_tensor_parallel_size: null",
                "num_query_groups: null", "context_parallel_size: ${oc.decode:${oc.env:CP}}"));
        assertEquals(List.of(), Foreign.syn002(m));
        Specs.Job j = m.jobs().get(0);
        assertEquals(2L, j.parallelism().tp().value());
        assertNull(j.parallelism().virtualPp());
        assertTrue(j.parallelism().isUnknown(ParallelDim.CP), "a placeholder is unknown, not the default");
        assertEquals(32L, j.model().layers().value());
        assertEquals(4096L, j.model().seqLength().value());
    }

    @Test
    void nemo2NumbersOfTheWrongKindAreRefusedWithNemo2sWording() {
        String recipe = Recipes.nemo2(128, 1, 4096).model("llama.LlamaModel", "llama.Llama3Config8B", "num_layers: 32.0")
                .strategy("tensor_model_parallel_size: [2]", "pipeline_model_parallel_size: 1").yaml();
        var m = Foreign.model("recipe.yaml", recipe);
        List<String> found = Foreign.syn002(m);
        assertEquals(2, found.size(), found.toString());
        assertEquals("12:17 'model.config.num_layers' is '32.0', a float; expected a whole number, written plainly:"
                + " NeMo-Run's YAML loader gives NeMo 2's int fields the value's text through Python's int() (a quoted '8' is 8)"
                + " and int() cannot read this one, a ParseError (Megatron-Core's TransformerConfig computes the model's shapes from"
                + " it), so the job stops at start-up; the value is left out, so the estimate reads model.config.num_layers as not"
                + " written.", found.get(1));
        assertTrue(found.get(0).startsWith("19:33 'trainer.strategy.tensor_model_parallel_size' is a list; expected a whole number,"
                + " written plainly (tensor_model_parallel_size: 2): NeMo-Run's YAML loader"), found.get(0));
        assertTrue(found.get(0).endsWith("(the MegatronStrategy hands it to Megatron-Core's initialize_model_parallel, which multiplies"
                + " the parallel sizes), so the job stops at start-up; the value is left out, so the estimate takes Megatron-Core's"
                + " default, 1."), found.get(0));
        Specs.Job j = m.jobs().get(0);
        assertNull(j.parallelism().tp());
        assertEquals(32L, j.model().layers().value(), "not written, so Llama3Config8B's own 32 layers");
    }

    @Test
    void trueIsPythonsOneAndSaidSo() {
        Specs.Job j = Foreign.bind("overrides.yaml", bridge().replace("tensor_model_parallel_size: 2", "tensor_model_parallel_size: true"));
        assertEquals(1L, j.parallelism().tp().value());
        assertTrue(j.origin().unpriced().contains("model.tensor_model_parallel_size = true: Megatron-Bridge sets the config's field to"
                + " the value as the YAML writes it (ConfigContainer.from_yaml, and omegaconf_utils' apply_overrides for an override"
                + " file, convert nothing), and Python's True is the int 1 (bool is a subclass of int), so Megatron-Bridge"
                + " runs with 1 (ConfigContainer.validate and Megatron-Core's initialize_model_parallel multiply the parallel sizes);"
                + " priced as 1; write 1, or the number meant"), j.origin().unpriced().toString());
        // NeMo 1 too: min(True, world_size) is True, and the groups are built from it as 1
        var nemo1 = Foreign.model("mixtral.yaml", Recipes.nemo1Moe().replace("tensor_model_parallel_size: 2", "tensor_model_parallel_size: yes"));
        assertEquals(List.of(), Foreign.syn002(nemo1));
        assertEquals(1L, nemo1.jobs().get(0).parallelism().tp().value());
        // false is 0 to Python: refused
        var off = Foreign.model("overrides.yaml", bridge().replace("tensor_model_parallel_size: 2", "tensor_model_parallel_size: false"));
        assertEquals(1, Foreign.syn002(off).size());
        assertTrue(Foreign.syn002(off).get(0).startsWith("2:31 'model.tensor_model_parallel_size' is 'false', a boolean Python reads as 0;"),
                Foreign.syn002(off).toString());
        // a quoted "true" is a string, not a bool
        var quoted = Foreign.model("overrides.yaml", bridge().replace("tensor_model_parallel_size: 2", "tensor_model_parallel_size: 'true'"));
        assertTrue(Foreign.syn002(quoted).get(0).contains("is a quoted string ('true')"), Foreign.syn002(quoted).toString());
    }

    @Test
    void yamlElevenIntegersAreTheNumbersPyYamlReads() {
        // PyYAML's int resolver (YAML 1.1; OmegaConf's loader subclasses SafeLoader and keeps it): 1_024 is 1024, +2 is 2,
        // 0x10 is 16, 010 is octal 8, 0b11 is 3, 1:30 is 90. The frameworks get those ints and run: no SYN002.
        var m = Foreign.model("overrides.yaml", bridge().replace("tensor_model_parallel_size: 2", "tensor_model_parallel_size: +2")
                .replace("pipeline_model_parallel_size: 1", "pipeline_model_parallel_size: 0b1")
                .replace("num_layers: 32", "num_layers: 0x20")
                .replace("global_batch_size: 128", "global_batch_size: 1_024")
                .replace("seq_length: 4096", "seq_length: 010000"));
        assertEquals(List.of(), Foreign.syn002(m));
        Specs.Job j = m.jobs().get(0);
        assertEquals(2L, j.parallelism().tp().value());
        assertEquals(1L, j.parallelism().pp().value());
        assertEquals(32L, j.model().layers().value());
        assertEquals(1024L, j.batch().globalBatchSize().value());
        assertEquals(4096L, j.model().seqLength().value(), "010000 is octal to PyYAML");
        for (String[] c : new String[][] {{"0", "0"}, {"-7", "-7"}, {"1_0", "10"}, {"1:30", "90"}, {"-0x_1f", "-31"}, {"0b_", null},
                {"09", null}, {"1__", "1"}, {"_1", null}, {"1.0", null}, {"1e3", null}, {"0o10", null}}) {
            assertEquals(c[1] == null ? null : Long.valueOf(c[1]), NemoNumbers.yamlInt(c[0]), c[0]);
        }
        // bounded: a 5000-digit number is past every bound, read as the largest long for DraftBounds to report
        assertEquals(Long.MAX_VALUE, NemoNumbers.yamlInt("9".repeat(5000)));
        // a word is still refused, with the word in the message
        var word = Foreign.model("overrides.yaml", bridge().replace("global_batch_size: 128", "global_batch_size: 1k"));
        assertTrue(Foreign.syn002(word).get(0).startsWith("7:22 'train.global_batch_size' is '1k', a word;"), Foreign.syn002(word).toString());
    }

    /** NeMo 2's wording of a model-config value ({@code model.config.} + key). */
    private static final String NEMO2_WHY = ": NeMo-Run's YAML loader gives NeMo 2's int fields the value's text through Python's"
            + " int() (a quoted '8' is 8) and int() cannot read this one, a ParseError (Megatron-Core's TransformerConfig"
            + " computes the model's shapes from it), so the job stops at start-up; the value is left out, so the estimate reads ";

    @Test
    void theMoeKeysAndTheStageLayerCountsAreReadAsTheFrameworksGetThem() {
        // NeMo 2: a quoted top-k and a quoted first-stage layer count are the numbers NeMo-Run's int() reads; a list is refused
        String recipe = Recipes.nemo2(256, 1, 4096).model("qwen3.Qwen3Model", "qwen3.Qwen3MoEConfig", "num_layers: 48",
                        "hidden_size: 2048", "num_attention_heads: 32", "num_moe_experts: 128", "moe_router_topk: '8'",
                        "moe_ffn_hidden_size: [768]", "moe_shared_expert_intermediate_size: 1536")
                .trainer(8, 4).strategy("tensor_model_parallel_size: 1", "pipeline_model_parallel_size: 4",
                        "expert_model_parallel_size: 8", "num_layers_in_first_pipeline_stage: '11'", "num_layers_in_last_pipeline_stage: 13")
                .yaml();
        var m = Foreign.model("recipe.yaml", recipe);
        assertEquals(List.of(
                "17:26 'model.config.moe_ffn_hidden_size' is a list; expected a whole number, written plainly (moe_ffn_hidden_size: 768)"
                        + NEMO2_WHY + "model.config.moe_ffn_hidden_size as not written."), Foreign.syn002(m));
        Specs.Job j = m.jobs().get(0);
        assertEquals(8L, j.model().topK().value(), "int('8') is 8");
        assertNull(j.model().moe().expertFfn());
        assertEquals(1536L, j.model().moe().sharedFfn().value());
        // Megatron-Bridge: the same keys under model., its own wording
        var b = Foreign.model("overrides.yaml", bridge("num_moe_experts: 64", "moe_router_topk: \"4\"", "kv_lora_rank: '512'"));
        assertEquals(List.of(
                "5:20 'model.moe_router_topk' is a quoted string ('4'); expected a whole number, written plainly (moe_router_topk: 4)"
                        + BRIDGE_WHY + "Megatron-Core's TransformerConfig computes the model's shapes from it), so the job stops at"
                        + " start-up; the value is left out, so the estimate reads model.moe_router_topk as not written.",
                "6:17 'model.kv_lora_rank' is a quoted string ('512'); expected a whole number, written plainly (kv_lora_rank: 512)"
                        + BRIDGE_WHY + "Megatron-Core's TransformerConfig computes the model's shapes from it), so the job stops at"
                        + " start-up; the value is left out, so the estimate reads model.kv_lora_rank as not written."), Foreign.syn002(b));
        // a dense dump's MoE defaults are no MoE layer's: not judged
        var dense = Foreign.model("overrides.yaml", bridge("num_moe_experts: null", "moe_router_topk: '2'"));
        assertEquals(List.of(), Foreign.syn002(dense));
    }

    @Test
    void anExponentWithoutADotIsWordedAsTheLoaderReadsIt() {
        // PyYAML's YAML 1.1 float needs a dot and a signed exponent: 1e3 is the str '1e3' to Bridge's yaml.safe_load
        var b = Foreign.model("overrides.yaml", bridge().replace("global_batch_size: 128", "global_batch_size: 1e3"));
        assertEquals(List.of("7:22 'train.global_batch_size' is '1e3', a string to PyYAML's YAML 1.1 resolver (a float needs a dot"
                + " and a signed exponent, as 1.0e+3), and the float 1000.0 where OmegaConf's loader reads the file; expected a whole"
                + " number, written plainly" + BRIDGE_WHY + "the micro-batches of a step are counted from it), so the job stops at"
                + " start-up; the value is left out, so the estimate reads train.global_batch_size as not written."), Foreign.syn002(b));
        // OmegaConf's loader (NeMo 1) adds the exponent without a dot: the float 1000.0
        var nemo1 = Foreign.model("mixtral.yaml", Recipes.nemo1Moe().replace("tensor_model_parallel_size: 2", "tensor_model_parallel_size: 2e0"));
        assertEquals(1, Foreign.syn002(nemo1).size(), Foreign.syn002(nemo1).toString());
        assertTrue(Foreign.syn002(nemo1).get(0).contains("'model.tensor_model_parallel_size' is '2e0', the float 2.0 to OmegaConf's"
                + " YAML loader (PyYAML's YAML 1.1 resolver alone reads it as a string); expected"), Foreign.syn002(nemo1).toString());
        // NeMo 2: NeMo-Run's yaml.safe_load gives the string '1e3', and int('1e3') raises; no OmegaConf loader reads the file
        var nemo2 = Foreign.model("recipe.yaml", Recipes.nemo2(128, 1, 4096).model("llama.LlamaModel", "llama.Llama3Config8B",
                "num_layers: 32e0").yaml());
        assertEquals(List.of("12:17 'model.config.num_layers' is '32e0', a string to PyYAML's YAML 1.1 resolver, which NeMo-Run's"
                + " yaml.safe_load uses (a float needs a dot and a signed exponent, as 1.0e+3); expected a whole number, written plainly:"
                + " NeMo-Run's YAML loader gives NeMo 2's int fields the value's text through Python's int() (a quoted '8' is 8)"
                + " and int() cannot read this one, a ParseError (Megatron-Core's TransformerConfig computes the model's shapes from"
                + " it), so the job stops at start-up; the value is left out, so the estimate reads model.config.num_layers as not"
                + " written."), Foreign.syn002(nemo2));
        // a float to both: 1.0e+3, .5
        assertEquals("a float", NemoNumbers.floatKind("1.0e+3", NemoNumbers.Reader.BRIDGE));
        assertEquals("a float", NemoNumbers.floatKind(".5", NemoNumbers.Reader.NEMO1));
        assertNull(NemoNumbers.floatKind("1k", NemoNumbers.Reader.NEMO2));
    }

    @Test
    void anEnvironmentInterpolationIsAStringWhateverTheEnvironment() {
        // OmegaConf's oc.env returns the variable's text, and str(default) when it is not set: never an int
        var m = Foreign.model("overrides.yaml", bridge("context_parallel_size: ${oc.env:CP,1}", "num_query_groups: ${oc.env:G,null}",
                "expert_model_parallel_size: ${oc.decode:${oc.env:EP,8}}"));
        assertEquals(List.of("4:26 'model.context_parallel_size' is '${oc.env:CP,1}', a string whatever the environment: OmegaConf's"
                + " oc.env resolver returns CP's text as a str, and '1', str(default), when CP is not set; expected a whole number,"
                + " written plainly or parsed from the variable (context_parallel_size: ${oc.decode:${oc.env:CP,1}})" + BRIDGE_WHY
                + "ConfigContainer.validate and Megatron-Core's initialize_model_parallel multiply the parallel sizes), so the job"
                + " stops at start-up; the value is left out, so the estimate takes Megatron-Core's default, 1."), Foreign.syn002(m));
        Specs.Job j = m.jobs().get(0);
        assertNull(j.parallelism().cp());
        assertFalse(j.parallelism().isUnknown(ParallelDim.CP), "refused: the default, as the message says");
        // parsed by oc.decode, the number depends on the environment: unknown, not refused, not the default
        assertTrue(j.parallelism().isUnknown(ParallelDim.EP));
        // a null default is None when unset, which an optional field takes: depends on the environment, so quiet and not read
        assertNull(j.model().kvHeads());
        // without a default: the variable's text, or a KeyError (NeMo 1)
        var noDefault = Foreign.model("mixtral.yaml", Recipes.nemo1Moe().replace("tensor_model_parallel_size: 2",
                "tensor_model_parallel_size: ${oc.env:TP}"));
        assertEquals(1, Foreign.syn002(noDefault).size(), Foreign.syn002(noDefault).toString());
        assertTrue(Foreign.syn002(noDefault).get(0).contains("'model.tensor_model_parallel_size' is '${oc.env:TP}', a string"
                + " whatever the environment: OmegaConf's oc.env resolver returns TP's text as a str, and a KeyError when TP is not"
                + " set; expected a whole number, written plainly or parsed from the variable (tensor_model_parallel_size:"
                + " ${oc.decode:${oc.env:TP}}): OmegaConf hands NeMo 1"), Foreign.syn002(noDefault).toString());
        // NeMo 2: NeMo-Run resolves it and parses the text with int(): a number or not by the environment, so unknown
        var nemo2 = Foreign.model("recipe.yaml", Recipes.nemo2(128, 1, 4096).model("llama.LlamaModel", "llama.Llama3Config8B")
                .strategy("tensor_model_parallel_size: ${oc.env:TP}", "pipeline_model_parallel_size: 1").yaml());
        assertEquals(List.of(), Foreign.syn002(nemo2));
        assertTrue(nemo2.jobs().get(0).parallelism().isUnknown(ParallelDim.TP));
    }

    @Test
    void nemo2ReadsEachValuesTextWithPythonsInt() {
        // NeMo-Run's YamlSerializer.deserialize writes each value back as key=text and parse_cli_args reads an int field with
        // int(text) (NVIDIA/NeMo-Run @075236b2): a quoted whole number runs as that number, ${oc.env:...} as the environment's
        // text parsed (unknown), and true is the text True, which int() refuses
        String recipe = Recipes.nemo2(256, 1, 4096).model("qwen3.Qwen3Model", "qwen3.Qwen3MoEConfig", "num_layers: '48'",
                        "hidden_size: 2048", "num_attention_heads: 32", "num_moe_experts: 128", "moe_router_topk: '8'")
                .trainer(8, 4).strategy("tensor_model_parallel_size: ${oc.env:TP,1}", "pipeline_model_parallel_size: 4",
                        "expert_model_parallel_size: \"8\"", "num_layers_in_first_pipeline_stage: '11'",
                        "num_layers_in_last_pipeline_stage: 13")
                .yaml();
        var m = Foreign.model("recipe.yaml", recipe);
        assertEquals(List.of(), Foreign.syn002(m));
        Specs.Job j = m.jobs().get(0);
        assertEquals(48L, j.model().layers().value());
        assertEquals(8L, j.model().topK().value());
        assertEquals(8L, j.parallelism().ep().value());
        assertTrue(j.parallelism().isUnknown(ParallelDim.TP));
        var t = Foreign.model("recipe.yaml", recipe.replace("moe_router_topk: '8'", "moe_router_topk: true"));
        assertEquals(1, Foreign.syn002(t).size(), Foreign.syn002(t).toString());
        assertTrue(Foreign.syn002(t).get(0).contains("'model.config.moe_router_topk' is 'true', a boolean, the text 'True' to int();"
                + " expected a whole number, written plainly" + NEMO2_WHY), Foreign.syn002(t).toString());
        assertNull(t.jobs().get(0).model().topK(), "refused, not read as 1");
        assertEquals(8L, NemoNumbers.pythonInt(" 08 "));
        assertEquals(1024L, NemoNumbers.pythonInt("1_024"));
        assertNull(NemoNumbers.pythonInt("1__0"));
        assertNull(NemoNumbers.pythonInt("0x20"));
        assertNull(NemoNumbers.pythonInt("8.0"));
    }

    @Test
    void yamlBooleansAreTheWordsPyYamlReads() {
        for (String t : List.of("true", "True", "TRUE", "yes", "Yes", "on", "ON")) assertEquals(Boolean.TRUE, NemoNumbers.yamlBool(t), t);
        for (String t : List.of("false", "No", "off", "OFF")) assertEquals(Boolean.FALSE, NemoNumbers.yamlBool(t), t);
        for (String t : List.of("tRue", "1", "y", "", "onn")) assertNull(NemoNumbers.yamlBool(t), t);
    }

    /** A HyperPod checkpointless recipe (a top-level strategy beside the trainer, our own in its shape); {@code %s} is the tp line. */
    private static final String CHECKPOINTLESS = """
            data:
              global_batch_size: 512
              micro_batch_size: 1
              seq_length: 2048
            model:
              config:
                seq_length: 2048
                vocab_size: 128256
            strategy:
              %s
              pipeline_model_parallel_size: 4
            trainer:
              devices: 8
              num_nodes: 16
            """;

    private static final String HYPERPOD_HANDS = "SageMaker HyperPod's checkpointless recipe is loaded by Hydra (@hydra.main,"
            + " OmegaConf's YAML loader) and its training script hands each value on as the YAML writes it"
            + " (CheckpointlessMegatronStrategy(**cfg.strategy), the model's config class built from"
            + " OmegaConf.to_container(cfg.model.config, resolve=True)), not through NeMo-Run's int()";

    /**
     * HyperPod's checkpointless recipes are NeMo 2 jobs that NeMo-Run never loads: a @hydra.main script passes each value as
     * OmegaConf loaded it (aws/sagemaker-hyperpod-checkpointless-training examples/llama3/llama3_70b_pretrain_checkpointless.py),
     * so a quoted '8' is a str (refused, where a NeMo-Run recipe reads 8), an oc.env interpolation a str, and true Python's 1.
     */
    @Test
    void aHyperPodCheckpointlessRecipeIsReadAsHydraHandsItsValues() {
        var quoted = Foreign.model("checkpointless.yaml", CHECKPOINTLESS.formatted("tensor_model_parallel_size: '8'"));
        assertEquals(List.of("10:31 'strategy.tensor_model_parallel_size' is a quoted string ('8'); expected a whole number, written"
                + " plainly (tensor_model_parallel_size: 8): " + HYPERPOD_HANDS + " and NeMo 2 computes with it as an int (the"
                + " MegatronStrategy hands it to Megatron-Core's initialize_model_parallel, which multiplies the parallel sizes), so"
                + " the job stops at start-up; the value is left out, so the estimate takes Megatron-Core's default, 1."),
                Foreign.syn002(quoted));
        var env = Foreign.model("checkpointless.yaml", CHECKPOINTLESS.formatted("tensor_model_parallel_size: ${oc.env:TP,8}"));
        assertEquals(1, Foreign.syn002(env).size(), Foreign.syn002(env).toString());
        assertTrue(Foreign.syn002(env).get(0).contains("a string whatever the environment"), Foreign.syn002(env).toString());
        Specs.Job yes = Foreign.bind("checkpointless.yaml", CHECKPOINTLESS.formatted("tensor_model_parallel_size: true"));
        assertEquals(1L, yes.parallelism().tp().value());
        assertTrue(yes.origin().unpriced().contains("strategy.tensor_model_parallel_size = true: " + HYPERPOD_HANDS + ", and Python's"
                + " True is the int 1 (bool is a subclass of int), so NeMo 2 runs with 1 (the MegatronStrategy hands it to"
                + " Megatron-Core's initialize_model_parallel, which multiplies the parallel sizes); priced as 1; write 1, or the number"
                + " meant"), yes.origin().unpriced().toString());
        // quiet: a plain 8 is 8; and the same quoted '8' under NeMo-Run's trainer.strategy is read as int() reads it
        Specs.Job plain = Foreign.bind("checkpointless.yaml", CHECKPOINTLESS.formatted("tensor_model_parallel_size: 8"));
        assertEquals(8L, plain.parallelism().tp().value());
        String nemoRun = Recipes.nemo2(128, 1, 4096).model("llama.LlamaModel", "llama.Llama3Config8B")
                .strategy("tensor_model_parallel_size: '2'", "pipeline_model_parallel_size: 1").yaml();
        var run = Foreign.model("recipe.yaml", nemoRun);
        assertEquals(List.of(), Foreign.syn002(run));
        assertEquals(2L, run.jobs().get(0).parallelism().tp().value());
    }
}
