package dev.gpulint.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

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

    /**
     * The job is not priced, and the plan's reason names {@code path} once, as unknown (not also as missing); no "not given"
     * default stands in.
     */
    private static void unknown(Run r, String path) {
        JobEstimate e = r.only();
        assertNull(e.estimate(), "priced on a default: " + e.inputs().assumptions());
        assertTrue(e.inputs().missing().contains(path + UNKNOWN), e.inputs().missing().toString());
        assertFalse(e.inputs().missing().contains(path), "named once, as unknown: " + e.inputs().missing());
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

    /**
     * A file whose model size is out of bounds (SYN002 at the value, exactly) or written as what the file does not resolve
     * (a variable the script does not set, an unresolved MODEL_ARGS or TOML placeholder, a word such as {@code "auto"}: no
     * SYN002, nothing is wrong yet), and the size the plan then names as unknown.
     */
    record Unknown(String name, String file, String text, List<String> syn002, String path) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Unknown> sizesUnknown() {
        return Stream.of(
            new Unknown("native vocab_size 0", "job.yaml", native_("0"),
                    List.of("job.yaml:7:105 'vocab_size' is 0; expected a whole number from 1 to 2147483647."), "model.vocab_size"),
            new Unknown("Megatron MODEL_ARGS --ffn-hidden-size 0", "tp8/model_config.yaml", megatron("0"),
                    List.of("tp8/model_config.yaml:5:22 '--ffn-hidden-size' is 0; expected a whole number from 1 to 2147483647."),
                    "model.ffn_hidden_size"),
            new Unknown("Megatron MODEL_ARGS --ffn-hidden-size ${FFN_HIDDEN}", "tp8/model_config.yaml", megatron("${FFN_HIDDEN}"),
                    List.of(), "model.ffn_hidden_size"),
            new Unknown("Megatron script --hidden-size 10^11", "train.sh", script("99999999999"),
                    List.of("train.sh:5:35 '--hidden-size' is 99999999999; expected a whole number from 1 to 2147483647."), "model.hidden_size"),
            // not GPT-2's vocabulary
            new Unknown("Megatron script --vocab-size $VOCAB", "train.sh", script("4096 --vocab-size $VOCAB"), List.of(), "model.vocab_size"),
            new Unknown("NeMo num_attention_heads -32", "nemo.yaml", nemo("-32"),
                    List.of("nemo.yaml:12:24 'num_attention_heads' is -32; expected a whole number from 1 to 2147483647."),
                    "model.attention_heads"),
            // the flavor names llama3:8B, whose catalog entry has a vocabulary of 128,256: it does not stand in for the 0 written
            new Unknown("torchtitan vocab_size 0, not the flavor's", "llama3_8b.toml", titan("0"),
                    List.of("llama3_8b.toml:4:14 'vocab_size' is 0; expected a whole number from 1 to 2147483647."), "model.vocab_size"),
            new Unknown("torchtitan vocab_size \"${VOCAB}\", not the flavor's", "llama3_8b.toml", titan("\"${VOCAB}\""), List.of(),
                    "model.vocab_size"),
            new Unknown("torchtitan seq_len \"auto\"", "llama3_8b.toml", titan("128256").replace("seq_len = 4096", "seq_len = \"auto\""),
                    List.of(), "model.seq_length"),
            new Unknown("torchtitan dim \"$DIM\", not the flavor's", "llama3_8b.toml",
                    titan("128256").replace("[training]", "dim = \"$DIM\"\n\n[training]"), List.of(), "model.hidden_size"),
            new Unknown("gpt-neox num-layers 0", "neox.yml", neox("0"),
                    List.of("neox.yml:4:17 'num-layers' is 0; expected a whole number from 1 to 2147483647."), "model.layers"),
            new Unknown("gpt-neox num-layers \"$LAYERS\"", "neox.yml", neox("\"$LAYERS\""), List.of(), "model.layers"),
            new Unknown("gpt-neox intermediate-size \"${FFN}\"", "neox.yml",
                    neox("32").replace("\"precision\"", "\"intermediate-size\": \"${FFN}\",\n  \"precision\""), List.of(),
                    "model.ffn_hidden_size"),
            new Unknown("gpt-neox seq-length \"auto\"", "neox.yml", neox("32").replace("\"seq-length\": 2048", "\"seq-length\": \"auto\""),
                    List.of(), "model.seq_length"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sizesUnknown")
    void aSizeOutOfBoundsOrUnresolvedIsUnknownAndNotDefaulted(Unknown c) {
        Run r = lint(SourceFile.of(c.file(), c.text()));
        assertEquals(c.syn002(), r.syn002());
        unknown(r, c.path());
    }

    /** The quiet case of each: the same file with its sizes in bounds (or none left unresolved). */
    record Priced(String name, String file, String text) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Priced> sizesInBounds() {
        return Stream.of(
            new Priced("native vocab_size 128256", "job.yaml", native_("128256")),
            new Priced("Megatron MODEL_ARGS --ffn-hidden-size 14336", "tp8/model_config.yaml", megatron("14336")),
            new Priced("Megatron script --hidden-size 4096", "train.sh", script("4096")),
            // a MoE size beside no --num-experts is not read: it leaves a dense job priced
            new Priced("Megatron script --moe-router-topk $TOPK without experts", "train.sh", script("4096 --moe-router-topk $TOPK")),
            new Priced("NeMo num_attention_heads 32", "nemo.yaml", nemo("32")),
            new Priced("torchtitan vocab_size 128256", "llama3_8b.toml", titan("128256")),
            new Priced("gpt-neox num-layers 32", "neox.yml", neox("32")),
            // a YAML null is not written: the size's default, as before
            new Priced("gpt-neox num-kv-heads null", "neox.yml", neox("32").replace("\"precision\"", "\"num-kv-heads\": null,\n  \"precision\"")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sizesInBounds")
    void theSameFileWithItsSizesInBoundsIsPriced(Priced c) {
        priced(lint(SourceFile.of(c.file(), c.text())));
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
