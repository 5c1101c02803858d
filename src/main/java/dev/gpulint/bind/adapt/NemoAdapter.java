package dev.gpulint.bind.adapt;

import dev.gpulint.spec.ParallelDim;
import static dev.gpulint.bind.adapt.TreeValues.at;
import static dev.gpulint.bind.adapt.TreeValues.map;

import dev.gpulint.spec.Format;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs.StatedKind;
import dev.gpulint.tree.ListNode;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * NeMo and NeMo-Framework-Launcher Hydra configurations: {@code trainer.num_nodes × trainer.devices}
 * GPUs, {@code model.*_model_parallel_size}, {@code model.use_tp_pp_dp_mapping} (the rank order NeMo 1 passes,
 * {@link TpPpDpMapping#nemo1}), batch sizes, model shape and {@code env_vars}. Plain
 * {@code ${a.b}} and {@code ${.b}} interpolations inside the file are followed (the launcher's
 * {@code training.} prefix names this file's root); resolvers such as {@code ${multiply:...}},
 * {@code ???} and {@code null} are unknown. The model's whole numbers are read as NeMo 1 gets them ({@link NemoNumbers}:
 * a list, a mapping or a quoted number is SYN002); {@code model.expert_tensor_parallel_size} is not read, as NeMo 1 does
 * not pass it on (expert tp = tp, {@link #expertTp}). {@code devices: -1} (all GPUs) is unknown too. A parallel size the
 * file interpolates ({@code ${model.tensor_model_parallel_size}}) but does not write is unknown: NeMo-Aligner
 * takes it from the checkpoint it restores.
 */
final class NemoAdapter implements FormatAdapter {
    static final String FORMAT = Format.NEMO.display();
    private static final Pattern REF = Pattern.compile("\\$\\{\\s*([A-Za-z0-9_.]+)\\s*\\}");

    @Override public String id() { return "nemo"; }

    @Override public String displayName() { return FORMAT; }

    @Override public boolean accepts(ForeignDocument doc) { return accepts(doc.root()); }

    @Override public void bind(ForeignDocument doc, DraftSink sink) {
        sink.draft(bind(doc.root(), doc.file(), doc.name()));
    }

    static boolean accepts(MappingNode root) {
        MappingNode trainer = map(root, "trainer");
        MappingNode model = map(root, "model");
        if (trainer == null || model == null) return false;
        boolean t = trainer.get("num_nodes").isPresent() || trainer.get("devices").isPresent();
        boolean m = model.get("tensor_model_parallel_size").isPresent() || model.get("micro_batch_size").isPresent()
                || model.get("pipeline_model_parallel_size").isPresent();
        return t && m;
    }

    static JobDraft bind(MappingNode root, String file, String jobName) {
        JobDraft j = new JobDraft(FORMAT, file, root.span());
        j.name = new Located<>(jobName, root.entries().isEmpty() ? root.span() : root.entries().get(0).key().span());
        MappingNode trainer = map(root, "trainer");
        MappingNode model = map(root, "model");
        j.nodes = j.key("num_nodes", number(root, trainer, "num_nodes"));
        Node dev = trainer.get("devices").orElse(null);
        if (dev instanceof ListNode l && !l.items().isEmpty()) j.gpusPerNode = new Located<>((long) l.items().size(), l.span());
        else j.gpusPerNode = j.key("devices", minusOneIsAll(number(root, trainer, "devices")));
        j.gpusPerNodeWhere = "trainer.devices";
        j.tp = size(j, ParallelDim.TP, root, model, "tensor_model_parallel_size");
        j.pp = size(j, ParallelDim.PP, root, model, "pipeline_model_parallel_size");
        j.cp = size(j, ParallelDim.CP, root, model, "context_parallel_size");
        j.ep = size(j, ParallelDim.EP, root, model, "expert_model_parallel_size");
        expertTp(j, root, model);
        j.vpp = size(j, ParallelDim.VPP, root, model, "virtual_pipeline_model_parallel_size");
        // model.use_tp_pp_dp_mapping: NeMo 1's rank order 'tp-pp-dp', cp and ep of one rank only (TpPpDpMapping.nemo1)
        j.order = TpPpDpMapping.nemo1(j, j.key("use_tp_pp_dp_mapping", DraftValues.bool(j, resolve(root, model, "use_tp_pp_dp_mapping"),
                "model.use_tp_pp_dp_mapping", "the estimate keeps the default rank order tp-cp-ep-dp-pp")), "model.use_tp_pp_dp_mapping");
        j.micro = j.key("micro_batch_size", number(j, root, model, "micro_batch_size"));
        j.global = j.key("global_batch_size", number(j, root, model, "global_batch_size"));
        j.layers = j.key("num_layers", number(j, root, model, "num_layers"));
        j.firstStageLayers = j.key("num_layers_in_first_pipeline_stage", number(j, root, model, "num_layers_in_first_pipeline_stage"));
        j.lastStageLayers = j.key("num_layers_in_last_pipeline_stage", number(j, root, model, "num_layers_in_last_pipeline_stage"));
        j.heads = j.key("num_attention_heads", number(j, root, model, "num_attention_heads"));
        j.kvHeads = j.key("num_query_groups", number(j, root, model, "num_query_groups"));
        j.experts = j.key("num_moe_experts", number(j, root, model, "num_moe_experts"));
        j.hidden = j.key("hidden_size", number(j, root, model, "hidden_size"));
        j.seqLength = j.key("encoder_seq_length", number(j, root, model, "encoder_seq_length"));
        if (j.seqLength == null) j.seqLength = j.key("seq_length", number(j, root, model, "seq_length"));
        ScalarNode sp = resolve(root, model, "sequence_parallel");
        j.sequenceParallel = TreeValues.bool(sp);
        // Transformer Engine's userbuffer tp overlap (megatron_gpt_config.yaml: ub_tp_comm_overlap, default False)
        j.tpCommOverlap = DraftValues.bool(j, resolve(root, model, "ub_tp_comm_overlap"), "model.ub_tp_comm_overlap",
                "the estimate prices the tp collectives without overlap (the default)");
        plan(j, root, trainer, model);
        j.state("world", JobDraft.product(j.nodes, j.gpusPerNode),
                "trainer.num_nodes × trainer.devices", StatedKind.CONFIG, j.nodes != null ? j.nodes.span() : null);
        env(root, j);
        return j;
    }

    /**
     * What `gpulint plan` reads from a NeMo config: ffn_hidden_size, kv_channels, activation (swiglu: gated),
     * share_embeddings_and_output_weights, trainer.precision and model.fp8, activations_checkpoint_granularity
     * (null: none), model.optim.name distributed_fused_adam (the distributed optimizer), the MoE and attention keys
     * Megatron-Core's TransformerConfig names (moe_router_topk, moe_grouped_gemm, moe_expert_capacity_factor, ...: Nemo2Moe).
     */
    private static void plan(JobDraft j, MappingNode root, MappingNode trainer, MappingNode model) {
        j.ffn = j.key("ffn_hidden_size", number(j, root, model, "ffn_hidden_size"));
        j.headDim = j.key("kv_channels", number(j, root, model, "kv_channels"));
        ScalarNode act = resolve(root, model, "activation");
        if (act != null && !act.isNull()) j.gated = new Located<>(act.text().toLowerCase(java.util.Locale.ROOT).contains("glu"), act.span());
        Located<Boolean> share = TreeValues.bool(resolve(root, model, "share_embeddings_and_output_weights"));
        if (share != null) j.tied = share;
        ScalarNode prec = resolve(root, trainer, "precision");
        Located<Boolean> fp8 = TreeValues.bool(resolve(root, model, "fp8"));
        if (fp8 != null && fp8.value()) j.dtype = new Located<>("fp8", fp8.span());
        else if (prec != null && !prec.isNull() && !TreeValues.placeholder(prec.text())) j.dtype = new Located<>(prec.text(), prec.span());
        // model.fp8_params: the weights kept in fp8, which NeMo's distributed Adam all-gathers so (derive/estimate/ParamGather)
        j.fp8ParamGather = j.key("model.fp8_params", TreeValues.bool(resolve(root, model, "fp8_params")));
        if (model.get("activations_checkpoint_granularity").orElse(null) instanceof ScalarNode g) {
            j.recompute = new Located<>(g.isNull() ? "none" : g.text().toLowerCase(java.util.Locale.ROOT), g.span());
        }
        // the MoE and attention keys under Megatron-Core's names: NeMo 1's build_transformer_config (megatron_base_model.py)
        // copies every cfg key named as a TransformerConfig field, the names a NeMo 2 model.config writes (Nemo2Moe); one not
        // written keeps TransformerConfig's default, for moe_grouped_gemm False (one GEMM per expert, as Megatron-LM's flag)
        Nemo2Moe.read(j, model, "model.", NemoNumbers.Reader.NEMO1);
        Nemo2Moe.dispatcherDefault(j, "model.moe_token_dispatcher_type", model.get("moe_token_dispatcher_type").isPresent(), "NeMo 1");
        if (j.groupedGemm == null && j.experts != null && j.experts.value() != null && j.experts.value() > 1) {
            j.groupedGemm = new Located<>(false, j.experts.span());
        }
        if (model.get("optim").orElse(null) instanceof MappingNode optim) {
            ScalarNode name = resolve(root, optim, "name");
            if (name != null && !name.isNull()) j.distributed = new Located<>(name.text().equals("distributed_fused_adam")
                    || name.text().startsWith("mcore_distributed"), name.span());
            gradSync(j, root, optim);
        }
    }

    /**
     * {@code model.optim.grad_sync_dtype} of the distributed optimizers: NeMo 1 keeps the main gradients in it (the
     * mcore optimizer's DDP config takes {@code grad_reduce_in_fp32 = grad_sync_dtype == 'fp32'}, default fp32; Apex's
     * DistributedFusedAdam buckets its gradients in it). bf16 or fp16 gradients make the model states 2 + 2 + 12 = 16
     * bytes per parameter instead of Megatron's 18; fp32, or no setting, is the default accounting.
     */
    private static void gradSync(JobDraft j, MappingNode root, MappingNode optim) {
        if (j.distributed == null || !j.distributed.value()) return;
        ScalarNode g = resolve(root, optim, "grad_sync_dtype");
        if (g == null || g.isNull() || TreeValues.placeholder(g.text())) return;
        String t = g.text().strip().toLowerCase(java.util.Locale.ROOT);
        if (!(t.equals("bf16") || t.equals("fp16") || t.equals("bfloat16") || t.equals("float16") || t.equals("16"))) return;
        j.bytesPerParameter = j.key("optim.grad_sync_dtype", new Located<>(16.0, g.span()));
        j.state("bytes_per_parameter", 16, "optim.grad_sync_dtype: " + g.text().strip()
                + " (16-bit main gradients: 2 weights + 2 gradients + 12 Adam)", StatedKind.CONFIG, g.span());
    }

    /** The launcher's top-level {@code env_vars:} (null values are unset). */
    static void env(MappingNode root, JobDraft j) {
        MappingNode env = map(root, "env_vars");
        if (env == null) return;
        for (MappingNode.Entry e : env.entries()) {
            if (e.value() instanceof ScalarNode s && !s.isNull() && !TreeValues.placeholder(s.text())) {
                j.env(e.key().text(), s.text(), s.span(), "env_vars");
            }
        }
    }

    /** A whole number, signed, for the schema's bounds to judge (after following interpolations). */
    private static Located<Long> number(MappingNode root, MappingNode parent, String key) {
        return TreeValues.whole(resolve(root, parent, key));
    }

    /** A whole number of the model section, as NeMo 1 gets it ({@link NemoNumbers}: a list, a mapping, a quoted string is SYN002). */
    private static Located<Long> number(JobDraft j, MappingNode root, MappingNode model, String key) {
        return NemoNumbers.read(j, resolveNode(root, model, key), key);
    }

    /**
     * {@code model.expert_tensor_parallel_size} is not NeMo 1's: its expert groups are built with expert tp = tp in every
     * version. megatron_base_model.py passes no expert tensor-parallel size to initialize_model_parallel_for_nemo, whose
     * fake_initialize_model_parallel takes {@code expert_tensor_parallel_size_=None} and sets it to tp, and nlp_overrides.py's
     * init_model_parallel calls Megatron-Core's initialize_model_parallel without it (its default None is tp): NVIDIA/NeMo at
     * commit dd84799bfc7db1d2fe4759fcb2ac83d3b50f05b8 (nemo/collections/nlp/parts/nlp_overrides.py) and NeMo's main of 2025 as
     * forked at ishine/NeMo-speechlm2 commit 212bbba4145aeeb5f3036c962e7b8b50926e62ca (the same file and
     * nemo/collections/nlp/modules/common/megatron/megatron_init.py). So the estimate prices expert tp = tp (etp is not
     * bound) and a written value that differs is a line of the plan's assumptions: its build_transformer_config copies every
     * cfg key named as a TransformerConfig field, so the config says one expert tp and the process groups another. NeMo 2's
     * MegatronStrategy passes it on (nemo/lightning/_strategy_lib.py's init_parallel_ranks and init_model_parallel, NVIDIA/NeMo
     * at commit 00fdee33ed6f42e247cbbda367f042ca9e87c19c; Nemo2RecipeAdapter reads it).
     */
    private static void expertTp(JobDraft j, MappingNode root, MappingNode model) {
        Located<Long> written = TreeValues.whole(resolve(root, model, "expert_tensor_parallel_size"));
        boolean tpKnown = !j.unknown.contains(ParallelDim.TP.key());
        long tp = j.tp == null ? 1 : j.tp.value();
        if (written == null || (tpKnown && written.value() == tp)) return;
        String size = tpKnown ? " (" + tp + ")" : "";
        j.unpriced.add("model.expert_tensor_parallel_size = " + written.value() + ": NeMo 1 does not pass it to Megatron-Core's"
                + " initialize_model_parallel (nlp_overrides.py), whose expert groups then take tp; priced with expert tp = tp"
                + size + "; write tp" + size + " or leave it out, as the TransformerConfig NeMo 1 builds takes the written value");
    }

    /**
     * A parallel size: its number, or null; a size written as a placeholder ({@code ???},
     * {@code ${oc.env:TP,2}}, {@code ${multiply:...}}) or as an interpolation that leads nowhere is
     * marked unknown. A value NeMo 1 cannot compute with (a list, a quoted number; null for tp, pp, cp and ep) is SYN002
     * and takes the default ({@link NemoNumbers}); a null virtual pipeline size is NeMo's "no interleaving".
     */
    private static Located<Long> size(JobDraft j, ParallelDim name, MappingNode root, MappingNode model, String key) {
        Located<Long> v = j.key(key, number(j, root, model, key));
        if (v == null && j.leftOut.contains("model." + key)) return null;      // refused (SYN002): the default, not unknown
        if (v == null && model.get(key).orElse(null) instanceof ScalarNode written && !written.isNull()) {
            ScalarNode s = resolve(root, model, key);
            if (s == null || (!s.isNull() && TreeValues.placeholder(s.text()))) j.unknown(name);
        }
        if (v == null && model.get(key).isEmpty() && referenced(root, "model." + key)) j.unknown(name);
        return v;
    }

    /** How many scalars {@link #referenced} looks at; a larger file's later scalars are not searched. */
    private static final int MAX_SCANNED = 100_000;

    /**
     * Whether some value interpolates {@code ${path}} (alone or inside a resolver, {@code ${multiply:${path}, ...}}).
     * NeMo-Aligner's configurations name {@code ${model.tensor_model_parallel_size}} without writing it: the size
     * comes from the .nemo checkpoint they restore, so it is unknown there, not the default 1.
     */
    static boolean referenced(MappingNode root, String path) {
        String ref = "${" + path + "}";
        java.util.ArrayDeque<Node> todo = new java.util.ArrayDeque<>();
        todo.push(root);
        for (int seen = 0; !todo.isEmpty() && seen < MAX_SCANNED; seen++) {
            Node n = todo.pop();
            if (n instanceof ScalarNode s && !s.isNull() && s.text().replace(" ", "").contains(ref)) return true;
            if (n instanceof MappingNode m) for (MappingNode.Entry e : m.entries()) todo.push(e.value());
            if (n instanceof ListNode l) for (Node item : l.items()) todo.push(item);
        }
        return false;
    }

    /** {@code devices: -1} is Lightning's "every GPU of the node": unknown, not out of bounds. */
    private static Located<Long> minusOneIsAll(Located<Long> devices) {
        return devices != null && devices.value() == -1 ? null : devices;
    }

    /** The scalar at parent[key], following plain interpolations within the file (at most 8 hops). */
    static ScalarNode resolve(MappingNode root, MappingNode parent, String key) {
        return resolveNode(root, parent, key) instanceof ScalarNode s ? s : null;
    }

    /** The node at parent[key] of any kind, following plain interpolations within the file (at most 8 hops); null when absent or
     *  when an interpolation leads nowhere. */
    static Node resolveNode(MappingNode root, MappingNode parent, String key) {
        Node n = parent.get(key).orElse(null);
        for (int hop = 0; hop < 8 && n instanceof ScalarNode s; hop++) {
            Matcher m = REF.matcher(s.text().strip());
            if (!m.matches()) return s;
            String ref = m.group(1);
            Node target;
            if (ref.startsWith(".")) {
                target = at(parent, ref.substring(1).split("\\."));
            } else {
                String[] path = ref.split("\\.");
                target = at(root, path);
                if (target == null && path.length > 1 && root.get(path[0]).isEmpty()) {
                    target = at(root, java.util.Arrays.copyOfRange(path, 1, path.length));
                }
            }
            if (target == null) return null;
            n = target;
        }
        return n;
    }
}
