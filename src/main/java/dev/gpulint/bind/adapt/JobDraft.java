package dev.gpulint.bind.adapt;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.bind.adapt.shell.Shell;
import dev.gpulint.bind.adapt.shell.Shell.Word;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import dev.gpulint.spec.Specs.Stated;
import dev.gpulint.spec.Specs.StatedKind;
import dev.gpulint.core.Span;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A job being bound from another format: the adapters fill in what their format states, with
 * the span of each value in the original file, and {@link #build()} makes the same
 * {@link Specs.Job} a native manifest would, with its {@link Specs.Origin}.
 */
final class JobDraft {
    final String format;
    final String file;
    Located<String> name;
    Located<String> cluster, nodeGroup;
    Located<Long> nodes, gpusPerNode;
    /** Where the GPUs per node are written, in the format's own words (trainer.devices). */
    String gpusPerNodeWhere;
    Located<Double> parameters;
    Located<Long> tp, pp, cp, ep, etp, dp, vpp, layers, heads, kvHeads, experts, seqLength, hidden, micro, global, zeroStage;
    /** micro-batches per step per data-parallel replica, where the format sets the count rather than the global batch (torchtitan's pipeline) */
    Located<Long> microBatches;
    /** the local batch the pipeline splits into {@link #microBatches} of {@link #micro} (torchtitan), for the key messages name */
    Located<Long> localBatch;
    /** the key the format writes its count of pipeline micro-batches per schedule under, when that count is not the step's
     *  {@link #microBatches} (torchtitan's num_pp_microbatches with gradient accumulation): the words PAR006 names it by */
    String microBatchesKey;
    Located<Boolean> sequenceParallel;
    /** The rank order, fastest first, when the format states one (Megatron's --use-tp-pp-dp-mapping: {@link TpPpDpMapping}); null: the default. */
    Located<List<ParallelDim>> order;
    /** Tensor-parallel communication overlapped with the matmuls (--tp-comm-overlap, async TP); null when not written. */
    Located<Boolean> tpCommOverlap;
    /** How the tp collectives' activations are laid out, "sbh" or "bsh" (torchtitan's DTensor plan before PR #4121); null when not said. */
    Located<String> tpActivationLayout;
    /** How the elementwise kernels run, "fused" or "eager" (torchtitan's torch.compile); null when the format does not say. */
    Located<String> kernels;
    /** How the Float8 GEMM inputs are scaled, "tensorwise", "rowwise" or "rowwise_with_gw_hp" (torchtitan's Float8
     *  recipe_name, Float8Recipe); null when the format does not say. */
    Located<String> fp8Scaling;
    /** Megatron's --fp8-param-gather, Megatron-Bridge's mixed_precision.fp8_param_gather (derive/estimate/ParamGather). */
    Located<Boolean> fp8ParamGather;
    /** The layers an fp8 recipe keeps in bf16 at the start and the end (Specs.Bf16Layers; derive/estimate/LayerPrecision):
     *  the counts as stated or as the format's default, where the setting is written and under which key; null when not. */
    Specs.Bf16Layers fp8LayersBf16;
    String fp8LayersBf16Key;
    /** What `gpulint plan` reads: the MLP size, vocabulary, head dimension, gated MLP, tied embeddings, precision,
     *  activation recompute (none, selective, full) and the distributed optimizer. */
    Located<Long> ffn, vocab, headDim, topK;
    /** An MoE model's layers (Specs.Moe): the experts' and shared experts' MLP sizes, the first dense layers, which layers
     *  are MoE, capacity, dispatcher, all-to-all overlap and grouped GEMM. */
    Located<Long> moeFfn, sharedFfn, denseLayers;
    Located<String> moeLayerFreq, dispatcher;
    /** The flex dispatcher's backend as written (--moe-flex-dispatcher-backend, moe_flex_dispatcher_backend). */
    Located<String> flexBackend;
    /** Older Megatron-Core's switch for the deepep backend (--moe-enable-deepep, moe_enable_deepep) as written: read at
     *  build, after every format's dispatcher default, as Megatron-Core reads it ({@link Nemo2Moe#enableDeepep}). */
    Located<Boolean> enableDeepep;
    Located<Double> capacityFactor;
    Located<Boolean> padToCapacity, moeOverlap, groupedGemm;
    /** The experts' GLU clamp value and whether their linear layers have biases (Specs.Moe; GPT-OSS). */
    Located<Double> activationClamp;
    Located<Long> routerGroups, routerGroupTopk;
    Located<Boolean> expertBias;
    /** The attention variant (Specs.Attention): sliding window, full attention every n-th layer, sinks, MLA's kv rank. */
    Located<Long> window, fullEvery, kvLoraRank;
    /** Multi-latent attention's other sizes (Specs.Attention): query rank, query/key head, its rotary part, value head. */
    Located<Long> qLoraRank, qkHeadDim, qkRopeHeadDim, vHeadDim;
    Located<Boolean> sinks;
    /** The attention kernel (Specs.Attention.kernel: fused, flash2, flash3), null when the files do not state it. */
    Located<String> attentionKernel;
    /** Megatron-Core's AttnBackend as written (Specs.Attention.backend: flash, fused, unfused, local, auto), null when not. */
    Located<String> attentionBackend;
    /** The names the files give the model (a Hugging Face repository or checkpoint folder, a flavor, a recipe),
     *  in the order they are tried against the model catalog ({@link ModelNames}), each under its key. */
    final List<Located<String>> modelNames = new ArrayList<>();
    /** The tokenizers the files name (NeMo's {@code tokenizer: {library: huggingface, type: org/model}}), each under its key:
     *  they give the job its vocabulary only, never a shape (a 405B model trains with the 8B's tokenizer). */
    final List<Located<String>> tokenizerNames = new ArrayList<>();
    /** Why the job's named model gives it no shape (a LoRA fine-tune the estimate cannot price), or null. */
    String modelShapeWithheld;
    Located<Boolean> gated, tied, distributed;
    /** The cross-entropy the loss runs (Specs.Model#crossEntropy): the fusion with its impl; null: not written. */
    Located<Specs.CrossEntropy> crossEntropy;
    Located<String> dtype;
    /** The recompute granularity as the format writes it (the job's {@link dev.gpulint.spec.Recomputation#granularity}). */
    Located<String> recompute;
    /** Selective recompute's modules, when named beside {@code selective} (RecomputeModuleReader); null: none named. */
    java.util.Set<dev.gpulint.spec.RecomputeModule> recomputeModules;
    /** For recompute {@code every}: one layer in n fully recomputed (torchtitan's selective_ac_option n). */
    int recomputeEvery;
    /** The recompute is the format's default, not written (torchtitan's ActivationCheckpoint). */
    boolean recomputeDefaulted;
    /** Model states per parameter before sharding, when the format says which gradients it keeps (NeMo's gradient dtype). */
    Located<Double> bytesPerParameter;
    /** The gradient reduction's dtype as the format writes it (torchtitan's mixed_precision_reduce). */
    Located<String> gradReduceDtype;
    /** Megatron's --overlap-param-gather-with-optimizer-step, Megatron-Bridge's / NeMo 2's overlap_param_gather_with_optimizer_step
     *  (derive/estimate/OptimizerStepGather). */
    Located<Boolean> gatherWithStep;
    /** Megatron's --overlap-param-gather, which Megatron-LM's validate_args requires beside --overlap-param-gather-with-optimizer-step
     *  (PAR017); null when not written. */
    Located<Boolean> overlapParamGather;
    /** torchtitan's selective_ac_option when it is neither "op" nor a positive integer (DraftBounds reports it). */
    Located<String> badAcOption;
    /** Megatron's pipeline layout flags: layers per virtual stage; embedding / loss counted as layers. */
    Located<Long> layersPerVirtualStage;
    Located<Boolean> embeddingInSplit, lossInSplit;
    /** An uneven pipeline: the first and the last stage's transformer layers (Specs.Parallelism). */
    Located<Long> firstStageLayers, lastStageLayers;
    /** Megatron-Core's variable_seq_lengths (--variable-seq-lengths): each pipeline p2p exchanges its shape first (Specs.Parallelism). */
    Located<Boolean> variableSeqLengths;
    /** Megatron's --pipeline-model-parallel-layout as written, and the transformer blocks of each stage it lays out
     *  (DraftBounds reads the one into the other: {@link dev.gpulint.spec.PipelineLayout}). */
    Located<String> pipelineLayout;
    /** torchtitan without split points: its own split, computed once the model's layers are known (TorchtitanPipeline). */
    TorchtitanPipeline.Default titanSplit;
    Located<List<Long>> stageLayers;
    /** A hybrid pattern's '|' segments: each stage's layers as written, before DraftBounds checks them against pp
     *  ({@link dev.gpulint.spec.HybridPattern}) and makes them {@link #stageLayers}; null without '|'. */
    Located<List<Long>> hybridStages;
    /** HSDP: the shard group's size, or (the shard degree left to the GPU count) the replicas' count; null without. */
    Located<Long> dpShard, dpReplicate;
    /** CPU activation offload: the layers whose activations go to host memory (Specs.Offload). */
    Located<Long> offloadLayers;
    /** Model states in host memory (Specs.Offload): where the optimizer states and parameters live, the optimizer's share. */
    Located<String> offloadOptimizer, offloadParameters;
    Located<Double> offloadFraction;
    /** Settings read but not priced apart: lines of the plan's assumptions ({@link UnpricedSettings}). */
    final List<String> unpriced = new ArrayList<>();
    /** A hybrid Mamba model's layer pattern and mixer sizes (ModelNames from the catalog, HybridLayers from a Megatron script); null: none. */
    Specs.Hybrid hybrid;
    /** Multi-token prediction: the MTP layers (--mtp-num-layers, mtp_num_layers, a layout's m) and the blocks of one when a hybrid pattern writes them after '/'. */
    Located<Long> mtpLayers, mtpBlocks;
    Located<String> mtpLetters;
    /** The loss slots of each stage of a --pipeline-model-parallel-layout naming L on several stages (mtp_loss_split; Specs.Mtp). */
    Located<List<Long>> mtpLossStages;
    /** Values the adapters read and refused (a boolean key written "maybe", a fraction of 1.5): SYN002 each
     *  ({@link DraftValues}), reported by DraftBounds. */
    final List<DraftValues.Refused> refused = new ArrayList<>();
    /** The keys of the values refused, kept after {@link #refused} is reported: messages name a size left out as such (PAR015). */
    final java.util.Set<String> leftOut = new java.util.TreeSet<>();

    /**
     * The keys the file writes (or would write) a hybrid's mixer sizes under, by TransformerConfig's field ("mamba_num_groups"
     * → "--mamba-num-groups", "model.mamba_num_groups", "model.config.mamba_num_groups"): PAR015 names a size not written
     * by the key the user would write (bind/adapt/HybridLayers).
     */
    final Map<String, String> hybridKeys = new java.util.TreeMap<>();
    /** Sizes written with a value nobody knows yet (tp, pp, dp, cp, ep, virtual_pp): see {@link Specs.Parallelism}. */
    final java.util.Set<String> unknown = new java.util.LinkedHashSet<>();
    /** Model sizes written out of the schema's bounds (SYN002 at the value), by their manifest path ("model.vocab_size"):
     *  unknown, so no default and no model catalog entry stands in for them (Specs.Model#unknown). */
    final java.util.Set<String> unknownShape = new java.util.TreeSet<>();
    /** The ZeRO stage is written as a placeholder. */
    boolean zeroStageUnknown;
    final Map<String, Located<String>> env = new LinkedHashMap<>();
    /** Variables past {@link Specs#MAX_ENV}: how many, and the first (its name where it is written). */
    int envLeftOut;
    Located<String> firstEnvLeftOut;
    final List<Stated> stated = new ArrayList<>();
    final List<Located<String>> rdma = new ArrayList<>();
    boolean podsVisible, rdmaByAccess;
    Located<String> gpuModel;
    Specs.DeepSpeedBatch deepspeed;
    /** The DeepSpeed configuration this job's launch names, when it names one. */
    Located<String> deepspeedRef;
    /** The job configuration a launch script passes ({@code --job.config_file x.toml}, {@code --config_file}). */
    Located<String> configRef;
    /** Scripts a launch script runs ({@code srun bash train.sh}): the first one's launch is this job's when it is linted too,
     *  later ones start with this script's environment at their call (ScriptLinks). */
    final List<Word> srunScripts = new ArrayList<>();
    /** A launch script's own script and the variables its launchers set (srun --export, mpirun -x): a caller's environment at
     *  {@code srun bash train.sh} is read from them when the callee's launch names the attention backend (ScriptLinks). */
    dev.gpulint.bind.adapt.shell.Shell.Script script;
    List<dev.gpulint.bind.adapt.shell.Launchers.EnvSet> launcherEnv = List.of();
    /** A batch script's {@code #SBATCH --export} (its srun steps inherit it: LaunchEnvironment), or null. */
    Word sbatchExport;
    /** Each launch command naming the attention backend with its NVTE_*_ATTN (AttentionBackends.launchEnvironment). */
    List<Specs.BackendLaunch> backendLaunches = List.of();
    /** The variables whose value at the launch a launcher's known precedence decided ({@link LaunchEnvironment#bind},
     *  {@link LaunchEnvironment#launcherSets}): {@link #env} holds that value, or lacks the name when the launch gets none. */
    final java.util.Set<String> launchDecided = new java.util.TreeSet<>();
    Span span;
    /** The format's own key of each bound value (tensor_model_parallel_size, --num-layers), for messages. */
    final Map<Located<?>, String> keys = new java.util.IdentityHashMap<>();

    JobDraft(String format, String file, Span span) {
        this.format = format;
        this.file = file;
        this.span = span;
    }

    /** Records the key {@code v} was written under in the format's own words; returns {@code v}. */
    <T> Located<T> key(String key, Located<T> v) {
        if (v != null) keys.put(v, key);
        return v;
    }

    /** The key {@code v} was written under ({@link #key}), or {@code otherwise}. */
    String keyOf(Located<?> v, String otherwise) {
        String k = v == null ? null : keys.get(v);
        return k != null ? k : otherwise;
    }

    /**
     * A model size the format writes at {@code s}, under the format's {@code key}, bound to the manifest's {@code path}
     * ("model.vocab_size"): its whole number (bounds are DraftBounds'), or null. A size written with a value that is no
     * whole number — a placeholder ({@code ${DIM}}, {@code $DIM}), "auto", a fraction — is unknown ({@link #unknownShape}),
     * as Megatron's and llm-foundry's are: the estimate takes no default for it and no model catalog entry stands in.
     * Not written (absent, or YAML's null) is null alone: the file leaves the size to its default.
     */
    Located<Long> size(dev.gpulint.tree.ScalarNode s, String key, String path) {
        if (s == null || s.isNull()) return null;
        String t = s.text().strip();
        if (t.isEmpty() || t.equals("~") || t.equalsIgnoreCase("null")) return null;
        Located<Long> n = TreeValues.whole(s);
        if (n == null) unknownShape.add(path);
        return key(key, n);
    }

    /** a × b for a statement: -1 (nothing stated) when either is absent or negative, or the product overflows. */
    static long product(Located<Long> a, Located<Long> b) {
        if (a == null || b == null || a.value() < 0 || b.value() < 0) return -1;
        try {
            return Math.multiplyExact(a.value(), b.value());
        } catch (ArithmeticException e) {
            return -1;
        }
    }

    void state(String quantity, long value, String where, StatedKind kind, Span at) {
        if (value >= 0) stated.add(new Stated(quantity, String.valueOf(value), where, kind, at));
    }

    /** A quantity stated as a word, not a number (a GPU type: "type h100", "no type"). */
    void stateText(String quantity, String value, String where, StatedKind kind, Span at) {
        stated.add(new Stated(quantity, value, where, kind, at));
    }

    /** A parallel size, stated under its dimension's short name ("tp", "vpp"), as every format states it. */
    void state(ParallelDim d, long value, String where, StatedKind kind, Span at) {
        state(d.label(), value, where, kind, at);
    }

    void state(String quantity, Located<Long> v, String where, StatedKind kind) {
        if (v != null) state(quantity, v.value(), where, kind, v.span());
    }

    /** An environment variable: the first statement binds it; every statement is kept for the cross-checks. */
    void env(String name, String value, Span at, String where) {
        if (env.size() >= Specs.MAX_ENV && !env.containsKey(name)) {
            if (envLeftOut++ == 0) firstEnvLeftOut = new Located<>(name, at);
            return;
        }
        env.putIfAbsent(name, new Located<>(value, at));
        stated.add(new Stated("env:" + name, value, where, StatedKind.CONFIG, at));
    }

    /** The variables a script exports with a value it knows, as environment statements made at {@code where}. */
    void exports(List<Shell.Assignment> assignments, String where) {
        for (Shell.Assignment a : assignments) {
            if (a.exported() && a.value() != null && a.value().known()) env(a.name(), a.value().text(), a.value().span(), where);
        }
    }

    /** Marks a dimension's size unknown: written, with a value nobody knows yet (under its manifest key, as the binder does). */
    void unknown(ParallelDim d) {
        unknown.add(d.key());
    }

    /**
     * What a format counts as a parallel size it does not write: the key left out or YAML's null, and for the
     * configurations Megatron-Core's Python objects are serialised from (NeMo 2 recipes, Megatron-Bridge, NeMo-RL) also
     * the text null, as they write Python's None.
     */
    enum Unwritten { ABSENT_OR_NULL, ABSENT_NULL_OR_NULL_TEXT }

    /**
     * A parallel size the format writes as {@code s} under {@code key} (its own words, for messages): its number, or
     * null. One written but not a number (a placeholder, an interpolation) is unknown, not the default; so is one not
     * written when {@code inherited} (a configuration that takes its sizes from another file).
     */
    Located<Long> size(ParallelDim d, dev.gpulint.tree.ScalarNode s, String key, Unwritten unwritten, boolean inherited) {
        Located<Long> v = key(key, TreeValues.whole(s));
        boolean written = s != null && !s.isNull()
                && !(unwritten == Unwritten.ABSENT_NULL_OR_NULL_TEXT && s.text().strip().equalsIgnoreCase("null"));
        unknownIf(d, written || inherited, v);
        return v;
    }

    /** Marks {@code size} unknown when it is written ({@code present}) but did not bind to a number. */
    void unknownIf(ParallelDim size, boolean present, Located<Long> bound) {
        if (present && bound == null) unknown(size);
    }

    Specs.Job build() {
        Specs.Model model = parameters == null && layers == null && heads == null && kvHeads == null && experts == null
                && seqLength == null && hidden == null && tied == null && unknownShape.isEmpty() ? null
                : new Specs.Model(parameters, dtype, layers, heads, kvHeads, hidden, seqLength, experts, null, ffn, vocab, headDim,
                        gated, tied, topK, moe(), attention(), unknownShape, hybrid,
                        mtpLayers == null ? null : new Specs.Mtp(mtpLayers, mtpBlocks, mtpLetters, mtpLossStages), crossEntropy);
        Span key = first(tp, pp, cp, dp, ep);
        Specs.Parallelism par = key == null && sequenceParallel == null && vpp == null && etp == null && unknown.isEmpty()
                && layersPerVirtualStage == null && embeddingInSplit == null && lossInSplit == null
                && firstStageLayers == null && lastStageLayers == null && dpShard == null && dpReplicate == null
                && stageLayers == null && tpCommOverlap == null && tpActivationLayout == null && order == null
                && variableSeqLengths == null ? null
                : new Specs.Parallelism(tp, pp, dp, cp, ep, order, sequenceParallel, vpp, key != null ? key : span, unknown,
                        layersPerVirtualStage, embeddingInSplit, lossInSplit, etp, firstStageLayers, lastStageLayers,
                        dpShard, dpReplicate, stageLayers, tpCommOverlap, tpActivationLayout, variableSeqLengths, null);
        Specs.Batch batch = micro == null && global == null && microBatches == null ? null : new Specs.Batch(micro, global, microBatches, localBatch);
        Specs.Optimizer opt = zeroStage == null && !zeroStageUnknown && distributed == null && bytesPerParameter == null
                && gradReduceDtype == null && gatherWithStep == null ? null
                : new Specs.Optimizer(null, zeroStage, bytesPerParameter, zeroStageUnknown, distributed, gradReduceDtype, null, null,
                        gatherWithStep, overlapParamGather);
        Specs.Origin origin = new Specs.Origin(format, stated, rdma, podsVisible, rdmaByAccess, gpuModel,
                deepspeed, deepspeedRef, gpusPerNodeWhere, unpriced, writtenKeys());
        return new Specs.Job(name, file, cluster, nodeGroup, nodes, gpusPerNode, model, par, batch, opt, null, null,
                env, span, origin, recomputation(), offloadLayers == null && offloadOptimizer == null && offloadParameters == null ? null
                        : new Specs.Offload(offloadLayers, offloadOptimizer, offloadFraction, offloadParameters), kernels, fp8Scaling, fp8ParamGather, fp8LayersBf16);
    }

    /** The job's recompute: the granularity as written, with the modules only beside selective (where Megatron applies them). */
    private dev.gpulint.spec.Recomputation recomputation() {
        if (recompute == null) return null;
        return new dev.gpulint.spec.Recomputation(recompute, "selective".equals(recompute.value()) ? recomputeModules : null,
                "every".equals(recompute.value()) ? recomputeEvery : 0, recomputeDefaulted);
    }

    /** The keys messages name in the format's own words (PAR006, PAR007, PAR010), by the quantity they hold; tp's
     *  tells which back-end a framework with several runs (NeMo-RL's policy.megatron_cfg, accelerate's megatron_lm_config). */
    private Map<String, String> writtenKeys() {
        Map<String, String> out = new LinkedHashMap<>();
        if (keys.get(micro) != null) out.put(Specs.Origin.MICRO_BATCH, keys.get(micro));
        if (keys.get(global) != null) out.put(Specs.Origin.GLOBAL_BATCH, keys.get(global));
        if (localBatch != null && keys.get(localBatch) != null) out.put(Specs.Origin.LOCAL_BATCH, keys.get(localBatch));
        if (keys.get(microBatches) != null) out.put(Specs.Origin.MICRO_BATCHES, keys.get(microBatches));
        else if (microBatchesKey != null) out.put(Specs.Origin.MICRO_BATCHES, microBatchesKey);
        if (keys.get(seqLength) != null) out.put(Specs.Origin.SEQ_LENGTH, keys.get(seqLength));
        if (keys.get(tp) != null) out.put(Specs.Origin.TP, keys.get(tp));
        // where host offload is written, as the plan's assumptions and MEM001 name it (derive.estimate.StateOffload)
        if (keys.get(offloadOptimizer) != null) out.put("offload_optimizer", keys.get(offloadOptimizer));
        if (keys.get(offloadParameters) != null) out.put("offload_parameters", keys.get(offloadParameters));
        if (keys.get(kernels) != null) out.put(Specs.Origin.KERNELS, keys.get(kernels));
        if (keys.get(tpActivationLayout) != null) out.put(Specs.Origin.TP_LAYOUT, keys.get(tpActivationLayout));
        if (keys.get(fp8Scaling) != null) out.put(Specs.Origin.FP8_SCALING, keys.get(fp8Scaling));
        if (keys.get(fp8ParamGather) != null) out.put(Specs.Origin.FP8_PARAM_GATHER, keys.get(fp8ParamGather));
        if (keys.get(gatherWithStep) != null) out.put(Specs.Origin.GATHER_WITH_STEP, keys.get(gatherWithStep));
        if (keys.get(attentionBackend) != null) out.put(Specs.Origin.ATTENTION_BACKEND, keys.get(attentionBackend));
        if (keys.get(flexBackend) != null) out.put(Specs.Origin.FLEX_BACKEND, keys.get(flexBackend));
        if (keys.get(dispatcher) != null) out.put(Specs.Origin.DISPATCHER, keys.get(dispatcher));
        if (keys.get(enableDeepep) != null) out.put(Specs.Origin.ENABLE_DEEPEP, keys.get(enableDeepep));
        // where the fused linear cross-entropy is written, as PAR022 names it (derive/par/LinearLossAnalysis)
        if (keys.get(crossEntropy) != null) out.put(Specs.Origin.CROSS_ENTROPY_IMPL, keys.get(crossEntropy));
        if (fp8LayersBf16 != null && fp8LayersBf16Key != null) out.put(Specs.Origin.FP8_LAYERS_BF16, fp8LayersBf16Key);
        // where a hybrid's layer pattern is written, as PAR014 and PAR015 name it (derive/par/HybridLayersAnalysis)
        if (hybrid != null && keys.get(hybrid.pattern()) != null) out.put(Specs.Origin.HYBRID_PATTERN, keys.get(hybrid.pattern()));
        if (hybrid != null) out.putAll(hybridKeys);
        for (String k : leftOut) out.put(Specs.Origin.leftOut(k), k);      // written, refused (SYN002): not "not written"
        for (String n : launchDecided) out.put(Specs.Origin.launchEnv(n), n);  // CONSIST005 says the value the ranks get
        return out;
    }

    private Specs.Moe moe() {
        // add_bias_linear: false on a model without experts (a dense recipe states it of its own linears) says nothing of experts
        boolean experted = experts != null && experts.value() != null && experts.value() > 1;
        Located<Boolean> bias = expertBias != null && !Boolean.TRUE.equals(expertBias.value()) && !experted ? null : expertBias;
        flexBackend = Nemo2Moe.enableDeepep(this);     // before writtenKeys, which names the key it is placed under
        Specs.Moe m = new Specs.Moe(moeFfn, sharedFfn, moeLayerFreq, denseLayers, capacityFactor, padToCapacity, dispatcher,
                moeOverlap, groupedGemm, activationClamp, bias, routerGroups, routerGroupTopk, flexBackend,
                enableDeepep != null && Boolean.TRUE.equals(enableDeepep.value()) ? enableDeepep : null);     // PAR021 when refused
        return m.empty() ? null : m;
    }

    private Specs.Attention attention() {
        Specs.Attention a = new Specs.Attention(window, fullEvery, sinks, kvLoraRank, qLoraRank, qkHeadDim, qkRopeHeadDim, vHeadDim,
                attentionKernel, attentionBackend, attentionBackend == null ? List.of() : backendLaunches);
        return a.empty() ? null : a;
    }

    @SafeVarargs
    private static Span first(Located<Long>... values) {
        for (Located<Long> v : values) if (v != null) return v.span();
        return null;
    }
}
