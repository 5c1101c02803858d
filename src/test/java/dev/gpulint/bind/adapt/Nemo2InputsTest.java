package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import dev.gpulint.testing.Recipes;
import org.junit.jupiter.api.Test;

/**
 * What `gpulint plan` reads from NeMo 2 recipes as NeMo-Run serialises them (our own fixtures, in the shape of the
 * fiddle YAML NeMo-Run writes for {@code run.Partial(llm.pretrain, ...)}, of HyperPod's checkpointless recipes whose
 * strategy stands beside the trainer, and of NeMo 1 launcher configs with {@code grad_sync_dtype}).
 */
class Nemo2InputsTest {

    static final String PRETRAIN = Recipes.nemo2(128, 1, 4096)
            .model("llama.LlamaModel", "llama.Llama3Config70B", "recompute_granularity: selective", "cross_entropy_fusion_impl: te")
            .section("""
                    optim:
                      _target_: nemo.lightning.pytorch.optim.megatron.MegatronOptimizerModule
                      config:
                        _target_: megatron.core.optimizer.optimizer_config.OptimizerConfig
                        bf16: true
                        fp16: false
                        use_distributed_optimizer: true
                    """)
            .trainer(8, 8)
            .plugins("fp8: hybrid", "grad_reduce_in_fp32: false", "precision: bf16-mixed")
            .strategy("context_parallel_size: 1", "ddp:",
                    "  _target_: megatron.core.distributed.distributed_data_parallel_config.DistributedDataParallelConfig",
                    "  grad_reduce_in_fp32: true", "  overlap_grad_reduce: true", "pipeline_model_parallel_size: 4",
                    "sequence_parallel: true", "tensor_model_parallel_size: 4", "virtual_pipeline_model_parallel_size: 5")
            .yaml();

    @Test
    void aNemoRunPretrainDumpGivesLayoutShapePrecisionRecomputeAndGradientBytes() {
        Specs.Job j = Foreign.bind("llama3_70b.yaml", PRETRAIN);
        assertEquals("NeMo 2 recipe", j.origin().format());
        assertEquals(4L, j.parallelism().tp().value());
        assertEquals(4L, j.parallelism().pp().value());
        assertEquals(5L, j.parallelism().virtualPp().value());
        assertEquals(true, j.parallelism().sequenceParallel().value());
        assertEquals(1L, j.batch().microBatchSize().value());
        assertEquals(128L, j.batch().globalBatchSize().value());
        assertEquals(4096L, j.model().seqLength().value(), "data.seq_length, not the class's 8192");
        // the class named by _target_ gives the dimensions the dump does not write (NeMo's llama.py)
        assertEquals(80L, j.model().layers().value());
        assertEquals(8192L, j.model().hiddenSize().value());
        assertEquals(28672L, j.model().ffnHiddenSize().value());
        assertEquals(64L, j.model().attentionHeads().value());
        assertEquals(8L, j.model().kvHeads().value());
        assertEquals(true, j.model().gatedMlp().value());
        assertEquals(false, j.model().tiedEmbeddings().value());
        assertEquals(11, j.model().layers().span().startLine(), "the class's dimensions point at its _target_");
        assertEquals("fp8", j.model().dtype().value(), "the plugin's fp8: hybrid");
        assertEquals("selective", j.recompute().granularity().value());
        assertEquals(true, j.optimizer().distributed().value());
        assertEquals(16.0, j.optimizer().bytesPerParameter().value(), "the plugin's grad_reduce_in_fp32: false overrides the DDP config's true");
        assertEquals(28, j.optimizer().bytesPerParameter().span().startLine());
    }

    /**
     * The config's cross_entropy_loss_fusion with cross_entropy_fusion_impl te: Transformer Engine's loss (LossKernel). The
     * recipe writes impl te alone: without the fusion (ModelParallelConfig's default, off) Megatron-Core's own loss runs.
     */
    @Test
    void theConfigsCrossEntropyFusionAndImplementationAreRead() {
        Specs.Job implAlone = Foreign.bind("llama3_70b.yaml", PRETRAIN);
        assertEquals(Specs.CrossEntropy.NATIVE, implAlone.model().crossEntropy().value(), "impl te without the fusion is not used");
        Specs.Job te = Foreign.bind("llama3_70b.yaml", PRETRAIN.replace("    recompute_granularity: selective\n",
                "    recompute_granularity: selective\n    cross_entropy_loss_fusion: true\n"));
        assertEquals(Specs.CrossEntropy.TE, te.model().crossEntropy().value());
        Specs.Job nat = Foreign.bind("llama3_70b.yaml", PRETRAIN.replace("    recompute_granularity: selective\n",
                "    recompute_granularity: selective\n    cross_entropy_loss_fusion: true\n").replace("cross_entropy_fusion_impl: te",
                "cross_entropy_fusion_impl: native"));
        assertEquals(Specs.CrossEntropy.NATIVE, nat.model().crossEntropy().value());
        assertNull(Foreign.bind("llama3_70b.yaml", PRETRAIN.replace("    cross_entropy_fusion_impl: te\n", "")).model().crossEntropy(),
                "neither written");
    }

    /**
     * NeMo 2's DeepSeekConfig (and its V2, V2-Lite and V3 subclasses) declares cross_entropy_loss_fusion True and
     * cross_entropy_fusion_impl "te" (nemo/collections/llm/gpt/model/deepseek.py): a recipe that writes neither runs TE's loss,
     * at the config's _target_; a written key wins over the class's.
     */
    @Test
    void deepSeekConfigsDefaultToTransformerEnginesLoss() {
        String v3 = PRETRAIN.replace("llama.Llama3Config70B", "deepseek.DeepSeekV3Config").replace("    cross_entropy_fusion_impl: te\n", "");
        Specs.Job j = Foreign.bind("deepseek_v3.yaml", v3);
        assertEquals(Specs.CrossEntropy.TE, j.model().crossEntropy().value());
        assertTrue(j.model().crossEntropy().span().startLine() > 0, "at the config's _target_");
        Specs.Job off = Foreign.bind("deepseek_v3.yaml", v3.replace("    recompute_granularity: selective\n",
                "    recompute_granularity: selective\n    cross_entropy_loss_fusion: false\n"));
        assertEquals(Specs.CrossEntropy.NATIVE, off.model().crossEntropy().value(), "the recipe's fusion off wins over the class's");
        Specs.Job nat = Foreign.bind("deepseek_v3.yaml", v3.replace("    recompute_granularity: selective\n",
                "    recompute_granularity: selective\n    cross_entropy_fusion_impl: native\n"));
        assertEquals(Specs.CrossEntropy.NATIVE, nat.model().crossEntropy().value(), "the recipe's impl native wins over the class's te");
    }

    @Test
    void thePluginsMxfp8RecipeIsItsPrecision() {
        Specs.Job mx = Foreign.bind("llama3_70b.yaml", PRETRAIN.replace("fp8: hybrid", "fp8: hybrid\n    fp8_recipe: mxfp8"));
        assertEquals("mxfp8", mx.model().dtype().value());
        Specs.Job delayed = Foreign.bind("llama3_70b.yaml", PRETRAIN.replace("fp8: hybrid", "fp8: hybrid\n    fp8_recipe: delayed"));
        assertEquals("fp8", delayed.model().dtype().value());
    }

    @Test
    void writtenDimensionsWinOverTheClassAndNullRecomputeIsNone() {
        Specs.Job j = Foreign.bind("small.yaml", PRETRAIN
                .replace("    recompute_granularity: selective\n", "    recompute_granularity: null\n    num_layers: 12\n"
                        + "    hidden_size: 768\n    ffn_hidden_size: 3072\n    num_attention_heads: 16\n    kv_channels: 48\n"
                        + "    gated_linear_unit: false\n    share_embeddings_and_output_weights: true\n    vocab_size: 32000\n"));
        assertEquals(12L, j.model().layers().value());
        assertEquals(768L, j.model().hiddenSize().value());
        assertEquals(3072L, j.model().ffnHiddenSize().value());
        assertEquals(16L, j.model().attentionHeads().value());
        assertEquals(8L, j.model().kvHeads().value(), "not written: the class's 8 query groups");
        assertEquals(48L, j.model().headDim().value());
        assertEquals(false, j.model().gatedMlp().value());
        assertEquals(true, j.model().tiedEmbeddings().value());
        assertEquals(32000L, j.model().vocabSize().value());
        assertEquals("none", j.recompute().granularity().value());
    }

    @Test
    void theDdpConfigsGradientDtypeCountsWhenThePluginSaysNothingAndFp32GradientsAreTheDefault() {
        Specs.Job viaDdp = Foreign.bind("ddp.yaml", PRETRAIN.replace("    grad_reduce_in_fp32: false\n", "")
                .replace("      grad_reduce_in_fp32: true\n", "      grad_reduce_in_fp32: false\n"));
        assertEquals(16.0, viaDdp.optimizer().bytesPerParameter().value());
        Specs.Job fp32 = Foreign.bind("fp32.yaml", PRETRAIN.replace("grad_reduce_in_fp32: false", "grad_reduce_in_fp32: true"));
        assertNull(fp32.optimizer().bytesPerParameter(), "fp32 main gradients: Megatron's 18, the estimate's default");
        Specs.Job bf16 = Foreign.bind("bf16.yaml", PRETRAIN.replace("    fp8: hybrid\n", "    fp8: null\n"));
        assertEquals("bf16", bf16.model().dtype().value(), "bf16-mixed in the format's words");
        Specs.Job fp16 = Foreign.bind("fp16.yaml", PRETRAIN.replace("    fp8: hybrid\n", "").replace("bf16-mixed", "16-mixed"));
        assertEquals("fp16", fp16.model().dtype().value());
    }

    @Test
    void aNemotronClassGivesATwoMatrixUntiedShapeAndAnUnknownClassGivesNone() {
        Specs.Job j = Foreign.bind("nemotron.yaml", PRETRAIN.replace("llama.Llama3Config70B", "nemotron.Nemotron4Config340B")
                .replace("    recompute_granularity: selective\n", ""));
        assertEquals(96L, j.model().layers().value());
        assertEquals(18432L, j.model().hiddenSize().value());
        assertEquals(73728L, j.model().ffnHiddenSize().value());
        assertEquals(96L, j.model().attentionHeads().value());
        assertEquals(8L, j.model().kvHeads().value());
        assertEquals(false, j.model().gatedMlp().value(), "squared ReLU: two matrices");
        assertEquals(false, j.model().tiedEmbeddings().value());
        assertNull(j.recompute(), "not written: the estimate's documented default");
        Specs.Job mistral = Foreign.bind("mistral.yaml", PRETRAIN.replace("llama.Llama3Config70B", "mistral.MistralNeMoConfig12B"));
        assertEquals(40L, mistral.model().layers().value());
        assertEquals(128L, mistral.model().headDim().value(), "Mistral NeMo's heads are 128 wide, not 5120 ÷ 32");
        assertEquals(true, mistral.model().gatedMlp().value());
        Specs.Job unknown = Foreign.bind("custom.yaml", PRETRAIN.replace("llama.Llama3Config70B", "custom.MyConfig"));
        assertNull(unknown.model() == null ? null : unknown.model().layers(), "a class gpulint does not know gives no dimensions");
    }

    @Test
    void theStrategyBesideTheTrainerIsReadToo() {
        Specs.Job j = Foreign.bind("checkpointless.yaml", """
                data:
                  global_batch_size: 512
                  micro_batch_size: 1
                  seq_length: 2048
                ddp:
                  grad_reduce_in_fp32: true
                model:
                  config:
                    seq_length: 2048
                    vocab_size: 128256
                optim:
                  config:
                    bf16: true
                    use_distributed_optimizer: true
                strategy:
                  context_parallel_size: 1
                  pipeline_model_parallel_size: 4
                  sequence_parallel: true
                  tensor_model_parallel_size: 8
                  virtual_pipeline_model_parallel_size: null
                trainer:
                  devices: 8
                  num_nodes: 16
                """);
        assertEquals("NeMo 2 recipe", j.origin().format());
        assertEquals(8L, j.parallelism().tp().value());
        assertEquals(4L, j.parallelism().pp().value());
        assertNull(j.parallelism().virtualPp());
        assertEquals("bf16", j.model().dtype().value(), "optim.config.bf16");
        assertEquals(128256L, j.model().vocabSize().value());
        assertEquals(true, j.optimizer().distributed().value());
        assertNull(j.optimizer().bytesPerParameter());
    }

    @Test
    void nemo1GradSyncDtypeOfTheDistributedOptimizerGivesSixteenBytes() {
        String nemo = """
                trainer:
                  num_nodes: 16
                  devices: 8
                  precision: bf16
                model:
                  micro_batch_size: 1
                  global_batch_size: 256
                  tensor_model_parallel_size: 8
                  pipeline_model_parallel_size: 8
                  optim:
                    name: distributed_fused_adam
                    grad_sync_dtype: bf16
                """;
        Specs.Job j = Foreign.bind("nemotron.yaml", nemo);
        assertEquals(16.0, j.optimizer().bytesPerParameter().value());
        assertEquals(12, j.optimizer().bytesPerParameter().span().startLine());
        assertNull(Foreign.bind("fp32.yaml", nemo.replace("grad_sync_dtype: bf16", "grad_sync_dtype: fp32")).optimizer().bytesPerParameter());
        assertNull(Foreign.bind("plain.yaml", nemo.replace("distributed_fused_adam", "fused_adam")).optimizer().bytesPerParameter(),
                "without the distributed optimizer NeMo keeps fp32 main gradients whatever grad_sync_dtype says");
    }

    @Test
    void megatronBridgesPipelineLayoutGivesEachStageItsLayers() {
        // Llama 3 70B's 80 layers on pp 4, the embedding's stage one layer lighter and the loss's one heavier
        Specs.Job j = Foreign.bind("pretrain.yaml", PRETRAIN.replace("    virtual_pipeline_model_parallel_size: 5\n", "")
                .replace("    recompute_granularity: selective\n",
                        "    recompute_granularity: selective\n    pipeline_model_parallel_layout: Et*19|(t*20|)*2,t*21L\n"));
        assertEquals(java.util.List.of(19L, 20L, 20L, 21L), j.parallelism().stageLayers().value());
        assertEquals(13, j.parallelism().stageLayers().span().startLine());
        assertNull(j.parallelism().virtualPp(), "four stages on pp 4: no interleaving");
    }

    /**
     * A NeMo 2 recipe whose pipeline layout leaves a stage the MTP layer alone ("Et*4|t*4|m|L": pipeline rank 2 holds only m,
     * rank 3 only the loss) or the loss alone ("Et*4|t*4|L") is taken as Megatron-Core takes it: parse_str_to_list's own example
     * "Ettt|(tt|)*29,m|L" gives [["m"], ["L"]], validate_layer_layout (megatron/core/transformer/pipeline_parallel_layer_layout.py
     * at 00caa53af30912914981c86f39db123961678bbd) asks no decoder layer of a stage, and detects the m-only rank before the last as
     * mtp_standalone; pretty_repr writes a stage without layers as "(empty stage)". So no SYN002, and the stages' blocks (decoder
     * and MTP layers, PipelineLayout#blocks) are 4, 4, 1, 0 and 4, 4, 0.
     */
    @Test
    void aStageHoldingOnlyTheMtpLayerOrOnlyTheLossIsALayoutMegatronCoreBuilds() {
        String recipe = """
                trainer:
                  num_nodes: 4
                  devices: 8
                  strategy:
                    _target_: nemo.lightning.pytorch.strategies.megatron_strategy.MegatronStrategy
                    tensor_model_parallel_size: 8
                    pipeline_model_parallel_size: 4
                    pipeline_model_parallel_layout: "Et*4|t*4|m|L"
                data:
                  micro_batch_size: 1
                  global_batch_size: 64
                  seq_length: 4096
                model:
                  config:
                    num_layers: 8
                    hidden_size: 4096
                    num_attention_heads: 32
                    ffn_hidden_size: 14336
                    mtp_num_layers: 1
                """;
        assertEquals(java.util.List.of(), Foreign.syn002(Foreign.model("recipe.yaml", recipe)));
        assertEquals(java.util.List.of(4L, 4L, 1L, 0L), Foreign.bind("recipe.yaml", recipe).parallelism().stageLayers().value());
        String loss = recipe.replace("\"Et*4|t*4|m|L\"", "\"Et*4|t*4|L\"").replace("pipeline_model_parallel_size: 4", "pipeline_model_parallel_size: 3")
                .replace("num_nodes: 4", "num_nodes: 3").replace("    mtp_num_layers: 1\n", "");
        assertEquals(java.util.List.of(), Foreign.syn002(Foreign.model("recipe.yaml", loss)));
        assertEquals(java.util.List.of(4L, 4L, 0L), Foreign.bind("recipe.yaml", loss).parallelism().stageLayers().value());
    }
}
