package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.derive.Fixture;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Jobs that ran are not estimated to run out of memory (MEM003 stays quiet on them). Each row is the shape of a
 * public job that names its layout and its GPU (the corpora's NeMo, Megatron-LM, torchtitan and HyperPod recipes and
 * published measured runs), written here as a native manifest of our own: model, layout, precision, recompute,
 * optimizer as the job states them, and what it does not state at gpulint's documented defaults.
 */
class RanJobsFitTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            // name | gpu | gpus | layers, hidden, heads, kv, ffn, vocab, gated, tied, seq, dtype | tp, pp, vpp, cp, sp | mbs, gbs | zero, distributed, bytes | recompute
            "Nemotron-4 340B, NeMo 24.09 FP8, 128 GPUs | H100-SXM5-80GB | 128 | 96,18432,96,8,73728,256000,false,false,4096,fp8 | 8,8,12,1,true | 1,32 | 0,true,16 | none",
            "Nemotron-4 340B, NeMo launcher, 6144 GPUs | H100-SXM5-80GB | 6144 | 96,18432,96,8,73728,256000,false,false,4096,bf16 | 8,8,12,1,true | 1,2304 | 0,true,16 | selective",
            "Llama 3.1 405B, NeMo launcher bf16, 4608 GPUs | H100-SXM5-80GB | 4608 | 126,16384,128,16,53248,128256,true,false,8192,bf16 | 8,9,7,2,true | 1,2016 | 0,true,0 | none",
            "Llama 3.1 405B, GKE A4 bf16, 224 GPUs | B200-SXM-180GB | 224 | 126,16384,128,16,53248,128256,true,false,8192,bf16 | 4,14,9,2,true | 1,2016 | 0,true,0 | none",
            "Llama 3.1 70B, GKE A3 Ultra fp8, 256 GPUs | H200-SXM-141GB | 256 | 80,8192,64,8,28672,128256,true,false,8192,fp8 | 2,4,20,1,true | 1,1024 | 0,true,16 | none",
            "Llama 3 70B, HyperPod, 128 GPUs | H100-SXM5-80GB | 128 | 80,8192,64,8,28672,128256,true,false,2048,bf16 | 8,4,1,1,true | 1,512 | 0,true,0 | selective",
            "Llama 3 70B, torchtitan FSDP + TP 8, 64 GPUs | A100-SXM4-80GB | 64 | 80,8192,64,8,28672,128256,true,false,8192,bf16 | 8,1,1,1,true | 8,64 | 3,false,0 | full",
            "Llama 3 8B recipe cut to 12 × 768, Megatron-LM functional test, cp 2, 8 A100 | A100-SXM4-80GB | 8 | 12,768,16,8,3072,128256,true,false,2048,bf16 | 1,1,1,2,false | 4,64 | 0,false,0 | selective",
            "LLAMA2-70B, NeMo 24.09 FP8, 64 GPUs | H100-SXM5-80GB | 64 | 80,8192,64,8,28672,32000,true,false,4096,fp8 | 4,4,20,1,true | 1,128 | 0,true,16 | none",
            "LLAMA3-8B, NeMo 24.09 FP8, cp 2, 8 GPUs | H100-SXM5-80GB | 8 | 32,4096,32,8,14336,128256,true,false,8192,fp8 | 1,1,1,2,false | 1,128 | 0,true,16 | none",
            "GPT-3 175B, Korthikanti et al. 2022, 64 GPUs | A100-SXM4-80GB | 64 | 96,12288,96,96,49152,51200,false,true,2048,bf16 | 8,8,1,1,true | 1,64 | 0,false,0 | selective",
            "GPT 1T, Korthikanti et al. 2022, 512 GPUs | A100-SXM4-80GB | 512 | 128,25600,160,160,102400,51200,false,true,2048,bf16 | 8,64,1,1,true | 1,512 | 0,false,0 | selective",
            "GPT 39B, Narayanan et al. 2021 fp16, 512 GPUs | A100-SXM4-80GB | 512 | 48,8192,64,64,32768,51200,false,true,2048,fp16 | 8,2,1,1,false | 1,1536 | 0,false,0 | full",
            "MPT-70B, llm-foundry FSDP, 64 A100 40GB | A100-SXM4-40GB | 128 | 80,8192,64,64,32768,50368,false,true,2048,bf16 | 1,1,1,1,false | 4,512 | 3,false,0 | full",
            "MPT-7B, llm-foundry FSDP, 8 A100 80GB | A100-SXM4-80GB | 8 | 32,4096,32,32,16384,50368,false,true,2048,bf16 | 1,1,1,1,false | 6,96 | 3,false,0 | none",
            "MPT-30B, llm-foundry FSDP, 8 H100 | H100-SXM5-80GB | 8 | 48,7168,64,64,28672,50368,false,true,2048,bf16 | 1,1,1,1,false | 3,504 | 3,false,0 | full",
            "GPT-3 175B ZeRO-3, Narayanan et al. 2021 Table 2, 384 GPUs | A100-SXM4-80GB | 384 | 96,12288,96,96,49152,51200,false,true,2048,fp16 | 1,1,1,1,false | 4,1536 | 3,false,0 | full",
            "GPT-3 175B PTD-P, Narayanan et al. 2021 Table 2, 384 GPUs | A100-SXM4-80GB | 384 | 96,12288,96,96,49152,51200,false,true,2048,fp16 | 8,12,1,1,false | 1,1536 | 0,false,0 | full",
            "GPT 530B full recompute, Korthikanti et al. 2022, 280 GPUs | A100-SXM4-80GB | 280 | 105,20480,128,128,81920,51200,false,true,2048,bf16 | 8,35,3,1,false | 1,280 | 0,false,0 | full",
            "Llama 2 13B, torchtitan FSDP2 without checkpointing, 64 A100 | A100-SXM4-80GB | 64 | 40,5120,40,40,13824,32000,true,false,4096,bf16 | 1,1,1,1,false | 2,128 | 3,false,0 | none",
            "Llama 2 13B, torchtitan FSDP2 selective op, 64 A100 | A100-SXM4-80GB | 64 | 40,5120,40,40,13824,32000,true,false,4096,bf16 | 1,1,1,1,false | 2,128 | 3,false,0 | op",
            "Llama 2 70B, torchtitan FSDP2 selective op, 64 A100 | A100-SXM4-80GB | 64 | 80,8192,64,8,28672,32000,true,false,4096,bf16 | 1,1,1,1,false | 1,64 | 3,false,0 | op",
            "Llama 3 8B, torchtitan FSDP2 selective layer (every 2nd), 64 A100 | A100-SXM4-80GB | 64 | 32,4096,32,8,14336,128256,true,false,8192,bf16 | 1,1,1,1,false | 1,64 | 3,false,0 | every",
    })
    void aJobThatRanFits(String name, String gpu, int gpus, String model, String layout, String batch, String optimizer, String recompute) {
        JobEstimate e = estimate(gpu, gpus, model, layout, batch, optimizer, recompute);
        assertNotNull(e.estimate(), name + ": estimated (missing " + e.inputs().missing() + ")");
        MemoryModel.Stage s = e.estimate().largestStage();
        assertTrue(e.estimate().layout().gpus() == gpus, name + ": the layout covers the job's GPUs");
        assertFalse(e.estimate().outOfMemory(), String.format(java.util.Locale.ROOT,
                "%s ran, but stage %d is estimated at %.1f GB (weights %.1f, gradients %.1f, optimizer %.1f, activations %.1f) of %.1f",
                name, s.stage(), s.total() / 1e9, s.weights() / 1e9, s.gradients() / 1e9, s.optimizer() / 1e9, s.activations() / 1e9,
                e.estimate().capacityBytes() / 1e9));
    }

    /** The estimate of a job written as a native manifest of our own from the table's columns. */
    static JobEstimate estimate(String gpu, int gpus, String model, String layout, String batch, String optimizer, String recompute) {
        String[] m = model.split(","), l = layout.split(","), b = batch.split(","), o = optimizer.split(",");
        int nodes = Math.max(1, gpus / 8);
        String yaml = "kind: cluster\nname: c\nfabric: { type: infiniband, topology: rail-optimized }\nnode_groups:\n"
                + "  - name: g\n    count: " + nodes + "\n    gpu: { model: " + gpu + ", count: 8 }\n    nvlink: { switch: true }\n"
                + "    nics:\n      - { model: ConnectX-7, count: 8, speed: 400 Gb/s, protocol: infiniband, gpudirect_rdma: true }\n"
                + "---\nkind: training_job\nname: j\ncluster: c\nnode_group: g\nnodes: " + nodes + "\ngpus_per_node: " + Math.min(8, gpus) + "\n"
                + "model:\n  dtype: " + m[9] + "\n  layers: " + m[0] + "\n  hidden_size: " + m[1] + "\n  attention_heads: " + m[2]
                + "\n  kv_heads: " + m[3] + "\n  ffn_hidden_size: " + m[4] + "\n  vocab_size: " + m[5] + "\n  gated_mlp: " + m[6]
                + "\n  tied_embeddings: " + m[7] + "\n  seq_length: " + m[8] + "\n"
                + "parallelism: { tp: " + l[0] + ", pp: " + l[1] + ", virtual_pp: " + l[2] + ", cp: " + l[3] + ", sequence_parallel: " + l[4] + " }\n"
                + "batch: { micro_batch_size: " + b[0] + ", global_batch_size: " + b[1] + " }\n"
                + "optimizer: { zero_stage: " + o[0] + ", distributed: " + o[1] + ("0".equals(o[2]) ? "" : ", bytes_per_parameter: " + o[2]) + " }\n"
                + "recompute: " + recompute + "\n";
        Fixture f = Fixture.of(yaml);
        return JobEstimate.of(f.jobs().get(0), f.catalog());
    }

    /**
     * NeMo-Framework-Launcher's mistral_nemo_123b recipe (Mistral Large 2: 88 layers, hidden 12288, MLP 28672 SwiGLU, 96
     * heads in 8 groups, vocabulary 32768, untied, seq 4096; tp 8, pp 1, no virtual pipeline, on 16 × 8 GPUs, so dp 16;
     * micro batch 1, global 32; sequence parallel; mcore_distributed_optim without grad_sync_dtype, so fp32 main gradients,
     * NeMo 1's default; activations_checkpoint_granularity null: no recompute) is published with no GPU and no measured
     * run. On 80 GB GPUs it cannot run as written, and not because of the estimate: its one stage holds all 88 layers ÷ 8,
     * 15.4B parameters per GPU, and Megatron-LM's own theoretical_memory_usage.py puts their states at 6 + 12/16 bytes
     * each, 103.5 GB, before any activation. 16-bit gradients (grad_sync_dtype: bf16) would leave 72.7 GB of states, and
     * its 15.8 GB of activations still overflow the 85.9 GB; full recompute cannot cure the states. It fits on a 141 GB
     * H200 (119.7 GB), which is where such a layout can run. So MEM003 is right on H100, and this pins its terms.
     */
    @org.junit.jupiter.api.Test
    void mistralLarge123bRecipeNeedsMoreThanAnEightyGigabyteGpuAsMegatronCountsIt() {
        String model = "88,12288,96,8,28672,32768,true,false,4096,bf16", layout = "8,1,1,1,true";
        JobEstimate h100 = estimate("H100-SXM5-80GB", 128, model, layout, "1,32", "0,true,0", "none");
        MemoryModel.Stage s = h100.estimate().largestStage();
        // Megatron's count of the most loaded shard (LayerNorm's 2h per norm, as the estimate counts them), pp = 1 and untied:
        // (the block + the embedding + the output layer) ÷ tp
        double layer = 2.0 * 12288 * (28672 * 1.5 + 2) + 2.0 * 12288 * 12288 * (1 + 8.0 / 96);
        double params = (88 * layer + 2 * 12288 + 2 * 12288.0 * 32768) / 8;
        assertEquals(params, s.parameters(), 1);
        assertEquals(params * (6 + 12.0 / 16), s.weights() + s.gradients() + s.optimizer(), 1, "theoretical_memory_usage.py's 6 + 12/dp");
        assertTrue(s.weights() + s.gradients() + s.optimizer() > h100.estimate().capacityBytes(), "states alone exceed 80 GiB");
        assertTrue(h100.estimate().outOfMemory());
        JobEstimate bf16Grads = estimate("H100-SXM5-80GB", 128, model, layout, "1,32", "0,true,16", "none");
        assertEquals(params * (4 + 12.0 / 16), bf16Grads.estimate().largestStage().weights() + bf16Grads.estimate().largestStage().gradients()
                + bf16Grads.estimate().largestStage().optimizer(), 1);
        assertTrue(bf16Grads.estimate().outOfMemory(), "16-bit gradients are not enough with its activations");
        assertTrue(estimate("H100-SXM5-80GB", 128, model, layout, "1,32", "0,true,0", "full").estimate().outOfMemory(),
                "recompute does not shrink the states");
        JobEstimate h200 = estimate("H200-SXM-141GB", 128, model, layout, "1,32", "0,true,0", "none");
        assertFalse(h200.estimate().outOfMemory(), "on 141 GB it fits: " + h200.estimate().largestStage().total() / 1e9 + " GB");
    }
}
