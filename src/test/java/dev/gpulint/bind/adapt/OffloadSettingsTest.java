package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import dev.gpulint.spec.Specs;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Model states offloaded to host memory, read from each format that writes it into the job's offload (Specs.Offload)
 * with the key that writes it (our own fixtures in the shapes of DeepSpeed's config docs and the corpora's ds_config.json,
 * accelerate's FSDP config, torchtitan's train_configs and Megatron-LM's launch scripts).
 */
class OffloadSettingsTest {

    private static Specs.Job job(String name, String text) {
        SourceFile f = SourceFile.of(name, text);
        return Adapters.bind(List.of(new Adapters.Input(f, Readers.read(f).foreign()))).jobs().get(0);
    }

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
        Specs.Job j = job("ds_config.json", DS);
        Specs.Offload o = j.offload();
        assertEquals("cpu", o.optimizer().value());
        assertEquals("nvme", o.parameters().value());
        assertNull(o.optimizerFraction());
        assertNull(o.activationLayers());
        assertEquals(7, o.optimizer().span().startLine());
        assertEquals("zero_optimization.offload_optimizer.device", j.origin().key("offload_optimizer"));
        assertEquals("zero_optimization.offload_param.device", j.origin().key("offload_parameters"));
        // "none", DeepSpeed's default: nothing offloaded; and no longer an unpriced line
        Specs.Job none = job("ds_config.json", DS.replace("\"cpu\"", "\"none\"").replace("\"nvme\"", "\"none\""));
        assertNull(none.offload());
        assertEquals(List.of(), j.origin().unpriced());
    }

    @Test
    void fsdpCpuOffloadOfAccelerateAndTorchtitanPutsParametersAndOptimizerOnTheCpu() {
        Specs.Job a = job("fsdp.yaml", """
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
        Specs.Job t = job("llama3_8b.toml", """
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
        assertNull(job("llama3_8b.toml", """
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
        Specs.Job j = job("train.sh", """
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
}
