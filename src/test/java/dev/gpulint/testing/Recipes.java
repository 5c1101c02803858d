package dev.gpulint.testing;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Framework files that several binding tests read, written once (our own fixtures, in the shapes of Megatron-LM's launch
 * examples and functional-test MODEL_ARGS, Megatron-Bridge's override files, the fiddle YAML NeMo-Run writes for
 * {@code run.Partial(llm.pretrain, ...)} and torchtitan's train_configs TOML);
 * {@link Foreign} binds them. A test varies the texts with {@code formatted} and {@code replace} and the builders with their
 * setters, so the text, and the lines and columns the tests assert, stay as written here.
 */
public final class Recipes {

    private Recipes() {}

    /**
     * A Megatron-LM launch of a Llama-3-8B-shaped model (32 layers of 4096, seq 8192) on one node of 8 GPUs, bf16 with
     * Transformer Engine's fp8 (hybrid, tensorwise); {@code %s} is one more flag of the fp8 recipe, on the command's last line
     * (line 5) before {@code --use-distributed-optimizer}.
     */
    public static final String MEGATRON_FP8 = """
            #!/bin/bash
            torchrun --nnodes 1 --nproc_per_node 8 pretrain_gpt.py \\
              --num-layers 32 --hidden-size 4096 --num-attention-heads 32 --seq-length 8192 \\
              --tensor-model-parallel-size 1 --micro-batch-size 1 --global-batch-size 128 \\
              --bf16 --fp8-format hybrid --fp8-recipe tensorwise %s --use-distributed-optimizer
            """;

    /**
     * A Megatron-LM launch of a Llama-3-8B-shaped model (32 layers of 4096, seq 8192) on one node of 8 GPUs at tp 8 with
     * sequence parallelism, micro batch 1, global 128, bf16; {@code %s} is more flags after {@code --bf16}, on line 4 (a
     * {@code " \\\n  --flag"} puts one on line 5).
     */
    public static final String MEGATRON_TP8 = """
            #!/bin/bash
            torchrun --nnodes 1 --nproc_per_node 8 pretrain_gpt.py \\
              --num-layers 32 --hidden-size 4096 --num-attention-heads 32 --seq-length 8192 \\
              --tensor-model-parallel-size 8 --sequence-parallel --micro-batch-size 1 --global-batch-size 128 --bf16%s
            """;

    /** A Megatron-Bridge override file whose {@code mixed_precision} (line 7) is {@code %s}: a recipe's name, or a mapping. */
    public static final String BRIDGE_OVERRIDE = """
            model:
              tensor_model_parallel_size: 1
              seq_length: 8192
            train:
              global_batch_size: 128
              micro_batch_size: 1
            mixed_precision: %s
            """;

    /**
     * A NeMo 1 MoE configuration in the shape of the NeMo Framework Launcher's Mixtral ones: 2 nodes × 8 GPUs (trainer, lines 1 to
     * 4, precision bf16), micro batch 1, global 128, sequence 4096, 32 layers of 4096 (FFN 14336, 32 heads, 8 query groups), 8
     * experts (line 14), top-2, fast-swiglu, tp 2 (line 17), pp 1, ep 4 (line 19); {@code modelKeys} are more model keys, one a line from
     * line 20 on, before {@code model.optim} (distributed_fused_adam).
     */
    public static String nemo1Moe(String... modelKeys) {
        StringBuilder more = new StringBuilder();
        for (String k : modelKeys) more.append("  ").append(k).append('\n');
        return """
                trainer:
                  num_nodes: 2
                  devices: 8
                  precision: bf16
                model:
                  micro_batch_size: 1
                  global_batch_size: 128
                  encoder_seq_length: 4096
                  num_layers: 32
                  hidden_size: 4096
                  ffn_hidden_size: 14336
                  num_attention_heads: 32
                  num_query_groups: 8
                  num_moe_experts: 8
                  moe_router_topk: 2
                  activation: fast-swiglu
                  tensor_model_parallel_size: 2
                  pipeline_model_parallel_size: 1
                  expert_model_parallel_size: 4
                %s  optim:
                    name: distributed_fused_adam
                """.formatted(more);
    }

    /** A NeMo 2 pre-training recipe with the data module's batch sizes and sequence length. */
    public static Nemo2 nemo2(int globalBatch, int microBatch, int seqLength) {
        return new Nemo2(globalBatch, microBatch, seqLength);
    }

    /**
     * A NeMo 2 recipe as NeMo-Run serialises it: {@code data}, {@code model} with its {@code config}, any other sections,
     * then {@code trainer} with its {@code plugins} (MegatronMixedPrecision) and {@code strategy} (MegatronStrategy). Lines
     * are given as their section writes them, indented under it.
     */
    public static final class Nemo2 {
        private final int globalBatch, microBatch, seqLength;
        private String model, config;
        private List<String> configLines = List.of();
        private final List<String> sections = new ArrayList<>();
        private int devices = 8, nodes = 1;
        private List<String> plugins, strategy = List.of(), trainerLines = List.of();

        private Nemo2(int globalBatch, int microBatch, int seqLength) {
            this.globalBatch = globalBatch;
            this.microBatch = microBatch;
            this.seqLength = seqLength;
        }

        /**
         * The model's class and its config's class under {@code nemo.collections.llm.gpt.model.} ("llama.LlamaModel",
         * "llama.Llama3Config8B"), and the config's keys.
         */
        public Nemo2 model(String modelClass, String configClass, String... configLines) {
            model = modelClass;
            config = configClass;
            this.configLines = List.of(configLines);
            return this;
        }

        /** A top-level section written after the model ("optim:" and its lines). */
        public Nemo2 section(String yaml) {
            sections.add(yaml.endsWith("\n") ? yaml : yaml + "\n");
            return this;
        }

        /** The trainer's devices (GPUs per node) and num_nodes. */
        public Nemo2 trainer(int devices, int nodes) {
            this.devices = devices;
            this.nodes = nodes;
            return this;
        }

        /** More trainer keys, after num_nodes ({@code "callbacks:"}, {@code "- _target_: ..."}, {@code "  tp_comm_overlap: true"}). */
        public Nemo2 trainerLines(String... lines) {
            trainerLines = List.of(lines);
            return this;
        }

        /** The trainer's MegatronMixedPrecision plugin and its keys (none: no plugin written). */
        public Nemo2 plugins(String... lines) {
            plugins = List.of(lines);
            return this;
        }

        /** The trainer's MegatronStrategy keys. */
        public Nemo2 strategy(String... lines) {
            strategy = List.of(lines);
            return this;
        }

        /** The recipe's text. */
        public String yaml() {
            StringBuilder b = new StringBuilder("_partial_: true\n_target_: nemo.collections.llm.api.pretrain\ndata:\n"
                    + "  _target_: nemo.collections.llm.gpt.data.pre_training.PreTrainingDataModule\n");
            b.append("  global_batch_size: ").append(globalBatch).append("\n  micro_batch_size: ").append(microBatch)
                    .append("\n  seq_length: ").append(seqLength).append('\n');
            b.append("model:\n  _target_: nemo.collections.llm.gpt.model.").append(model).append("\n  config:\n")
                    .append("    _target_: nemo.collections.llm.gpt.model.").append(config).append('\n');
            for (String l : configLines) b.append("    ").append(l).append('\n');
            sections.forEach(b::append);
            b.append("trainer:\n  _target_: nemo.lightning.pytorch.trainer.Trainer\n  devices: ").append(devices)
                    .append("\n  num_nodes: ").append(nodes).append('\n');
            for (String l : trainerLines) b.append("  ").append(l).append('\n');
            if (plugins != null) {
                b.append("  plugins:\n    _target_: nemo.lightning.pytorch.plugins.mixed_precision.MegatronMixedPrecision\n");
                for (String l : plugins) b.append("    ").append(l).append('\n');
            }
            b.append("  strategy:\n    _target_: nemo.lightning.pytorch.strategies.megatron_strategy.MegatronStrategy\n");
            for (String l : strategy) b.append("    ").append(l).append('\n');
            return b.toString();
        }
    }

    /**
     * A torchtitan train_configs TOML of model {@code llama3} at {@code flavor} ("8B", "70B"): its {@code [model]} table, then
     * {@code [training]} and {@code [parallelism]} where lines are given for them, then any other tables, a blank line between
     * tables. With {@code training("local_batch_size = 1", "seq_len = 8192")} and {@code parallelism("data_parallel_shard_degree
     * = -1")}: line 1 {@code [model]}, 3 the flavor, 5 {@code [training]}, 6 and 7 its lines, 9 {@code [parallelism]}, 10 its line.
     */
    public static Torchtitan torchtitan(String flavor) {
        return new Torchtitan(flavor);
    }

    /**
     * A torchtitan TOML being written. Each argument is one or more lines of its table ({@code "a = 1\nb = 2"}; a trailing
     * line break is not doubled, an empty argument writes nothing), in the order given.
     */
    public static final class Torchtitan {
        private final String flavor;
        private final List<String> model = new ArrayList<>(), training = new ArrayList<>(), parallelism = new ArrayList<>();
        private final List<String> tables = new ArrayList<>();

        private Torchtitan(String flavor) {
            this.flavor = flavor;
        }

        /** More {@code [model]} lines, after the name and the flavor. */
        public Torchtitan model(String... lines) {
            model.addAll(List.of(lines));
            return this;
        }

        /** {@code [training]}'s lines (none: no table). */
        public Torchtitan training(String... lines) {
            training.addAll(List.of(lines));
            return this;
        }

        /** {@code [parallelism]}'s lines (none: no table). */
        public Torchtitan parallelism(String... lines) {
            parallelism.addAll(List.of(lines));
            return this;
        }

        /** Another table after those, its header first ({@code "[compile]\nenable = true"}; empty: none). */
        public Torchtitan table(String toml) {
            tables.add(toml);
            return this;
        }

        /** The TOML's text. */
        public String toml() {
            StringBuilder b = new StringBuilder("[model]\nname = \"llama3\"\nflavor = \"").append(flavor).append("\"\n");
            lines(b, model);
            if (!training.isEmpty()) lines(b.append("\n[training]\n"), training);
            if (!parallelism.isEmpty()) lines(b.append("\n[parallelism]\n"), parallelism);
            for (String t : tables) {
                if (!t.isEmpty()) lines(b.append('\n'), List.of(t));
            }
            return b.toString();
        }

        private static void lines(StringBuilder b, List<String> lines) {
            for (String l : lines) {
                if (!l.isEmpty()) b.append(l.endsWith("\n") ? l : l + "\n");
            }
        }
    }

    /**
     * A Megatron-LM functional-test {@code model_config.yaml}: {@code MODEL_ARGS}, one {@code --flag: value} a line, in the
     * order the flags were first set.
     */
    public static ModelArgs modelArgs() {
        return new ModelArgs();
    }

    /**
     * A small hybrid of Mamba-2, attention and MLP layers: tp 2, micro batch 1, global 64, {@code --is-hybrid-model}, 8 layers
     * of 1024 (FFN 4096, 16 heads) in the pattern {@code "M-M*M-M-"}, sequence 4096, bf16; no {@code --mamba-*} sizes (13 lines).
     */
    public static ModelArgs smallHybrid() {
        return modelArgs().set("--tensor-model-parallel-size", 2).set("--micro-batch-size", 1).set("--global-batch-size", 64)
                .set("--is-hybrid-model", true).set("--num-layers", 8).set("--hidden-size", 1024).set("--ffn-hidden-size", 4096)
                .set("--num-attention-heads", 16).pattern("M-M*M-M-").set("--seq-length", 4096).set("--bf16", true);
    }

    /**
     * Nemotron-H-8B's shape as a Megatron job (nvidia/Nemotron-H-8B-Base-8K's config.json): sequence-parallel, micro batch 1,
     * global 256, {@code --is-hybrid-model}, 52 layers of 4096 (FFN 21504, 32 heads, 8 query groups) in its pattern
     * {@link #NEMOTRON_H_8B_PATTERN}, 128 Mamba heads (the other mixer sizes Megatron's defaults), sequence 8192, vocabulary
     * 131072, the distributed optimizer, bf16; at {@code tp}, its first flag.
     */
    public static ModelArgs nemotronH8b(int tp) {
        return modelArgs().set("--tensor-model-parallel-size", tp).set("--sequence-parallel", true).set("--micro-batch-size", 1)
                .set("--global-batch-size", 256).set("--is-hybrid-model", true).set("--num-layers", 52).set("--hidden-size", 4096)
                .set("--ffn-hidden-size", 21504).set("--num-attention-heads", 32).set("--group-query-attention", true)
                .set("--num-query-groups", 8).set("--seq-length", 8192).set("--vocab-size", 131072).pattern(NEMOTRON_H_8B_PATTERN)
                .set("--mamba-num-heads", 128).set("--use-distributed-optimizer", true).set("--bf16", true);
    }

    /** Nemotron-H-8B's 52 layers: 24 Mamba-2 (M), 4 attention (*), 24 MLP (-). */
    public static final String NEMOTRON_H_8B_PATTERN = "M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-";

    /** A MODEL_ARGS mapping being written. */
    public static final class ModelArgs {
        private final Map<String, String> flags = new LinkedHashMap<>();

        private ModelArgs() {}

        /** {@code flag} ("--num-layers") is {@code value}: in its place if set already, else after the others. */
        public ModelArgs set(String flag, Object value) {
            flags.put(flag, String.valueOf(value));
            return this;
        }

        /** {@code --hybrid-layer-pattern} is {@code pattern}, double-quoted. */
        public ModelArgs pattern(String pattern) {
            return set("--hybrid-layer-pattern", "\"" + pattern + "\"");
        }

        /** {@code flag} is not written. */
        public ModelArgs without(String flag) {
            flags.remove(flag);
            return this;
        }

        /** The file's text. */
        public String yaml() {
            StringBuilder b = new StringBuilder("MODEL_ARGS:\n");
            flags.forEach((f, v) -> b.append("  ").append(f).append(": ").append(v).append('\n'));
            return b.toString();
        }
    }
}
