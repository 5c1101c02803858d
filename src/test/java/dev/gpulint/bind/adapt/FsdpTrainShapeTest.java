package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The model flags of awsome-distributed-training's FSDP program (our own fixtures in the shapes of its Kubernetes
 * PyTorchJob and SageMaker HyperPodPyTorchJob Llama jobs: envsubst placeholders for the sizes, the model in the
 * program's flags, hyperpodrun in place of torchrun).
 */
class FsdpTrainShapeTest {

    private static String manifest(String launcher, String flags) {
        return """
                apiVersion: sagemaker.amazonaws.com/v1
                kind: HyperPodPyTorchJob
                metadata:
                  name: llama2-13b-fsdp
                spec:
                  nprocPerNode: "$GPU_PER_NODE"
                  replicaSpecs:
                    - name: pods
                      replicas: $NUM_NODES
                      template:
                        spec:
                          containers:
                            - name: pytorch
                              image: example.dkr.ecr.us-west-2.amazonaws.com/fsdp:pytorch2.5
                              resources:
                                limits:
                                  nvidia.com/gpu: $GPU_PER_NODE
                              command:
                                - %s
                                - '--nproc_per_node=8'
                                - '--nnodes=$NUM_NODES'
                                - /fsdp/train.py
                %s
                """.formatted(launcher, flags.indent(16).stripTrailing());
    }

    private static final String LLAMA2_13B = """
            - '--max_context_width=4096'
            - '--num_key_value_heads=40'
            - '--intermediate_size=13824'
            - '--hidden_width=5120'
            - '--num_layers=40'
            - '--num_heads=40'
            - '--model_type=llama_v2'
            - '--tokenizer=hf-internal-testing/llama-tokenizer'
            - '--train_batch_size=2'
            - '--sharding_strategy=full'
            - '--activation_checkpointing=1'
            """;

    @Test
    void theProgramsFlagsGiveTheShapeUnderHyperpodrunAsUnderTorchrun() {
        for (String launcher : List.of("hyperpodrun", "/usr/local/bin/torchrun")) {
            Specs.Job j = Foreign.bind("llama2_13b-fsdp.yaml", manifest(launcher, LLAMA2_13B));
            Specs.Model m = j.model();
            assertEquals(40L, m.layers().value(), launcher);
            assertEquals(5120L, m.hiddenSize().value());
            assertEquals(40L, m.attentionHeads().value());
            assertEquals(40L, m.kvHeads().value());
            assertEquals(13824L, m.ffnHiddenSize().value());
            assertEquals(4096L, m.seqLength().value());
            assertEquals(true, m.gatedMlp().value(), "llama_v2: SwiGLU");
            assertEquals(false, m.tiedEmbeddings().value());
            assertEquals(50_432L, m.vocabSize().value(), "not written: the program's default (arguments.py), which the plan states");
            assertEquals(2L, j.batch().microBatchSize().value());
            assertEquals(3L, j.optimizer().zeroStage().value(), "full sharding: parameters, gradients and optimizer states");
            assertEquals("full", j.recompute().granularity().value());
            assertEquals(List.of(8L), j.origin().stated().stream().filter(x -> x.quantity().equals("per_node"))
                    .map(Specs.Stated::number).toList(), launcher + " --nproc_per_node is read as the GPUs per node it starts");
        }
    }

    /** The 70B Llama 3.1 job's flags as its PyTorchJob writes them: no --activation_checkpointing, --vocab_size or --model_type default. */
    private static final String LLAMA31_70B_UNSTATED = """
            - --max_context_width=8192
            - --num_key_value_heads=8
            - --intermediate_size=28672
            - --hidden_width=8192
            - --num_layers=80
            - --num_heads=64
            - --model_type=llama_v3
            - --tokenizer=hf-internal-testing/llama-tokenizer
            - --train_batch_size=1
            - --sharding_strategy=full
            - --offload_activations=1
            """;

    @Test
    void flagsNotWrittenAreTheProgramsDefaultsSaidInTheAssumptions() {
        Specs.Job j = Foreign.bind("llama3_1_70b-fsdp.yaml", manifest("/usr/local/bin/torchrun", LLAMA31_70B_UNSTATED));
        // arguments.py: --activation_checkpointing default 1, and train.py then checkpoints every transformer layer
        assertEquals("full", j.recompute().granularity().value(), "the program's default, not the plan's selective");
        assertEquals(50_432L, j.model().vocabSize().value(), "arguments.py's --vocab_size default");
        assertEquals(1L, j.batch().microBatchSize().value(), "written");
        List<String> unpriced = j.origin().unpriced();
        assertTrue(unpriced.stream().anyMatch(u -> u.startsWith("--activation_checkpointing not written: 1, the program's default")), unpriced.toString());
        assertTrue(unpriced.stream().anyMatch(u -> u.startsWith("--vocab_size not written: 50,432")), unpriced.toString());
        assertTrue(unpriced.stream().anyMatch(u -> u.startsWith("--offload_activations 1: ")), unpriced.toString());
        assertTrue(unpriced.stream().noneMatch(u -> u.startsWith("--model_type") || u.startsWith("--train_batch_size")
                || u.startsWith("--sharding_strategy")), "written: no default line " + unpriced);
    }

    @Test
    void theDefaultModelTypeIsGptNeoxWhoseMlpIsFourTimesTheHiddenWhateverIntermediateSizeSays() {
        Specs.Job j = Foreign.bind("neox.yaml", manifest("torchrun", """
                - --hidden_width=2048
                - --num_layers=24
                - --num_heads=16
                - --intermediate_size=5504
                """));
        assertEquals(false, j.model().gatedMlp().value(), "gpt_neox: gelu MLP");
        assertEquals(false, j.model().tiedEmbeddings().value(), "GPTNeoXConfig: untied");
        assertNull(j.model().ffnHiddenSize(), "get_model_config builds 4 × hidden for gpt_neox: the plan's default, not 5504");
        assertEquals(2L, j.batch().microBatchSize().value(), "arguments.py's --train_batch_size default");
        assertEquals(3L, j.optimizer().zeroStage().value(), "--sharding_strategy default full");
        assertEquals("full", j.recompute().granularity().value());
    }

    @Test
    void aFlagWrittenAsAPlaceholderIsNotDefaulted() {
        Specs.Job j = Foreign.bind("tmpl.yaml", manifest("torchrun", """
                - --hidden_width=4096
                - --num_layers=32
                - --num_heads=32
                - --model_type=llama_v2
                - --activation_checkpointing=$AC
                """));
        assertNull(j.recompute() == null ? null : j.recompute().granularity(), "a placeholder is unknown, not the default");
    }

    @Test
    void withoutHiddenWidthTheSameNamesAreSomeOtherProgramsAndAreNotRead() {
        Specs.Job j = Foreign.bind("other.yaml", manifest("torchrun", """
                - '--num_layers=40'
                - '--num_heads=40'
                - '--train_batch_size=64'
                """));
        assertNull(j.model(), "another program's --num_layers is not this one's");
        assertNull(j.batch());
    }

    @Test
    void theShapeFlagsNotWrittenAreTheProgramsDefaultsToo() {
        // arguments.py at 8822adcc: --num_layers 12, --num_heads 12, --max_context_width 2048, --intermediate_size 11008
        Specs.Job j = Foreign.bind("bare.yaml", manifest("torchrun", """
                - --hidden_width=4096
                - --model_type=llama_v3
                """));
        Specs.Model m = j.model();
        assertEquals(12L, m.layers().value());
        assertEquals(12L, m.attentionHeads().value());
        assertEquals(2048L, m.seqLength().value());
        assertEquals(11_008L, m.ffnHiddenSize().value(), "get_model_config passes --intermediate_size to LlamaConfig");
        List<String> unpriced = j.origin().unpriced();
        for (String flag : List.of("--num_layers", "--num_heads", "--max_context_width", "--intermediate_size")) {
            assertTrue(unpriced.stream().anyMatch(u -> u.startsWith(flag + " not written: ") && u.contains("the program's default")),
                    flag + " " + unpriced);
        }
    }

    @Test
    void gptNeoxIsMultiHeadWhateverNumKeyValueHeadsSays() {
        Specs.Job j = Foreign.bind("neox-gqa.yaml", manifest("torchrun", """
                - --hidden_width=2048
                - --num_layers=24
                - --num_heads=16
                - --num_key_value_heads=4
                """));
        Specs.Model m = j.model();
        assertTrue(m.kvHeads() == null || m.kvHeads().value() == 16L, "GPTNeoXConfig takes no key-value heads: " + m.kvHeads());
        assertTrue(j.origin().unpriced().stream().noneMatch(u -> u.startsWith("--num_layers") || u.startsWith("--num_heads")
                || u.startsWith("--intermediate_size")), "written, or not read for gpt_neox: no default line " + j.origin().unpriced());
    }
}
