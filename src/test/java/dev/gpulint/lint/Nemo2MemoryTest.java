package dev.gpulint.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Span;
import dev.gpulint.read.SourceFile;
import dev.gpulint.spec.JobPlacement;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A NeMo 2 recipe's gradient dtype reaches the memory rules: Llama 3 70B on 2 × 8 H100 at tp 8, pp 2 (dp 1) fits
 * with 16-bit main gradients ({@code grad_reduce_in_fp32: false}, 2 + 2 + 12 bytes per parameter) and does not with
 * fp32 ones (Megatron's 18), where the gradients alone take 8.8 GB more per GPU. Our own fixture, in the shape of the
 * YAML NeMo-Run writes for {@code run.Partial(llm.pretrain, ...)}.
 */
class Nemo2MemoryTest {

    private static final SourceFile CLUSTER = SourceFile.of("cluster.yaml", """
            kind: cluster
            name: h100
            fabric: { type: infiniband, topology: rail-optimized }
            node_groups:
              - name: dgx
                count: 2
                gpu: { model: H100-SXM5-80GB, count: 8 }
                nvlink: { switch: true }
            """);

    private static final String RECIPE = """
            _partial_: true
            _target_: nemo.collections.llm.api.pretrain
            data:
              global_batch_size: 32
              micro_batch_size: 1
              seq_length: 4096
            model:
              _target_: nemo.collections.llm.gpt.model.llama.LlamaModel
              config:
                _target_: nemo.collections.llm.gpt.model.llama.Llama3Config70B
                recompute_granularity: selective
                vocab_size: 128256
            optim:
              config:
                bf16: true
                use_distributed_optimizer: true
            trainer:
              devices: 8
              num_nodes: 2
              plugins:
                _target_: nemo.lightning.pytorch.plugins.mixed_precision.MegatronMixedPrecision
                grad_reduce_in_fp32: false
                precision: bf16-mixed
              strategy:
                _target_: nemo.lightning.pytorch.strategies.megatron_strategy.MegatronStrategy
                pipeline_model_parallel_size: 2
                sequence_parallel: true
                tensor_model_parallel_size: 8
            """;

    private static List<String> lint(String rule, SourceFile recipe) {
        Linter linter = new Linter().serial().jobPlacement(f -> f.startsWith("train/")
                ? Optional.of(new JobPlacement("h100", "dgx", Span.at(".gpulint.yaml", 2, 5))) : Optional.empty());
        return linter.lint(List.of(CLUSTER, recipe)).findings().stream().filter(f -> f.ruleId().equals(rule))
                .map(Nemo2MemoryTest::show).toList();
    }

    private static String show(Finding f) {
        return f.span().file() + ":" + f.span().startLine() + ":" + f.span().startColumn() + " " + f.message();
    }

    /**
     * The NeMo 24.09 DGX-H100 FP8 Nemotron-4 340B run (128 GPUs: tp 8, pp 8, vpp 12, micro batch 1, global 32, seq 4096),
     * written as the NeMo 2 recipe that runs it: the config class, the fp8 precision plugin with 16-bit gradients, the
     * distributed optimizer, no recompute. It ran: neither MEM003 nor MEM002 may fire.
     */
    @Test
    void theNemotron340bFp8RecipeThatRanFits() {
        SourceFile cluster = SourceFile.of("cluster.yaml", CLUSTER.text().replace("count: 2", "count: 16"));
        SourceFile recipe = SourceFile.of("train/nemotron4_340b.yaml", """
                _partial_: true
                _target_: nemo.collections.llm.api.pretrain
                data:
                  global_batch_size: 32
                  micro_batch_size: 1
                  seq_length: 4096
                model:
                  _target_: nemo.collections.llm.gpt.model.nemotron.NemotronModel
                  config:
                    _target_: nemo.collections.llm.gpt.model.nemotron.Nemotron4Config340B
                    vocab_size: 256000
                    recompute_granularity: null
                optim:
                  config:
                    bf16: true
                    use_distributed_optimizer: true
                trainer:
                  devices: 8
                  num_nodes: 16
                  plugins:
                    _target_: nemo.lightning.pytorch.plugins.mixed_precision.MegatronMixedPrecision
                    fp8: hybrid
                    grad_reduce_in_fp32: false
                    precision: bf16-mixed
                  strategy:
                    _target_: nemo.lightning.pytorch.strategies.megatron_strategy.MegatronStrategy
                    pipeline_model_parallel_size: 8
                    sequence_parallel: true
                    tensor_model_parallel_size: 8
                    virtual_pipeline_model_parallel_size: 12
                """);
        Linter linter = new Linter().serial().jobPlacement(f -> f.startsWith("train/")
                ? Optional.of(new JobPlacement("h100", "dgx", Span.at(".gpulint.yaml", 2, 5))) : Optional.empty());
        List<String> memory = linter.lint(List.of(cluster, recipe)).findings().stream().filter(f -> f.ruleId().startsWith("MEM"))
                .map(Nemo2MemoryTest::show).toList();
        assertEquals(List.of(), memory);
        // the same recipe with fp32 gradients (the plugin's default) is over: 2 bytes more per parameter, 5.3 GB per GPU
        List<String> fp32 = linter.lint(List.of(cluster, SourceFile.of("train/nemotron4_340b.yaml",
                        recipe.text().replace("    grad_reduce_in_fp32: false\n", ""))))
                .findings().stream().filter(f -> f.ruleId().equals("MEM003")).map(Nemo2MemoryTest::show).toList();
        assertEquals(1, fp32.size(), fp32.toString());
    }

    @Test
    void sixteenBitGradientsFitAndFp32GradientsDoNot() {
        SourceFile bf16 = SourceFile.of("train/bf16grads.yaml", RECIPE);
        assertEquals(List.of(), lint("MEM003", bf16));
        assertEquals(List.of(), lint("MEM002", bf16));
        SourceFile fp32 = SourceFile.of("train/fp32grads.yaml", RECIPE.replace("grad_reduce_in_fp32: false", "grad_reduce_in_fp32: true"));
        assertEquals(List.of("train/fp32grads.yaml:10:15 pipeline stage 1 of 2 needs 91.31 GB per GPU (weights 8.8 + gradients 17.6 "
                + "+ optimizer 52.9 + activations 11.9 GB, layout tp 8, pp 2, dp 1, recompute selective; model states at 18 bytes per "
                + "parameter, Megatron's bf16 accounting (fp32 main gradients), the optimizer states sharded by the distributed optimizer) but "
                + "the H100-SXM5-80GB has "
                + "85.9 GB: recompute activations (recompute: full), raise tp or pp, shard the gradients and weights too (FSDP or ZeRO-3; "
                + "the distributed optimizer shards only the optimizer states), or lower the micro batch; `gpulint plan` shows every term "
                + "and assumption."), lint("MEM003", fp32));
    }
}
