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
 * NeMo 2 recipes written as YAML: a recipe's configuration as NeMo-Run serialises it (the fiddle tree of
 * {@code llm.pretrain}/{@code llm.finetune}, {@code _target_} keys naming the classes), and the variant with the
 * strategy beside the trainer instead of inside it (SageMaker HyperPod's checkpointless recipes). What it binds:
 * <ul>
 * <li>{@code trainer.num_nodes × trainer.devices}; the MegatronStrategy ({@code trainer.strategy}, or a top-level
 *     {@code strategy}) sizes {@code tensor_model_parallel_size}, {@code pipeline_model_parallel_size},
 *     {@code virtual_pipeline_model_parallel_size}, {@code context_parallel_size}, {@code expert_model_parallel_size},
 *     {@code expert_tensor_parallel_size} and {@code sequence_parallel}, and its {@code use_tp_pp_dp_mapping}: the rank order
 *     tp-cp-ep-pp-dp ({@link TpPpDpMapping});
 * <li>{@code data.micro_batch_size}, {@code data.global_batch_size}, {@code data.seq_length};
 * <li>{@code model.config} (Megatron-Core's TransformerConfig): {@code num_layers}, {@code hidden_size},
 *     {@code num_attention_heads}, {@code num_query_groups}, {@code num_moe_experts}, {@code mtp_num_layers}, {@code ffn_hidden_size},
 *     {@code kv_channels}, {@code vocab_size}, {@code gated_linear_unit}, {@code share_embeddings_and_output_weights},
 *     {@code seq_length} (when data does not say), {@code recompute_granularity} (null: none), {@code fp8}; a hybrid's
 *     {@code hybrid_override_pattern} and mamba_* / linear_* sizes (SSMConfig; HybridLayers#config);
 *     a config class named by {@code _target_} without its dimensions gives those of {@link Nemo2Configs};
 * <li>the precision from the MegatronMixedPrecision plugin ({@code trainer.plugins}: {@code precision}
 *     bf16-mixed, 16-mixed, 32 as bf16, fp16, fp32; {@code fp8} set: fp8), else {@code optim.config.bf16}/{@code fp16};
 * <li>the distributed optimizer from {@code optim.config.use_distributed_optimizer} (NeMo: it overrides the DDP
 *     config's), else {@code strategy.ddp.use_distributed_optimizer};
 * <li>the gradients' dtype from {@code grad_reduce_in_fp32} of the plugin (it overrides the DDP config's, NeMo's
 *     CONFIGURATION-HIERARCHY.md), else of {@code strategy.ddp}: false keeps 16-bit main gradients, so model states are
 *     2 + 2 + 12 = 16 bytes per parameter (optimizer.bytes_per_parameter) instead of Megatron's 18.
 * </ul>
 */
final class Nemo2RecipeAdapter implements FormatAdapter {
    static final String FORMAT = Format.NEMO2_RECIPE.display();
    /** The strategy's key of each parallel size it reads here. */
    private static final Map<ParallelDim, String> SIZES = Map.of(ParallelDim.TP, "tensor_model_parallel_size",
            ParallelDim.PP, "pipeline_model_parallel_size", ParallelDim.VPP, "virtual_pipeline_model_parallel_size",
            ParallelDim.CP, "context_parallel_size", ParallelDim.EP, "expert_model_parallel_size");

    @Override public String id() { return "nemo2-recipe"; }

    @Override public String displayName() { return FORMAT; }

    @Override public boolean accepts(ForeignDocument doc) {
        return strategyPath(doc.root()) != null;
    }

    /**
     * Where the MegatronStrategy is: {@code trainer.strategy}, or a top-level {@code strategy} beside a {@code trainer}
     * (HyperPod's checkpointless recipes); a strategy with a parallel size or a MegatronStrategy {@code _target_}.
     */
    private static String strategyPath(MappingNode root) {
        if (isStrategy(map(root, "trainer", "strategy"))) return "trainer.strategy";
        if (map(root, "trainer") != null && isStrategy(map(root, "strategy"))) return "strategy";
        return null;
    }

    /**
     * The tensor-parallel overlap a MegatronCommOverlapCallback states ({@code tp_comm_overlap}) among the trainer's
     * callbacks ({@code trainer.callbacks}, or a top-level {@code callbacks} list as HyperPod's recipes write them); null
     * when none states it.
     */
    static Located<Boolean> tpCommOverlap(JobDraft j, MappingNode root) {
        for (String[] path : new String[][] {{"trainer", "callbacks"}, {"callbacks"}}) {
            for (dev.gpulint.tree.Node n : TreeValues.list(root, path)) {
                if (!(n instanceof MappingNode cb)) continue;
                String target = TreeValues.text(cb, "_target_");
                if (target == null || !target.endsWith("MegatronCommOverlapCallback")) continue;
                Located<Boolean> on = DraftValues.bool(j, scalar(cb, "tp_comm_overlap"), "MegatronCommOverlapCallback.tp_comm_overlap",
                        "the estimate hides the GPU family's tp_overlap share of the tp collectives, as when no callback states it");
                if (on != null) return on;
            }
        }
        return null;
    }

    /**
     * Model chunk 0's all-gather dispatched in the optimizer step (derive/estimate/OptimizerStepGather): a
     * MegatronCommOverlapCallback's {@code overlap_param_gather_with_optimizer_step}, which the callback applies to the
     * optimizer's config over its own, else {@code optim.config.overlap_param_gather_with_optimizer_step}; null when neither
     * states it (the callback's own default differs between NeMo versions: not taken).
     */
    static Located<Boolean> gatherWithStep(JobDraft j, MappingNode root) {
        String step = "overlap_param_gather_with_optimizer_step", instead = "the estimate gathers model chunk 0's parameters ahead"
                + " of its first forward, as when it is not stated";
        for (String[] path : new String[][] {{"trainer", "callbacks"}, {"callbacks"}}) {
            for (dev.gpulint.tree.Node n : TreeValues.list(root, path)) {
                if (!(n instanceof MappingNode cb)) continue;
                String target = TreeValues.text(cb, "_target_");
                if (target == null || !target.endsWith("MegatronCommOverlapCallback")) continue;
                String where = "MegatronCommOverlapCallback." + step;
                Located<Boolean> on = DraftValues.bool(j, scalar(cb, step), where, instead);
                if (on != null) return j.key(where, on);
            }
        }
        return j.key("optim.config." + step, DraftValues.bool(j, scalar(root, "optim", "config", step), "optim.config." + step, instead));
    }

    private static boolean isStrategy(MappingNode strategy) {
        if (strategy == null) return false;
        for (String k : SIZES.values()) if (strategy.get(k).isPresent()) return true;
        String target = TreeValues.text(strategy, "_target_");
        return target != null && target.endsWith("MegatronStrategy");
    }

    @Override public void bind(ForeignDocument doc, DraftSink sink) {
        MappingNode root = doc.root();
        JobDraft j = Recipes.start(FORMAT, doc);
        String where = strategyPath(root);
        MappingNode strategy = map(root, where.split("\\."));
        // a top-level strategy is SageMaker HyperPod's checkpointless recipe, which Hydra loads, not NeMo-Run (NemoNumbers.Reader.HYPERPOD)
        NemoNumbers.Reader r = where.equals("strategy") ? NemoNumbers.Reader.HYPERPOD : NemoNumbers.Reader.NEMO2;
        j.tp = size(j, r, strategy, where, ParallelDim.TP);
        j.pp = size(j, r, strategy, where, ParallelDim.PP);
        j.vpp = size(j, r, strategy, where, ParallelDim.VPP);
        j.cp = size(j, r, strategy, where, ParallelDim.CP);
        j.ep = size(j, r, strategy, where, ParallelDim.EP);
        j.etp = number(j, r, strategy, "expert_tensor_parallel_size", where + ".");
        j.sequenceParallel = TreeValues.bool(scalar(strategy, "sequence_parallel"));
        // use_tp_pp_dp_mapping: NeMo 2 initializes the groups in order tp-cp-ep-pp-dp, as Megatron-LM's switch (TpPpDpMapping)
        String mapping = where + ".use_tp_pp_dp_mapping";
        j.order = TpPpDpMapping.order(j, j.key(mapping, DraftValues.bool(j, scalar(strategy, "use_tp_pp_dp_mapping"), mapping,
                "the estimate keeps the default rank order tp-cp-ep-dp-pp")), mapping);
        j.tpCommOverlap = tpCommOverlap(j, root);
        MappingNode data = map(root, "data");
        j.micro = number(j, r, data, "micro_batch_size", "data.");
        j.global = number(j, r, data, "global_batch_size", "data.");
        j.seqLength = number(j, r, data, "seq_length", "data.");
        MappingNode config = map(root, "model", "config");
        j.layers = number(j, r, config, "num_layers", "model.config.");
        j.hidden = number(j, r, config, "hidden_size", "model.config.");
        j.heads = number(j, r, config, "num_attention_heads", "model.config.");
        j.kvHeads = number(j, r, config, "num_query_groups", "model.config.");
        j.experts = number(j, r, config, "num_moe_experts", "model.config.");
        // multi-token prediction (Megatron-Core's TransformerConfig.mtp_num_layers; None: none)
        j.mtpLayers = number(j, r, config, "mtp_num_layers", "model.config.");
        // GPTConfig's ModelParallelConfig.variable_seq_lengths: every pipeline p2p exchanges its shape first (MtpLayers#SHAPE_EXCHANGE)
        j.variableSeqLengths = TreeValues.bool(scalar(config, "variable_seq_lengths"));
        // an SSMConfig's hybrid_override_pattern and mixer sizes (HybridLayers.config)
        HybridLayers.config(j, config, "model.config.");
        pipelineSplit(j, r, strategy, where, config);
        Located<Boolean> offload = TreeValues.bool(scalar(config, "cpu_offloading"));
        Located<Boolean> activations = TreeValues.bool(scalar(config, "cpu_offloading_activations"));
        if (offload != null && offload.value() && (activations == null || activations.value())) {
            j.offloadLayers = j.key("model.config.cpu_offloading_num_layers", TreeValues.whole(scalar(config, "cpu_offloading_num_layers")));
        }
        plan(j, r, root, strategy, config);
        Nemo2Moe.read(j, config, "model.config.", r);
        Nemo2Configs.fill(j, config);
        Nemo2Moe.nemo2DispatcherDefault(j, config);     // the config class's dispatcher when the recipe writes none
        String cls = config == null ? null : Nemo2Configs.className(config);     // its group limit (DeepSeekV3Config: 8 / 4)
        Nemo2Moe.groupDefaults(j, config, cls, Nemo2Moe.NEMO2_GROUPS, Nemo2Moe.NEMO2_PARENTS, "model.config.", "NeMo 2's " + cls);
        Recipes.finish(j, sink);
    }

    /** What `gpulint plan` reads beyond the layout: the rest of the model's shape, precision, recompute, optimizer. */
    private static void plan(JobDraft j, NemoNumbers.Reader r, MappingNode root, MappingNode strategy, MappingNode config) {
        j.ffn = number(j, r, config, "ffn_hidden_size", "model.config.");
        j.headDim = number(j, r, config, "kv_channels", "model.config.");
        j.vocab = number(j, r, config, "vocab_size", "model.config.");
        j.gated = TreeValues.bool(scalar(config, "gated_linear_unit"));
        j.tied = TreeValues.bool(scalar(config, "share_embeddings_and_output_weights"));
        j.crossEntropy = CrossEntropyFusion.keyed(j, "model.config.cross_entropy_fusion_impl",
                CrossEntropyFusion.of(config, CrossEntropyFusion.NEMO2_TE_CLASSES));    // cross_entropy_loss_fusion / cross_entropy_fusion_impl
        if (j.seqLength == null) j.seqLength = number(j, r, config, "seq_length", "model.config.");
        ScalarNode recompute = scalar(config, "recompute_granularity");
        if (recompute != null) {
            String g = recompute.isNull() || recompute.text().strip().equalsIgnoreCase("null") ? "none"
                    : recompute.text().strip().toLowerCase(Locale.ROOT);
            if (!TreeValues.placeholder(g)) j.recompute = new Located<>(g, recompute.span());
        }
        // TransformerConfig's recompute_modules beside selective granularity (RecomputeModuleReader)
        if (config != null) RecomputeModuleReader.yaml(j, config.get("recompute_modules").orElse(null), "model.config.recompute_modules");
        MappingNode plugin = precisionPlugin(root);
        j.dtype = dtype(plugin, config, map(root, "optim", "config"));
        // the MegatronMixedPrecision plugin's fp8_param_gather, or fp8_params, its older name (derive/estimate/ParamGather)
        for (String k : new String[] {"fp8_param_gather", "fp8_params"}) {
            Located<Boolean> b = TreeValues.bool(scalar(plugin, k));
            if (b != null && j.fp8ParamGather == null) j.fp8ParamGather = j.key("trainer.plugins." + k, b);
        }
        // the layers kept in bf16: the plugin's first_last_layers_bf16 (counts default 0); the model config's (1) only without
        // the plugin, which overwrites the model config's switch and counts with its own (FirstLastBf16.decides)
        if (!FirstLastBf16.read(j, plugin, "trainer.plugins", FirstLastBf16.MIXED_PRECISION_DEFAULT)
                && !FirstLastBf16.decides(plugin, null)) {
            FirstLastBf16.read(j, config, "model.config", FirstLastBf16.MEGATRON_DEFAULT);
        }
        MappingNode ddp = map(strategy, "ddp");
        Located<Boolean> dist = TreeValues.bool(scalar(root, "optim", "config", "use_distributed_optimizer"));
        j.distributed = dist != null ? dist : TreeValues.bool(scalar(ddp, "use_distributed_optimizer"));
        OffloadSettings.optimizerConfig(j, map(root, "optim", "config"), "optim.config");
        j.gatherWithStep = gatherWithStep(j, root);
        ScalarNode fp32 = scalar(plugin, "grad_reduce_in_fp32");
        String whereFp32 = "trainer.plugins.grad_reduce_in_fp32";
        if (TreeValues.bool(fp32) == null) { fp32 = scalar(ddp, "grad_reduce_in_fp32"); whereFp32 = "strategy.ddp.grad_reduce_in_fp32"; }
        Located<Boolean> reduceFp32 = TreeValues.bool(fp32);
        boolean fp32Training = j.dtype != null && j.dtype.value().equals("fp32");
        if (reduceFp32 != null && !reduceFp32.value() && !fp32Training) {
            j.bytesPerParameter = j.key(whereFp32, new Located<>(16.0, reduceFp32.span()));
            j.state("bytes_per_parameter", 16, whereFp32 + ": false (16-bit main gradients: 2 weights + 2 gradients + 12 Adam)",
                    StatedKind.CONFIG, reduceFp32.span());
        }
    }

    /** The MegatronMixedPrecision plugin: {@code trainer.plugins} as one mapping or the first of a list that has a precision. */
    private static MappingNode precisionPlugin(MappingNode root) {
        MappingNode one = map(root, "trainer", "plugins");
        if (one != null) return one;
        for (MappingNode p : TreeValues.maps(root, "trainer", "plugins")) {
            if (p.get("precision").isPresent() || p.get("grad_reduce_in_fp32").isPresent() || p.get("fp8").isPresent()) return p;
        }
        return null;
    }

    /**
     * fp8 when the plugin or the model config sets fp8 (mxfp8 when its {@code fp8_recipe} is mxfp8); else the plugin's
     * precision; else the optimizer config's bf16/fp16.
     */
    private static Located<String> dtype(MappingNode plugin, MappingNode config, MappingNode optim) {
        for (MappingNode m : new MappingNode[] {plugin, config}) {
            ScalarNode fp8 = scalar(m, "fp8");
            if (fp8 != null && !fp8.isNull() && !TreeValues.placeholder(fp8.text())) {
                Located<Boolean> b = TreeValues.bool(fp8);
                if (b == null || b.value()) {
                    ScalarNode recipe = scalar(m, "fp8_recipe");
                    if (recipe != null && !recipe.isNull() && "mxfp8".equalsIgnoreCase(recipe.text().strip())) {
                        return new Located<>("mxfp8", recipe.span());
                    }
                    return new Located<>("fp8", fp8.span());
                }
            }
        }
        ScalarNode p = scalar(plugin, "precision");
        if (p != null && !p.isNull() && !TreeValues.placeholder(p.text())) {
            String t = p.text().strip().toLowerCase(Locale.ROOT);
            String base = t.endsWith("-mixed") || t.endsWith("-true") ? t.substring(0, t.lastIndexOf('-')) : t;
            String native_ = switch (base) {
                case "bf16" -> "bf16";
                case "16", "fp16" -> "fp16";
                case "32", "fp32" -> "fp32";
                default -> t;
            };
            return new Located<>(native_, p.span());
        }
        for (String k : new String[] {"bf16", "fp16"}) {
            Located<Boolean> b = TreeValues.bool(scalar(optim, k));
            if (b != null && b.value()) return new Located<>(k, b.span());
        }
        return null;
    }

    /**
     * An uneven pipeline and the embedding/loss counted in the split: MegatronStrategy's
     * {@code num_layers_in_first_pipeline_stage}, {@code num_layers_in_last_pipeline_stage},
     * {@code account_for_embedding_in_pipeline_split}, {@code account_for_loss_in_pipeline_split} (NeMo 2 passes them to
     * Megatron-Core's TransformerConfig, where Megatron-Bridge writes them: {@code model.config} is read when the strategy
     * does not say). The layer counts are read as NeMo 2 gets them ({@link NemoNumbers}).
     */
    private static void pipelineSplit(JobDraft j, NemoNumbers.Reader r, MappingNode strategy, String where, MappingNode config) {
        for (String[] k : new String[][] {{"num_layers_in_first_pipeline_stage", "f"}, {"num_layers_in_last_pipeline_stage", "l"}}) {
            ScalarNode s = scalar(strategy, k[0]);
            String at = where + "." + k[0];
            if (s == null || s.isNull()) { s = scalar(config, k[0]); at = "model.config." + k[0]; }
            // as NeMo 2 gets it (NemoNumbers): a quoted '4' is SYN002 at the value, as the strategy's sizes
            Located<Long> v = s == null || s.isNull() ? null : j.key(at, NemoNumbers.read(j, s, k[0], at, r));
            if (k[1].equals("f")) j.firstStageLayers = v; else j.lastStageLayers = v;
        }
        // Megatron-Core's pipeline_model_parallel_layout ("Et*3|(tt|)*29,m|L"): DraftBounds reads and checks it
        ScalarNode layout = scalar(strategy, "pipeline_model_parallel_layout");
        String layoutAt = where + ".pipeline_model_parallel_layout";
        if (layout == null || layout.isNull()) { layout = scalar(config, "pipeline_model_parallel_layout"); layoutAt = "model.config.pipeline_model_parallel_layout"; }
        if (layout != null && !layout.isNull()) {
            if (TreeValues.placeholder(layout.text())) j.unknown.add(dev.gpulint.spec.Specs.PIPELINE_LAYOUT);
            else j.pipelineLayout = j.key(layoutAt, new Located<>(layout.text(), layout.span()));
        }
        for (String k : new String[] {"account_for_embedding_in_pipeline_split", "account_for_loss_in_pipeline_split"}) {
            ScalarNode s = scalar(strategy, k);
            if (s == null || s.isNull()) s = scalar(config, k);
            Located<Boolean> b = TreeValues.bool(s);
            if (b == null || !b.value()) continue;
            if (k.contains("embedding")) j.embeddingInSplit = b; else j.lossInSplit = b;
        }
    }

    /**
     * A strategy size as NeMo 2 gets it ({@link NemoNumbers}): its number; a null virtual pipeline size is "not set"; a null
     * tp, pp, cp or ep, a list, a quoted number is SYN002 and takes the default; a placeholder is unknown.
     */
    private static Located<Long> size(JobDraft j, NemoNumbers.Reader r, MappingNode strategy, String where, ParallelDim size) {
        String key = SIZES.get(size);
        return NemoNumbers.size(j, size, strategy == null ? null : strategy.get(key).orElse(null), key, where + "." + key, r);
    }

    /** A whole number of {@code m}[key], written under {@code at} + key, as NeMo 2 gets it ({@link NemoNumbers}). */
    private static Located<Long> number(JobDraft j, NemoNumbers.Reader r, MappingNode m, String key, String at) {
        String where = at + key;
        return j.key(where, NemoNumbers.read(j, m == null ? null : m.get(key).orElse(null), key, where, r));
    }
}
