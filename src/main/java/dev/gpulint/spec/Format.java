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

    /** The id of the format named {@code display}; null for none (a native manifest). */
    public static Format of(String display) {
        if (display == null) return NATIVE;
        if (display.startsWith("Kubernetes ")) return KUBERNETES;
        for (Format f : ALL) if (f != OTHER && f != KUBERNETES && f.display.equals(display)) return f;
        return OTHER;
    }
}
