package dev.gpulint.bind.adapt;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.bind.Schema;
import dev.gpulint.core.Finding;
import dev.gpulint.spec.HybridPattern;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.PipelineLayout;
import dev.gpulint.spec.Specs;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The native binder's bounds, applied to a job another format stated: each number a draft holds is
 * checked against the {@link Schema} field it binds to (tp ≥ 1, zero_stage 0..3, layers up to
 * Integer.MAX_VALUE...). A value out of bounds is a SYN002 finding at the value, in the binder's
 * own words but with the format's key, and binds as absent, so no rule reasons on it. There is no
 * table of bounds here: only which draft value is which schema field.
 */
final class DraftBounds {

    /** A draft value and the schema field it binds to. */
    private record Slot(Schema.Field field, String path, Function<JobDraft, Located<Long>> get, BiConsumer<JobDraft, Located<Long>> set) {}

    private static Slot slot(Function<JobDraft, Located<Long>> get, BiConsumer<JobDraft, Located<Long>> set, String... path) {
        return new Slot(Schema.field(Schema.JOB, path), String.join(".", path), get, set);
    }

    private static final List<Slot> SLOTS = List.of(
            slot(j -> j.nodes, (j, v) -> j.nodes = v, "nodes"),
            slot(j -> j.gpusPerNode, (j, v) -> j.gpusPerNode = v, "gpus_per_node"),
            slot(j -> j.layers, (j, v) -> j.layers = v, "model", "layers"),
            slot(j -> j.heads, (j, v) -> j.heads = v, "model", "attention_heads"),
            slot(j -> j.kvHeads, (j, v) -> j.kvHeads = v, "model", "kv_heads"),
            slot(j -> j.hidden, (j, v) -> j.hidden = v, "model", "hidden_size"),
            slot(j -> j.seqLength, (j, v) -> j.seqLength = v, "model", "seq_length"),
            slot(j -> j.experts, (j, v) -> j.experts = v, "model", "experts"),
            // the rest of the shape the estimate reads: MLP, vocabulary, head size, routing, the MoE layers', attention's window
            slot(j -> j.ffn, (j, v) -> j.ffn = v, "model", "ffn_hidden_size"),
            slot(j -> j.vocab, (j, v) -> j.vocab = v, "model", "vocab_size"),
            slot(j -> j.headDim, (j, v) -> j.headDim = v, "model", "head_dim"),
            slot(j -> j.topK, (j, v) -> j.topK = v, "model", "top_k"),
            slot(j -> j.mtpLayers, (j, v) -> j.mtpLayers = v, "model", "mtp_layers"),
            slot(j -> j.moeFfn, (j, v) -> j.moeFfn = v, "model", "moe", "expert_ffn_hidden_size"),
            slot(j -> j.sharedFfn, (j, v) -> j.sharedFfn = v, "model", "moe", "shared_expert_ffn_hidden_size"),
            slot(j -> j.denseLayers, (j, v) -> j.denseLayers = v, "model", "moe", "dense_layers"),
            slot(j -> j.window, (j, v) -> j.window = v, "model", "attention", "sliding_window"),
            slot(j -> j.fullEvery, (j, v) -> j.fullEvery = v, "model", "attention", "full_attention_every"),
            // multi-latent attention's sizes (kv_lora_rank's 0 is multi_latent_attention without a rank: "take the default")
            slot(j -> j.kvLoraRank, (j, v) -> j.kvLoraRank = v, "model", "attention", "kv_lora_rank"),
            slot(j -> j.qLoraRank, (j, v) -> j.qLoraRank = v, "model", "attention", "q_lora_rank"),
            slot(j -> j.qkHeadDim, (j, v) -> j.qkHeadDim = v, "model", "attention", "qk_head_dim"),
            slot(j -> j.qkRopeHeadDim, (j, v) -> j.qkRopeHeadDim = v, "model", "attention", "qk_rope_head_dim"),
            slot(j -> j.vHeadDim, (j, v) -> j.vHeadDim = v, "model", "attention", "v_head_dim"),
            slot(j -> j.tp, (j, v) -> j.tp = v, "parallelism", ParallelDim.TP.key()),
            slot(j -> j.pp, (j, v) -> j.pp = v, "parallelism", ParallelDim.PP.key()),
            slot(j -> j.dp, (j, v) -> j.dp = v, "parallelism", ParallelDim.DP.key()),
            slot(j -> j.cp, (j, v) -> j.cp = v, "parallelism", ParallelDim.CP.key()),
            slot(j -> j.ep, (j, v) -> j.ep = v, "parallelism", ParallelDim.EP.key()),
            slot(j -> j.etp, (j, v) -> j.etp = v, "parallelism", ParallelDim.ETP.key()),
            slot(j -> j.vpp, (j, v) -> j.vpp = v, "parallelism", ParallelDim.VPP.key()),
            slot(j -> j.offloadLayers, (j, v) -> j.offloadLayers = v, "offload", "activation_layers"),
            slot(j -> j.firstStageLayers, (j, v) -> j.firstStageLayers = v, "parallelism", "first_stage_layers"),
            slot(j -> j.lastStageLayers, (j, v) -> j.lastStageLayers = v, "parallelism", "last_stage_layers"),
            slot(j -> j.dpShard, (j, v) -> j.dpShard = v, "parallelism", "dp_shard"),
            slot(j -> j.micro, (j, v) -> j.micro = v, "batch", "micro_batch_size"),
            slot(j -> j.global, (j, v) -> j.global = v, "batch", "global_batch_size"),
            slot(j -> j.zeroStage, (j, v) -> j.zeroStage = v, "optimizer", "zero_stage"));

    private static final Schema.Field KV_LORA_RANK = Schema.field(Schema.JOB, "model", "attention", "kv_lora_rank");
    private static final Schema.Field ZERO_STAGE = Schema.field(Schema.JOB, "optimizer", "zero_stage");
    /** The parallel sizes among the slots' fields (Specs.Parallelism#unknown names them by their manifest key). */
    private static final java.util.Map<Schema.Field, ParallelDim> SIZES = sizes();

    private static java.util.Map<Schema.Field, ParallelDim> sizes() {
        java.util.Map<Schema.Field, ParallelDim> m = new IdentityHashMap<>();
        Schema.Field par = Schema.field(Schema.JOB, "parallelism");
        for (ParallelDim d : ParallelDim.values()) if (par.child(d.key()) != null) m.put(par.child(d.key()), d);
        return m;
    }
    private static final Schema.Field GLOBAL = Schema.field(Schema.JOB, "batch", "global_batch_size");
    private static final Schema.Field MICRO = Schema.field(Schema.JOB, "batch", "micro_batch_size");
    private static final Schema.Field MICRO_BATCHES = Schema.field(Schema.JOB, "batch", "micro_batches");

    private DraftBounds() {}

    /**
     * Checks every number of {@code j} (and of its DeepSpeed batch triple), clears those out of
     * bounds and returns their findings, one per value written (a value bound to two fields, as
     * DeepSpeed's micro batch is, is reported once).
     */
    static List<Finding> check(JobDraft j) {
        return check(j, java.util.Map.of());
    }

    /**
     * As {@link #check(JobDraft)}, quoting a number written beyond a long by its digits in {@code texts} (each linted file's
     * text by its display path; {@link WrittenNumbers}).
     */
    static List<Finding> check(JobDraft j, java.util.Map<String, String> texts) {
        List<Finding> out = new ArrayList<>();
        Set<Located<?>> bad = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Slot s : SLOTS) {
            Located<Long> v = s.get().apply(j);
            if (v != null && !(s.field() == KV_LORA_RANK && v.value() == 0) && !valid(j, s.field(), v, bad, out, texts)) {
                s.set().accept(j, null);
                // a size out of bounds is unknown, not the default of an absent one (tp 0 is not tp 1): the rules that need
                // it stay quiet and the plan says it cannot estimate the job, beside the SYN002 at the value
                ParallelDim d = SIZES.get(s.field());
                if (d != null) j.unknown(d);
                if (s.field() == ZERO_STAGE) j.zeroStageUnknown = true;
                // a model size alike: not the estimate's default (vocab 50,257, ffn 4h), not a catalog entry's size either
                if (s.path().startsWith("model.")) j.unknownShape.add(s.path());
            }
        }
        if (j.pipelineLayout != null) pipelineLayout(j, out);
        if (j.hybridStages != null) hybridStages(j, out);
        if (j.gradReduceDtype != null && !reduceDtype(j, out)) j.gradReduceDtype = null;
        if (j.badAcOption != null) {
            String owner = j.name != null ? j.name.value() : j.file;
            out.add(Finding.of("SYN002", j.badAcOption.span(), j.format + ":" + owner + "/selective_ac_option", "'selective_ac_option' is '"
                    + dev.gpulint.spec.Quantities.shortText(j.badAcOption.value()) + "'; expected \"op\" or a positive integer n (one "
                    + "transformer block in n fully checkpointed), as torchtitan accepts; the recompute is left out, so the "
                    + "estimate takes its default"));
            j.recompute = null;
        }
        Specs.DeepSpeedBatch ds = j.deepspeed;
        if (ds != null) {
            j.deepspeed = new Specs.DeepSpeedBatch(
                    keep(j, GLOBAL, ds.trainBatchSize(), bad, out, texts),
                    keep(j, MICRO, ds.microBatchPerGpu(), bad, out, texts),
                    keep(j, MICRO_BATCHES, ds.gradientAccumulation(), bad, out, texts));
        }
        if (j.moeLayerFreq != null) {
            String why = layerPattern(j.moeLayerFreq.value(), j.layers);
            if (why != null) {
                String key = j.keys.getOrDefault(j.moeLayerFreq, "moe_layer_freq");
                String owner = j.name != null ? j.name.value() : j.file;
                out.add(Finding.of("SYN002", j.moeLayerFreq.span(), j.format + ":" + owner + "/" + key,
                        "'" + key + "' is '" + dev.gpulint.spec.Quantities.shortText(j.moeLayerFreq.value()) + "': " + why));
                j.moeLayerFreq = null;
            }
        }
        DraftValues.report(j, out);
        if (j.envLeftOut > 0) {
            out.add(Specs.envLeftOut(j.firstEnvLeftOut.span(), j.env.size() + j.envLeftOut, j.firstEnvLeftOut.value(),
                    j.format + ":" + (j.name != null ? j.name.value() : j.file) + "/env#limit"));
        }
        return out;
    }

    /**
     * Clears the model sizes {@code j} holds unknown ({@link JobDraft#unknownShape}) that something filled in after the
     * bounds were checked (a model catalog entry or config.json the job names: ModelNames), so that the size stays unknown.
     */
    static void keepUnknown(JobDraft j) {
        if (j.unknownShape.isEmpty()) return;
        for (Slot s : SLOTS) if (j.unknownShape.contains(s.path())) s.set().accept(j, null);
    }

    /**
     * Megatron's --pipeline-model-parallel-layout read into each stage's transformer blocks ({@link PipelineLayout}) and
     * checked as Megatron-Core checks it against pp and --num-layers. Text that does not read is SYN002 at the character it
     * is about; a layout that reads but does not fit the job is SYN002 at the value. Either way the layout is then left
     * unknown (no split is priced from it, and PAR004 does not judge an even split the job does not ask for). A layout
     * that fits gives vpp (its stages ÷ pp, stated for the CONSIST rules and bound when no flag writes it) and, with no
     * --num-layers, the layer count. One that only an open Megatron-LM pull request runs (m on several stages, L more than
     * once) is priced and is SYN010, a warning at the value ({@link NewerLayouts}).
     */
    private static void pipelineLayout(JobDraft j, List<Finding> out) {
        Located<String> v = j.pipelineLayout;
        j.pipelineLayout = null;
        String key = j.keys.getOrDefault(v, "pipeline_model_parallel_layout");
        String owner = j.name != null ? j.name.value() : j.file;
        PipelineLayout layout;
        try {
            layout = PipelineLayout.parse(v.value());
        } catch (PipelineLayout.Problem e) {
            out.add(Finding.of("SYN002", at(v, e.index()), j.format + ":" + owner + "/" + key, "'" + key + "' is '"
                    + dev.gpulint.spec.Quantities.shortText(v.value()) + "': " + e.getMessage() + "; the layout is left out of the estimate"));
            j.unknown.add(Specs.PIPELINE_LAYOUT);
            return;
        }
        long pp = j.pp != null ? j.pp.value() : j.unknown.contains("pp") ? 0 : 1;
        long layers = j.layers != null ? j.layers.value() : 0;
        String why = layout.problem(pp, layers, j.mtpLayers != null && j.mtpLayers.value() != null ? j.mtpLayers.value() : -1);
        // beside a hybrid pattern's '|' segments of another number of stages: SYN002 at the layout, which is left out (its
        // virtual stages with it) and the segments priced, as the native manifest gives it (PipelineLayout#segmentsProblem)
        if (why == null && j.hybridStages != null) {
            why = layout.segmentsProblem(j.keys.getOrDefault(j.hybridStages, "hybrid_layer_pattern"), j.hybridStages.value());
        }
        if (why != null) {
            out.add(Finding.of("SYN002", v.span(), j.format + ":" + owner + "/" + key, "'" + key + "' is '"
                    + dev.gpulint.spec.Quantities.shortText(v.value()) + "': " + why + "; the layout is left out of the estimate"));
            j.unknown.add(Specs.PIPELINE_LAYOUT);
            return;
        }
        List<Long> decoder = layout.stages().stream().map(st -> (long) st.decoder()).toList();
        Located<List<Long>> segments = j.hybridStages;
        if (segments != null && !segments.value().isEmpty() && !segments.value().equals(decoder)) {
            // Megatron-Core's HybridModel builds each stage's decoder layers from the pattern's '|' segments
            // (select_pipeline_segment) and never reads the layout for them: the segments are the split (hybridStages)
            j.unpriced.add(layout.besideSegments(key, j.keys.getOrDefault(segments, "hybrid_layer_pattern"), segments.value()));
        } else if (segments != null && !segments.value().isEmpty()) {
            // beside segments that agree, their split, read at the layout, as the native manifest prices it (SpecBuilder): the
            // layout's blocks count each m as one block, where HybridModel builds an MTP layer from its '/' group's letters
            // (MtpLayers#extraBlocks prices them on the last stage)
            j.stageLayers = j.key(key, new Located<>(segments.value(), v.span()));
        } else {
            j.stageLayers = j.key(key, new Located<>(layout.blocks(), v.span()));
            // mtp_loss_split: each loss slot's output layer, logits and loss on the stage that holds it (derive MtpLayers); GPTModel's
            // alone: a hybrid model's HybridModel builds no early loss stage (HYBRID_LOSSES)
            if (layout.lossSplit() && j.hybrid == null) {
                j.mtpLossStages = new Located<>(layout.stages().stream().map(st -> (long) st.loss()).toList(), v.span());
            }
        }
        // the newer Megatron-LM's rules (PipelineLayout#problem): which version's rule let the layout in, and what it does
        if (layout.mtpSplit()) j.unpriced.add(layout.mtpSplitNote(key, segments != null && !segments.value().isEmpty()));
        if (layout.mtpSplit()) out.add(NewerLayouts.mtpSplit(j.format + ":" + owner + "/" + key, key, v, layout, pp));
        if (layout.losses() > 1) out.add(NewerLayouts.lossSplit(j.format + ":" + owner + "/" + key, key, v, layout, pp));
        if (layout.lossSplit()) {
            j.unpriced.add(layout.lossSplitNote(key, j.mtpLossStages != null ? PipelineLayout.LOSSES_PRICED
                    : j.hybrid != null ? PipelineLayout.HYBRID_LOSSES : PipelineLayout.LOSSES_ON_SEGMENTS));
        }
        if (j.layers == null) j.layers = j.key(key, new Located<>(layout.decoderLayers(), v.span()));
        // the layout's m letters are the MTP layers it places (Megatron-Core asserts they match --mtp-num-layers)
        if (j.mtpLayers == null && layout.mtpLayers() > 0) j.mtpLayers = j.key(key, new Located<>((long) layout.mtpLayers(), v.span()));
        if (pp > 0) {
            long vpp = layout.stages().size() / pp;
            j.state("vpp", vpp, key + " (its " + layout.stages().size() + " stages ÷ pp " + pp + ")", Specs.StatedKind.CONFIG, v.span());
            if (j.vpp == null && vpp > 1) j.vpp = j.key(key, new Located<>(vpp, v.span()));
        }
    }

    /**
     * A hybrid pattern's '|' segments (HybridLayers) checked as Megatron-Core's select_pipeline_segment checks them
     * ({@link HybridPattern#problem}): a pattern it refuses is SYN002 at the pattern, and its split is left out (PAR004 does not
     * judge an even split the job does not ask for); one it builds is the job's split, stage by stage as a
     * --pipeline-model-parallel-layout's, and gives vpp (its segments ÷ pp). A layout written beside it is read for the
     * split only through them: one whose stages' decoder layers are the segments gives the same split, the segments' (the MTP
     * layers on the last stage, each its '/' group's blocks, as the native manifest prices them), and one that differs leaves the
     * split to the segments, as Megatron-Core's HybridModel builds it ({@link #pipelineLayout}).
     */
    private static void hybridStages(JobDraft j, List<Finding> out) {
        Located<List<Long>> v = j.hybridStages;
        j.hybridStages = null;
        String key = j.keys.getOrDefault(v, "hybrid_layer_pattern");
        long pp = j.pp != null ? j.pp.value() : j.unknown.contains("pp") ? 0 : 1;
        long vpp = j.vpp != null && j.vpp.value() != null ? j.vpp.value() : 0;
        String why = HybridPattern.problem(v.value(), pp, vpp, j.firstStageLayers != null || j.lastStageLayers != null);
        if (why != null) {
            String owner = j.name != null ? j.name.value() : j.file;
            out.add(Finding.of("SYN002", v.span(), j.format + ":" + owner + "/" + key, HybridPattern.refusal(key, v.value(), why)));
            if (!v.value().isEmpty()) j.unknown.add(Specs.PIPELINE_LAYOUT);
            return;
        }
        if (j.stageLayers != null || v.value().isEmpty()) return;
        j.stageLayers = j.key(key, new Located<>(v.value(), v.span()));
        int n = v.value().size();
        if (pp > 0) {
            long stages = n / pp;
            j.state("vpp", stages, key + " (its " + n + " segments between '|' ÷ pp " + pp + ")", Specs.StatedKind.CONFIG, v.span());
            if (j.vpp == null && stages > 1) j.vpp = j.key(key, new Located<>(stages, v.span()));
        }
    }

    /** The character {@code index} of a value's text where it is written: the value's span when it spans lines or is escaped. */
    static dev.gpulint.core.Span at(Located<String> v, int index) {
        dev.gpulint.core.Span s = v.span();
        int written = s.endColumn() - s.startColumn(), len = v.value().length();
        if (s.startLine() != s.endLine() || written < len || (written - len) % 2 != 0 || written - len > 2) return s;
        int column = s.startColumn() + (written - len) / 2 + index;
        return new dev.gpulint.core.Span(s.file(), s.startLine(), column, s.startLine(), column + 1);
    }

    private static final Schema.Field REDUCE = Schema.field(Schema.JOB, "optimizer", "grad_reduce_dtype");

    /**
     * The gradient reduction's dtype against optimizer.grad_reduce_dtype's values, under their torch names too (float32,
     * bfloat16, float16, as torchtitan writes them): anything else is SYN002 at the value.
     */
    private static boolean reduceDtype(JobDraft j, List<Finding> out) {
        String t = j.gradReduceDtype.value().strip().toLowerCase(java.util.Locale.ROOT);
        String as = switch (t) { case "float32" -> "fp32"; case "bfloat16" -> "bf16"; case "float16" -> "fp16"; default -> t; };
        if (REDUCE.values().contains(as)) return true;
        String key = j.keys.getOrDefault(j.gradReduceDtype, REDUCE.name());
        String owner = j.name != null ? j.name.value() : j.file;
        out.add(Finding.of("SYN002", j.gradReduceDtype.span(), j.format + ":" + owner + "/" + key, "'" + key + "' is '"
                + dev.gpulint.spec.Quantities.shortText(j.gradReduceDtype.value()) + "'; expected one of float32, bfloat16, float16 "
                + "(the dtype the gradient reduction runs in; left out, so the estimate takes the framework's default)"));
        return false;
    }

    /** What is wrong with a layer pattern for a model of {@code layers} (null: not known), or null when it reads and fits. */
    static String layerPattern(String text, Located<Long> layers) {
        String why = dev.gpulint.spec.LayerPattern.problem(text);
        if (why != null || layers == null || layers.value() == null || layers.value() < 1 || layers.value() > dev.gpulint.spec.LayerPattern.MAX_LAYERS) {
            return why;
        }
        try {
            dev.gpulint.spec.LayerPattern.parse(text, layers.value().intValue());
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
    }

    private static Located<Long> keep(JobDraft j, Schema.Field f, Located<Long> v, Set<Located<?>> bad, List<Finding> out,
                                      java.util.Map<String, String> texts) {
        return v == null || !valid(j, f, v, bad, out, texts) ? null : v;
    }

    private static boolean valid(JobDraft j, Schema.Field f, Located<Long> v, Set<Located<?>> bad, List<Finding> out,
                                 java.util.Map<String, String> texts) {
        if (bad.contains(v)) return false;
        String key = j.keys.getOrDefault(v, f.name());
        String message = f.outOfRange(key, v.value());
        // a number beyond a long is bound as the long's end: quote the digits written, as the native binder does
        String written = message != null && (v.value() == Long.MAX_VALUE || v.value() == Long.MIN_VALUE) ? WrittenNumbers.at(texts, v.span()) : null;
        if (written != null) message = f.outOfRange(key, written);
        if (message == null) return true;
        bad.add(v);
        String owner = j.name != null ? j.name.value() : j.file;
        out.add(Finding.of("SYN002", v.span(), j.format + ":" + owner + "/" + key, message));
        return false;
    }
}
