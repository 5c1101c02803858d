package dev.gpulint.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.JobPlacement;
import dev.gpulint.core.Finding;
import dev.gpulint.core.Span;
import dev.gpulint.derive.estimate.JobEstimate;
import dev.gpulint.read.SourceFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A model size out of the schema's bounds (vocabulary, MLP, hidden size, heads, layers), in every format that writes one, is
 * SYN002 at the value and then unknown, as a parallel size out of bounds is: the estimate takes no default for it (not GPT-2's
 * vocabulary, not 4 × hidden) and no model catalog entry or config.json stands in for it; the plan says the job cannot be
 * priced and names the size. The same file with the size in bounds is priced (the quiet case of each).
 */
class ModelSizeBoundsTest {
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

    private static final String UNKNOWN = " (written as a placeholder, or out of bounds: SYN002 at the value)";

    private record Run(List<String> syn002, List<JobEstimate> estimates) {
        JobEstimate only() {
            assertEquals(1, estimates.size(), estimates.toString());
            return estimates.get(0);
        }
    }

    private static Run lint(SourceFile... files) {
        Linter linter = new Linter().serial().jobPlacement(f -> f.equals("cluster.yaml") ? Optional.empty()
                : Optional.of(new JobPlacement("h100", "dgx", Span.at(".gpulint.yaml", 2, 5))));
        List<SourceFile> all = new ArrayList<>(List.of(CLUSTER));
        all.addAll(List.of(files));
        List<JobEstimate> estimates = new ArrayList<>();
        var r = linter.lint(all, List.of(), Set.of(), null, estimates::addAll);
        List<String> syn = new ArrayList<>();
        for (Finding f : r.findings()) {
            if (f.ruleId().equals("SYN002")) {
                syn.add(f.span().file() + ":" + f.span().startLine() + ":" + f.span().startColumn() + " " + f.message());
            }
        }
        return new Run(syn, estimates);
    }

    /** The job is not priced, and the plan's reason names {@code path} as unknown; no "not given" default stands in. */
    private static void unknown(Run r, String path) {
        JobEstimate e = r.only();
        assertNull(e.estimate(), "priced on a default: " + e.inputs().assumptions());
        assertTrue(e.inputs().missing().contains(path + UNKNOWN), e.inputs().missing().toString());
        assertTrue(e.inputs().assumptions().stream().noneMatch(a -> a.startsWith(path + " not given")), e.inputs().assumptions().toString());
    }

    /** The quiet case: the size in bounds, no SYN002, and the job is priced. */
    private static void priced(Run r) {
        assertEquals(List.of(), r.syn002());
        JobEstimate e = r.only();
        assertNotNull(e.estimate(), e.inputs().missing().toString());
    }

    private static String native_(String vocab) {
        return """
                kind: training_job
                name: j
                cluster: h100
                node_group: dgx
                nodes: 2
                gpus_per_node: 8
                model: { dtype: bf16, layers: 32, attention_heads: 32, hidden_size: 4096, seq_length: 4096, vocab_size: %s }
                parallelism: { tp: 8, pp: 2 }
                batch: { micro_batch_size: 1, global_batch_size: 64 }
                """.formatted(vocab);
    }

    @Test
    void nativeManifest() {
        Run r = lint(SourceFile.of("job.yaml", native_("0")));
        assertEquals(List.of("job.yaml:7:105 'vocab_size' is 0; expected a whole number from 1 to 2147483647."), r.syn002());
        unknown(r, "model.vocab_size");
        priced(lint(SourceFile.of("job.yaml", native_("128256"))));
    }

    private static String megatron(String ffn) {
        return """
                MODEL_ARGS:
                  --num-layers: 32
                  --hidden-size: 4096
                  --num-attention-heads: 32
                  --ffn-hidden-size: %s
                  --seq-length: 4096
                  --tensor-model-parallel-size: 8
                  --pipeline-model-parallel-size: 2
                  --data-parallel-size: 1
                  --micro-batch-size: 1
                  --global-batch-size: 8
                  --bf16: true
                """.formatted(ffn);
    }

    @Test
    void megatronModelArgs() {
        Run r = lint(SourceFile.of("tp8/model_config.yaml", megatron("0")));
        assertEquals(List.of("tp8/model_config.yaml:5:22 '--ffn-hidden-size' is 0; expected a whole number from 1 to 2147483647."), r.syn002());
        unknown(r, "model.ffn_hidden_size");
        priced(lint(SourceFile.of("tp8/model_config.yaml", megatron("14336"))));
    }

    private static String script(String hidden) {
        return """
                #!/bin/bash
                #SBATCH --nodes=2
                torchrun --nproc_per_node 8 --nnodes 2 pretrain_gpt.py \\
                    --tensor-model-parallel-size 8 --pipeline-model-parallel-size 2 \\
                    --num-layers 32 --hidden-size %s --num-attention-heads 32 --seq-length 4096 \\
                    --micro-batch-size 1 --global-batch-size 64 --bf16
                """.formatted(hidden);
    }

    @Test
    void megatronLaunchScript() {
        Run r = lint(SourceFile.of("train.sh", script("99999999999")));
        assertEquals(List.of("train.sh:5:35 '--hidden-size' is 99999999999; expected a whole number from 1 to 2147483647."), r.syn002());
        unknown(r, "model.hidden_size");
        priced(lint(SourceFile.of("train.sh", script("4096"))));
    }

    /**
     * A size written as a variable the script does not set ({@code --vocab-size $VOCAB}, an unresolved MODEL_ARGS
     * placeholder) is unknown too, as the native manifest's placeholder is: no SYN002 (nothing is wrong yet), no GPT-2
     * vocabulary or 4h standing in; a MoE size beside no --num-experts is not read, so it leaves a dense job priced.
     */
    @Test
    void megatronSizeWrittenAsAVariableIsUnknownNotDefaulted() {
        Run r = lint(SourceFile.of("train.sh", script("4096 --vocab-size $VOCAB")));
        assertEquals(List.of(), r.syn002());
        unknown(r, "model.vocab_size");
        Run args = lint(SourceFile.of("tp8/model_config.yaml", megatron("${FFN_HIDDEN}")));
        assertEquals(List.of(), args.syn002());
        unknown(args, "model.ffn_hidden_size");
        priced(lint(SourceFile.of("train.sh", script("4096 --moe-router-topk $TOPK"))));
    }

    private static String nemo(String heads) {
        return """
                trainer:
                  num_nodes: 2
                  devices: 8
                model:
                  micro_batch_size: 1
                  global_batch_size: 64
                  tensor_model_parallel_size: 8
                  pipeline_model_parallel_size: 2
                  encoder_seq_length: 4096
                  num_layers: 32
                  hidden_size: 4096
                  num_attention_heads: %s
                """.formatted(heads);
    }

    @Test
    void nemoConfig() {
        Run r = lint(SourceFile.of("nemo.yaml", nemo("-32")));
        assertEquals(List.of("nemo.yaml:12:24 'num_attention_heads' is -32; expected a whole number from 1 to 2147483647."), r.syn002());
        unknown(r, "model.attention_heads");
        priced(lint(SourceFile.of("nemo.yaml", nemo("32"))));
    }

    private static String titan(String vocab) {
        return """
                [model]
                name = "llama3"
                flavor = "8B"
                vocab_size = %s

                [training]
                local_batch_size = 1
                seq_len = 4096

                [parallelism]
                tensor_parallel_degree = 8
                data_parallel_shard_degree = 2
                """.formatted(vocab);
    }

    @Test
    void torchtitanTomlDoesNotTakeTheFlavorsSizeForOneOutOfBounds() {
        // the flavor names llama3:8B, whose catalog entry has a vocabulary of 128,256: it does not stand in for the 0 written
        Run r = lint(SourceFile.of("llama3_8b.toml", titan("0")));
        assertEquals(List.of("llama3_8b.toml:4:14 'vocab_size' is 0; expected a whole number from 1 to 2147483647."), r.syn002());
        unknown(r, "model.vocab_size");
        priced(lint(SourceFile.of("llama3_8b.toml", titan("128256"))));
    }

    /**
     * A size written as a placeholder ({@code "${VOCAB}"}) or a word ({@code "auto"}) is unknown too, as Megatron's is: no
     * SYN002 (nothing is wrong yet), and not the flavor's size either; the sequence length alike.
     */
    @Test
    void torchtitanSizeWrittenAsAPlaceholderIsUnknownNotTheFlavors() {
        Run r = lint(SourceFile.of("llama3_8b.toml", titan("\"${VOCAB}\"")));
        assertEquals(List.of(), r.syn002());
        unknown(r, "model.vocab_size");
        Run auto = lint(SourceFile.of("llama3_8b.toml", titan("128256").replace("seq_len = 4096", "seq_len = \"auto\"")));
        assertEquals(List.of(), auto.syn002());
        unknown(auto, "model.seq_length");
        Run dim = lint(SourceFile.of("llama3_8b.toml", titan("128256").replace("[training]", "dim = \"$DIM\"\n\n[training]")));
        unknown(dim, "model.hidden_size");
    }

    private static String neox(String layers) {
        return """
                {
                  "pipe-parallel-size": 2,
                  "model-parallel-size": 8,
                  "num-layers": %s,
                  "hidden-size": 4096,
                  "num-attention-heads": 32,
                  "seq-length": 2048,
                  "precision": "bfloat16",
                  "train_micro_batch_size_per_gpu": 1,
                  "gradient_accumulation_steps": 8,
                  "num_gpus": 8,
                  "num_nodes": 2
                }
                """.formatted(layers);
    }

    @Test
    void gptNeoxConfig() {
        Run r = lint(SourceFile.of("neox.yml", neox("0")));
        assertEquals(List.of("neox.yml:4:17 'num-layers' is 0; expected a whole number from 1 to 2147483647."), r.syn002());
        unknown(r, "model.layers");
        assertTrue(!r.only().inputs().missing().contains("model.layers"), "named once, as unknown: " + r.only().inputs().missing());
        priced(lint(SourceFile.of("neox.yml", neox("32"))));
    }

    /**
     * gpt-neox: a size written as an unresolved variable ({@code "${HIDDEN}"}, {@code "$LAYERS"}) is unknown, not a default;
     * a YAML null is not written (the size's default, as before); the MLP ({@code intermediate-size}) and KV heads alike.
     */
    @Test
    void gptNeoxSizeWrittenAsAPlaceholderIsUnknownNotDefaulted() {
        Run r = lint(SourceFile.of("neox.yml", neox("\"$LAYERS\"")));
        assertEquals(List.of(), r.syn002());
        unknown(r, "model.layers");
        Run ffn = lint(SourceFile.of("neox.yml", neox("32").replace("\"precision\"", "\"intermediate-size\": \"${FFN}\",\n  \"precision\"")));
        assertEquals(List.of(), ffn.syn002());
        unknown(ffn, "model.ffn_hidden_size");
        Run seq = lint(SourceFile.of("neox.yml", neox("32").replace("\"seq-length\": 2048", "\"seq-length\": \"auto\"")));
        unknown(seq, "model.seq_length");
        priced(lint(SourceFile.of("neox.yml", neox("32").replace("\"precision\"", "\"num-kv-heads\": null,\n  \"precision\""))));
    }

    private static String hfConfig(String vocab) {
        return """
                {
                  "architectures": ["LlamaForCausalLM"],
                  "model_type": "llama",
                  "hidden_size": 4096,
                  "intermediate_size": 14336,
                  "num_hidden_layers": 32,
                  "num_attention_heads": 32,
                  "num_key_value_heads": 8,
                  "vocab_size": %s,
                  "max_position_embeddings": 8192
                }
                """.formatted(vocab);
    }

    @Test
    void huggingFaceConfigAJobNames() {
        // the job (accelerate-style keys: model_name_or_path) names the folder whose config.json writes a vocabulary of 10^11
        String job = """
                compute_environment: LOCAL_MACHINE
                distributed_type: MEGATRON_LM
                num_machines: 2
                num_processes: 16
                megatron_lm_config:
                  megatron_lm_tp_degree: 8
                  megatron_lm_pp_degree: 2
                model_name_or_path: ./llama-ckpt
                """;
        Run r = lint(SourceFile.of("llama-ckpt/config.json", hfConfig("100000000000")), SourceFile.of("accelerate.yaml", job));
        assertEquals(List.of("llama-ckpt/config.json:9:17 'vocab_size' is 100000000000; expected a whole number from 1 to 2147483647."), r.syn002());
        unknown(r, "model.vocab_size");
        Run ok = lint(SourceFile.of("llama-ckpt/config.json", hfConfig("128256")), SourceFile.of("accelerate.yaml", job));
        assertEquals(List.of(), ok.syn002());
        assertTrue(ok.only().inputs().missing().stream().noneMatch(m -> m.startsWith("model.")), ok.only().inputs().missing().toString());
    }
}
