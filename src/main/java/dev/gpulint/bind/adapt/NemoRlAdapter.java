package dev.gpulint.bind.adapt;

import dev.gpulint.spec.ParallelDim;
import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.scalar;

import dev.gpulint.spec.Format;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs.StatedKind;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.Locale;

/**
 * NeMo-RL's configuration (examples/configs: GRPO, DPO, SFT, distillation...): the {@code policy} being trained and the
 * {@code cluster} it runs on. The policy trains on one of two back-ends, whichever is enabled:
 * <ul>
 * <li>{@code policy.megatron_cfg} (Megatron-Core through Megatron-Bridge): {@code tensor_model_parallel_size},
 *     {@code pipeline_model_parallel_size}, {@code context_parallel_size}, {@code expert_model_parallel_size},
 *     {@code expert_tensor_parallel_size}, {@code sequence_parallel}, {@code num_layers_in_{first,last}_pipeline_stage},
 *     {@code activation_checkpointing} (full recompute), {@code optimizer.use_distributed_optimizer},
 *     {@code distributed_data_parallel_config.grad_reduce_in_fp32} (false: 16-bit main gradients), {@code fp8_cfg}
 *     ({@code enabled} with {@code fp8_recipe}: fp8, or mxfp8), the MoE token dispatcher ({@code moe_token_dispatcher_type},
 *     {@code moe_flex_dispatcher_backend}, {@code moe_enable_deepep}: {@link Nemo2Moe#dispatcher});
 * <li>{@code policy.dtensor_cfg} (PyTorch FSDP2 with DTensor tensor parallelism): {@code tensor_parallel_size},
 *     {@code context_parallel_size}, {@code sequence_parallel}, {@code activation_checkpointing}; FSDP2 shards the
 *     weights, gradients and optimizer states over the data-parallel ranks, which gpulint holds as ZeRO-3.
 * </ul>
 * Both: {@code policy.train_global_batch_size} and {@code policy.train_micro_batch_size} (per GPU),
 * {@code policy.max_total_sequence_length}, {@code policy.precision} (bfloat16, float16, float32),
 * {@code policy.model_name} (a Hugging Face model: the model catalog, {@link ModelNames}), and the GPUs
 * {@code cluster.num_nodes × cluster.gpus_per_node}. A file with {@code defaults:} overrides the file it names: a parallel
 * size it does not write is that file's, unknown here (not 1). Not read: generation on GPUs of its own
 * ({@code policy.generation.colocated.enabled: false} takes some of the cluster's GPUs from training: the GPU count is then
 * left unknown), the vLLM engine's memory beside the policy, the reference policy, LoRA ({@code lora_cfg}/{@code peft}
 * enabled: no model shape, as for other fine-tunes).
 */
final class NemoRlAdapter implements FormatAdapter {
    static final String FORMAT = Format.NEMO_RL.display();

    @Override public String id() { return "nemo-rl"; }

    @Override public String displayName() { return FORMAT; }

    @Override public boolean accepts(ForeignDocument doc) {
        MappingNode policy = map(doc.root(), "policy");
        if (policy == null) return false;
        return map(policy, "megatron_cfg") != null || map(policy, "dtensor_cfg") != null
                || policy.get("model_name").isPresent() && (policy.get("train_global_batch_size").isPresent()
                        || policy.get("train_micro_batch_size").isPresent());
    }

    @Override public void bind(ForeignDocument doc, DraftSink sink) {
        MappingNode root = doc.root();
        MappingNode policy = map(root, "policy");
        JobDraft j = new JobDraft(FORMAT, doc.file(), root.span());
        j.name = new Located<>(doc.name(), root.entry("policy").orElseThrow().key().span());
        boolean inherits = root.get("defaults").isPresent();
        // the policy's model first: a distillation's teacher or a reward model also has a model_name (ModelNames scans them all)
        ScalarNode model = scalar(policy, "model_name");
        if (model != null && !model.isNull() && !TreeValues.placeholder(model.text())) {
            j.modelNames.add(j.key("policy.model_name", new Located<>(model.text().strip(), model.span())));
        }
        cluster(j, root, policy);
        j.micro = j.key("policy.train_micro_batch_size", TreeValues.whole(scalar(policy, "train_micro_batch_size")));
        j.global = j.key("policy.train_global_batch_size", TreeValues.whole(scalar(policy, "train_global_batch_size")));
        j.seqLength = j.key("policy.max_total_sequence_length", TreeValues.whole(scalar(policy, "max_total_sequence_length")));
        ScalarNode precision = scalar(policy, "precision");
        if (precision != null && !precision.isNull() && !TreeValues.placeholder(precision.text())) {
            String d = switch (precision.text().strip().toLowerCase(Locale.ROOT)) {
                case "bfloat16", "bf16" -> "bf16";
                case "float16", "fp16", "half" -> "fp16";
                case "float32", "fp32", "float" -> "fp32";
                default -> null;
            };
            if (d != null) j.dtype = j.key("policy.precision", new Located<>(d, precision.span()));
        }
        MappingNode megatron = map(policy, "megatron_cfg"), dtensor = map(policy, "dtensor_cfg");
        Boolean megatronOn = enabled(megatron), dtensorOn = enabled(dtensor);
        if (Boolean.TRUE.equals(megatronOn)) megatron(j, megatron, inherits);
        else if (Boolean.TRUE.equals(dtensorOn) || dtensorOn == null && Boolean.FALSE.equals(megatronOn) && dtensor != null && !inherits) {
            dtensor(j, dtensor, inherits);
        } else {
            // the back-end is the parent file's choice (or written as a placeholder): its sizes are unknown here
            j.unknown(ParallelDim.TP);
            j.unknown(ParallelDim.PP);
            j.unknown(ParallelDim.CP);
        }
        sink.draft(j);
    }

    /** enabled: true / false as written; null when not written or not a boolean. */
    private static Boolean enabled(MappingNode cfg) {
        Located<Boolean> b = TreeValues.bool(scalar(cfg, "enabled"));
        return b == null ? null : b.value();
    }

    /**
     * The cluster's GPUs: num_nodes × gpus_per_node, unless generation runs on GPUs of its own (then training gets the
     * rest, which the file's resources give only in part: unknown).
     */
    private static void cluster(JobDraft j, MappingNode root, MappingNode policy) {
        Located<Boolean> colocated = TreeValues.bool(scalar(policy, "generation", "colocated", "enabled"));
        if (colocated != null && !colocated.value()) return;
        MappingNode cluster = map(root, "cluster");
        j.nodes = j.key("cluster.num_nodes", TreeValues.whole(scalar(cluster, "num_nodes")));
        j.gpusPerNode = j.key("cluster.gpus_per_node", TreeValues.whole(scalar(cluster, "gpus_per_node")));
        j.gpusPerNodeWhere = "cluster.gpus_per_node";
        j.state("world", JobDraft.product(j.nodes, j.gpusPerNode), "cluster.num_nodes × cluster.gpus_per_node", StatedKind.CONFIG,
                j.nodes != null ? j.nodes.span() : null);
    }

    private static void megatron(JobDraft j, MappingNode m, boolean inherits) {
        String at = "policy.megatron_cfg.";
        j.tp = size(j, m, at, "tensor_model_parallel_size", ParallelDim.TP, inherits);
        j.pp = size(j, m, at, "pipeline_model_parallel_size", ParallelDim.PP, inherits);
        j.cp = size(j, m, at, "context_parallel_size", ParallelDim.CP, inherits);
        j.ep = size(j, m, at, "expert_model_parallel_size", ParallelDim.EP, inherits);
        j.etp = j.key(at + "expert_tensor_parallel_size", TreeValues.whole(scalar(m, "expert_tensor_parallel_size")));
        j.sequenceParallel = TreeValues.bool(scalar(m, "sequence_parallel"));
        j.firstStageLayers = j.key(at + "num_layers_in_first_pipeline_stage", TreeValues.whole(scalar(m, "num_layers_in_first_pipeline_stage")));
        j.lastStageLayers = j.key(at + "num_layers_in_last_pipeline_stage", TreeValues.whole(scalar(m, "num_layers_in_last_pipeline_stage")));
        recompute(j, m);
        j.distributed = TreeValues.bool(scalar(m, "optimizer", "use_distributed_optimizer"));
        Located<Boolean> fp32 = TreeValues.bool(scalar(m, "distributed_data_parallel_config", "grad_reduce_in_fp32"));
        boolean fp32Training = j.dtype != null && j.dtype.value().equals("fp32");
        if (fp32 != null && !fp32.value() && !fp32Training) {
            String where = at + "distributed_data_parallel_config.grad_reduce_in_fp32";
            j.bytesPerParameter = j.key(where, new Located<>(16.0, fp32.span()));
            j.state("bytes_per_parameter", 16, where + ": false (16-bit main gradients: 2 weights + 2 gradients + 12 Adam)",
                    StatedKind.CONFIG, fp32.span());
        }
        MappingNode fp8 = map(m, "fp8_cfg");
        Located<Boolean> fp8On = TreeValues.bool(scalar(fp8, "enabled"));
        if (fp8On != null && fp8On.value()) {
            ScalarNode recipe = scalar(fp8, "fp8_recipe");
            boolean mx = recipe != null && !recipe.isNull() && "mxfp8".equalsIgnoreCase(recipe.text().strip());
            j.dtype = j.key(at + "fp8_cfg", new Located<>(mx ? "mxfp8" : "fp8", mx ? recipe.span() : fp8On.span()));
        }
        // the MoE token dispatcher and the flex dispatcher's backend, as NeMo-RL hands them to Megatron-Core (Nemo2Moe#dispatcher)
        Nemo2Moe.dispatcher(j, m, at);
        Located<Boolean> peft = TreeValues.bool(scalar(m, "peft", "enabled"));
        if (peft != null && peft.value()) j.modelShapeWithheld = "LoRA (policy.megatron_cfg.peft)";
    }

    private static void dtensor(JobDraft j, MappingNode d, boolean inherits) {
        String at = "policy.dtensor_cfg.";
        j.tp = size(j, d, at, "tensor_parallel_size", ParallelDim.TP, inherits);
        j.cp = size(j, d, at, "context_parallel_size", ParallelDim.CP, inherits);
        j.sequenceParallel = TreeValues.bool(scalar(d, "sequence_parallel"));
        recompute(j, d);
        // FSDP2 shards parameters, gradients and optimizer states over every data-parallel rank
        ScalarNode on = scalar(d, "enabled");
        j.zeroStage = j.key(at + "enabled (FSDP2)", new Located<>(3L, on != null ? on.span() : j.name.span()));
        Located<Boolean> lora = TreeValues.bool(scalar(d, "lora_cfg", "enabled"));
        if (lora != null && lora.value()) j.modelShapeWithheld = "LoRA (policy.dtensor_cfg.lora_cfg)";
    }

    /** activation_checkpointing: true recomputes every layer (NeMo-RL sets Megatron's full granularity; FSDP2 wraps each block). */
    private static void recompute(JobDraft j, MappingNode cfg) {
        Located<Boolean> ac = TreeValues.bool(scalar(cfg, "activation_checkpointing"));
        if (ac != null) j.recompute = new Located<>(ac.value() ? "full" : "none", ac.span());
    }

    /** A size: its number; not written in a file that inherits, or a placeholder: unknown. */
    private static Located<Long> size(JobDraft j, MappingNode cfg, String at, String key, ParallelDim size, boolean inherits) {
        return j.size(size, scalar(cfg, key), at + key, JobDraft.Unwritten.ABSENT_NULL_OR_NULL_TEXT, inherits);
    }
}
