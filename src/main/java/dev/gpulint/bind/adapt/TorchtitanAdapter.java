package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.scalar;

import dev.gpulint.spec.Format;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs.StatedKind;
import dev.gpulint.tree.MappingNode;
import java.util.List;

/**
 * torchtitan job configurations (TOML): {@code [parallelism]} degrees, {@code [training]} batch and
 * sequence length. Recognised by a {@code [parallelism]} table with one of torchtitan's degree keys, or, in the layout
 * before late 2024, by a {@code [training]} table with them ({@code [experimental]} held the pipeline and context
 * degrees then).
 * {@code data_parallel_shard_degree = -1} (the default) is "the rest of the GPUs": dp is then
 * derived from the GPU count, when a launch script linted in the same run gives it. The degrees'
 * product, when every degree is written, is a statement of the world size for the cross-file check
 * against the launch script (CONSIST007).
 */
final class TorchtitanAdapter implements FormatAdapter {
    static final String FORMAT = Format.TORCHTITAN.display();

    static final List<String> DEGREES = List.of("data_parallel_replicate_degree", "data_parallel_shard_degree",
            "tensor_parallel_degree", "pipeline_parallel_degree", "context_parallel_degree", "expert_parallel_degree");

    @Override public String id() { return "torchtitan"; }

    @Override public String displayName() { return FORMAT; }

    @Override public boolean accepts(ForeignDocument doc) { return accepts(doc.root()); }

    @Override public void bind(ForeignDocument doc, DraftSink sink) {
        JobDraft j = bind(doc.root(), doc.file(), doc.name());
        TorchtitanPipeline.read(j, doc.root(), sink::finding);       // the split points: each stage's layers
        CompileSettings.torchtitan(j, doc.root());                  // torch.compile: fused or eager elementwise kernels
        Float8Recipe.torchtitan(j, doc.root());                     // Float8 recipe_name: tensorwise or rowwise scaling
        OffloadSettings.torchtitan(j, doc.root());
        lossParallel(j, doc.root());                                // disable_loss_parallel: the loss on the whole vocabulary
        sink.draft(j);
    }

    /**
     * {@code [parallelism] disable_loss_parallel} (earlier {@code [training]}): true runs the loss on the logits gathered whole on
     * every tp rank (apply_tp: the output layer's {@code output_layouts=Shard(-1) if loss_parallel else Replicate()}), stated
     * under Specs.Origin#LOSS_PARALLEL for derive/estimate/LossKernel; a value not a boolean is SYN002 and torchtitan's default.
     */
    private static void lossParallel(JobDraft j, MappingNode root) {
        String table = scalar(map(root, "parallelism"), "disable_loss_parallel") != null ? "parallelism" : "training";
        dev.gpulint.tree.ScalarNode s = scalar(map(root, table), "disable_loss_parallel");
        String key = "[" + table + "] disable_loss_parallel";
        Located<Boolean> off = DraftValues.bool(j, s, key, "the estimate takes torchtitan's default, false: the loss parallel over tp");
        if (off != null && off.value() != null) {
            j.stated.add(new dev.gpulint.spec.Specs.Stated(dev.gpulint.spec.Specs.Origin.LOSS_PARALLEL, off.value() ? "off" : "on", key,
                    StatedKind.CONFIG, off.span()));
        }
    }

    static boolean accepts(MappingNode root) {
        MappingNode p = map(root, "parallelism"), t = map(root, "training");
        return (p != null && DEGREES.stream().anyMatch(k -> p.get(k).isPresent()))
                || (p == null && t != null && (t.get("data_parallel_degree").isPresent() || DEGREES.stream().anyMatch(k -> t.get(k).isPresent())));
    }

    /**
     * A degree where the file writes it: {@code [parallelism]} (torchtitan's layout since late 2024), else the earlier
     * layout's {@code [training]} (data-parallel and tensor degrees; the first releases' {@code data_parallel_degree},
     * read as the shard degree) and {@code [experimental]} (pipeline and context degrees).
     */
    private static dev.gpulint.tree.ScalarNode degree(MappingNode root, String key) {
        for (String table : List.of("parallelism", "training", "experimental")) {
            dev.gpulint.tree.ScalarNode s = scalar(map(root, table), key);
            if (s == null && key.equals("data_parallel_shard_degree") && !table.equals("parallelism")) s = scalar(map(root, table), "data_parallel_degree");
            if (s != null) return s;
        }
        return null;
    }

    /** torchtitan's {@code [parallelism] fsdp_reshard_after_forward} values (torchtitan/config/job_config.py). */
    private static final List<String> RESHARD_POLICIES = List.of("default", "always", "never");

    /**
     * The FSDP2 stage torchtitan's {@code [parallelism] fsdp_reshard_after_forward} runs, at the value (the sharding degree's
     * stage 3 when it is "always", or "default" without pipeline parallelism). torchtitan's apply_fsdp
     * (torchtitan/models/llama3/infra/parallelize.py, pytorch/torchtitan@018740b7aae7846d24954539244c78215dbd181f) passes
     * every transformer block's and the embedding's {@code fully_shard} {@code reshard_after_forward} = True for "always",
     * False for "never", and for "default" {@code not pp_enabled} ("For PP, by default do not reshard after forward to avoid
     * per-microbatch all-gathers"); the final norm and output projection are resharded only under "always". False is FSDP2's
     * ZeRO-2 (fully_shard's docstring: "keeps the unsharded parameters in memory after forward and avoids the all-gather in
     * backward"): stage 2, one all-gather per unit and micro-batch and the whole weights held (derive/estimate HybridSync,
     * StateShards). "default" taken (not written, or written) with pipeline parallelism is one line of the plan's assumptions;
     * a value torchtitan refuses (its ValueError "Invalid reshard_after_forward_policy") is SYN002 and read as "default".
     */
    private static void reshardAfterForward(JobDraft j, MappingNode root) {
        dev.gpulint.tree.ScalarNode s = scalar(map(root, "parallelism"), "fsdp_reshard_after_forward");
        Located<String> policy = DraftValues.choice(j, s, "[parallelism] fsdp_reshard_after_forward", RESHARD_POLICIES,
                "the estimate takes torchtitan's \"default\"");
        boolean pp = j.pp != null && j.pp.value() > 1;
        // the policy as written: apply_fsdp reshards the final norm and output's unit after forward only when it is "always"
        // (derive/estimate TitanUnits)
        if (policy != null) j.stated.add(new dev.gpulint.spec.Specs.Stated(dev.gpulint.spec.Specs.Origin.FSDP_RESHARD, policy.value(),
                "[parallelism] fsdp_reshard_after_forward", StatedKind.CONFIG, policy.span()));
        if (policy != null && !policy.value().equals("default")) {
            j.zeroStage = j.key("[parallelism] fsdp_reshard_after_forward", new Located<>(policy.value().equals("never") ? 2L : 3L, policy.span()));
            return;
        }
        if (!pp) return;        // "default" without pp reshards every block as "always" does: the sharding degree's stage 3
        dev.gpulint.core.Span at = policy != null ? policy.span() : j.pp.span();
        j.zeroStage = j.key(policy != null ? "[parallelism] fsdp_reshard_after_forward" : "pipeline_parallel_degree", new Located<>(2L, at));
        j.unpriced.add("fsdp_reshard_after_forward " + (policy != null ? "= \"default\"" : "not written (torchtitan's \"default\")")
                + ": with pipeline parallelism torchtitan keeps the gathered parameters from forward to backward (reshard_after_forward"
                + " False, ZeRO-2): the stage's whole weights held on every GPU, each layer's parameters all-gathered by the step's first"
                + " forward and its gradients reduce-scattered once per step, as torchtitan's pipeline schedule defers them to the step's"
                + " last backward");
    }

    static JobDraft bind(MappingNode root, String file, String jobName) {
        JobDraft j = new JobDraft(FORMAT, file, root.span());
        MappingNode par = map(root, "parallelism");
        String table = par != null ? "parallelism" : "training";
        j.name = new Located<>(jobName, root.entry(table).orElseThrow().key().span());
        j.tp = j.key("tensor_parallel_degree", TreeValues.whole(degree(root, "tensor_parallel_degree")));
        j.pp = j.key("pipeline_parallel_degree", TreeValues.whole(degree(root, "pipeline_parallel_degree")));
        j.cp = j.key("context_parallel_degree", TreeValues.whole(degree(root, "context_parallel_degree")));
        j.ep = j.key("expert_parallel_degree", TreeValues.whole(degree(root, "expert_parallel_degree")));
        Located<Long> replicate = TreeValues.whole(degree(root, "data_parallel_replicate_degree"));
        Located<Long> shard = TreeValues.whole(degree(root, "data_parallel_shard_degree"));
        long rep = replicate == null ? 1 : replicate.value();
        if (shard != null && shard.value() >= 1 && rep >= 1) {
            // dp as Megatron counts it: replicas × shards
            j.dp = j.key("data_parallel_shard_degree", mul(rep, shard.value()) < 0 ? null : new Located<>(mul(rep, shard.value()), shard.span()));
        } else if (shard == null || shard.value() != -1) {
            j.dp = j.key("data_parallel_shard_degree", shard);              // 0 or < -1: the schema's bounds report it
        }
        // HSDP (replicate > 1 beside sharding): the states shard over the shard group only, replicas all-reduce
        if (rep > 1 && shard != null && shard.value() > 1) j.dpShard = j.key("data_parallel_shard_degree", shard);
        else if (rep > 1 && (shard == null || shard.value() == -1)) j.dpReplicate = j.key("data_parallel_replicate_degree", replicate);
        long product = shard == null || shard.value() < 1 ? -1 : j.dp == null ? -1 : j.dp.value();
        for (Located<Long> d : java.util.Arrays.asList(j.tp, j.pp, j.cp)) {
            if (product < 0) break;
            if (d != null && d.value() < 1) product = -1;
            else if (d != null) product = mul(product, d.value());
        }
        if (product > 0) {
            j.state("world", product, (par != null ? "[parallelism] " : "[training] and [experimental] ")
                    + "data_parallel_replicate_degree × data_parallel_shard_degree × "
                    + "context_parallel_degree × tensor_parallel_degree × pipeline_parallel_degree", StatedKind.CONFIG,
                    root.entry(table).orElseThrow().key().span());
        }
        MappingNode training = map(root, "training");
        if (training != null) {
            Located<Long> local = TreeValues.whole(scalar(training, "local_batch_size"));
            if (local == null) local = TreeValues.whole(scalar(training, "batch_size"));      // the name before torchtitan 0.2
            j.micro = j.key(scalar(training, "local_batch_size") != null ? "local_batch_size" : "batch_size", local);
            Located<Long> global = TreeValues.whole(scalar(training, "global_batch_size"));
            j.global = global == null || global.value() == -1 ? null : j.key("global_batch_size", global);
            j.seqLength = j.size(scalar(training, "seq_len"), "seq_len", "model.seq_length");
            if (j.seqLength == null) tokenCounts(j, training);
            j.tpActivationLayout = activationLayout(j, training);
        }
        unstatedBatch(j, root, training);
        pipelineMicroBatch(j, root, par, training);
        plan(j, root, par != null ? par : training, training, shard);
        return j;
    }

    /** torchtitan's default micro-batch, in sequences: {@code local_batch_size} (earlier {@code batch_size}) 8. */
    static final long DEFAULT_LOCAL_BATCH = 8;

    /** torchtitan's default micro-batch in tokens since its PR #4121: {@code num_tokens_per_microbatch_per_dp_rank} 16,384. */
    static final long DEFAULT_MICROBATCH_TOKENS = 16_384;

    /**
     * A micro-batch the file does not write is torchtitan's default, not the estimate's 1: {@code [training] local_batch_size = 8}
     * (Training in torchtitan/config/job_config.py, pytorch/torchtitan at 6404b932421f5ce382e7dac5ad381b2c17b1373c and
     * 000204a4a8bf3d0f31adc44fc29855fbb6ea13d8; the first releases' {@code --training.batch_size}, default 8, in
     * torchtitan/config_manager.py at 0011fb905e9561a51af0f265e35d989f7448b1d8), and since torchtitan's PR #4121
     * {@code num_tokens_per_microbatch_per_dp_rank = 16384} tokens (TrainingConfig in torchtitan/config/training.py at
     * f204eb63c07b5b76df3a00a5d78c11c70272b943), that many ÷ {@code max_context_length} sequences (8 at its default 2,048).
     * A file written with the new names (one of them present: {@link #activationLayout} "sbh") takes the token default over its
     * sequence, one that does not divide it is left to the estimate's default, which says so; otherwise 8. Placed at the
     * {@code [training]} table (else the file's first table) and said among the plan's assumptions; a key written but not a
     * whole number is its own finding (left unread), not defaulted.
     */
    private static void unstatedBatch(JobDraft j, MappingNode root, MappingNode training) {
        if (j.micro != null) return;
        MappingNode par = map(root, "parallelism");
        boolean folded = training != null && List.of("num_tokens_per_microbatch_per_dp_rank", "max_context_length", "num_tokens_per_train_step")
                .stream().anyMatch(k -> training.get(k).isPresent()) || par != null && par.get("num_pp_microbatches").isPresent();
        for (String k : List.of("local_batch_size", "batch_size", "num_tokens_per_microbatch_per_dp_rank")) {
            if (training != null && training.get(k).isPresent()) return;
        }
        dev.gpulint.core.Span at = (training != null ? root.entry("training").orElseThrow() : root.entries().get(0)).key().span();
        if (!folded) {
            j.micro = j.key("local_batch_size (not written: torchtitan's default " + DEFAULT_LOCAL_BATCH + ")", new Located<>(DEFAULT_LOCAL_BATCH, at));
            j.unpriced.add("[training] local_batch_size not written: " + DEFAULT_LOCAL_BATCH + " sequences per micro-batch, torchtitan's"
                    + " default (Training.local_batch_size in torchtitan/config/job_config.py; batch_size before it, also 8)");
            return;
        }
        long seq = j.seqLength == null || j.seqLength.value() == null ? 2048 : j.seqLength.value();
        if (seq < 1 || seq > DEFAULT_MICROBATCH_TOKENS || DEFAULT_MICROBATCH_TOKENS % seq != 0) return;
        long n = DEFAULT_MICROBATCH_TOKENS / seq;
        j.micro = j.key("num_tokens_per_microbatch_per_dp_rank (not written: torchtitan's default " + DEFAULT_MICROBATCH_TOKENS
                + ") ÷ max_context_length", new Located<>(n, at));
        j.unpriced.add("[training] num_tokens_per_microbatch_per_dp_rank not written: torchtitan's default " + DEFAULT_MICROBATCH_TOKENS
                + " tokens (TrainingConfig in torchtitan/config/training.py) ÷ max_context_length " + seq + " = " + n + " sequences per micro-batch");
    }

    /** torchtitan's default pipeline micro-batch, in sequences: {@code [parallelism] pipeline_parallel_microbatch_size} 1. */
    static final long DEFAULT_PP_MICROBATCH = 1;

    /**
     * With pipeline parallelism torchtitan does not run the local batch as one micro-batch: build_pipeline_schedule splits it,
     * {@code n_microbatches = local_batch_size // pipeline_parallel_microbatch_size} (torchtitan/distributed/pipeline_parallel.py),
     * and {@code pipeline_parallel_microbatch_size} defaults to 1 (Parallelism in torchtitan/config/job_config.py at
     * 6404b932421f5ce382e7dac5ad381b2c17b1373c; "the total number of microbatches by dividing local_batch_size with
     * pipeline_parallel_microbatch_size"). So at pp &gt; 1 the micro-batch is that size, and a step runs local ÷ it of them per
     * data-parallel replica (the global batch local × dp, unless written: then global ÷ (size × dp), gradient accumulation
     * included). The default taken is one line of the plan's assumptions, beside the local batch's (not when the local batch is
     * that size: one micro-batch of it either way). Read for the sequence-named
     * {@code [training]} batch under a {@code [parallelism]} table; the folded token names (PR #4121) count the micro-batches
     * instead ({@link #foldedCount}), and the first releases' {@code [experimental]} pipeline has its own count
     * ({@link #pipelineCount}). A size that is not a whole number is left unread; one below 1 or that does not divide the local
     * batch, which torchtitan refuses, is SYN002 at the value (DraftValues.refuse) and left unread.
     */
    private static void pipelineMicroBatch(JobDraft j, MappingNode root, MappingNode par, MappingNode training) {
        if (pipelineCount(j, root)) return;         // the releases before the size: the count written (or pp)
        if (par == null || j.pp == null || j.pp.value() == null || j.pp.value() <= 1 || j.micro == null || j.micro.value() == null) return;
        if (folded(j, par)) { foldedCount(j, root, par); return; }     // the token names (PR #4121): a count per schedule
        long local = j.micro.value();
        dev.gpulint.tree.ScalarNode written = scalar(par, "pipeline_parallel_microbatch_size");
        Located<Long> size = TreeValues.whole(written);
        if (written != null && size == null) return;
        if (size != null && (size.value() < 1 || local % size.value() != 0)) {
            // build_pipeline_schedule (torchtitan/distributed/pipeline_parallel.py at 02ef790c79614758f85880e173d2338d7de502a3)
            // raises ValueError for a size that does not divide the local batch; 0 divides by zero there, and a negative size
            // gives a negative count: torchtitan runs none of them
            String localKey = j.keyOf(j.micro, "local_batch_size");
            DraftValues.refuse(j, written.span(), "[parallelism] pipeline_parallel_microbatch_size", written.text(),
                    "a whole number of at least 1 that divides " + localKey + " " + local + (size.value() == 0 ? " (torchtitan's"
                            + " build_pipeline_schedule takes batch_size % microbatch_size: ZeroDivisionError)" : size.value() < 1 ? ""
                            : " (torchtitan's build_pipeline_schedule raises ValueError \"Batch size " + local + " must be divisible by"
                            + " microbatch_size " + size.value() + "\")"),
                    "the estimate does not split the local batch " + local + " into pipeline micro-batches (torchtitan refuses the job)");
            return;
        }
        boolean defaulted = size == null;
        if (defaulted) size = new Located<>(DEFAULT_PP_MICROBATCH, root.entry("parallelism").orElseThrow().key().span());
        if (local % size.value() != 0) return;
        Located<Long> localAt = j.micro;
        j.micro = j.key(defaulted ? "pipeline_parallel_microbatch_size (not written: torchtitan's default " + DEFAULT_PP_MICROBATCH + ")"
                : "pipeline_parallel_microbatch_size", size);
        if (j.global == null) j.microBatches = new Located<>(local / size.value(), localAt.span());
        j.localBatch = localAt;                 // PAR006 names the count as local_batch_size ÷ pipeline_parallel_microbatch_size
        if (defaulted && local != size.value()) {      // a local batch of 1 is one micro-batch of 1 either way: nothing to say
            j.unpriced.add("[parallelism] pipeline_parallel_microbatch_size not written: " + DEFAULT_PP_MICROBATCH + " sequence per pipeline"
                    + " micro-batch, torchtitan's default (Parallelism.pipeline_parallel_microbatch_size in torchtitan/config/job_config.py);"
                    + " the local batch " + local + " runs as " + local / size.value() + " micro-batches per "
                    + (j.global == null ? "step" : "pipeline schedule, one schedule per gradient-accumulation step") + " (n_microbatches ="
                    + " local_batch_size // pipeline_parallel_microbatch_size, torchtitan/distributed/pipeline_parallel.py)");
        }
    }

    /** torchtitan's default count of pipeline micro-batches per schedule since its PR #4121: {@code num_pp_microbatches} 1. */
    static final long DEFAULT_PP_MICROBATCHES = 1;

    /** The file is written for torchtitan after its PR #4121: a token name in {@code [training]}, or {@code num_pp_microbatches}. */
    private static boolean folded(JobDraft j, MappingNode par) {
        return "sbh".equals(j.tpActivationLayout == null ? null : j.tpActivationLayout.value())
                || par != null && par.get("num_pp_microbatches").isPresent();
    }

    /**
     * torchtitan since its PR #4121 ("fold batch dim") counts the pipeline's micro-batches, it does not split a local batch:
     * {@code [parallelism] num_pp_microbatches} (default 1, "Number of pipeline microbatches per data-parallel rank and gradient
     * accumulation iteration": ParallelismConfig in torchtitan/config/parallelism.py, pytorch/torchtitan at
     * 15e24313ef2e324a31db0a9e0060d27965c4ef5e) micro-batches of {@code num_tokens_per_microbatch_per_dp_rank} tokens each run
     * as one pipeline schedule, and Trainer.__init__ takes {@code num_tokens_per_train_step} (-1: one schedule per step) ÷
     * (micro-batch tokens × num_pp_microbatches × dp) gradient-accumulation steps, one schedule each (torchtitan/trainer.py
     * after PR #4121; TrainingEngine._gradient_accumulation_body runs pp_schedule.step once per accumulation step). So the micro
     * batch is the token count ÷ max_context_length as read, m per schedule is the count, and the schedule's batch (the
     * local batch of the earlier releases, {@code Specs.Batch#scheduleBatch}) is micro × count. A count below 1 is refused as
     * torchtitan refuses it (TrainingEngine.Config.__post_init__: ValueError "parallelism.num_pp_microbatches must be greater
     * than 0."): SYN002 at the value, and torchtitan's default taken. Not written: the default 1, said among the plan's
     * assumptions.
     */
    private static void foldedCount(JobDraft j, MappingNode root, MappingNode par) {
        dev.gpulint.tree.ScalarNode written = scalar(par, "num_pp_microbatches");
        Located<Long> count = TreeValues.whole(written);
        if (written != null && !written.isNull() && count == null) return;      // a placeholder, or no whole number: unread
        if (count != null && count.value() < 1) {
            DraftValues.refuse(j, written.span(), "[parallelism] num_pp_microbatches", written.text(), "a whole number of at least 1"
                    + " (torchtitan raises ValueError \"parallelism.num_pp_microbatches must be greater than 0.\")",
                    "the estimate does not count pipeline micro-batches from it (torchtitan refuses the job)");
            return;
        }
        boolean defaulted = count == null;
        if (defaulted) count = new Located<>(DEFAULT_PP_MICROBATCHES, root.entry("parallelism").orElseThrow().key().span());
        long micro = j.micro.value();
        long local = mul(micro, count.value());
        if (local < 1) return;
        String countKey = "[parallelism] num_pp_microbatches" + (defaulted ? " (not written: torchtitan's default " + DEFAULT_PP_MICROBATCHES + ")" : "");
        if (j.global == null) j.microBatches = j.key(countKey, new Located<>(count.value(), count.span()));
        // the schedule's batch in sequences: PAR006 names it when the step runs several schedules
        j.localBatch = j.key("num_pp_microbatches × " + j.keyOf(j.micro, "num_tokens_per_microbatch_per_dp_rank ÷ max_context_length"),
                new Located<>(local, count.span()));
        j.microBatchesKey = countKey;
        if (defaulted) {
            j.unpriced.add("[parallelism] num_pp_microbatches not written: " + DEFAULT_PP_MICROBATCHES + " micro-batch per pipeline schedule,"
                    + " torchtitan's default (ParallelismConfig.num_pp_microbatches in torchtitan/config/parallelism.py)");
        }
    }

    /** torchtitan's single-stage pipeline schedules (one stage per rank; 1F1B the default), lower case. */
    private static final List<String> SINGLE_STAGE = List.of("1f1b", "gpipe");

    /**
     * torchtitan before {@code pipeline_parallel_microbatch_size}: the pipeline's count of micro-batches is written,
     * {@code pipeline_parallel_microbatches} ({@code [experimental]} in the first releases, beside {@code pipeline_parallel_degree};
     * {@code [parallelism]} once the table was renamed, the same key and rule), and the local batch ({@code [training]
     * batch_size}, later {@code local_batch_size}) is split into that many: build_pipeline_schedule in
     * torchtitan/parallelisms/pipelining_utils.py (pytorch/torchtitan at 680647378f15fba3437413b2ce25b6b3ce3c920a):
     * {@code n_microbatches = pipeline_parallel_microbatches}, not written {@code pipeline_parallel_degree × len(stages)} (the
     * rank's stages: 1 for the single-stage schedules, 1F1B its default), and "Batch size ... must be divisible by number of
     * microbatches" (a ValueError). So the micro-batch is local ÷ count, and a step runs count of them. Read when the file
     * writes the count, or writes pp under {@code [experimental]} with a single-stage schedule (the default count pp, said among
     * the plan's assumptions); a count that is no whole number is left unread, one below 1 or that does not divide the local
     * batch, which torchtitan refuses, is SYN002 at the value and left unread. True when read or refused (the size's reading
     * then does not apply).
     */
    private static boolean pipelineCount(JobDraft j, MappingNode root) {
        if (j.pp == null || j.pp.value() == null || j.pp.value() <= 1 || j.micro == null || j.micro.value() == null) return false;
        if ("sbh".equals(j.tpActivationLayout == null ? null : j.tpActivationLayout.value())) return false;
        String table = null;
        dev.gpulint.tree.ScalarNode written = null;
        for (String t : List.of("parallelism", "experimental")) {
            written = scalar(map(root, t), "pipeline_parallel_microbatches");
            if (written != null && !written.isNull()) { table = t; break; }
            written = null;
        }
        boolean experimental = scalar(map(root, "experimental"), "pipeline_parallel_degree") != null;
        if (written == null && !experimental) return false;
        if (written == null && scalar(map(root, "parallelism"), "pipeline_parallel_microbatch_size") != null) return false;
        long local = j.micro.value();
        Located<Long> count;
        if (written != null) {
            count = TreeValues.whole(written);
            if (count == null) return true;                                 // not a whole number: unread
            if (count.value() < 1 || local % count.value() != 0) {          // refused by torchtitan: SYN002, unread
                String localKey = j.keyOf(j.micro, "batch_size");
                DraftValues.refuse(j, written.span(), "[" + table + "] pipeline_parallel_microbatches", written.text(),
                        "a whole number of at least 1 that divides " + localKey + " " + local + " (torchtitan's build_pipeline_schedule"
                                + " raises ValueError: the batch size \"must be divisible by number of microbatches\")",
                        "the estimate does not split the local batch " + local + " into pipeline micro-batches (torchtitan refuses the job)");
                return true;
            }
        } else {
            dev.gpulint.tree.ScalarNode schedule = scalar(map(root, "experimental"), "pipeline_parallel_schedule");
            String name = schedule == null || schedule.isNull() ? "1f1b" : schedule.text().strip().toLowerCase(java.util.Locale.ROOT);
            if (!SINGLE_STAGE.contains(name) || local % j.pp.value() != 0) return true;    // stages per rank not known here: unread
            count = new Located<>(j.pp.value(), j.pp.span());
        }
        String localKey = j.keyOf(j.micro, "batch_size");
        String countKey = written != null ? "[" + table + "] pipeline_parallel_microbatches"
                : "pipeline_parallel_microbatches (not written: torchtitan's default, pipeline_parallel_degree " + count.value() + ")";
        j.micro = j.key(localKey + " ÷ pipeline_parallel_microbatches", new Located<>(local / count.value(), count.span()));
        if (j.global == null) j.microBatches = j.key(countKey, count);
        if (written == null) {
            j.unpriced.add("[experimental] pipeline_parallel_microbatches not written: torchtitan's default, pipeline_parallel_degree "
                    + count.value() + " micro-batches per step (build_pipeline_schedule, torchtitan/parallelisms/pipelining_utils.py): the local"
                    + " batch " + local + " in " + count.value() + " micro-batches of " + local / count.value());
        }
        return true;
    }

    /**
     * The batch and sequence as torchtitan writes them since its PR #4121 (pytorch/torchtitan, "fold batch dim"), in tokens:
     * {@code max_context_length} is the sequence (the old {@code seq_len}), {@code num_tokens_per_microbatch_per_dp_rank}
     * the micro-batch's tokens ({@code local_batch_size × seq_len}) and {@code num_tokens_per_train_step} the step's (-1,
     * its default: one micro-batch per dp rank and pipeline micro-batch). A token count the sequence divides is read as
     * that many sequences; one it does not divide, or a count without the sequence, is left unread (the estimate takes
     * its default and says so).
     */
    private static void tokenCounts(JobDraft j, MappingNode training) {
        j.seqLength = j.size(scalar(training, "max_context_length"), "max_context_length", "model.seq_length");
        long seq = j.seqLength == null ? 0 : j.seqLength.value();
        if (seq < 1) return;
        if (j.micro == null) j.micro = sequences(j, training, "num_tokens_per_microbatch_per_dp_rank", seq);
        if (j.global == null) j.global = sequences(j, training, "num_tokens_per_train_step", seq);
    }

    /** The token count under {@code key} as whole sequences of {@code seq} tokens; null when it is none. */
    private static Located<Long> sequences(JobDraft j, MappingNode training, String key, long seq) {
        Located<Long> tokens = TreeValues.whole(scalar(training, key));
        if (tokens == null || tokens.value() < seq || tokens.value() % seq != 0) return null;
        return j.key(key + " ÷ max_context_length", new Located<>(tokens.value() / seq, tokens.span()));
    }

    /**
     * How the tensor-parallel plan lays out the activations, as the configuration's {@code [training]} keys date it:
     * torchtitan's PR #4121 (pytorch/torchtitan, 2026-08, "fold batch dim") folded the batch into the tokens ([b, s, h]
     * → [T, h], gathered on dim 0) and renamed {@code local_batch_size}, {@code global_batch_size} and {@code seq_len} to
     * {@code num_tokens_per_microbatch_per_dp_rank}, {@code num_tokens_per_train_step} and {@code max_context_length}. A
     * configuration with the new names runs the folded layout ("sbh": no copy); one with the old names (or the first
     * releases' {@code batch_size}) was written for torchtitan before it, whose DTensor plan shards [b, s, h] on the
     * sequence ("bsh": a copy per tp collective, derive/estimate/TpLayoutCopy). Neither: null, the estimate takes the
     * current torchtitan's layout and says so.
     */
    static Located<String> activationLayout(JobDraft j, MappingNode training) {
        for (String k : List.of("num_tokens_per_microbatch_per_dp_rank", "max_context_length", "num_tokens_per_train_step")) {
            dev.gpulint.tree.ScalarNode s = scalar(training, k);
            if (s != null) return j.key("[training] " + k + " (torchtitan since its PR #4121)", new Located<>("sbh", s.span()));
        }
        for (String k : List.of("seq_len", "local_batch_size", "batch_size", "global_batch_size")) {
            dev.gpulint.tree.ScalarNode s = scalar(training, k);
            if (s != null) return j.key("[training] " + k + " (torchtitan before its PR #4121 renamed it)", new Located<>("bsh", s.span()));
        }
        return null;
    }

    /**
     * What `gpulint plan` reads: {@code mixed_precision_param} ([training], or [parallelism] in later torchtitan;
     * its default bfloat16 is the estimate's default too; Float8 training, {@link #float8}, makes the job's dtype fp8),
     * {@code mixed_precision_reduce} (the gradient reduction's dtype, optimizer.grad_reduce_dtype: its default float32 is
     * the estimate's default too), {@code [activation_checkpoint] mode} (full, selective,
     * none), FSDP (torchtitan's fully_shard over the data-parallel shard dimension: ZeRO-3 whenever
     * data_parallel_shard_degree is not 1) and sequence parallelism (torchtitan's tensor-parallel plan shards the
     * norms and the loss along the sequence: on whenever tp > 1). [model] names a flavor, not dimensions: the
     * model's shape is read only where the file writes it (it usually does not, and the plan then says so).
     */
    private static void plan(JobDraft j, MappingNode root, MappingNode par, MappingNode training, Located<Long> shard) {
        dev.gpulint.tree.ScalarNode mp = training == null ? null : scalar(training, "mixed_precision_param");
        if (mp == null) mp = scalar(par, "mixed_precision_param");
        if (mp != null && !mp.isNull()) j.dtype = new Located<>(mp.text(), mp.span());
        dev.gpulint.tree.ScalarNode fp8 = float8(root);
        if (fp8 != null) j.dtype = j.key(fp8 == scalar(map(root, "float8"), "enable_float8_linear") ? "[float8] enable_float8_linear" : "[model] converters",
                new Located<>("fp8", fp8.span()));
        dev.gpulint.tree.ScalarNode reduce = training == null ? null : scalar(training, "mixed_precision_reduce");
        String reduceTable = "[training]";
        if (reduce == null && map(root, "parallelism") != null) { reduce = scalar(map(root, "parallelism"), "mixed_precision_reduce"); reduceTable = "[parallelism]"; }
        if (reduce != null && !reduce.isNull()) {
            j.gradReduceDtype = j.key("mixed_precision_reduce", new Located<>(reduce.text().strip(), reduce.span()));
            j.stated.add(new dev.gpulint.spec.Specs.Stated("grad_reduce_dtype", reduce.text().strip(), reduceTable + " mixed_precision_reduce = \""
                    + reduce.text().strip() + "\"", StatedKind.CONFIG, reduce.span()));
        }
        MappingNode ac = map(root, "activation_checkpoint");
        dev.gpulint.tree.ScalarNode mode = ac == null ? null : scalar(ac, "mode");
        if (mode != null && !mode.isNull()) j.recompute = new Located<>(mode.text().toLowerCase(java.util.Locale.ROOT), mode.span());
        boolean defaulted = j.recompute == null;
        if (defaulted) {
            // no mode written: torchtitan's ActivationCheckpoint default, mode "selective" (torchtitan/config/job_config.py),
            // placed at the [activation_checkpoint] table, else at the degrees' table
            j.recompute = new Located<>("selective", root.entry(ac != null ? "activation_checkpoint"
                    : par == map(root, "parallelism") ? "parallelism" : "training").orElseThrow().key().span());
        }
        if (j.recompute != null && j.recompute.value().strip().equals("selective")) {
            // torchtitan's selective AC: "op" (its op-level policy) or a positive integer n (one block in n fully
            // checkpointed); the option's default is "2"
            dev.gpulint.tree.ScalarNode option = scalar(ac, "selective_ac_option");
            String o = option == null || option.isNull() ? "2" : option.text().strip().toLowerCase(java.util.Locale.ROOT);
            dev.gpulint.core.Span at = option == null || option.isNull() ? j.recompute.span() : option.span();
            if (o.equals("op")) j.recompute = j.key("selective_ac_option", new Located<>("op", at));
            else if (o.matches("[0-9]{1,6}") && Integer.parseInt(o) >= 1) {
                j.recompute = j.key("selective_ac_option", new Located<>("every", at));
                j.recomputeEvery = Integer.parseInt(o);
            } else j.badAcOption = new Located<>(option.text().strip(), option.span());
            // the plan says the mode was torchtitan's default, not written (JobInputs)
            if (defaulted && j.badAcOption == null) {
                j.recompute = j.key("[activation_checkpoint] (torchtitan's default)", j.recompute);
                j.recomputeDefaulted = true;
            }
        }
        if (shard == null || shard.value() != 1) {
            Located<Long> at = shard != null ? shard : new Located<>(3L, root.entry(par == map(root, "parallelism") ? "parallelism" : "training")
                    .orElseThrow().key().span());
            j.zeroStage = j.key("data_parallel_shard_degree", new Located<>(3L, at.span()));
            reshardAfterForward(j, root);
        }
        if (j.tp != null && j.tp.value() > 1) j.sequenceParallel = new Located<>(true, j.tp.span());
        // async TP (priced by the estimate's TpOverlap); not written: torchtitan's default, false (plain TP)
        j.tpCommOverlap = DraftValues.bool(j, scalar(map(root, "parallelism"), "enable_async_tensor_parallel"),
                "[parallelism] enable_async_tensor_parallel", "the estimate prices plain TP, without overlap (torchtitan's default)");
        MappingNode model = map(root, "model");
        dev.gpulint.tree.ScalarNode name = model == null ? null : scalar(model, "name"), flavor = model == null ? null : scalar(model, "flavor");
        if (name != null && flavor != null && !name.isNull() && !flavor.isNull()) {
            // the catalog knows torchtitan's flavors as "name:flavor" (llama3:70B); placed at the flavor
            j.modelNames.add(j.key("[model] name and flavor", new Located<>(name.text().strip() + ":" + flavor.text().strip(), flavor.span())));
        }
        statedModel(j, name, flavor);
        if (model != null) {
            // the model args' weight-tying switch (torchtitan's Qwen3ModelArgs.enable_weight_tying, which its flavors set; a
            // [model] key of that name reaches it where the job extends [model] and update_from_config reads it): written,
            // it decides over the flavor's catalog entry (ModelNames fills only a tying not written)
            Located<Boolean> tying = DraftValues.bool(j, scalar(model, "enable_weight_tying"), "[model] enable_weight_tying",
                    "the flavor's catalog entry decides whether the model ties");
            if (tying != null) j.tied = j.key("[model] enable_weight_tying", tying);
            // a size written but not a whole number (a placeholder, "auto") is unknown (JobDraft.size), not the flavor's
            Located<Long> layers = j.size(scalar(model, "n_layers"), "n_layers", "model.layers"),
                    dim = j.size(scalar(model, "dim"), "dim", "model.hidden_size"),
                    heads = j.size(scalar(model, "n_heads"), "n_heads", "model.attention_heads"),
                    kv = j.size(scalar(model, "n_kv_heads"), "n_kv_heads", "model.kv_heads"),
                    vocab = j.size(scalar(model, "vocab_size"), "vocab_size", "model.vocab_size");
            if (layers != null) j.layers = layers;
            if (dim != null) j.hidden = dim;
            if (heads != null) j.heads = heads;
            if (kv != null) j.kvHeads = kv;
            if (vocab != null) j.vocab = vocab;
        }
    }

    /**
     * The model as the file names it, for messages ({@code qwen3 0.6B}: {@code [model] name} and {@code flavor}, each as
     * written, cut to a readable length), stated under {@link dev.gpulint.spec.Specs.Origin#MODEL_NAME} at the flavor (else
     * the name); nothing when neither is written.
     */
    private static void statedModel(JobDraft j, dev.gpulint.tree.ScalarNode name, dev.gpulint.tree.ScalarNode flavor) {
        String n = name == null || name.isNull() ? "" : dev.gpulint.spec.Quantities.shortText(name.text().strip());
        String f = flavor == null || flavor.isNull() ? "" : dev.gpulint.spec.Quantities.shortText(flavor.text().strip());
        if (n.isEmpty() && f.isEmpty()) return;
        String where = n.isEmpty() ? "[model] flavor" : f.isEmpty() ? "[model] name" : "[model] name and flavor";
        j.stated.add(new dev.gpulint.spec.Specs.Stated(dev.gpulint.spec.Specs.Origin.MODEL_NAME, (n + " " + f).strip(), where,
                StatedKind.NAME, (f.isEmpty() ? name : flavor).span()));
    }

    /**
     * Where the file turns Float8 training on, or null: {@code [model] converters} naming "float8" (torchtitan from early
     * 2025; "quantize.linear.float8" since mid 2025) — the element is returned —, or, in the releases before,
     * {@code [float8] enable_float8_linear = true}. A {@code [float8]} or {@code [quantize.linear.float8]} table alone
     * holds settings only and turns nothing on.
     */
    static dev.gpulint.tree.ScalarNode float8(MappingNode root) {
        for (dev.gpulint.tree.Node n : TreeValues.list(root, "model", "converters")) {
            if (n instanceof dev.gpulint.tree.ScalarNode c && !c.isNull()) {
                String t = c.text().strip().toLowerCase(java.util.Locale.ROOT);
                if (t.equals("float8") || t.equals("quantize.linear.float8")) return c;
            }
        }
        dev.gpulint.tree.ScalarNode on = scalar(map(root, "float8"), "enable_float8_linear");
        return on != null && !on.isNull() && on.text().strip().equalsIgnoreCase("true") ? on : null;
    }

    /** a × b, or -1 when it overflows. */
    private static long mul(long a, long b) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException e) {
            return -1;
        }
    }
}
