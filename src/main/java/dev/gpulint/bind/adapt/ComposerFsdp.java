package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.scalar;

import dev.gpulint.core.Span;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import dev.gpulint.spec.Specs.StatedKind;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;
import java.util.List;
import java.util.Locale;

/**
 * composer's {@code fsdp_config} as llm-foundry's YAML writes it, read into the job's sharding, gradient reduction,
 * recompute and offload, with composer's FSDPConfig defaults (composer/utils/parallelism.py: sharding_strategy FULL_SHARD,
 * mixed_precision DEFAULT, activation_checkpointing false, activation_cpu_offload false, backward_prefetch BACKWARD_POST,
 * data_parallel_shard_degree -1, no replicate degree) named in the plan's assumptions where a key is absent:
 * <ul>
 * <li>sharding_strategy (composer's SHARDING_MAP, composer/distributed/mosaic_parallelism.py): FULL_SHARD and HYBRID_SHARD
 *     are ZeRO stage 3, SHARD_GRAD_OP and _HYBRID_SHARD_ZERO2 stage 2, NO_SHARD stage 0 (DDP);</li>
 * <li>data_parallel_replicate_degree r and data_parallel_shard_degree s: composer's device mesh (composer/core/state.py,
 *     _create_device_mesh) is [r, s] when r is written, and FSDP then runs hybrid (a FULL_SHARD becomes HYBRID_SHARD,
 *     composer/distributed/dist_strategy.py): HSDP with the states sharded over s (parallelism.dp_shard) or, s left to the
 *     GPU count (-1), over dp ÷ r (parallelism.dp_replicate r), as the torchtitan reader expresses HSDP. Without r the mesh
 *     is 1-D and a HYBRID_SHARD runs as FULL_SHARD (composer warns so);</li>
 * <li>mixed_precision (get_mixed_precision): PURE reduces the gradients in the training precision (bf16 for amp_bf16 and
 *     amp_fp8), DEFAULT and FULL in fp32 (the mode's case is free: composer upper-cases it); a mapping's reduce_dtype
 *     (else its param_dtype, else fp32) is read as _get_torch_dtype reads it, the word exactly as written, case and all
 *     ({@link #torchDtype}); a word it refuses is SYN002 at the value;</li>
 * <li>activation_checkpointing: every FSDP-wrapped block checkpointed (full recompute); activation_cpu_offload: every
 *     block's activations offloaded to host memory; cpu_offload true is refused (composer raises ValueError: FSDP CPU
 *     Offload not supported yet);</li>
 * <li>backward_prefetch and forward_prefetch: said, not priced apart (UnpricedSettings.fsdpPrefetch says why).</li>
 * </ul>
 */
final class ComposerFsdp {
    private ComposerFsdp() {}

    private static final List<String> STRATEGIES = List.of("FULL_SHARD", "SHARD_GRAD_OP", "HYBRID_SHARD", "_HYBRID_SHARD_ZERO2",
            "NO_SHARD");
    private static final List<String> MIXED = List.of("PURE", "DEFAULT", "FULL");
    private static final List<String> PREFETCH = List.of("BACKWARD_PRE", "BACKWARD_POST", "NONE");

    static void read(JobDraft j, FoundryAdapter.Values v, MappingNode t, Span modelKey) {
        tensorParallel(j, v, t);
        MappingNode f = map(t, "fsdp_config");
        if (f == null) {
            j.zeroStage = j.key(v.prefix + "fsdp_config", new Located<>(0L, modelKey));
            if (j.recompute == null) j.recompute = new Located<>("none", modelKey);
            j.unpriced.add(v.prefix + "fsdp_config not written: composer wraps the model in PyTorch DDP (every GPU holds the"
                    + " whole model states, ZeRO stage 0) and checkpoints no activations");
            return;
        }
        String p = v.prefix + "fsdp_config.";
        Span at = t.entry("fsdp_config").orElseThrow().key().span();
        sharding(j, v, f, p, at);
        reduce(j, v, f, p, at);
        Located<Boolean> ac = DraftValues.bool(j, v.resolve(f, "activation_checkpointing"), p + "activation_checkpointing",
                "the estimate checkpoints nothing (composer's default, false)");
        if (ac != null) j.recompute = new Located<>(ac.value() ? "full" : "none", ac.span());
        else {
            j.recompute = new Located<>("none", at);
            if (f.get("activation_checkpointing").isEmpty()) {
                j.unpriced.add(p + "activation_checkpointing not written: false (composer's FSDPConfig default): every layer keeps its"
                        + " activations for the backward, no recompute");
            }
        }
        Located<Boolean> offload = DraftValues.bool(j, v.resolve(f, "activation_cpu_offload"), p + "activation_cpu_offload",
                "the estimate keeps the activations on the GPU (composer's default, false)");
        if (offload != null && offload.value()) {
            if (j.layers != null && j.layers.value() != null && j.layers.value() > 0) {
                j.offloadLayers = j.key(p + "activation_cpu_offload", new Located<>(j.layers.value(), offload.span()));
            } else {
                j.unpriced.add(p + "activation_cpu_offload: true: every block's activations go to host memory; not priced, the"
                        + " file does not write the model's layers (they come from its name)");
            }
        }
        ScalarNode cpu = v.resolve(f, "cpu_offload");
        Located<Boolean> cpuOn = DraftValues.bool(j, cpu, p + "cpu_offload", "the estimate keeps the parameters on the GPU");
        if (cpuOn != null && cpuOn.value()) {
            DraftValues.refuse(j, cpu.span(), p + "cpu_offload", cpu.text(), "false (composer raises ValueError: FSDP CPU Offload"
                    + " not supported yet, composer/distributed/mosaic_parallelism.py get_cpu_offload)", "the estimate keeps the"
                    + " parameters and optimizer states on the GPU");
        }
        prefetch(j, v, f, p);
        if (f.get("device_mesh").isPresent()) {
            j.unpriced.add(p + "device_mesh: not read; composer 0.24 and later refuse it (ValueError: specify"
                    + " data_parallel_shard_degree and/or data_parallel_replicate_degree instead)");
        }
    }

    /**
     * The sharding strategy and the device mesh's data-parallel degrees. A strategy composer does not name is refused and
     * the estimate takes FULL_SHARD, its default, as when none is written.
     */
    private static void sharding(JobDraft j, FoundryAdapter.Values v, MappingNode f, String p, Span at) {
        ScalarNode s = v.resolve(f, "sharding_strategy");
        String strategy = "FULL_SHARD";
        Span where = at;
        if (s == null || s.isNull()) {
            j.unpriced.add(p + "sharding_strategy not written: FULL_SHARD (composer's FSDPConfig default): parameters, gradients"
                    + " and optimizer states sharded, ZeRO stage 3");
        } else if (TreeValues.placeholder(s.text())) {
            j.zeroStageUnknown = true;
            return;
        } else {
            Located<String> c = DraftValues.choice(j, s, p + "sharding_strategy", STRATEGIES,
                    "the estimate takes FULL_SHARD, composer's default (ZeRO stage 3)");
            if (c != null) { strategy = c.value(); where = c.span(); }
        }
        long stage = strategy.equals("NO_SHARD") ? 0 : strategy.equals("SHARD_GRAD_OP") || strategy.equals("_HYBRID_SHARD_ZERO2") ? 2 : 3;
        j.zeroStage = j.key(p + "sharding_strategy", new Located<>(stage, where));
        boolean hybrid = strategy.startsWith("HYBRID") || strategy.startsWith("_HYBRID");
        Located<Long> rep = degree(j, v, f, p, "data_parallel_replicate_degree", "the estimate shards over every data-parallel rank");
        Located<Long> shard = degree(j, v, f, p, "data_parallel_shard_degree", "the estimate shards over every data-parallel rank"
                + " (composer's default -1: the rest of the GPUs)");
        if (shard != null && shard.value() == -1) shard = null;
        if (rep != null && rep.value() > 1 && stage > 0) {
            if (shard != null) {
                j.dpShard = j.key(p + "data_parallel_shard_degree", shard);
                long dp = JobDraft.product(rep, shard);
                if (dp > 0) j.dp = j.key(p + "data_parallel_replicate_degree × data_parallel_shard_degree", new Located<>(dp, rep.span()));
            } else {
                j.dpReplicate = j.key(p + "data_parallel_replicate_degree", rep);
            }
            if (!hybrid) {
                j.unpriced.add(p + "sharding_strategy " + strategy + " with data_parallel_replicate_degree " + rep.value() + ": composer"
                        + " builds a 2-D device mesh and runs " + (stage == 3 ? "HYBRID_SHARD" : "_HYBRID_SHARD_ZERO2") + " (it warns"
                        + " so): the states shard within each replica's group and the replicas all-reduce the gradients");
            }
        } else {
            if (hybrid && rep == null) {
                j.unpriced.add(p + "sharding_strategy " + strategy + " without data_parallel_replicate_degree: composer (0.24 and later)"
                        + " builds a 1-D device mesh and runs " + (stage == 3 ? "FULL_SHARD" : "SHARD_GRAD_OP") + " over every"
                        + " data-parallel rank (it warns so); write data_parallel_replicate_degree for hybrid sharding");
            }
            long dp = shard == null ? -1 : rep == null ? shard.value() : JobDraft.product(rep, shard);
            if (dp > 0) j.dp = j.key(p + (rep == null ? "data_parallel_shard_degree" : "data_parallel_replicate_degree × data_parallel_shard_degree"),
                    new Located<>(dp, shard.span()));
        }
        // the mesh's degrees multiply to the GPU count (composer raises ValueError otherwise): a statement of the world size
        if (j.dp != null && j.dp.value() > 0 && (j.tp == null || j.tp.value() > 0)) {
            long world = j.tp == null ? j.dp.value() : JobDraft.product(j.dp, j.tp);
            if (world > 0) j.state("world", world, p + (rep == null ? "data_parallel_shard_degree" : "data_parallel_replicate_degree × data_parallel_shard_degree")
                    + (j.tp == null ? "" : " × tp_config.tensor_parallel_degree"), StatedKind.CONFIG, j.dp.span());
        }
    }

    /**
     * A device-mesh degree: a whole number from 1 to 2,147,483,647, or -1 for the shard degree (composer's default: the rest of
     * the GPUs). Any other (0, another negative, 20 digits) builds no mesh torch accepts: SYN002 at the value and null, so that
     * neither dp nor the world size is derived from it (a replicate degree of 0 or above the bounds was otherwise taken as
     * no replication and went unreported).
     */
    private static Located<Long> degree(JobDraft j, FoundryAdapter.Values v, MappingNode f, String p, String key, String instead) {
        Located<Long> n = v.whole(j, f, key, instead);
        boolean rest = key.equals("data_parallel_shard_degree");
        if (n == null || (rest && n.value() == -1) || (n.value() >= 1 && n.value() <= Integer.MAX_VALUE)) return n;
        DraftValues.refuse(j, n.span(), p + key, v.resolve(f, key).text(), dev.gpulint.bind.Schema.wholeNumber(1, Integer.MAX_VALUE)
                + (rest ? ", or -1 (composer's default: the rest of the GPUs)" : ""), instead);
        return null;
    }

    /**
     * The gradient reduction's dtype (optimizer.grad_reduce_dtype) from mixed_precision: PURE reduces in the training
     * precision, DEFAULT and FULL in fp32; FULL also keeps the parameters in fp32 for FSDP's all-gathers, which the
     * estimate prices at 2 bytes per parameter (said).
     */
    private static void reduce(JobDraft j, FoundryAdapter.Values v, MappingNode f, String p, Span at) {
        String k = p + "mixed_precision";
        Node raw = f.get("mixed_precision").orElse(null);
        String training = j.dtype == null ? "bf16" : j.dtype.value();
        String pure = training.equals("fp8") ? "bf16" : training;     // composer's _get_torch_dtype: amp_fp8 → bfloat16
        if (raw instanceof MappingNode d) {
            ScalarNode r = v.resolve(d, "reduce_dtype");
            if (r == null || r.isNull()) {
                ScalarNode param = v.resolve(d, "param_dtype");
                if (param != null && !param.isNull() && TreeValues.placeholder(param.text())) return;
                String pd = param == null || param.isNull() ? "fp32" : torchDtype(param.text());
                if (pd == null) {
                    refuseDtype(j, param, k + ".param_dtype", "the estimate reduces in fp32 (FSDP reduces in the parameters' dtype)");
                    return;
                }
                set(j, k + ".param_dtype", pd, param != null && !param.isNull() ? param.span() : d.span(),
                        k + " without reduce_dtype: FSDP reduces in the parameters' dtype");
                return;
            }
            if (TreeValues.placeholder(r.text())) return;
            String rd = torchDtype(r.text());
            if (rd == null) {
                refuseDtype(j, r, k + ".reduce_dtype", "the estimate reduces in fp32");
                return;
            }
            set(j, k + ".reduce_dtype", rd, r.span(), k + ".reduce_dtype: " + r.text().strip());
            return;
        }
        ScalarNode s = v.resolve(f, "mixed_precision");
        if (s != null && !s.isNull() && TreeValues.placeholder(s.text())) return;
        Located<String> c = s == null || s.isNull() ? null : DraftValues.choice(j, s, k, MIXED,
                "the estimate takes DEFAULT, composer's default (gradients reduced in fp32)");
        String mode = c == null ? "DEFAULT" : c.value();
        Span where = c == null ? at : c.span();
        if (s == null || s.isNull()) {
            j.unpriced.add(k + " not written: DEFAULT (composer's FSDPConfig default): parameters in the training precision,"
                    + " gradients reduced in fp32");
        }
        if (mode.equals("PURE")) set(j, k, pure, where, k + ": PURE (parameters, gradients and buffers in the training precision)");
        else set(j, k, "fp32", where, k + ": " + mode);
        if (mode.equals("FULL") && !training.equals("fp32")) {
            j.unpriced.add(k + ": FULL: FSDP keeps the parameters in fp32 for its all-gathers (4 bytes per parameter); not priced"
                    + " apart: the FSDP all-gathers are priced at 2 bytes per parameter");
        }
    }

    private static void set(JobDraft j, String key, String dtype, Span at, String where) {
        j.gradReduceDtype = j.key(key, new Located<>(dtype, at));
        j.stated.add(new Specs.Stated("grad_reduce_dtype", dtype, where, StatedKind.CONFIG, at));
    }

    /**
     * SYN002 at a dtype word composer's _get_torch_dtype refuses (it raises ValueError: Not sure how to convert dtype=... to a
     * torch dtype); a known word in other case ('BF16', 'Float32') is refused too, and the message says composer matches it
     * exactly, so the fix is plain.
     */
    private static void refuseDtype(JobDraft j, ScalarNode s, String key, String instead) {
        boolean caseOnly = torchDtype(s.text().strip().toLowerCase(Locale.ROOT)) != null;
        DraftValues.refuse(j, s.span(), key, s.text(), "one of fp32, bf16, fp16 (or float32, bfloat16, float16, as composer's"
                + " _get_torch_dtype reads them)" + (caseOnly ? ", in lower case: composer matches the word exactly" : ""), instead);
    }

    /**
     * A dtype word as composer's _get_torch_dtype reads it, as optimizer.grad_reduce_dtype names it; null for any other.
     * composer matches the word as written, case-sensitively ({@code dtype in ['float32', 'torch.float32', 'fp32']}...:
     * composer/distributed/mosaic_parallelism.py at commit 1b7ba47892a522f89b7806307db52ff109688cb0); the float8 words
     * give bfloat16 (PyTorch has no torch.float8). Only the YAML's own quoting is gone from {@code written}.
     */
    static String torchDtype(String written) {
        return switch (written) {
            case "float32", "torch.float32", "fp32" -> "fp32";
            case "float16", "torch.float16", "half", "fp16", "amp", "amp_fp16" -> "fp16";
            case "bfloat16", "bfloat", "torch.bfloat16", "bf16", "amp_bf16", "float8", "torch.float8", "fp8", "amp_fp8" -> "bf16";
            default -> null;
        };
    }

    /**
     * backward_prefetch (composer's BACKWARD_PREFETCH_MAP: BACKWARD_PRE, BACKWARD_POST, NONE; default BACKWARD_POST, unlike
     * PyTorch FSDP's BACKWARD_PRE) and forward_prefetch: said, not priced apart (docs/plan.md, FSDP on H100).
     */
    private static void prefetch(JobDraft j, FoundryAdapter.Values v, MappingNode f, String p) {
        String k = p + "backward_prefetch";
        ScalarNode s = v.resolve(f, "backward_prefetch");
        Located<String> b = s == null || s.isNull() ? null : DraftValues.choice(j, s, k, PREFETCH,
                "the estimate hides the FSDP all-gathers behind compute up to dp_overlap, whatever the prefetch");
        String why = ": the next unit's backward all-gather is issued only after the current unit's gradients, so less of it"
                + " overlaps compute; not priced apart: the FSDP collectives are hidden behind compute up to dp_overlap whatever"
                + " the prefetch (docs/plan.md, FSDP on H100)";
        if (s == null || s.isNull()) j.unpriced.add(k + " not written: BACKWARD_POST (composer's FSDPConfig default)" + why);
        else if (b != null && b.value().equals("BACKWARD_POST")) j.unpriced.add(k + ": BACKWARD_POST" + why);
        else if (b != null && b.value().equals("NONE")) {
            j.unpriced.add(k + ": NONE: each unit's backward all-gather is issued only when that unit needs it; not priced apart:"
                    + " the FSDP collectives are hidden behind compute up to dp_overlap whatever the prefetch (docs/plan.md, FSDP on H100)");
        }
        Located<Boolean> fwd = DraftValues.bool(j, v.resolve(f, "forward_prefetch"), p + "forward_prefetch",
                "the estimate takes composer's default, no forward prefetch");
        if (fwd != null && fwd.value()) {
            j.unpriced.add(p + "forward_prefetch: true: the next unit's forward all-gather is issued before the current unit's"
                    + " forward; not priced apart: the forward all-gathers are already hidden behind compute up to dp_overlap");
        }
    }

    /**
     * llm-foundry's tp_config (tensor_parallel_degree): tp. Its default strategy ("ffn") shards the MLP only; the estimate
     * prices Megatron's tensor parallelism of attention and MLP, without sequence parallelism, and says so.
     */
    private static void tensorParallel(JobDraft j, FoundryAdapter.Values v, MappingNode t) {
        MappingNode tp = map(t, "tp_config");
        if (tp == null) return;
        Located<Long> degree = v.whole(j, tp, "tensor_parallel_degree", "tp is left unknown");
        if (degree == null) return;
        j.tp = degree;
        j.sequenceParallel = new Located<>(false, degree.span());
        ScalarNode strategy = scalar(tp, "strategy");
        if (degree.value() > 1) {
            j.unpriced.add(v.prefix + "tp_config: tensor_parallel_degree " + degree.value() + " with strategy "
                    + (strategy == null || strategy.isNull() ? "ffn (llm-foundry's default)" : strategy.text().strip())
                    + ": priced as Megatron's tensor parallelism of attention and MLP, without sequence parallelism");
        }
    }
}
