package dev.gpulint.bind.adapt;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.bind.adapt.shell.Launchers;
import dev.gpulint.bind.adapt.shell.ScalarText;
import dev.gpulint.bind.adapt.shell.Shell;
import static dev.gpulint.bind.adapt.TreeValues.map;

import dev.gpulint.bind.adapt.shell.Shell.Word;
import dev.gpulint.spec.Format;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import dev.gpulint.spec.Specs.StatedKind;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Megatron-LM test-case YAML: {@code MODEL_ARGS} keyed by command-line flags, {@code ENV_VARS},
 * and shell blocks ({@code BEFORE_SCRIPT}, {@code AFTER_SCRIPT}) that may launch Megatron with
 * flags of their own. MODEL_ARGS binds the job; the scripts' flags and the parallel sizes the
 * test case's folder name encodes ({@code tp2_pp2_ep2}, {@code tp1pp4emp16etp1cp1}) are further
 * statements of the same numbers, for the CONSIST rules.
 */
final class MegatronAdapter implements FormatAdapter {
    static final String FORMAT = Format.MEGATRON.display();

    /** Megatron flag → the quantity gpulint compares. */
    static final Map<String, ParallelDim> QUANTITY = Map.of(
            "--tensor-model-parallel-size", ParallelDim.TP, "--pipeline-model-parallel-size", ParallelDim.PP,
            "--context-parallel-size", ParallelDim.CP, "--expert-model-parallel-size", ParallelDim.EP,
            "--expert-tensor-parallel-size", ParallelDim.ETP, "--virtual-pipeline-model-parallel-size", ParallelDim.VPP);
    /** The flags of sizes that stay unknown, not default, when written with a placeholder ($TP). */
    private static final Map<String, ParallelDim> UNKNOWN_SIZES = Map.of(
            "--tensor-model-parallel-size", ParallelDim.TP, "--pipeline-model-parallel-size", ParallelDim.PP,
            "--context-parallel-size", ParallelDim.CP, "--expert-model-parallel-size", ParallelDim.EP,
            "--expert-tensor-parallel-size", ParallelDim.ETP, "--virtual-pipeline-model-parallel-size", ParallelDim.VPP,
            "--num-virtual-stages-per-pipeline-rank", ParallelDim.VPP, "--num-layers-per-virtual-pipeline-stage", ParallelDim.VPP,
            "--data-parallel-size", ParallelDim.DP);
    /**
     * Megatron's model-size flags by the manifest path of the size each sets: one written with a value nobody knows yet
     * ({@code --vocab-size $VOCAB}, a variable the script does not set) is unknown (JobDraft.unknownShape), as the native
     * manifest's placeholder and an out-of-bounds size are, not the estimate's default (GPT-2's vocabulary, 4h).
     */
    private static final Map<String, String> UNKNOWN_SHAPE = Map.ofEntries(
            Map.entry("--num-layers", "model.layers"), Map.entry("--num-attention-heads", "model.attention_heads"),
            Map.entry("--num-query-groups", "model.kv_heads"), Map.entry("--hidden-size", "model.hidden_size"),
            Map.entry("--seq-length", "model.seq_length"), Map.entry("--num-experts", "model.experts"),
            Map.entry("--ffn-hidden-size", "model.ffn_hidden_size"), Map.entry("--vocab-size", "model.vocab_size"),
            Map.entry("--kv-channels", "model.head_dim"), Map.entry("--moe-router-topk", "model.top_k"),
            Map.entry("--moe-ffn-hidden-size", "model.moe.expert_ffn_hidden_size"),
            Map.entry("--moe-shared-expert-intermediate-size", "model.moe.shared_expert_ffn_hidden_size"),
            Map.entry("--mtp-num-layers", "model.mtp_layers"));
    private static final Pattern NAME_TOKEN = Pattern.compile("((?:tp|pp|ep|emp|etp|cp|vpp|dp)[0-9]+)+");
    private static final Pattern NAME_PART = Pattern.compile("(tp|pp|emp|ep|etp|cp|vpp|dp)([0-9]+)");

    /** The name {@link Specs.Parallelism#unknown} gives a per-layer pipeline layout written as a placeholder ($LAYOUT). */
    static final String PIPELINE_LAYOUT = Specs.PIPELINE_LAYOUT;

    MegatronAdapter() {}


    @Override public String id() { return "megatron-lm"; }

    @Override public String displayName() { return FORMAT; }

    @Override public boolean accepts(ForeignDocument doc) { return accepts(doc.root()); }

    @Override public void bind(ForeignDocument doc, DraftSink sink) {
        sink.draft(bind(doc.root(), doc.file(), doc.name(), doc.text()));
    }

    static boolean accepts(MappingNode root) {
        MappingNode args = map(root, "MODEL_ARGS");
        return args != null && args.entries().stream().anyMatch(e -> e.key().text().startsWith("--")
                || Launchers.nemoFlag(e.key().text()) != null);
    }

    static JobDraft bind(MappingNode root, String file, String jobName, String source) {
        JobDraft j = new JobDraft(FORMAT, file, root.span());
        j.name = new Located<>(jobName, root.entries().get(0).key().span());
        MappingNode args = map(root, "MODEL_ARGS");
        Map<String, Word> flags = new LinkedHashMap<>();
        // NeMo's dotted keys (Megatron's gpt-nemo test cases: trainer.strategy.tensor_model_parallel_size,
        // model.config.num_layers, data.micro_batch_size) bind like the Megatron flags they stand for
        Map<String, String> spelled = new java.util.HashMap<>();
        for (MappingNode.Entry e : args.entries()) {
            if (!(e.value() instanceof ScalarNode s) || s.isNull()) continue;
            String v = s.text();
            String key = e.key().text();
            String flag = Launchers.nemoFlag(key);
            if (flag != null && flags.containsKey(flag)) continue;
            if (flag != null) {
                spelled.put(flag, key);
                if (flag.equals("--num-query-groups")) flags.putIfAbsent("--group-query-attention", new Word("true", true, s.span()));
            }
            flags.putIfAbsent(flag != null ? flag : key, new Word(v, !TreeValues.placeholder(v), s.span()));
        }
        apply(j, flags, "MODEL_ARGS", true);
        // --recompute-modules: the words of its scalar, as the command line takes them, or a YAML list (RecomputeModuleReader)
        dev.gpulint.tree.Node modules = args.get("--recompute-modules").orElse(null);
        if (modules instanceof ScalarNode s && !s.isNull()) {
            RecomputeModuleReader.words(j, RecomputeModuleReader.words(new Word(s.text(), !TreeValues.placeholder(s.text()), s.span())),
                    "--recompute-modules");
        } else if (modules != null) {
            RecomputeModuleReader.yaml(j, modules, "--recompute-modules");
        }
        if (!spelled.isEmpty()) {
            j.keys.replaceAll((v, k) -> spelled.getOrDefault(k, k));
            j.stated.replaceAll(st -> {
                for (Map.Entry<String, String> sp : spelled.entrySet()) {
                    if (st.where().endsWith(" " + sp.getKey())) {
                        return new dev.gpulint.spec.Specs.Stated(st.quantity(), st.value(),
                                st.where().substring(0, st.where().length() - sp.getKey().length()) + sp.getValue(), st.kind(), st.span());
                    }
                }
                return st;
            });
            trainer(j, args);
        }
        MappingNode env = map(root, "ENV_VARS");
        if (env != null) {
            for (MappingNode.Entry e : env.entries()) {
                if (e.value() instanceof ScalarNode s && !s.isNull()) j.env(e.key().text(), s.text(), s.span(), "ENV_VARS");
            }
        }
        for (MappingNode.Entry e : root.entries()) {
            String k = e.key().text();
            if (!(k.endsWith("_SCRIPT") || k.equals("SCRIPT")) || !(e.value() instanceof ScalarNode s)) continue;
            Shell.Script script = Shell.parse(ScalarText.of(source, s), Map.of());
            j.exports(script.assignments(), k + " export");
            Launchers.Launch l = Launchers.scan(script);
            apply(j, l.flags, k, false);
        }
        nameStatements(j, file);
        return j;
    }

    /** Binds (MODEL_ARGS) or only states (scripts) the numbers of Megatron flags. */
    static void apply(JobDraft j, Map<String, Word> flags, String where, boolean binding) {
        boolean script = !"MODEL_ARGS".equals(where);     // a launch command's argparse, not MODEL_ARGS' YAML values
        for (Map.Entry<String, ParallelDim> q : QUANTITY.entrySet()) {
            Word w = flags.get(q.getKey());
            long v = Launchers.number(w);
            if (v >= 0) j.state(q.getValue(), v, where + " " + q.getKey(), StatedKind.CONFIG, w.span());
        }
        long layers = Launchers.number(flags.get("--num-layers"));
        long pp = Launchers.number(flags.get("--pipeline-model-parallel-size"));
        long perStage = Launchers.number(flags.get("--num-layers-per-virtual-pipeline-stage"));
        if (layers > 0 && perStage > 0 && flags.get("--virtual-pipeline-model-parallel-size") == null) {
            long chunks = pp > 0 ? pp * perStage : perStage;
            if (layers % chunks == 0) {
                j.state(ParallelDim.VPP, layers / chunks, where + " --num-layers ÷ (pp × --num-layers-per-virtual-pipeline-stage)",
                        StatedKind.CONFIG, flags.get("--num-layers-per-virtual-pipeline-stage").span());
            }
        }
        if (!binding) return;
        j.tp = j.key("--tensor-model-parallel-size", located(flags.get("--tensor-model-parallel-size")));
        j.pp = j.key("--pipeline-model-parallel-size", located(flags.get("--pipeline-model-parallel-size")));
        j.cp = j.key("--context-parallel-size", located(flags.get("--context-parallel-size")));
        j.ep = j.key("--expert-model-parallel-size", located(flags.get("--expert-model-parallel-size")));
        j.etp = j.key("--expert-tensor-parallel-size", located(flags.get("--expert-tensor-parallel-size")));
        j.vpp = j.key("--virtual-pipeline-model-parallel-size", located(flags.get("--virtual-pipeline-model-parallel-size")));
        if (j.vpp == null) j.vpp = j.key("--num-virtual-stages-per-pipeline-rank", located(flags.get("--num-virtual-stages-per-pipeline-rank")));
        j.layersPerVirtualStage = j.key("--num-layers-per-virtual-pipeline-stage",
                located(flags.get("--num-layers-per-virtual-pipeline-stage")));
        j.embeddingInSplit = switchFlag(j, flags, script, "--account-for-embedding-in-pipeline-split");
        j.lossInSplit = switchFlag(j, flags, script, "--account-for-loss-in-pipeline-split");
        // Transformer Engine's userbuffer overlap of the tp collectives with the GEMMs (the estimate's TpOverlap); absent: off
        j.tpCommOverlap = switchFlag(j, flags, script, "--tp-comm-overlap");
        j.dp = j.key("--data-parallel-size", located(flags.get("--data-parallel-size")));
        for (Map.Entry<String, ParallelDim> u : UNKNOWN_SIZES.entrySet()) {
            Word w = flags.get(u.getKey());
            if (w != null && !w.known()) j.unknown(u.getValue());
        }
        // --use-tp-pp-dp-mapping: Megatron-LM initializes its groups in order tp-cp-ep-pp-dp (TpPpDpMapping), refused where it asserts
        j.order = TpPpDpMapping.order(j, j.key("--use-tp-pp-dp-mapping", switchFlag(j, flags, script, "--use-tp-pp-dp-mapping")),
                "--use-tp-pp-dp-mapping");
        for (Map.Entry<String, String> u : UNKNOWN_SHAPE.entrySet()) {
            Word w = flags.get(u.getKey());
            // the sizes Megatron reads only beside another flag count only with it (no MoE without --num-experts, no
            // query groups without --group-query-attention), as the binding below reads them
            boolean read = !u.getValue().startsWith("model.moe.") && !u.getValue().equals("model.top_k") || flags.containsKey("--num-experts");
            if (u.getKey().equals("--num-query-groups")) read = flags.containsKey("--group-query-attention");
            if (w != null && !w.known() && read) j.unknownShape.add(u.getValue());
        }
        // first/last stages sized by hand: the other stages share the rest (PAR004 checks it as Megatron-Core does)
        j.firstStageLayers = j.key("--decoder-first-pipeline-num-layers", located(flags.get("--decoder-first-pipeline-num-layers")));
        j.lastStageLayers = j.key("--decoder-last-pipeline-num-layers", located(flags.get("--decoder-last-pipeline-num-layers")));
        // a per-layer layout (--pipeline-model-parallel-layout "Et*3|(tt|)*29,m|L"): DraftBounds reads it into each
        // stage's layers, checks it as Megatron-Core does, and takes vpp from it
        Word layout = flags.get("--pipeline-model-parallel-layout");
        if (layout != null && !layout.known()) j.unknown.add(PIPELINE_LAYOUT);
        if (layout != null && layout.known()) j.pipelineLayout = j.key("--pipeline-model-parallel-layout", new Located<>(layout.text(), layout.span()));
        j.layers = j.key("--num-layers", located(flags.get("--num-layers")));
        j.heads = j.key("--num-attention-heads", located(flags.get("--num-attention-heads")));
        if (flags.containsKey("--group-query-attention") && !"false".equals(flags.get("--group-query-attention").text())) {
            j.kvHeads = j.key("--num-query-groups", located(flags.get("--num-query-groups")));
        }
        j.micro = j.key("--micro-batch-size", located(flags.get("--micro-batch-size")));
        j.global = j.key("--global-batch-size", located(flags.get("--global-batch-size")));
        stepBatchSchedule(j, flags.get("--step-batch-size-schedule"));
        j.seqLength = j.key("--seq-length", located(flags.get("--seq-length")));
        j.experts = j.key("--num-experts", located(flags.get("--num-experts")));
        j.hidden = j.key("--hidden-size", located(flags.get("--hidden-size")));
        plan(j, flags, script);
        Word sp = flags.get("--sequence-parallel");
        if (sp != null && sp.known()) {
            j.sequenceParallel = java.util.List.of("false", "0", "no").contains(sp.text().strip().toLowerCase(java.util.Locale.ROOT))
                    ? new Located<>(false, sp.span()) : switchFlag(j, flags, script, "--sequence-parallel");
        }
        // --variable-seq-lengths (store_true, megatron/training/arguments.py): ModelParallelConfig.variable_seq_lengths, so every
        // pipeline p2p exchanges its shape first (derive.estimate.MtpLayers#SHAPE_EXCHANGE)
        j.variableSeqLengths = switchFlag(j, flags, script, "--variable-seq-lengths");
    }

    /** NeMo's trainer.num_nodes × trainer.devices in MODEL_ARGS: the job's nodes and GPUs per node. */
    private static void trainer(JobDraft j, MappingNode args) {
        for (MappingNode.Entry e : args.entries()) {
            if (!(e.value() instanceof ScalarNode s) || s.isNull() || TreeValues.placeholder(s.text())) continue;
            String k = e.key().text().replaceFirst("^(--|\\+\\+|\\+)", "");
            if (k.equals("trainer.num_nodes") && j.nodes == null) j.nodes = j.key(k, TreeValues.whole(s.text(), s.span()));
            if (k.equals("trainer.devices") && j.gpusPerNode == null) {
                j.gpusPerNode = j.key(k, TreeValues.whole(s.text(), s.span()));
                j.gpusPerNodeWhere = "trainer.devices";
            }
        }
        j.state("world", JobDraft.product(j.nodes, j.gpusPerNode), "MODEL_ARGS trainer.num_nodes × trainer.devices",
                StatedKind.CONFIG, j.nodes != null ? j.nodes.span() : null);
    }

    /**
     * What `gpulint plan` reads from Megatron's flags: --ffn-hidden-size, --kv-channels, --vocab-size, --swiglu,
     * --cross-entropy-loss-fusion with --cross-entropy-fusion-impl (CrossEntropyFusion),
     * --untie-embeddings-and-output-weights, --fp8-format / --bf16 / --fp16, --fp8-param-gather, --recompute-granularity (or
     * --recompute-activations: selective), --use-distributed-optimizer, --grad-reduce-in-bf16 (16-bit main gradients: model
     * states 2 + 2 + 12 = 16 bytes per parameter instead of the 18 of --bf16, which keeps fp32 main gradients).
     */
    private static void plan(JobDraft j, Map<String, Word> flags, boolean script) {
        j.ffn = j.key("--ffn-hidden-size", located(flags.get("--ffn-hidden-size")));
        j.headDim = j.key("--kv-channels", located(flags.get("--kv-channels")));
        j.vocab = j.key("--vocab-size", located(flags.get("--vocab-size")));
        j.gated = switchFlag(j, flags, script, "--swiglu");
        // --cross-entropy-loss-fusion with --cross-entropy-fusion-impl te: Transformer Engine's loss (derive/estimate/LossKernel)
        Word ceImpl = flags.get("--cross-entropy-fusion-impl");
        j.crossEntropy = CrossEntropyFusion.keyed(j, "--cross-entropy-fusion-impl", CrossEntropyFusion.of(switchFlag(j, flags, script,
                "--cross-entropy-loss-fusion"), ceImpl != null && ceImpl.known() ? ceImpl.text() : null, ceImpl != null ? ceImpl.span() : null));
        Located<Boolean> untied = switchFlag(j, flags, script, "--untie-embeddings-and-output-weights");
        if (untied != null) j.tied = new Located<>(false, untied.span());
        j.distributed = switchFlag(j, flags, script, "--use-distributed-optimizer");
        // --overlap-param-gather-with-optimizer-step: model chunk 0's all-gather dispatched in the optimizer step
        // (derive/estimate/OptimizerStepGather)
        j.gatherWithStep = j.key("--overlap-param-gather-with-optimizer-step",
                switchFlag(j, flags, script, "--overlap-param-gather-with-optimizer-step"));
        // --overlap-param-gather: validate_args requires it beside the flag above (PAR017); not written is off (argparse store_true)
        Located<Boolean> opg = switchFlag(j, flags, script, "--overlap-param-gather");
        j.overlapParamGather = opg != null || flags.containsKey("--overlap-param-gather") ? opg
                : j.gatherWithStep != null ? new Located<>(false, null) : null;
        // --cpu-offloading with --cpu-offloading-num-layers N: N layers' activations go to host memory (Megatron-Core's
        // cpu_offloading_activations defaults to true)
        if (switchFlag(j, flags, script, "--cpu-offloading") != null) {
            j.offloadLayers = j.key("--cpu-offloading-num-layers", located(flags.get("--cpu-offloading-num-layers")));
        }
        OffloadSettings.megatron(j, switchFlag(j, flags, script, "--optimizer-cpu-offload"), flags.get("--optimizer-offload-fraction"));
        Word fp8 = flags.get("--fp8-format"), fp4 = flags.get("--fp4-format"), recipe = flags.get("--fp8-recipe");
        Located<Boolean> bf16 = switchFlag(j, flags, script, "--bf16"), fp16 = switchFlag(j, flags, script, "--fp16");
        if (fp4 != null && fp4.known()) j.dtype = new Located<>("nvfp4", fp4.span());      // --fp4-recipe has one choice, nvfp4
        else if (fp8 != null && fp8.known()) j.dtype = recipe != null && recipe.is("mxfp8") ? new Located<>("mxfp8", recipe.span())
                : new Located<>("fp8", fp8.span());
        else if (bf16 != null) j.dtype = new Located<>("bf16", bf16.span());
        else if (fp16 != null) j.dtype = new Located<>("fp16", fp16.span());
        // --fp8-param-gather: the weights kept in fp8 and all-gathered so (derive/estimate/ParamGather)
        j.fp8ParamGather = j.key("--fp8-param-gather", switchFlag(j, flags, script, "--fp8-param-gather"));
        // --first-last-layers-bf16 with --num-layers-at-start/end-in-bf16 (default 1 each, Megatron-Core's TransformerConfig):
        // those layers run outside the fp8 context (derive/estimate/LayerPrecision)
        Located<Boolean> firstLast = switchFlag(j, flags, script, "--first-last-layers-bf16");
        if (firstLast != null) {
            // under --fp8-format, the recipe: --fp8-recipe as written, else Megatron-LM's argparse default "delayed", which
            // TransformerConfig refuses with the switch (PAR016)
            boolean recipeWritten = recipe != null && recipe.known();
            Located<String> fp8Recipe = recipeWritten ? new Located<>(recipe.text().strip().toLowerCase(java.util.Locale.ROOT), recipe.span())
                    : fp8 != null && fp8.known() ? new Located<>("delayed", fp8.span()) : null;
            j.fp8LayersBf16 = FirstLastBf16.of(firstLast, bf16Count(j, flags, "--num-layers-at-start-in-bf16"),
                    bf16Count(j, flags, "--num-layers-at-end-in-bf16"), 1, fp8Recipe, !recipeWritten);
            j.fp8LayersBf16Key = "--first-last-layers-bf16";
        }
        // --mtp-num-layers: multi-token prediction's layers after the decoder (derive/estimate/MtpLayers prices them)
        j.mtpLayers = j.key("--mtp-num-layers", located(flags.get("--mtp-num-layers")));
        // --hybrid-layer-pattern (with --is-hybrid-model, or alone): the layers and the Mamba-2 mixer's sizes, priced by kind (HybridLayers)
        String patternFlag = flags.containsKey("--hybrid-layer-pattern") ? "--hybrid-layer-pattern" : "--hybrid-override-pattern";
        HybridLayers.read(j, switchFlag(j, flags, script, "--is-hybrid-model"), flags.get(patternFlag), patternFlag, flags);
        Word rg = flags.get("--recompute-granularity");
        Located<Boolean> ra = switchFlag(j, flags, script, "--recompute-activations");
        if (rg != null && rg.known()) j.recompute = new Located<>(rg.text().toLowerCase(java.util.Locale.ROOT), rg.span());
        else if (ra != null) j.recompute = new Located<>("selective", ra.span());
        // Megatron-LM's switch before --recompute-activations (2022) and Megatron-DeepSpeed's: every layer checkpointed, full
        Located<Boolean> ckpt = switchFlag(j, flags, script, "--checkpoint-activations");
        if (j.recompute == null && ckpt != null) j.recompute = new Located<>("full", ckpt.span());
        moe(j, flags, script);
        Located<Boolean> bf16Grads = switchFlag(j, flags, script, "--grad-reduce-in-bf16");
        if (bf16Grads != null) {
            j.bytesPerParameter = j.key("--grad-reduce-in-bf16", new Located<>(16.0, bf16Grads.span()));
            j.state("bytes_per_parameter", 16, "--grad-reduce-in-bf16 (bf16 main gradients: 2 weights + 2 gradients + 12 Adam)",
                    StatedKind.CONFIG, bf16Grads.span());
        }
    }

    /**
     * What `gpulint plan` reads of an MoE model and of the attention variant: --moe-router-topk, --moe-ffn-hidden-size,
     * --moe-shared-expert-intermediate-size, --moe-layer-freq, --moe-expert-capacity-factor,
     * --moe-pad-expert-input-to-capacity, --moe-token-dispatcher-type, --overlap-moe-expert-parallel-comm and
     * --moe-grouped-gemm (absent with --num-experts: Megatron runs one GEMM per local expert, its SequentialMLP);
     * --moe-router-num-groups and --moe-router-group-topk (the flex dispatcher's node-limited routing, FlexDispatch);
     * --moe-flex-dispatcher-backend (deepep or hybridep: how the flex dispatcher crosses an NVLink domain larger than 8) and
     * older Megatron-LM's --moe-enable-deepep (the deepep backend with the flex dispatcher, Nemo2Moe#enableDeepep);
     * --window-size "(w, 0)", --window-attn-skip-freq, --multi-latent-attention with --kv-lora-rank.
     */
    private static void moe(JobDraft j, Map<String, Word> flags, boolean script) {
        j.topK = j.key("--moe-router-topk", located(flags.get("--moe-router-topk")));
        j.moeFfn = j.key("--moe-ffn-hidden-size", located(flags.get("--moe-ffn-hidden-size")));
        j.sharedFfn = j.key("--moe-shared-expert-intermediate-size", located(flags.get("--moe-shared-expert-intermediate-size")));
        Word freq = flags.get("--moe-layer-freq");
        if (freq != null && freq.known()) j.moeLayerFreq = j.key("--moe-layer-freq", new Located<>(freq.text(), freq.span()));
        Word cf = flags.get("--moe-expert-capacity-factor");
        if (cf != null && cf.known()) {
            try {
                double v = Double.parseDouble(cf.text().strip());
                if (v > 0 && v < 1e6) j.capacityFactor = j.key("--moe-expert-capacity-factor", new Located<>(v, cf.span()));
            } catch (NumberFormatException e) {
                // "None" (Megatron's dropless default written out) or text: dropless, as absent
            }
        }
        j.padToCapacity = switchFlag(j, flags, script, "--moe-pad-expert-input-to-capacity");
        j.routerGroups = j.key("--moe-router-num-groups", located(flags.get("--moe-router-num-groups")));
        j.routerGroupTopk = j.key("--moe-router-group-topk", located(flags.get("--moe-router-group-topk")));
        Word d = flags.get("--moe-token-dispatcher-type");
        if (d != null && d.known()) j.dispatcher = j.key("--moe-token-dispatcher-type", new Located<>(d.text(), d.span()));
        Nemo2Moe.dispatcherDefault(j, "--moe-token-dispatcher-type", d != null, "Megatron-LM");
        Word backend = flags.get("--moe-flex-dispatcher-backend");
        if (backend != null && backend.known()) {
            j.flexBackend = j.key("--moe-flex-dispatcher-backend", new Located<>(backend.text().strip(), backend.span()));
        }
        j.enableDeepep = j.key("--moe-enable-deepep", switchFlag(j, flags, script, "--moe-enable-deepep"));     // Nemo2Moe.enableDeepep
        j.moeOverlap = switchFlag(j, flags, script, "--overlap-moe-expert-parallel-comm");
        Located<Boolean> grouped = switchFlag(j, flags, script, "--moe-grouped-gemm");
        Word experts = flags.get("--num-experts");
        j.groupedGemm = grouped != null ? grouped : experts != null && experts.known() ? new Located<>(false, experts.span()) : null;
        Word w = flags.get("--window-size");
        if (w != null && w.known()) {
            // Megatron's tuple "(left, right)": left is the window a query looks back (-1: unlimited)
            java.util.regex.Matcher m = WINDOW.matcher(w.text().length() <= 64 ? w.text() : "");
            if (m.matches()) {
                // digits beyond a long read as its end, which the schema's bounds report (TreeValues.whole)
                long left = TreeValues.whole(m.group(1), w.span()).value();
                if (left > 0) j.window = j.key("--window-size", new Located<>(left, w.span()));
            }
        }
        j.fullEvery = j.key("--window-attn-skip-freq", located(flags.get("--window-attn-skip-freq")));
        Word ab = flags.get("--attention-backend");
        if (ab != null && ab.known()) {
            j.attentionKernel = AttentionBackends.kernel(j, "--attention-backend", new Located<>(ab.text(), ab.span()));
            // Megatron-Core's LanguageModule checks the NVTE variables against it (PAR018): not in the legacy model, which builds
            // none, nor in a launch without one of Megatron-LM's own flags (another program's --attention-backend)
            if (AttentionBackends.on(flags.get("--use-legacy-models"))
                    || flags.keySet().stream().noneMatch(Launchers.MEGATRON_FLAGS::contains)) {
                j.attentionBackend = null;
            }
        } else if (ab == null) j.attentionKernel = AttentionBackends.legacy(j, flags);      // a legacy-model script: unfused
        Located<Boolean> mla = switchFlag(j, flags, script, "--multi-latent-attention");
        if (mla != null) {
            Located<Long> rank = located(flags.get("--kv-lora-rank"));
            j.kvLoraRank = j.key("--kv-lora-rank", rank != null ? rank : new Located<>(0L, mla.span()));
            j.qLoraRank = j.key("--q-lora-rank", located(flags.get("--q-lora-rank")));
            j.qkHeadDim = j.key("--qk-head-dim", located(flags.get("--qk-head-dim")));
            j.qkRopeHeadDim = j.key("--qk-pos-emb-head-dim", located(flags.get("--qk-pos-emb-head-dim")));
            j.vHeadDim = j.key("--v-head-dim", located(flags.get("--v-head-dim")));
        }
    }

    private static final java.util.regex.Pattern WINDOW = java.util.regex.Pattern.compile("\\s*\\(?\\s*(-?[0-9]+)\\s*(?:,\\s*-?[0-9]+\\s*)?\\)?\\s*");

    /**
     * A switch flag (written bare, or with true/false after it): true when on, null when absent, off or unknown; any other
     * word (--tp-comm-overlap=maybe) is SYN002 at the word and binds nothing (DraftValues).
     */
    private static Located<Boolean> switchFlag(JobDraft j, Map<String, Word> flags, boolean script, String name) {
        Word w = flags.get(name);
        if (w == null || !w.known()) return null;
        return DraftValues.switchValue(j, w.text(), w.span(), name, script, switchInstead(name));
    }

    /**
     * What the estimate does without switch {@code name}: reads it as not given, which is off (Megatron's default) for every
     * switch but --sequence-parallel: a job that does not state sequence parallelism is priced with it on when tp > 1
     * (JobInputs: NeMo's default), so the message says that rather than "off".
     */
    static String switchInstead(String name) {
        if (name.equals("--sequence-parallel")) {
            return "the estimate reads --sequence-parallel as not given: on when tp > 1 (the estimate's default, NeMo's), off at tp 1";
        }
        return "the estimate reads " + name + " as not given (off, Megatron's default)";
    }

    /** A flag's whole number, signed, for the schema's bounds to judge; null when absent or unknown. */
    /** A bf16 layer count as written (SYN002 at one that is no whole number from 0: {@link FirstLastBf16#count}). */
    private static Located<Long> bf16Count(JobDraft j, Map<String, Word> flags, String flag) {
        Word w = flags.get(flag);
        return w == null || !w.known() ? null : FirstLastBf16.count(j, w.text(), w.span(), flag);
    }

    /**
     * {@code --step-batch-size-schedule "0:384 200B:768 400B:1152"} (NVIDIA/Megatron-LM pull request 4411; Megatron-Core's
     * num_microbatches_calculator: "THRESHOLD:BS THRESHOLD:BS ...", thresholds with K/M/B/T suffixes) sets the global batch
     * step by step and makes Megatron ignore --global-batch-size (it warns "--global-batch-size is ignored when using
     * --step-batch-size-schedule"). The plan prices the first steps: the batch of the threshold 0, at the schedule's value,
     * and says so with the later batches; a schedule with no threshold 0, or a batch that is no whole number, is not read.
     */
    private static void stepBatchSchedule(JobDraft j, Word w) {
        if (w == null || !w.known()) return;
        String[] items = w.text().strip().split("\\s+");
        Long first = null;
        java.util.List<String> later = new java.util.ArrayList<>();
        for (String item : items) {
            int colon = item.indexOf(':');
            if (colon <= 0) return;
            long bs;
            try { bs = Long.parseLong(item.substring(colon + 1)); } catch (NumberFormatException e) { return; }
            if (bs <= 0) return;
            if (first == null && item.substring(0, colon).equals("0")) first = bs;
            else later.add(bs + " from " + item.substring(0, colon));
        }
        if (first == null) return;
        j.global = j.key("--step-batch-size-schedule", new Located<>(first, w.span()));
        j.unpriced.add("--step-batch-size-schedule \"" + w.text().strip() + "\": the global batch of the first steps, " + first
                + ", is planned" + (later.isEmpty() ? "" : "; the later ones (" + String.join(", ", later) + ") are not")
                + " (Megatron-LM pull request 4411; Megatron ignores --global-batch-size beside it)");
    }

    static Located<Long> located(Word w) {
        return w == null || !w.known() ? null : TreeValues.whole(w.text(), w.span());
    }

    /** The parallel sizes a test case's folder name encodes: tp2_pp2_ep2, tp1pp4emp16etp1cp1. */
    static void nameStatements(JobDraft j, String file) {
        String[] parts = file.split("/");
        if (parts.length < 2) return;
        String folder = parts[parts.length - 2];
        for (String token : folder.split("[_.\\-]")) {
            if (token.length() > 128 || !NAME_TOKEN.matcher(token).matches()) continue;
            Matcher m = NAME_PART.matcher(token);
            while (m.find()) {
                if (m.group(2).length() > 18) continue;
                // "emp" is the folder names' word for ep; the others are the dimensions' short names
                ParallelDim q = m.group(1).equals("emp") ? ParallelDim.EP : ParallelDim.ofLabel(m.group(1)).orElseThrow();
                j.state(q, Long.parseLong(m.group(2)), "the test case's folder name '" + folder + "' (" + m.group() + ")",
                        StatedKind.NAME, null);
            }
        }
    }
}
