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
import java.util.Map;

/**
 * Megatron-Bridge's configuration as YAML: the {@code ConfigContainer} a run dumps (the "Task Configuration" a
 * training log prints and a checkpoint's run_config.yaml keeps, {@code _target_} keys naming the classes) and the
 * override files its recipe scripts merge on top of a recipe ({@code --config-file}: only the fields changed). Both
 * are one mapping per ConfigContainer field: {@code model} (the model provider, a Megatron-Core TransformerConfig:
 * the parallel sizes live here, not in a strategy), {@code train}, {@code dataset}, {@code optimizer}, {@code ddp},
 * {@code mixed_precision}; older examples name them {@code model_config}, {@code train_config}..., and the
 * performance scripts' overrides wrap them in a {@code ConfigContainer:} key. What it binds:
 * <ul>
 * <li>{@code model.{tensor,pipeline,virtual_pipeline,context,expert}_model_parallel_size},
 *     {@code expert_tensor_parallel_size}, {@code sequence_parallel}, the uneven pipeline's
 *     {@code num_layers_in_{first,last}_pipeline_stage} and {@code account_for_{embedding,loss}_in_pipeline_split};
 * <li>{@code train.micro_batch_size}, {@code train.global_batch_size}; the sequence from {@code dataset.seq_length}
 *     (or GPTDatasetConfig's {@code sequence_length}), else {@code model.seq_length};
 * <li>the model's dimensions where written ({@code num_layers}, {@code hidden_size}, {@code num_attention_heads},
 *     {@code num_query_groups}, {@code ffn_hidden_size}, {@code kv_channels}, {@code vocab_size},
 *     {@code gated_linear_unit}, {@code share_embeddings_and_output_weights}, {@code num_moe_experts} and the MoE keys
 *     of {@link Nemo2Moe}, {@code mtp_num_layers}), {@code recompute_granularity}, CPU activation offload;
 * <li>the model's name for the catalog ({@link ModelNames}): the provider class {@code model._target_}
 *     ({@code Llama3ModelProvider70B} reads as Llama 3 70B; a family's class without a size names no entry) and the Hugging
 *     Face tokenizer {@code tokenizer.tokenizer_model};
 * <li>the precision: {@code mixed_precision} as a recipe name ({@code bf16_mixed}, {@code bf16_with_fp8_current_scaling_mixed},
 *     {@code bf16_with_mxfp8_mixed}, {@code bf16_with_nvfp4_mixed}...) or as MixedPrecisionConfig ({@code fp8} set, with
 *     {@code fp8_recipe: mxfp8}; {@code fp4}; {@code bf16}/{@code fp16}), else the model's own {@code fp8}/{@code bf16}/
 *     {@code fp16}, else the optimizer's; the distributed optimizer ({@code optimizer.use_distributed_optimizer}, else
 *     {@code ddp}'s); the gradients' dtype ({@code mixed_precision.grad_reduce_in_fp32}, which Megatron-Bridge copies onto
 *     the DDP config, else {@code ddp.grad_reduce_in_fp32}): false keeps 16-bit main gradients, 16 bytes per parameter;
 *     the layers kept in bf16 ({@code first_last_layers_bf16} with its counts, or a recipe name's: {@link FirstLastBf16});
 * <li>{@code comm_overlap.tp_comm_overlap} (else the model's) and {@code comm_overlap.overlap_moe_expert_parallel_comm};
 * <li>{@code dist.use_tp_pp_dp_mapping}: the rank order tp-cp-ep-pp-dp ({@link TpPpDpMapping}).
 * </ul>
 * The GPU count is the launcher's ({@code torchrun --nproc_per_node}, the Slurm allocation), never the file's.
 */
final class BridgeAdapter implements FormatAdapter {
    static final String FORMAT = Format.MEGATRON_BRIDGE.display();
    private static final Map<ParallelDim, String> SIZES = Map.of(ParallelDim.TP, "tensor_model_parallel_size", ParallelDim.PP, "pipeline_model_parallel_size",
            ParallelDim.VPP, "virtual_pipeline_model_parallel_size", ParallelDim.CP, "context_parallel_size", ParallelDim.EP, "expert_model_parallel_size");

    @Override public String id() { return "megatron-bridge"; }

    @Override public String displayName() { return FORMAT; }

    /** The ConfigContainer's mapping: the root, or a top-level {@code ConfigContainer:} (the performance overrides). */
    private static MappingNode container(MappingNode root) {
        MappingNode wrapped = map(root, "ConfigContainer");
        return wrapped != null ? wrapped : root;
    }

    /** The section of a ConfigContainer field: {@code model}, else the older examples' {@code model_config}. */
    private static String section(MappingNode c, String field) {
        if (map(c, field) != null) return field;
        return map(c, field + "_config") != null ? field + "_config" : null;
    }

    @Override public boolean accepts(ForeignDocument doc) {
        MappingNode root = doc.root();
        if (root.get("trainer").isPresent() || root.get("policy").isPresent()) return false;     // NeMo, NeMo-RL
        MappingNode c = container(root);
        String model = section(c, "model");
        if (model == null) return false;
        MappingNode m = map(c, model);
        boolean sized = false;
        for (String k : SIZES.values()) sized |= m.get(k).isPresent();
        String target = TreeValues.text(m, "_target_");
        boolean provider = target != null && (target.startsWith("megatron.bridge.") || target.endsWith("ModelProvider")
                || target.matches("[\\w.]*ModelProvider\\w*"));
        String top = TreeValues.text(root, "_target_");
        boolean containerTarget = top != null && top.endsWith("ConfigContainer");
        return (sized || provider) && (section(c, "train") != null || containerTarget);
    }

    @Override public void bind(ForeignDocument doc, DraftSink sink) {
        MappingNode root = doc.root();
        MappingNode c = container(root);
        String wrap = c == root ? "" : "ConfigContainer.";
        String modelKey = section(c, "model");
        String at = wrap + modelKey + ".";
        MappingNode model = map(c, modelKey);
        JobDraft j = new JobDraft(FORMAT, doc.file(), root.span());
        j.name = new Located<>(doc.name(), root.entries().isEmpty() ? root.span() : root.entries().get(0).key().span());
        j.tp = size(j, model, at, ParallelDim.TP);
        j.pp = size(j, model, at, ParallelDim.PP);
        j.vpp = size(j, model, at, ParallelDim.VPP);
        j.cp = size(j, model, at, ParallelDim.CP);
        j.ep = size(j, model, at, ParallelDim.EP);
        j.etp = number(j, model, "expert_tensor_parallel_size", at);
        expertTpDefault(j, at);
        j.sequenceParallel = TreeValues.bool(scalar(model, "sequence_parallel"));
        // the provider's ModelParallelConfig.variable_seq_lengths: every pipeline p2p exchanges its shape first (MtpLayers#SHAPE_EXCHANGE)
        j.variableSeqLengths = TreeValues.bool(scalar(model, "variable_seq_lengths"));
        // dist.use_tp_pp_dp_mapping: the groups in order tp-cp-ep-pp-dp, as Megatron-LM's switch (TpPpDpMapping)
        String distKey = section(c, "dist");
        if (distKey != null) {
            String k = wrap + distKey + ".use_tp_pp_dp_mapping";
            j.order = TpPpDpMapping.order(j, j.key(k, DraftValues.bool(j, scalar(map(c, distKey), "use_tp_pp_dp_mapping"), k,
                    "the estimate keeps the default rank order tp-cp-ep-dp-pp")), k);
        }
        String trainKey = section(c, "train");
        MappingNode train = trainKey == null ? null : map(c, trainKey);
        j.micro = number(j, train, "micro_batch_size", wrap + trainKey + ".");
        j.global = number(j, train, "global_batch_size", wrap + trainKey + ".");
        String dataKey = section(c, "dataset");
        MappingNode data = dataKey == null ? null : map(c, dataKey);
        for (String k : new String[] {"seq_length", "sequence_length"}) {
            if (j.seqLength == null) j.seqLength = number(j, data, k, wrap + dataKey + ".");
        }
        if (j.seqLength == null) j.seqLength = number(j, model, "seq_length", at);
        inBatchPacking(j, data, wrap + dataKey + ".");
        shape(j, model, at);
        Nemo2Moe.bridgeDispatcherDefault(j, model, at);     // GPTModelProvider named without a dispatcher: allgather
        String target = model == null ? null : TreeValues.text(model, "_target_");
        if (target != null && !TreeValues.placeholder(target)) {     // DeepSeek-V3's provider without its group limit written: 8 / 4
            String cls = target.strip().substring(target.strip().lastIndexOf('.') + 1);
            Nemo2Moe.groupDefaults(j, model, cls, Nemo2Moe.BRIDGE_GROUPS, Nemo2Moe.BRIDGE_PARENTS, at, "Megatron-Bridge's " + cls);
        }
        HybridLayers.config(j, model, at);     // a hybrid provider's pattern and mixer sizes
        pipelineSplit(j, model, at);
        precision(j, c, model, wrap);
        commOverlap(j, c, model, wrap, at);
        names(j, c, model, at, wrap);
        sink.draft(j);
    }

    /**
     * Megatron-Bridge's own default for an unset expert tensor-parallel size: its TransformerConfig.finalize (and
     * MLATransformerConfig's, HeterogeneousTransformerConfig's) calls {@code _set_moe_expert_tensor_parallel_default} before
     * Megatron-Core's __post_init__, which sets {@code expert_tensor_parallel_size = 1} when it is None and
     * {@code expert_model_parallel_size > 1} (Megatron-Core alone would take tp). NVIDIA-NeMo/Megatron-Bridge
     * src/megatron/bridge/models/transformer_config.py as in the code index's newest stored version (no commit to pin), with
     * its tests/unit_tests/models/test_transformer_config.py's
     * test_moe_unset_expert_tensor_parallel_size_defaults_to_one and test_dense_unset_..._is_not_changed_by_bridge; the
     * version at commit 48fe5c6c6fca0d7338a9684512e00142a2d7d110 does not have it (there Megatron-Core's tp stands). So a
     * Bridge job with ep > 1 and no expert tp is priced with expert tp 1, and the assumptions say which Bridge does so.
     */
    private static void expertTpDefault(JobDraft j, String at) {
        if (j.etp != null || j.ep == null || j.ep.value() == null || j.ep.value() <= 1) return;
        if (j.unknown.contains(ParallelDim.EP.key())) return;
        j.etp = new Located<>(1L, j.ep.span());
        j.unpriced.add(at + "expert_tensor_parallel_size not written with expert_model_parallel_size = " + j.ep.value()
                + ": expert tp 1, Megatron-Bridge's TransformerConfig.finalize default (_set_moe_expert_tensor_parallel_default,"
                + " current Bridge; an older Bridge, e.g. at 48fe5c6, leaves Megatron-Core's expert tp = tp)");
    }

    /**
     * In-batch packing asks for variable_seq_lengths once the job is pipelined: ConfigContainer.validate marks the model's
     * config when {@code dataset.enable_in_batch_packing} is set (GPTSFTDatasetConfig, the direct Hugging Face SFT and Energon
     * datasets) or an Energon dataset packs natively ({@code packing_buffer_size} set), and the model's
     * TransformerConfig.finalize then sets {@code variable_seq_lengths = True} when {@code pipeline_model_parallel_size > 1},
     * whatever the file writes for it: packed micro-batches differ in length, so every pipeline p2p exchanges its shape
     * first (MtpLayers#SHAPE_EXCHANGE). NVIDIA-NeMo/Megatron-Bridge src/megatron/bridge/training/config.py at commit
     * 003e863ad19f6db7958d976c961a0d7d9abb1314 ("Propagate in-batch packing flag to model config so
     * TransformerConfig.finalize() can enable variable_seq_lengths for pipeline parallelism") and
     * src/megatron/bridge/models/transformer_config.py as the code index holds that version (its finalize sets the flag after
     * Megatron-Core's __post_init__). The older VLM switch {@code dataset.pack_sequences_in_batch} is not read so: those steps
     * pad every micro-batch to the sequence length when pp &gt; 1 ({@code force_to_pad_to_seq_len}), so shapes stay fixed.
     */
    private static void inBatchPacking(JobDraft j, MappingNode data, String at) {
        if (data == null || j.variableSeqLengths != null && j.variableSeqLengths.value()) return;
        if (j.pp == null || j.pp.value() == null || j.pp.value() <= 1) return;
        String where = at + "enable_in_batch_packing";
        Located<Boolean> packing = TreeValues.bool(scalar(data, "enable_in_batch_packing"));
        if (packing == null || !packing.value()) {
            Located<Long> buffer = TreeValues.whole(scalar(data, "packing_buffer_size"));
            if (buffer == null || buffer.value() < 1) return;
            where = at + "packing_buffer_size";
            packing = new Located<>(true, buffer.span());
        }
        j.variableSeqLengths = j.key(where, packing);
        j.unpriced.add(where + " with pipeline_model_parallel_size = " + j.pp.value() + ": variable_seq_lengths, as"
                + " Megatron-Bridge's TransformerConfig.finalize sets it for in-batch packing with pp > 1 (Bridge since the"
                + " enable_in_batch_packing switch; the older pack_sequences_in_batch pads to the sequence length instead)");
    }

    /** The dimensions a dump writes (an override file seldom does: the recipe has them). */
    private static void shape(JobDraft j, MappingNode model, String at) {
        j.layers = number(j, model, "num_layers", at);
        j.hidden = number(j, model, "hidden_size", at);
        j.heads = number(j, model, "num_attention_heads", at);
        j.kvHeads = number(j, model, "num_query_groups", at);
        j.ffn = number(j, model, "ffn_hidden_size", at);
        j.headDim = number(j, model, "kv_channels", at);
        j.vocab = number(j, model, "vocab_size", at);
        j.gated = TreeValues.bool(scalar(model, "gated_linear_unit"));
        j.tied = TreeValues.bool(scalar(model, "share_embeddings_and_output_weights"));
        j.crossEntropy = CrossEntropyFusion.keyed(j, at + "cross_entropy_fusion_impl", CrossEntropyFusion.bridge(j, model, at));     // cross_entropy_loss_fusion / cross_entropy_fusion_impl, else the provider's
        // multi-token prediction (Megatron-Core's TransformerConfig.mtp_num_layers; None: none)
        j.mtpLayers = number(j, model, "mtp_num_layers", at);
        Located<Long> experts = number(j, model, "num_moe_experts", at);
        if (experts != null) {
            j.experts = experts;
            Nemo2Moe.read(j, model, at, NemoNumbers.Reader.BRIDGE);
        } else {
            // a dense model's dump still writes the MoE defaults (moe_router_topk: 2): read only its attention variant
            Nemo2Moe.read(j, model, at, NemoNumbers.Reader.BRIDGE);
            j.topK = null;
            j.moeFfn = j.sharedFfn = j.denseLayers = null;
            j.moeLayerFreq = j.dispatcher = j.flexBackend = null;
            j.capacityFactor = null;
            j.padToCapacity = j.moeOverlap = j.groupedGemm = null;
        }
        ScalarNode recompute = scalar(model, "recompute_granularity");
        if (recompute != null) {
            String r = recompute.isNull() || recompute.text().strip().equalsIgnoreCase("null") ? "none"
                    : recompute.text().strip().toLowerCase(Locale.ROOT);
            if (!TreeValues.placeholder(r)) j.recompute = new Located<>(r, recompute.span());
        }
        // TransformerConfig's recompute_modules beside selective granularity (RecomputeModuleReader)
        if (model != null) RecomputeModuleReader.yaml(j, model.get("recompute_modules").orElse(null), at + "recompute_modules");
        Located<Boolean> offload = TreeValues.bool(scalar(model, "cpu_offloading"));
        Located<Boolean> activations = TreeValues.bool(scalar(model, "cpu_offloading_activations"));
        if (offload != null && offload.value() && (activations == null || activations.value())) {
            j.offloadLayers = j.key(at + "cpu_offloading_num_layers", TreeValues.whole(scalar(model, "cpu_offloading_num_layers")));
        }
    }

    /**
     * The overlaps ConfigContainer's {@code comm_overlap} (CommOverlapConfig) states, which Megatron-Bridge copies onto the
     * model's config: {@code tp_comm_overlap} (the tensor-parallel collectives beside the GEMMs, derive/estimate/TpOverlap),
     * else the model's own; {@code overlap_moe_expert_parallel_comm} (the all-to-alls behind the other micro-batch's compute)
     * where the model does not state it. The performance scripts set both there, not on the model.
     */
    private static void commOverlap(JobDraft j, MappingNode c, MappingNode model, String wrap, String at) {
        String key = section(c, "comm_overlap");
        MappingNode co = key == null ? null : map(c, key);
        String instead = "the estimate hides the GPU family's tp_overlap share of the tp collectives, as when it is not stated";
        Located<Boolean> tp = DraftValues.bool(j, scalar(co, "tp_comm_overlap"), wrap + key + ".tp_comm_overlap", instead);
        if (tp == null) tp = DraftValues.bool(j, scalar(model, "tp_comm_overlap"), at + "tp_comm_overlap", instead);
        if (tp != null) j.tpCommOverlap = tp;
        if (j.moeOverlap == null) j.moeOverlap = TreeValues.bool(scalar(co, "overlap_moe_expert_parallel_comm"));
        // overlap_param_gather_with_optimizer_step: CommOverlapConfig's, which Megatron-Bridge applies to the optimizer's
        // config, else OptimizerConfig's own (the performance scripts set both; derive/estimate/OptimizerStepGather)
        String optKey = section(c, "optimizer");
        String step = "overlap_param_gather_with_optimizer_step", stepInstead = "the estimate gathers model chunk 0's parameters"
                + " ahead of its first forward, as when it is not stated";
        String where = wrap + key + "." + step;
        Located<Boolean> inStep = DraftValues.bool(j, scalar(co, step), where, stepInstead);
        if (inStep == null && optKey != null) {
            where = wrap + optKey + "." + step;
            inStep = DraftValues.bool(j, scalar(map(c, optKey), step), where, stepInstead);
        }
        if (inStep != null) j.gatherWithStep = j.key(where, inStep);
    }

    /** An uneven pipeline: the first and last stages' layers, and the embedding / loss counted in the split. */
    private static void pipelineSplit(JobDraft j, MappingNode model, String at) {
        j.firstStageLayers = number(j, model, "num_layers_in_first_pipeline_stage", at);
        j.lastStageLayers = number(j, model, "num_layers_in_last_pipeline_stage", at);
        Located<Boolean> e = TreeValues.bool(scalar(model, "account_for_embedding_in_pipeline_split"));
        Located<Boolean> l = TreeValues.bool(scalar(model, "account_for_loss_in_pipeline_split"));
        if (e != null && e.value()) j.embeddingInSplit = e;
        if (l != null && l.value()) j.lossInSplit = l;
    }

    /** The precision, the distributed optimizer and the gradients' dtype. */
    private static void precision(JobDraft j, MappingNode c, MappingNode model, String wrap) {
        String mpKey = section(c, "mixed_precision");
        MappingNode mp = mpKey == null ? null : map(c, mpKey);
        ScalarNode recipe = scalar(c, "mixed_precision");
        if (recipe != null && !recipe.isNull() && !TreeValues.placeholder(recipe.text())) j.dtype = recipeDtype(recipe);
        if (j.dtype == null) j.dtype = configDtype(mp);
        if (j.dtype == null) j.dtype = configDtype(model);
        j.fp8ParamGather = fp8ParamGather(j, recipe, mp, wrap + mpKey);
        // the layers kept in bf16: MixedPrecisionConfig as written, else a recipe name's; the model's TransformerConfig only
        // without a mixed_precision, which overwrites the model's switch and counts with its own (FirstLastBf16.decides)
        if (!FirstLastBf16.read(j, mp, wrap + mpKey, FirstLastBf16.MIXED_PRECISION_DEFAULT) && !FirstLastBf16.recipe(j, recipe)
                && !FirstLastBf16.decides(mp, recipe)) {
            FirstLastBf16.read(j, model, wrap + section(c, "model"), FirstLastBf16.MEGATRON_DEFAULT);
        }
        String optKey = section(c, "optimizer");
        MappingNode optimizer = optKey == null ? null : map(c, optKey);
        if (j.dtype == null) {
            for (String k : new String[] {"bf16", "fp16"}) {
                Located<Boolean> b = TreeValues.bool(scalar(optimizer, k));
                if (j.dtype == null && b != null && b.value()) j.dtype = new Located<>(k, b.span());
            }
        }
        String ddpKey = section(c, "ddp");
        MappingNode ddp = ddpKey == null ? null : map(c, ddpKey);
        Located<Boolean> dist = TreeValues.bool(scalar(optimizer, "use_distributed_optimizer"));
        j.distributed = dist != null ? dist : TreeValues.bool(scalar(ddp, "use_distributed_optimizer"));
        if (optimizer != null) OffloadSettings.optimizerConfig(j, optimizer, wrap + optKey);
        ScalarNode fp32 = scalar(mp, "grad_reduce_in_fp32");
        String where = wrap + mpKey + ".grad_reduce_in_fp32";
        if (TreeValues.bool(fp32) == null) { fp32 = scalar(ddp, "grad_reduce_in_fp32"); where = wrap + ddpKey + ".grad_reduce_in_fp32"; }
        Located<Boolean> reduceFp32 = TreeValues.bool(fp32);
        boolean fp32Training = j.dtype != null && j.dtype.value().equals("fp32");
        if (reduceFp32 != null && !reduceFp32.value() && !fp32Training) {
            j.bytesPerParameter = j.key(where, new Located<>(16.0, reduceFp32.span()));
            j.state("bytes_per_parameter", 16, where + ": false (16-bit main gradients: 2 weights + 2 gradients + 12 Adam)",
                    StatedKind.CONFIG, reduceFp32.span());
        }
    }

    /**
     * Whether the parameters are kept and all-gathered in fp8 (derive/estimate/ParamGather): MixedPrecisionConfig's
     * {@code fp8_param_gather} (or {@code fp8_param}, which Megatron-Bridge keeps equal to it) as written; else a recipe
     * name's: Megatron-Bridge's mixed_precision.py turns it on in every fp8 and MXFP8 recipe
     * ({@code bf16_with_fp8_delayed_scaling_mixed}, {@code bf16_with_fp8_current_scaling_mixed},
     * {@code bf16_with_mxfp8_mixed}...) but the subchannel (blockwise) ones; null when neither says.
     */
    static Located<Boolean> fp8ParamGather(JobDraft j, ScalarNode recipe, MappingNode mp, String where) {
        for (String k : new String[] {"fp8_param_gather", "fp8_param"}) {
            Located<Boolean> b = TreeValues.bool(scalar(mp, k));
            if (b != null) return j.key(where + "." + k, b);
        }
        if (recipe == null || recipe.isNull() || TreeValues.placeholder(recipe.text())) return null;
        String t = recipe.text().strip().toLowerCase(java.util.Locale.ROOT).replace('-', '_');
        if (!t.contains("fp8") || t.contains("subchannel") || t.contains("fp4")) return null;
        return j.key("mixed_precision: " + recipe.text().strip(), new Located<>(true, recipe.span()));
    }

    /**
     * A recipe name of Megatron-Bridge's mixed_precision module: its words say the compute precision
     * ({@code bf16_with_fp8_delayed_scaling_mixed}: fp8 GEMMs on bf16; {@code *_mxfp8_*}: MXFP8; {@code *_nvfp4_*}: NVFP4).
     */
    static Located<String> recipeDtype(ScalarNode s) {
        String t = s.text().strip().toLowerCase(Locale.ROOT);
        String d = t.contains("nvfp4") || t.contains("fp4") ? "nvfp4" : t.contains("mxfp8") ? "mxfp8" : t.contains("fp8") ? "fp8"
                : t.startsWith("bf16") ? "bf16" : t.startsWith("fp16") || t.startsWith("16") ? "fp16" : t.startsWith("fp32") || t.startsWith("32") ? "fp32" : null;
        return d == null ? null : new Located<>(d, s.span());
    }

    /** MixedPrecisionConfig's (or TransformerConfig's) fields: fp4, fp8 (with fp8_recipe mxfp8), bf16, fp16. */
    private static Located<String> configDtype(MappingNode m) {
        if (m == null) return null;
        ScalarNode fp4 = scalar(m, "fp4");
        if (set(fp4)) return new Located<>("nvfp4", fp4.span());
        ScalarNode fp8 = scalar(m, "fp8");
        if (set(fp8)) {
            ScalarNode r = scalar(m, "fp8_recipe");
            if (r != null && !r.isNull() && "mxfp8".equalsIgnoreCase(r.text().strip())) return new Located<>("mxfp8", r.span());
            return new Located<>("fp8", fp8.span());
        }
        for (String k : new String[] {"bf16", "fp16"}) {
            Located<Boolean> b = TreeValues.bool(scalar(m, k));
            if (b != null && b.value()) return new Located<>(k, b.span());
        }
        return null;
    }

    /** A value that turns a low-precision path on: written, not null, not false, not a placeholder. */
    private static boolean set(ScalarNode s) {
        if (s == null || s.isNull() || TreeValues.placeholder(s.text())) return false;
        Located<Boolean> b = TreeValues.bool(s);
        return b == null || b.value();
    }

    /**
     * The names of the model for the catalog: the provider class without "ModelProvider" ({@code Llama31ModelProvider70B}
     * → {@code Llama3170B}, the catalog's loose form of Llama 3.1 70B; {@code DeepSeekV3ModelProvider} → DeepSeek V3), then
     * the Hugging Face tokenizer it trains with.
     */
    private static void names(JobDraft j, MappingNode c, MappingNode model, String at, String wrap) {
        ScalarNode target = scalar(model, "_target_");
        if (target != null && !target.isNull() && !TreeValues.placeholder(target.text())) {
            String cls = target.text().strip();
            cls = cls.substring(cls.lastIndexOf('.') + 1);
            String name = cls.replace("ModelProvider", "");
            // a family's class without its size (Llama31ModelProvider: Llama31) matches no catalog entry; one model's does
            if (!name.equals(cls) && !name.isEmpty()) j.modelNames.add(j.key(at + "_target_", new Located<>(name, target.span())));
        }
        String tokKey = section(c, "tokenizer");
        MappingNode tok = tokKey == null ? null : map(c, tokKey);
        ScalarNode hf = scalar(tok, "tokenizer_model");
        String type = TreeValues.text(tok, "tokenizer_type");
        if (hf != null && !hf.isNull() && !TreeValues.placeholder(hf.text()) && (type == null || type.contains("HuggingFace"))) {
            j.modelNames.add(j.key(wrap + tokKey + ".tokenizer_model", new Located<>(hf.text().strip(), hf.span())));
        }
    }

    /**
     * A parallel size as Megatron-Bridge gets it ({@link NemoNumbers}): its number; a null virtual pipeline or expert tp size
     * is "not set"; a null tp, pp, cp or ep, a list, a quoted number is SYN002 and takes the default; a placeholder is unknown.
     */
    private static Located<Long> size(JobDraft j, MappingNode model, String at, ParallelDim size) {
        String key = SIZES.get(size);
        return NemoNumbers.size(j, size, model == null ? null : model.get(key).orElse(null), key, at + key, NemoNumbers.Reader.BRIDGE);
    }

    /** A whole number of {@code m}[key], written under {@code at} + key, as Megatron-Bridge gets it ({@link NemoNumbers}). */
    private static Located<Long> number(JobDraft j, MappingNode m, String key, String at) {
        String where = at + key;
        return j.key(where, NemoNumbers.read(j, m == null ? null : m.get(key).orElse(null), key, where, NemoNumbers.Reader.BRIDGE));
    }
}
