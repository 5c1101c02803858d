package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Model states offloaded to host memory, read from each format that writes it into the job's offload (Specs.Offload)
 * with the key that writes it (our own fixtures in the shapes of DeepSpeed's config docs and the corpora's ds_config.json,
 * accelerate's FSDP config, torchtitan's train_configs and Megatron-LM's launch scripts).
 */
class OffloadSettingsTest {

    private static final String DS = """
            {
              "train_micro_batch_size_per_gpu": 1,
              "gradient_accumulation_steps": 4,
              "bf16": { "enabled": true },
              "zero_optimization": {
                "stage": 3,
                "offload_optimizer": { "device": "cpu", "pin_memory": true },
                "offload_param": { "device": "nvme", "nvme_path": "/local_nvme" },
                "overlap_comm": true
              }
            }
            """;

    @Test
    void deepSpeedsOffloadDevicesAreRead() {
        Specs.Job j = Foreign.bind("ds_config.json", DS);
        Specs.Offload o = j.offload();
        assertEquals("cpu", o.optimizer().value());
        assertEquals("nvme", o.parameters().value());
        assertNull(o.optimizerFraction());
        assertNull(o.activationLayers());
        assertEquals(7, o.optimizer().span().startLine());
        assertEquals("zero_optimization.offload_optimizer.device", j.origin().key("offload_optimizer"));
        assertEquals("zero_optimization.offload_param.device", j.origin().key("offload_parameters"));
        // "none", DeepSpeed's default: nothing offloaded; and no longer an unpriced line
        Specs.Job none = Foreign.bind("ds_config.json", DS.replace("\"cpu\"", "\"none\"").replace("\"nvme\"", "\"none\""));
        assertNull(none.offload());
        assertEquals(List.of(), j.origin().unpriced());
    }

    @Test
    void fsdpCpuOffloadOfAccelerateAndTorchtitanPutsParametersAndOptimizerOnTheCpu() {
        Specs.Job a = Foreign.bind("fsdp.yaml", """
                compute_environment: LOCAL_MACHINE
                distributed_type: FSDP
                fsdp_config:
                  fsdp_sharding_strategy: FULL_SHARD
                  fsdp_offload_params: true
                mixed_precision: bf16
                num_machines: 1
                num_processes: 8
                """);
        assertEquals("cpu", a.offload().optimizer().value());
        assertEquals("cpu", a.offload().parameters().value());
        assertEquals("fsdp_config.fsdp_offload_params", a.origin().key("offload_parameters"));
        Specs.Job t = Foreign.bind("llama3_8b.toml", """
                [model]
                name = "llama3"
                flavor = "8B"

                [training]
                local_batch_size = 2
                seq_len = 8192
                enable_cpu_offload = true

                [parallelism]
                data_parallel_shard_degree = -1
                """);
        assertEquals("cpu", t.offload().parameters().value());
        assertEquals(8, t.offload().parameters().span().startLine());
        assertEquals("[training] enable_cpu_offload", t.origin().key("offload_optimizer"));
        assertNull(Foreign.bind("llama3_8b.toml", """
                [training]
                local_batch_size = 2
                enable_cpu_offload = false

                [parallelism]
                data_parallel_shard_degree = -1
                """).offload());
    }

    @Test
    void aLaunchThatNamesTheDeepSpeedConfigurationTakesItsOffload() {
        SourceFile ds = SourceFile.of("ds_config.json", DS);
        SourceFile sh = SourceFile.of("train.sh", """
                #!/bin/bash
                torchrun --nnodes 1 --nproc_per_node 8 pretrain_gpt.py --tensor-model-parallel-size 1 \\
                  --num-layers 32 --hidden-size 4096 --num-attention-heads 32 --deepspeed_config ds_config.json
                """);
        List<Specs.Job> jobs = Adapters.bind(List.of(new Adapters.Input(ds, Readers.read(ds).foreign()),
                new Adapters.Input(sh, Readers.read(sh).foreign()))).jobs();
        Specs.Job launched = jobs.stream().filter(j -> j.file().equals("train.sh")).findFirst().orElseThrow();
        assertEquals("cpu", launched.offload().optimizer().value());
        assertEquals("nvme", launched.offload().parameters().value());
        assertEquals("ds_config.json", launched.offload().optimizer().span().file());
        assertEquals("zero_optimization.offload_optimizer.device", launched.origin().key("offload_optimizer"));
    }

    @Test
    void megatronsOptimizerCpuOffloadAndItsFraction() {
        Specs.Job j = Foreign.bind("train.sh", """
                #!/bin/bash
                torchrun --nnodes 1 --nproc_per_node 8 pretrain_gpt.py \\
                  --num-layers 32 --hidden-size 4096 --num-attention-heads 32 --seq-length 4096 \\
                  --tensor-model-parallel-size 2 --micro-batch-size 1 --global-batch-size 64 --bf16 \\
                  --use-distributed-optimizer --optimizer-cpu-offload --optimizer-offload-fraction 0.6 \\
                  --use-precision-aware-optimizer --overlap-cpu-optimizer-d2h-h2d
                """);
        assertEquals("cpu", j.offload().optimizer().value());
        assertEquals(0.6, j.offload().optimizerFraction().value());
        assertNull(j.offload().parameters());
        assertEquals("--optimizer-cpu-offload", j.origin().key("offload_optimizer"));
    }

    private static final String NEMO2 = """
            trainer:
              _target_: nemo.lightning.pytorch.trainer.Trainer
              devices: 8
              num_nodes: 1
              strategy:
                _target_: nemo.lightning.pytorch.strategies.megatron_strategy.MegatronStrategy
                tensor_model_parallel_size: 2
            optim:
              _target_: nemo.lightning.pytorch.optim.megatron.MegatronOptimizerModule
              config:
                _target_: megatron.core.optimizer.OptimizerConfig
                optimizer: adam
                use_distributed_optimizer: true
                optimizer_cpu_offload: true
                optimizer_offload_fraction: 0.6
            """;

    @Test
    void nemo2sOptimizerConfigOffloadsItsFraction() {
        Specs.Job j = Foreign.bind("recipe.yaml", NEMO2);
        assertEquals("cpu", j.offload().optimizer().value());
        assertEquals(14, j.offload().optimizer().span().startLine());
        assertEquals(0.6, j.offload().optimizerFraction().value());
        assertEquals(15, j.offload().optimizerFraction().span().startLine());
        assertEquals("optim.config.optimizer_cpu_offload", j.origin().key("offload_optimizer"));
        assertEquals(List.of(), j.origin().unpriced());
        // OptimizerConfig's fraction defaults to 0.0, not the command line's 1.0: switched on without one, nothing moves
        Specs.Job noFraction = Foreign.bind("recipe.yaml", NEMO2.replace("    optimizer_offload_fraction: 0.6\n", ""));
        assertNull(noFraction.offload());
        assertEquals(List.of("optim.config.optimizer_cpu_offload without optim.config.optimizer_offload_fraction: Megatron-Core's"
                + " OptimizerConfig offloads a fraction of 0.0 by default, so every optimizer state is counted on the GPU; write the"
                + " fraction (1.0 offloads them all)"), noFraction.origin().unpriced());
        assertNull(Foreign.bind("recipe.yaml", NEMO2.replace("optimizer_cpu_offload: true", "optimizer_cpu_offload: false")).offload());
        assertNull(Foreign.bind("recipe.yaml", NEMO2.replace("0.6", "0")).offload());
    }

    @Test
    void aBadValueBindsNothingAndIsSaidInTheAssumptions() {
        // DeepSpeed's "disk" is no device: nothing offloaded (not the nearest device), and the plan says why
        Specs.Job ds = Foreign.bind("ds_config.json", DS.replace("\"cpu\"", "\"disk\""));
        assertNull(ds.offload().optimizer());
        assertEquals("nvme", ds.offload().parameters().value());
        assertEquals(List.of("zero_optimization.offload_optimizer.device = 'disk' (SYN002, not one of none, cpu, nvme): left out,"
                + " so the estimate keeps the optimizer states on the GPU (DeepSpeed's default, \"none\")"), ds.origin().unpriced());
        // Megatron: a fraction above 1 is not clamped to 1, it is left out (the flag's default, 1.0, is what the estimate takes)
        Specs.Job m = Foreign.bind("train.sh", """
                #!/bin/bash
                torchrun --nnodes 1 --nproc_per_node 8 pretrain_gpt.py \\
                  --num-layers 32 --hidden-size 4096 --num-attention-heads 32 --tp-comm-overlap maybe \\
                  --use-distributed-optimizer --optimizer-cpu-offload --optimizer-offload-fraction 1.5
                """);
        assertEquals("cpu", m.offload().optimizer().value());
        assertNull(m.offload().optimizerFraction());
        assertNull(m.parallelism() == null ? null : m.parallelism().tpCommOverlap());
        assertEquals(List.of("--tp-comm-overlap = 'maybe' (SYN002, not the switch alone (--tp-comm-overlap), with no word after it"
                        + " (Megatron's argument parser takes no value after a switch)): left out, so the estimate reads --tp-comm-overlap as not given (off, Megatron's default)",
                "--optimizer-offload-fraction = '1.5' (SYN002, not a number from 0 to 1): left out, so the estimate counts the whole"
                        + " optimizer offloaded (Megatron's default fraction, 1.0)"), m.origin().unpriced());
        // torchtitan's async TP and CPU offload written as text that is no boolean: neither bound
        Specs.Job t = Foreign.bind("llama3_8b.toml", """
                [training]
                local_batch_size = 2
                enable_cpu_offload = "on"

                [parallelism]
                data_parallel_shard_degree = -1
                tensor_parallel_degree = 2
                enable_async_tensor_parallel = "maybe"
                """);
        assertNull(t.offload());
        assertNull(t.parallelism().tpCommOverlap());
        assertEquals(2, t.origin().unpriced().size());
        // NeMo 2's overlap callback with text that is no boolean: as if no callback stated it (the family's share)
        Specs.Job n = Foreign.bind("recipe.yaml", NEMO2.replace("trainer:\n", "trainer:\n  callbacks:\n    - _target_: nemo.lightning.pytorch"
                + ".callbacks.megatron_comm_overlap.MegatronCommOverlapCallback\n      tp_comm_overlap: perhaps\n"));
        assertNull(n.parallelism().tpCommOverlap());
        assertEquals("MegatronCommOverlapCallback.tp_comm_overlap = 'perhaps' (SYN002, not true or false): left out, so the estimate"
                + " hides the GPU family's tp_overlap share of the tp collectives, as when no callback states it", n.origin().unpriced().get(0));
    }

    @Test
    void aScriptSwitchWrittenWithFalseBindsNothingAndIsSaid() {
        // argparse's store_true refuses "--tp-comm-overlap false" and "--optimizer-cpu-offload=false": neither on nor off
        Specs.Job m = Foreign.bind("train.sh", """
                #!/bin/bash
                torchrun --nnodes 1 --nproc_per_node 8 pretrain_gpt.py \\
                  --num-layers 32 --hidden-size 4096 --num-attention-heads 32 --tensor-model-parallel-size 2 \\
                  --tp-comm-overlap false --optimizer-cpu-offload=false --bf16
                """);
        assertNull(m.offload());
        assertNull(m.parallelism().tpCommOverlap());
        assertEquals("bf16", m.model().dtype().value());
        String no = " (Megatron's argument parser takes no value after a switch)): left out, so the estimate reads ";
        assertEquals(List.of("--tp-comm-overlap = 'false' (SYN002, not the switch alone (--tp-comm-overlap), with no word after it" + no
                        + "--tp-comm-overlap as not given (off, Megatron's default)",
                "--optimizer-cpu-offload = 'false' (SYN002, not the switch alone (--optimizer-cpu-offload), with no word after it" + no
                        + "--optimizer-cpu-offload as not given (off, Megatron's default)"), m.origin().unpriced());
        Specs.Job on = Foreign.bind("train.sh", """
                #!/bin/bash
                torchrun --nnodes 1 --nproc_per_node 8 pretrain_gpt.py \\
                  --num-layers 32 --hidden-size 4096 --num-attention-heads 32 --tensor-model-parallel-size 2 \\
                  --tp-comm-overlap --bf16
                """);
        assertEquals(true, on.parallelism().tpCommOverlap().value());
    }
}
