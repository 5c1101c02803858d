package dev.gpulint.spec;

/**
 * The format a job was read from, as an id that rules test ({@code formatId == Format.TORCHTITAN}), apart
 * from the name messages show ("Kubernetes PyTorchJob"), which may carry more than the id.
 */
public enum Format {
    NATIVE("gpulint"), MEGATRON("Megatron-LM"), NEMO("NeMo"), NEMO2_RECIPE("NeMo 2 recipe"), MEGATRON_BRIDGE("Megatron-Bridge"), NEMO_RL("NeMo-RL"), DEEPSPEED("DeepSpeed"),
    ACCELERATE("accelerate"), TORCHTITAN("torchtitan"), TORCHTUNE("torchtune"), LLM_FOUNDRY("llm-foundry"), AXOLOTL("axolotl"), LLAMA_FACTORY("LLaMA-Factory"), NANOTRON("nanotron"), FAST_LLM("Fast-LLM"), LEVANTER("Levanter"), GPT_NEOX("gpt-neox"), SKYPILOT("SkyPilot"),
    AWS_BATCH("AWS Batch job definition"), HYPERPOD_RECIPE("SageMaker HyperPod recipe"), LAUNCH_SCRIPT("launch script"),
    /** Any Kubernetes kind: "Kubernetes PyTorchJob", "Kubernetes Job (Volcano)". */
    KUBERNETES("Kubernetes"),
    /** A name no adapter writes (a team's own). */
    OTHER("");

    private final String display;

    /** {@link #values()} once: each call of it copies the array, and the rules read {@link #of} of every candidate job a plan checks. */
    private static final Format[] ALL = values();

    /** {@link #sequenceParallelDefault} of each format, by ordinal: built once, read for every candidate a plan prices. */
    private static final SequenceParallelDefault[] SEQUENCE_PARALLEL = new SequenceParallelDefault[ALL.length];

    static { for (Format f : ALL) SEQUENCE_PARALLEL[f.ordinal()] = f.sequenceParallelDefaultOnce(); }

    Format(String display) { this.display = display; }

    /** The name messages show (for Kubernetes, the prefix of the kind's name). */
    public String display() { return display; }

    /**
     * Whether messages cite Megatron's own checks (Megatron-LM asserts, Megatron-Core raises) for a job of this format:
     * Megatron-LM, NeMo and Megatron-Bridge run Megatron-Core; gpulint's native manifests and the launchers that wrap a
     * job (Kubernetes, Slurm scripts, SkyPilot, ...) are worded after it as the reference. False for the frameworks with
     * a training loop of their own, which check (or do not check) in their own words.
     */
    public boolean citesMegatron() {
        return switch (this) {
            case NEMO_RL, DEEPSPEED, ACCELERATE, TORCHTITAN, TORCHTUNE, LLM_FOUNDRY, AXOLOTL, LLAMA_FACTORY, NANOTRON, FAST_LLM, LEVANTER,
                 GPT_NEOX -> false;
            default -> true;
        };
    }

    /**
     * The framework splits the pipeline's layers over the stages by a rule of its own, not Megatron's even split:
     * nanotron gives each stage the blocks of an equal share of their compute cost (nanotron/models/base.py,
     * build_model); Fast-LLM's stages hold multi_stage.layers_per_stage layers each; gpt-neox builds DeepSpeed's
     * PipelineModule, whose partition methods (type:REGEX, parameters, uniform: deepspeed/runtime/pipe/module.py
     * _partition_layers) balance any layer count over the stages, a count pp does not divide among them
     * (bind/adapt/PipePartition prices that split).
     */
    public boolean splitsItsOwnPipeline() {
        return this == NANOTRON || this == FAST_LLM || this == GPT_NEOX;
    }

    /**
     * What a job of this format runs at tp above 1 when its files do not write sequence parallelism: the one home of that
     * default, read by the plan's layout and by PAR011's job fact. Each value was read in the framework's source at the
     * commit named: Megatron-LM's {@code --sequence-parallel} is an argparse store_true switch and Megatron-Core's
     * ModelParallelConfig declares {@code sequence_parallel: bool = False} (megatron/core/model_parallel_config.py at
     * 02aa3ee4); NeMo 1 reads {@code cfg.get('sequence_parallel', False)} and its megatron_gpt_config.yaml writes False
     * (NVIDIA/NeMo examples/nlp/language_modeling/conf at 000763d0); NeMo 2's MegatronStrategy declares
     * {@code sequence_parallel: bool = False} (nemo/lightning/pytorch/strategies/megatron_strategy.py at 00114ea3), which its
     * recipes pass explicitly; gpt-neox's NeoXArgsParallelism defaults it to False; accelerate's MegatronLMPlugin takes
     * ACCELERATE_MEGATRON_LM_SEQUENCE_PARALLELISM, "False" when unset; nanotron's ParallelismArgs turns a missing
     * {@code tp_mode} into ALL_REDUCE (src/nanotron/config/parallelism_config.py at 19f88fbe), REDUCE_SCATTER being its
     * sequence parallelism; Fast-LLM's DistributedConfig declares {@code sequence_tensor_parallel} default False
     * (fast_llm/engine/distributed/config.py at 29609577); a DeepSpeed configuration has no Megatron-style sequence
     * parallelism. torchtitan's and torchtune's tensor-parallel plans always shard the norms along the sequence (their
     * adapters write it on with tp above 1). Not known: a Megatron-Bridge override file is merged on a recipe that sets it
     * (ModelParallelConfig's False is what the recipes replace), NeMo-RL's MegatronConfig and DTensorConfig require the key
     * (nemo_rl/models/policy/__init__.py at 00455ac0) and a file without it takes it from the base its {@code defaults:}
     * names, and the launchers (Kubernetes, SkyPilot, scripts) do not say which framework runs: gpulint's default, on.
     */
    public SequenceParallelDefault sequenceParallelDefault() { return SEQUENCE_PARALLEL[ordinal()]; }

    private SequenceParallelDefault sequenceParallelDefaultOnce() {
        return switch (this) {
            case NATIVE -> new SequenceParallelDefault(true, true, "parallelism.sequence_parallel",
                    "gpulint's default with tp > 1, as NeMo's and Megatron-Bridge's recipes set it: docs/format.md");
            case MEGATRON -> new SequenceParallelDefault(false, true, "--sequence-parallel",
                    "Megatron-LM's store_true switch, megatron/training/arguments.py; Megatron-Core's ModelParallelConfig"
                    + " sequence_parallel = False");
            case NEMO -> new SequenceParallelDefault(false, true, "model.sequence_parallel",
                    "NeMo's cfg.get('sequence_parallel', False); megatron_gpt_config.yaml writes False");
            case NEMO2_RECIPE -> new SequenceParallelDefault(false, true, "trainer.strategy.sequence_parallel",
                    "NeMo 2's MegatronStrategy argument sequence_parallel = False, nemo/lightning/pytorch/strategies/megatron_strategy.py");
            case GPT_NEOX -> new SequenceParallelDefault(false, true, "sequence_parallel",
                    "gpt-neox's NeoXArgsParallelism default False, megatron/neox_arguments/neox_args.py");
            case ACCELERATE -> new SequenceParallelDefault(false, true, "megatron_lm_sequence_parallelism",
                    "accelerate's MegatronLMPlugin, ACCELERATE_MEGATRON_LM_SEQUENCE_PARALLELISM \"False\" when unset");
            case NANOTRON -> new SequenceParallelDefault(false, true, "parallelism.tp_mode",
                    "nanotron's ParallelismArgs default ALL_REDUCE; REDUCE_SCATTER is its sequence parallelism");
            case FAST_LLM -> new SequenceParallelDefault(false, true, "model.distributed.sequence_tensor_parallel",
                    "Fast-LLM's DistributedConfig default False");
            case DEEPSPEED -> new SequenceParallelDefault(false, true, null,
                    "a DeepSpeed configuration has no Megatron-style sequence parallelism");
            case TORCHTITAN, TORCHTUNE -> new SequenceParallelDefault(true, true, null,
                    display + "'s tensor-parallel plan shards the norms along the sequence with tp > 1");
            case MEGATRON_BRIDGE -> new SequenceParallelDefault(true, false, "model.sequence_parallel",
                    "not known: the recipe an override file is merged on sets it");
            case NEMO_RL -> new SequenceParallelDefault(true, false, "sequence_parallel",
                    "not known: NeMo-RL requires the key, which the base configuration of the file's defaults: sets");
            default -> new SequenceParallelDefault(true, false, null,
                    "not known: " + (display.isEmpty() ? "the format" : display) + "'s default was not read");
        };
    }

    /** The id of the format named {@code display}; null for none (a native manifest). */
    public static Format of(String display) {
        if (display == null) return NATIVE;
        if (display.startsWith("Kubernetes ")) return KUBERNETES;
        for (Format f : ALL) if (f != OTHER && f != KUBERNETES && f.display.equals(display)) return f;
        return OTHER;
    }
}
