package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

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
            assertNull(m.vocabSize(), "not written: the plan's default, which it states");
            assertEquals(2L, j.batch().microBatchSize().value());
            assertEquals(3L, j.optimizer().zeroStage().value(), "full sharding: parameters, gradients and optimizer states");
            assertEquals("full", j.recompute().granularity().value());
            assertEquals(List.of(8L), j.origin().stated().stream().filter(x -> x.quantity().equals("per_node"))
                    .map(Specs.Stated::number).toList(), launcher + " --nproc_per_node is read as the GPUs per node it starts");
        }
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
}
