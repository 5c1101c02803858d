package dev.gpulint.derive.estimate;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.catalog.Catalog;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.estimate.Layout.Recompute;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Recomputation;
import dev.gpulint.spec.SequenceParallelDefault;
import dev.gpulint.spec.Specs;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A job's model shape, layout and hardware as the estimate needs them, from what its manifest (of any format)
 * states; what it does not state takes the documented default, and each default is listed in {@code assumptions}.
 * {@code missing} names what the estimate cannot do without (the model's layers, hidden size and heads; the GPU).
 */
public record JobInputs(ModelShape model, Layout layout, Hardware hardware, List<ParallelDim> order, StateBytes bytes,
                        List<String> assumptions, List<String> missing, Variants variants) {

    /** The inputs could be built: nothing is missing. */
    public boolean complete() { return missing.isEmpty(); }

    /**
     * @param gpus     plan for this many GPUs instead of the job's (0: as written)
     * @param measured nccl-tests bus bandwidths linked to the job's node group, per tier
     * @param overrides efficiencies by name (.gpulint.yaml plan:)
     */
    public static JobInputs of(Resolved.Job r, Catalog catalog, long gpus, Map<Tier, Double> measured, Map<String, Double> overrides) {
        List<String> as = new ArrayList<>(), missing = new ArrayList<>();
        Specs.Job j = r.spec();
        Specs.Model m = j.model();
        long layers = v(m == null ? null : m.layers()), hidden = v(m == null ? null : m.hiddenSize()),
                heads = v(m == null ? null : m.attentionHeads());
        java.util.Set<String> unknown = m == null ? java.util.Set.of() : m.unknown();
        if (layers <= 0 && !unknown.contains("model.layers")) missing.add("model.layers");
        if (hidden <= 0 && !unknown.contains("model.hidden_size")) missing.add("model.hidden_size");
        if (heads <= 0 && !unknown.contains("model.attention_heads")) missing.add("model.attention_heads");
        // a size written but not known (out of bounds: SYN002 at the value) takes no default: the job cannot be priced
        for (String u : unknown) missing.add(u + " (written as a placeholder, or out of bounds: SYN002 at the value)");
        long tp = r.tp(), pp = r.pp(), cp = r.cp(), ep = r.ep(), vpp = r.virtualPp();
        if (tp <= 0 || pp <= 0 || cp <= 0 || ep <= 0 || vpp <= 0) missing.add("parallel sizes (written as placeholders, or out of bounds: SYN002 at the value)");
        if (r.zeroStage() < 0) missing.add("optimizer.zero_stage (written as a placeholder, or out of bounds: SYN002 at the value)");
        Resolved.Group g = r.group();
        Catalog.Gpu gpu = g == null ? null : g.gpu();
        if (gpu == null) missing.add("the GPU (a cluster node group with a GPU model the catalog knows)");
        long gpn = r.gpusPerNode() > 0 ? r.gpusPerNode() : g != null ? g.gpusPerNode() : 0;
        if (gpn <= 0) missing.add("GPUs per node");
        long world = gpus > 0 ? gpus : r.totalGpus();
        long model = Math.max(1, tp) * Math.max(1, pp) * Math.max(1, cp);
        long dp = gpus > 0 ? world / model : r.dpEffective();
        if (dp <= 0 || (gpus > 0 && world % model != 0)) missing.add("dp (the job's GPU count, or parallelism.dp)");
        if (!missing.isEmpty()) return new JobInputs(null, null, null, r.order(), null, as, missing, Variants.NONE);

        String shapeFrom = shapeSource(j);
        if (shapeFrom != null) as.add("model shape (what the files do not write) from " + shapeFrom);
        long kv = v(m.kvHeads());
        if (kv <= 0) { kv = heads; as.add("model.kv_heads not given: " + heads + " (multi-head attention)"); }
        long headDim = v(m.headDim());
        if (headDim <= 0) headDim = Math.max(1, hidden / heads);
        boolean gated = m.gatedMlp() != null && m.gatedMlp().value();
        if (m.gatedMlp() == null) as.add("model.gated_mlp not given: false (GeLU MLP, two matrices)");
        long statedFfn = v(m.ffnHiddenSize());
        // an MoE model's experts have their own MLP size (--moe-ffn-hidden-size); the stated ffn is then the dense layers'
        long expertFfn = m.moe() == null || m.moe().expertFfn() == null ? 0 : v(m.moe().expertFfn());
        long ffn = expertFfn > 0 && v(m.experts()) > 1 ? expertFfn : statedFfn;
        if (ffn <= 0) {
            ffn = gated ? (8 * hidden / 3) / 64 * 64 : 4 * hidden;
            as.add("model.ffn_hidden_size not given: " + ffn + (gated ? " (8h/3 rounded down to 64, Megatron's --swiglu default)" : " (4 × hidden)"));
        }
        long vocab = v(m.vocabSize());
        if (vocab <= 0) { vocab = 50257; as.add("model.vocab_size not given: 50,257 (GPT-2's)"); }
        else if (j.statedWhere("model_vocab") != null) as.add("model.vocab_size not written: " + vocab + ", the vocabulary of " + j.statedWhere("model_vocab"));
        long padded = ModelShape.padVocab(vocab, tp);
        if (padded != vocab) as.add("vocabulary padded to " + padded + " (a multiple of 128 × tp, as Megatron pads)");
        long seq = v(m.seqLength());
        if (seq <= 0) { seq = 2048; as.add("model.seq_length not given: 2048"); }
        boolean tied = m.tiedEmbeddings() == null || m.tiedEmbeddings().value();
        if (m.tiedEmbeddings() == null) as.add("model.tied_embeddings not given: true (Megatron's default)");
        long experts = Math.max(1, v(m.experts()));
        long topK = v(m.topK());
        if (topK <= 0) topK = experts > 1 ? 2 : 1;
        ModelShape.Dtype dtype = ModelShape.Dtype.parse(m.dtype() == null ? null : m.dtype().value());
        if (dtype == null) {
            as.add("model.dtype " + (m.dtype() == null ? "not given" : "'" + m.dtype().value() + "' not known") + ": bf16");
            dtype = ModelShape.Dtype.BF16;
        }
        ModelShape shape = new ModelShape((int) layers, hidden, heads, kv, headDim, ffn, padded, seq, gated, tied, (int) experts,
                (int) Math.min(topK, experts), dtype, LatentAttention.of(j, as));

        Specs.Batch b = j.batch();
        long micro = b == null ? 0 : v(b.microBatchSize());
        if (micro <= 0) { micro = 1; as.add("batch.micro_batch_size not given: 1"); }
        long global = b == null ? 0 : v(b.globalBatchSize());
        if (global <= 0) {
            long mbs = b == null ? 0 : v(b.microBatches());
            global = micro * dp * Math.max(1, mbs);
            as.add("batch.global_batch_size not given: " + global + " (micro batch × dp" + (mbs > 0 ? " × micro_batches)" : ", one micro-batch)"));
        }
        Specs.Optimizer o = j.optimizer();
        boolean distributed = o != null && o.distributed() != null && o.distributed().value();
        Recomputation written = j.recompute();
        boolean formatDefault = written != null && written.formatDefault();
        Recompute rc = recompute(written);
        int every = Math.max(1, every(written));
        if (formatDefault && rc != null) {
            String format = j.origin() == null || j.origin().format() == null ? "the format" : j.origin().format();
            as.add("recompute not written: " + format + "'s default, [activation_checkpoint] mode \"selective\" with selective_ac_option \"2\""
                    + " (torchtitan/config/job_config.py ActivationCheckpoint): " + (rc == Recompute.EVERY ? "one layer in " + every : rc.id()));
        }
        if (rc == null) { rc = Recompute.SELECTIVE; as.add("recompute " + (written == null ? "not given" : "'" + written.granularity().value() + "' not known") + ": selective (Megatron's and NeMo's usual setting; with flash attention it stores what no recompute does)"); }
        else if (rc == Recompute.OP) as.add("recompute op: torchtitan's op-level selective checkpointing keeps the outputs of every other matmul, of SDPA and of the tp reduce-scatters and recomputes the rest (Checkpointing, docs/plan.md)");
        else if (rc == Recompute.EVERY) as.add("recompute one layer in " + every + ": those layers fully checkpointed, the others keep everything");
        Specs.Parallelism par = j.parallelism();
        boolean sp = sequenceParallel(j, tp);
        if (tp > 1 && (par == null || par.sequenceParallel() == null)) as.add(sequenceParallelDefault(j).assumption());
        if (r.zeroStage() == 0 && !distributed && (long) dp * cp > 1 && (o == null || o.zeroStage() == null)) {
            String config = j.statedWhere("launch_config");
            as.add("ZeRO stage not stated: 0, every data-parallel rank holds the whole model states (no zero_optimization.stage,"
                    + " distributed optimizer or FSDP sharding is written in the files read)" + (config == null ? ""
                    : "; the configuration the launch names, " + config + ", is not among the files read: its sharding (a DeepSpeed"
                    + " ZeRO stage, FSDP) is not known; lint it with the job to price it"));
        }
        Layout layout = new Layout((int) tp, (int) pp, (int) dp, (int) cp, (int) ep, (int) vpp, (int) micro, global,
                (int) r.zeroStage(), distributed, rc, sp, PipelineSplit.of(par), offloadLayers(j), every, HybridInputs.shard(par, dp, as),
                scheduleBatch(b, pp));
        if (layout.offloadLayers() > 0) {
            as.add("CPU activation offload: " + layout.offloadLayers() + " layers' activations per stage kept in host memory, one"
                    + " layer's worth on the GPU while it is copied; the copies over PCIe are priced (offload)");
        }
        if (pp > 1 && !layout.split().equals(PipelineSplit.EVEN)) {
            // torchtitan deals its layers itself (its split points, else generate_llm_fqn_per_model_part: TorchtitanPipeline)
            dev.gpulint.spec.Format format = j.origin() == null ? null : dev.gpulint.spec.Format.of(j.origin().format());
            as.add("layers over the pipeline: " + layout.split().describe(layers, (int) pp) + switch (format == null ? dev.gpulint.spec.Format.NATIVE : format) {
                case TORCHTITAN -> ", as torchtitan's pipeline split builds them (its split points, else the embedding and the output a layer each)";
                // gpt-neox: DeepSpeed's PipelineModule partitions the layers (bind/adapt/PipePartition)
                case GPT_NEOX -> ", as DeepSpeed's PipelineModule partitions them (pipe-partition-method; PipePartition)";
                // a hybrid's pattern with '|': MambaStack builds each segment on its stage (spec/HybridPattern); one without '|'
                // laid out by the job's layout, which slices the pattern (each m one block there: MambaLayers.onStage)
                default -> j.model() != null && j.model().hybrid() != null && layout.split().laidOut((int) pp)
                        ? segmented(j.model().hybrid(), par)
                                ? ", as Megatron-Core's select_pipeline_segment builds the hybrid pattern's '|' segments"
                                : ", as the job's pipeline layout lays out the hybrid pattern" + (layout.split().stages().stream()
                                        .mapToLong(Long::longValue).sum() > layers ? " (each m one entry there, its MTP layer's '/' group's"
                                        + " blocks priced on its stage)" : "")
                        : ", as Megatron-Core's get_num_layers_to_build builds them";
            });
        }
        StateBytes bytes = StateBytes.of(j, r.zeroStage());
        as.add(bytes.describe(layout.distributedOptimizer(), layout.zeroStage()));
        as.add("flash attention (no s² score activations), activations per Korthikanti et al. 2022 as Megatron's theoretical_memory_usage.py; "
                + MemoryModel.lossWords(dtype.activationBytes()) + MemoryModel.replicatedLossInputs(layout, dtype.activationBytes())
                + LossKernel.of(j).describe(j, dtype));
        if ((long) dp * cp > 1) as.add(GradientReduce.of(j, layout.zeroStage()).why());
        HybridInputs.describe(layout, as);
        if (j.origin() != null) as.addAll(j.origin().unpriced());     // settings read but not priced apart (UnpricedSettings)
        PipelineSplit.describeLayout(j, as);     // the native pipeline_layout's words, as the adapters' above
        Hardware hw = Hardwares.of(catalog, gpu, GpuMemory.of(g).orElse(null), GpuClock.of(g), Links.of(catalog, gpu, g, gpn), measured,
                overrides, as).orElse(null);
        if (hw == null) {
            missing.add("dense peaks and efficiencies for " + gpu.name() + " in the catalog");
            return new JobInputs(null, null, null, r.order(), null, as, missing, Variants.NONE);
        }
        String path = Hardwares.precision(hw, dtype);
        if (path != null) as.add(path);
        String mxfp8 = Hardwares.mxfp8Casts(hw, dtype);
        if (mxfp8 != null) as.add(mxfp8);
        StateOffload offload = StateOffload.of(j);
        if (offload.any()) as.add(offload.describe(layout.zeroStage()));
        Float8Scaling float8 = Float8Scaling.of(j, hw.gemmPath(dtype), as);
        MoeShape moe = MoeShape.of(j, shape, statedFfn, hw.links(), as);
        Variants variants = new Variants(moe, AttentionShape.of(j, seq, as).with(AttentionKernel.of(j, hw, as)), offload,
                TpOverlap.of(j, tp, as), EagerKernels.of(j, as), float8,
                ParamGather.of(j, hw.gemmPath(dtype), float8, layout.zeroStage() >= 1 || layout.distributedOptimizer(), as),
                RecomputeModules.of(written, rc, as),
                LayerPrecision.of(j, shape, hw, as),
                ShardedGathers.of(j, shape, layout.zeroStage() >= 3, layout.hybrid(), as),
                MambaLayers.of(m.hybrid(), shape, moe, as),
                OptimizerStepGather.of(j, layout, layout.zeroStage() >= 1 || layout.distributedOptimizer(), as),
                TpLayoutCopy.of(j, tp, sp, as), MtpLayers.of(j, as), LossKernel.of(j));
        String gdnCp = variants.mamba() == null ? null : variants.mamba().contextParallel(cp);
        if (gdnCp != null) as.add(gdnCp);
        return new JobInputs(shape, layout, hw, r.order(), bytes, as, missing, variants);
    }

    /**
     * Whether the job runs sequence parallelism at {@code tp}: the value its files write, else its format's default
     * ({@link #sequenceParallelDefault}); off with tp = 1 (nothing to shard). The plan's layout and the search's written
     * layout (plan.search.JobLayouts#current) both read it.
     */
    public static boolean sequenceParallel(Specs.Job j, long tp) {
        if (tp <= 1) return false;
        Specs.Parallelism par = j.parallelism();
        if (par != null && par.sequenceParallel() != null) return Boolean.TRUE.equals(par.sequenceParallel().value());
        return sequenceParallelDefault(j).on();
    }

    /** The default the job runs when its files do not write sequence parallelism (Format#sequenceParallelDefault). */
    public static SequenceParallelDefault sequenceParallelDefault(Specs.Job j) {
        return sequenceParallelDefaultFormat(j).sequenceParallelDefault();
    }

    /**
     * The framework whose sequence-parallel default the job runs: its format's, except a launch (script, Kubernetes,
     * SkyPilot, AWS Batch: a format whose own default is not known) whose command gives Megatron-LM's
     * --tensor-model-parallel-size, which runs Megatron-LM's argparse (megatron/training/arguments.py), where
     * --sequence-parallel is a store_true switch: off unless passed (Megatron-DeepSpeed's the same).
     */
    public static dev.gpulint.spec.Format sequenceParallelDefaultFormat(Specs.Job j) {
        if (j.origin() == null) return dev.gpulint.spec.Format.NATIVE;
        dev.gpulint.spec.Format f = dev.gpulint.spec.Format.of(j.origin().format());
        if (!f.sequenceParallelDefault().known() && "--tensor-model-parallel-size".equals(j.origin().key(Specs.Origin.TP))) {
            return dev.gpulint.spec.Format.MEGATRON;
        }
        return f;
    }

    /**
     * The batch one pipeline schedule runs (torchtitan's local batch at pp above 1; Layout.schedule), 0 when the step is one
     * schedule: the written layout's, and every candidate's of the job at its own pp (the plan's search, JobLayouts.scheduled).
     */
    public static int scheduleBatch(Specs.Batch b, long pp) {
        long local = pp <= 1 || b == null || b.scheduleBatch() == null || b.scheduleBatch().value() == null ? 0 : b.scheduleBatch().value();
        return local < 1 || local > Integer.MAX_VALUE ? 0 : (int) local;
    }

    /** The layers whose activations the job offloads to host memory (0 without offload). */
    static int offloadLayers(Specs.Job j) {
        Specs.Offload o = j.offload();
        if (o == null || o.activationLayers() == null || o.activationLayers().value() == null) return 0;
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE, o.activationLayers().value()));
    }

    /** Where the job's model shape came from when it names its model (a config.json or the model catalog), else null. */
    static String shapeSource(Specs.Job j) {
        return j.statedWhere("model_shape");
    }

    /** The recompute choice of a job's recompute as written, or null when its granularity is no word the estimate knows. */
    static Recompute recompute(Recomputation r) {
        if (r == null) return null;
        return switch (r.granularity().value().trim().toLowerCase(Locale.ROOT)) {
            case "none", "false", "null", "no" -> Recompute.NONE;
            case "selective" -> Recompute.SELECTIVE;
            case "full", "true", "block", "uniform" -> Recompute.FULL;
            case "op" -> Recompute.OP;
            case "every" -> r.every() >= 1 ? Recompute.EVERY : null;
            default -> null;
        };
    }

    /** n of recompute every (one layer in n fully recomputed), else 1. */
    static int every(Recomputation r) {
        return recompute(r) == Recompute.EVERY ? r.every() : 1;
    }

    private static long v(Located<Long> x) {
        return x == null || x.value() == null ? 0 : x.value();
    }

    /**
     * The stages priced are the hybrid pattern's '|' segments: the split is read at the pattern (SpecBuilder#hybridStages,
     * HybridLayers), not at a layout (whose stages count its m letters, and which a pattern without '|' leaves the split to).
     */
    private static boolean segmented(dev.gpulint.spec.Specs.Hybrid h, Specs.Parallelism par) {
        return h.pattern() != null && par.stageLayers() != null && h.pattern().span() != null
                && h.pattern().span().equals(par.stageLayers().span());
    }
}
