package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.spec.Specs;
import dev.gpulint.testing.EstimateManifest;
import dev.gpulint.testing.Foreign;
import dev.gpulint.testing.Recipes;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Megatron-Core's {@code variable_seq_lengths}: P2PCommunicator exchanges every tensor's shape before it when
 * {@code config.variable_seq_lengths or config.mtp_standalone}; the second is priced since mtpep, the first here, read from
 * Megatron-LM's {@code --variable-seq-lengths} and Megatron-Bridge's / NeMo 2's model config.
 */
class VariableSeqLengthsTest {

    private static final String DENSE = "dtype: bf16, layers: 8, hidden_size: 1024, attention_heads: 16, kv_heads: 16,"
            + " ffn_hidden_size: 4096, vocab_size: 32000, gated_mlp: true, tied_embeddings: false, seq_length: 2048";

    /** The dense job on pp {@code pp}, priced with {@code mtp} as its MTP variant (variable_seq_lengths in it or not). */
    private static Estimate estimate(int pp, MtpLayers mtp) {
        JobInputs in = EstimateManifest.h100().model(DENSE).parallelism("tp: 1, pp: " + pp).batch(1, 64)
                .optimizer("distributed: true").recompute("none").estimate().inputs();
        Variants v = in.variants();
        Variants with = v.withMtp(mtp);
        return Estimator.estimate(in.model(), in.layout(), in.hardware(), in.order(), in.bytes(), with);
    }

    private static Term.Sends sends(Estimate e, String what) {
        return e.terms().stream().filter(t -> t instanceof Term.Sends x && x.dim() == ParallelDim.PP && x.what().equals(what))
                .map(Term.Sends.class::cast).findFirst().orElse(null);
    }

    private static final MtpLayers VARIABLE = new MtpLayers(0, 1, null, true, null);

    @Test
    void variableSeqLengthsOnAPipelinePricesEverySendsShapeExchange() {
        Estimate e = estimate(4, VARIABLE), plain = estimate(4, MtpLayers.NONE);
        Term.Sends x = sends(e, MtpLayers.SHAPE_EXCHANGE_VARIABLE);
        assertNotNull(x, "variable_seq_lengths alone asks for the exchange");
        // 2·vpp = 2 exchanges per micro-batch of 3 int64 = 24 bytes each, on the pp sends' tier, waited on
        assertEquals(2, x.count());
        assertEquals(48, x.bytes(), 0);
        assertEquals(24, x.cost().bytes(), 0);
        Term.Sends activations = sends(e, MtpLayers.SENDS);
        assertEquals(activations.cost().tier(), x.cost().tier());
        assertEquals(2 * (x.cost().latency() + 24 / (x.cost().lineRate() * x.cost().efficiency())), x.seconds(), 1e-12);
        // the pp dimension's time carries it for each of the 64 ÷ dp 2 = 32 micro-batches (8 GPUs at pp 4; untied: no embedding sync)
        assertEquals(plain.time().comm().get(ParallelDim.PP) + 32 * x.seconds(), e.time().comm().get(ParallelDim.PP), 1e-12);
        assertTrue(e.time().step() > plain.time().step(), "waited on: the step grows");
        assertNull(sends(e, MtpLayers.SHAPE_EXCHANGE), "no standalone MTP stage: the exchange is named for variable_seq_lengths");
    }

    @Test
    void withoutVariableSeqLengthsOrWithoutAPipelineNothingIsExchanged() {
        assertNull(sends(estimate(4, MtpLayers.NONE), MtpLayers.SHAPE_EXCHANGE_VARIABLE));
        Estimate single = estimate(1, VARIABLE);
        assertTrue(single.terms().stream().noneMatch(t -> t instanceof Term.Sends x && x.dim() == ParallelDim.PP),
                "pp 1: no p2p, so no shape to exchange");
    }

    private static final String SCRIPT = """
            #!/bin/bash
            torchrun --nnodes 1 --nproc_per_node 8 pretrain_gpt.py --num-layers 8 --hidden-size 1024 --num-attention-heads 16 \\
              --seq-length 2048 --max-position-embeddings 2048 --micro-batch-size 1 --global-batch-size 64 --bf16 \\
              --tensor-model-parallel-size 1 --pipeline-model-parallel-size %d %s
            """;

    @Test
    void megatronsFlagReachesTheVariantWithItsAssumptionsLine() {
        Specs.Job j = Foreign.bind("train.sh", SCRIPT.formatted(4, "--variable-seq-lengths"));
        assertEquals(true, j.parallelism().variableSeqLengths().value());
        assertEquals(4, j.parallelism().variableSeqLengths().span().startLine());
        List<String> as = new ArrayList<>();
        MtpLayers m = MtpLayers.of(j, as);
        assertTrue(m.variableSeqLengths());
        assertEquals(0, m.layers(), "no MTP layers for it");
        assertEquals(List.of(MtpLayers.VARIABLE_SEQ_LENGTHS), as);
        // why the device sync after each exchange has no price of its own (P2PCommunicator._communicate_shapes)
        assertTrue(as.get(0).contains("(the sizes copied to the host, and torch.cuda.synchronize() in the versions that call it) is taken"
                + " within the exchange's latency, not priced apart"), as.get(0));
        // pp 1: read, but no pipeline sends to speak of
        List<String> none = new ArrayList<>();
        assertTrue(MtpLayers.of(Foreign.bind("train.sh", SCRIPT.formatted(1, "--variable-seq-lengths")), none).variableSeqLengths());
        assertEquals(List.of(), none);
    }

    @Test
    void withoutTheFlagTheJobKeepsMegatronsFixedShapes() {
        Specs.Job j = Foreign.bind("train.sh", SCRIPT.formatted(4, ""));
        assertNull(j.parallelism().variableSeqLengths());
        List<String> as = new ArrayList<>();
        assertEquals(MtpLayers.NONE, MtpLayers.of(j, as));
        assertFalse(as.contains(MtpLayers.VARIABLE_SEQ_LENGTHS));
    }

    @Test
    void bridgeAndNemo2ReadTheirModelConfigsKey() {
        Specs.Job bridge = Foreign.bind("override.yaml", """
                model:
                  tensor_model_parallel_size: 1
                  pipeline_model_parallel_size: 2
                  variable_seq_lengths: true
                train:
                  global_batch_size: 64
                  micro_batch_size: 1
                """);
        assertEquals("Megatron-Bridge", bridge.origin().format());
        assertEquals(true, bridge.parallelism().variableSeqLengths().value());
        assertEquals(4, bridge.parallelism().variableSeqLengths().span().startLine());
        Specs.Job off = Foreign.bind("override.yaml", """
                model:
                  tensor_model_parallel_size: 1
                  pipeline_model_parallel_size: 2
                  variable_seq_lengths: false
                train:
                  global_batch_size: 64
                  micro_batch_size: 1
                """);
        assertFalse(off.parallelism().variableSeqLengths().value());
        assertFalse(MtpLayers.of(off, new ArrayList<>()).variableSeqLengths());
        Specs.Job nemo2 = Foreign.bind("llama3_70b.yaml", Recipes.nemo2(128, 1, 4096)
                .model("llama.LlamaModel", "llama.Llama3Config70B", "variable_seq_lengths: true")
                .trainer(8, 8).strategy("pipeline_model_parallel_size: 4", "tensor_model_parallel_size: 4").yaml());
        assertEquals("NeMo 2 recipe", nemo2.origin().format());
        assertEquals(true, nemo2.parallelism().variableSeqLengths().value());
        List<String> as = new ArrayList<>();
        assertTrue(MtpLayers.of(nemo2, as).variableSeqLengths());
        assertEquals(List.of(MtpLayers.VARIABLE_SEQ_LENGTHS), as);
    }

    /** A Megatron-Bridge SFT override file on pp {@code pp} whose dataset writes {@code %s}. */
    private static String sft(int pp, String dataset) {
        return """
                model:
                  tensor_model_parallel_size: 1
                  pipeline_model_parallel_size: %d
                train:
                  micro_batch_size: 4
                  global_batch_size: 64
                dataset:
                  seq_length: 4096
                  %s
                """.formatted(pp, dataset);
    }

    @Test
    void bridgesInBatchPackingOnAPipelineSetsVariableSeqLengths() {
        Specs.Job j = Foreign.bind("sft.yaml", sft(2, "enable_in_batch_packing: true"));
        assertEquals(true, j.parallelism().variableSeqLengths().value());
        assertEquals(9, j.parallelism().variableSeqLengths().span().startLine(), "at the switch that asks for it");
        assertTrue(j.origin().unpriced().contains("dataset.enable_in_batch_packing with pipeline_model_parallel_size = 2:"
                + " variable_seq_lengths, as Megatron-Bridge's TransformerConfig.finalize sets it for in-batch packing with pp > 1"
                + " (Bridge since the enable_in_batch_packing switch; the older pack_sequences_in_batch pads to the sequence length"
                + " instead)"), j.origin().unpriced().toString());
        // Energon's native packing asks for it too
        assertEquals(true, Foreign.bind("sft.yaml", sft(2, "packing_buffer_size: 16")).parallelism().variableSeqLengths().value());
        // no pipeline, packing off, or the older VLM switch: fixed shapes
        assertNull(Foreign.bind("sft.yaml", sft(1, "enable_in_batch_packing: true")).parallelism().variableSeqLengths());
        assertNull(Foreign.bind("sft.yaml", sft(2, "enable_in_batch_packing: false")).parallelism().variableSeqLengths());
        assertNull(Foreign.bind("sft.yaml", sft(2, "pack_sequences_in_batch: true")).parallelism().variableSeqLengths());
    }

    @Test
    void theNativeManifestWritesItBesideTheOtherMegatronFlags() {
        Specs.Job j = EstimateManifest.h100().model(DENSE).parallelism("tp: 1, pp: 4, variable_seq_lengths: true").batch(1, 64)
                .optimizer("distributed: true").recompute("none").fixture().jobs().get(0).spec();
        assertEquals(true, j.parallelism().variableSeqLengths().value());
        List<String> as = new ArrayList<>();
        assertTrue(MtpLayers.of(j, as).variableSeqLengths());
        assertEquals(List.of(MtpLayers.VARIABLE_SEQ_LENGTHS), as);
        assertNull(EstimateManifest.h100().model(DENSE).parallelism("tp: 1, pp: 4").batch(1, 64).fixture().jobs().get(0).spec().parallelism().variableSeqLengths());
    }
}
