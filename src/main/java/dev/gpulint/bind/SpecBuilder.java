package dev.gpulint.bind;

import static dev.gpulint.spec.ParallelDim.CP;
import static dev.gpulint.spec.ParallelDim.DP;
import static dev.gpulint.spec.ParallelDim.EP;
import static dev.gpulint.spec.ParallelDim.ETP;
import static dev.gpulint.spec.ParallelDim.PP;
import static dev.gpulint.spec.ParallelDim.TP;
import static dev.gpulint.spec.ParallelDim.VPP;

import dev.gpulint.core.Span;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import dev.gpulint.tree.Document;
import dev.gpulint.tree.ListNode;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The binder's second pass: builds typed specs from a validated document, reading only the
 * values that validation kept (keyed by node identity). A node without a kept value binds as
 * absent.
 */
final class SpecBuilder {

    private final Map<Node, Object> values;

    /** Where the findings of what reads but does not fit the job go (a hybrid pattern's '|' segments against pp). */
    private final java.util.List<dev.gpulint.core.Finding> findings;

    /**
     * @param values   the typed value of each scalar that passed validation, filled by {@link Binder}
     * @param findings the binder's findings, for a value that reads but does not fit the rest of the job
     */
    SpecBuilder(Map<Node, Object> values, java.util.List<dev.gpulint.core.Finding> findings) {
        this.values = values;
        this.findings = findings;
    }

    @SuppressWarnings("unchecked")
    /**
     * A value, or, when it is written as a placeholder ({@code ${PFC}}, {@code "<fill in: ...>"}), one that is stated
     * but unknown: a null value with the placeholder's span (rules then tell "not stated" from "not known").
     */
    private <T> Located<T> stated(MappingNode m, String key) {
        Located<T> l = get(m, key);
        if (l != null || m == null) return l;
        Node n = m.get(key).orElse(null);
        return n instanceof dev.gpulint.tree.ScalarNode s && (FillIn.is(s.text()) || Binder.placeholder(s.text()))
                ? new Located<>(null, n.span()) : null;
    }

    /**
     * The job's recompute as written; {@code every} with {@code recompute_every: n} (default 2, torchtitan's) is one layer
     * in n fully recomputed; {@code selective} with {@code recompute_modules} names its modules (derive/estimate/RecomputeModules).
     */
    private dev.gpulint.spec.Recomputation recompute(MappingNode r) {
        Located<String> rc = get(r, "recompute");
        // recompute_modules with recompute: selective (or no recompute written: selective is what it means) names the
        // modules, as the Megatron readers read them; beside none, full, op or every it changes nothing
        Located<List<String>> modules = get(r, "recompute_modules");
        if (modules != null && (rc == null || "selective".equals(rc.value()))) {
            return dev.gpulint.spec.Recomputation.selective(rc != null ? rc : new Located<>("selective", modules.span()),
                    dev.gpulint.spec.RecomputeModule.of(modules.value()));
        }
        if (rc == null || !"every".equals(rc.value())) return rc == null ? null : dev.gpulint.spec.Recomputation.of(rc);
        Located<Long> n = get(r, "recompute_every");
        return dev.gpulint.spec.Recomputation.every(n == null ? 2 : (int) (long) n.value(), rc.span());
    }

    /**
     * Which of {@code keys} are written but not known: a placeholder ({@link Unknowns}), or a value the binder rejected
     * (out of the schema's bounds, not a whole number: its SYN002 is reported at the value). Either way the size does not
     * take the default of an absent one: {@code tp: 0} is not tp 1, and no rule or estimate reasons on a number the file
     * does not say.
     */
    private java.util.Set<String> unknown(MappingNode m, String... keys) {
        java.util.Set<String> out = Unknowns.in(m, keys);
        if (m == null) return out;
        for (String k : keys) {
            if (m.get(k).orElse(null) instanceof dev.gpulint.tree.ScalarNode s && !s.isNull() && !values.containsKey(s)) out.add(k);
        }
        return out;
    }

    /** The model's sizes written but not known (out of bounds or a placeholder), by their manifest path: see Specs.Model. */
    private java.util.Set<String> unknownShape(MappingNode model) {
        java.util.Set<String> out = new java.util.TreeSet<>();
        for (String k : unknown(model, SHAPE)) out.add("model." + k);
        for (String k : unknown(sub(model, "moe"), MOE_SHAPE)) out.add("model.moe." + k);
        for (String k : unknown(sub(model, "attention"), ATTENTION_SHAPE)) out.add("model.attention." + k);
        return out;
    }

    private static final String[] SHAPE = {"layers", "attention_heads", "kv_heads", "hidden_size", "seq_length", "experts",
            "ffn_hidden_size", "vocab_size", "head_dim", "top_k", "mtp_layers"};
    private static final String[] MOE_SHAPE = {"expert_ffn_hidden_size", "shared_expert_ffn_hidden_size", "dense_layers"};
    private static final String[] ATTENTION_SHAPE = {"sliding_window", "full_attention_every", "kv_lora_rank", "q_lora_rank",
            "qk_head_dim", "qk_rope_head_dim", "v_head_dim"};

    private <T> Located<T> get(MappingNode m, String key) {
        if (m == null) return null;
        Node n = m.get(key).orElse(null);
        if (n == null || !values.containsKey(n)) return null;
        return new Located<>((T) values.get(n), n.span());
    }

    /** A switch as the rules read Megatron's: present when true, null when false or absent. */
    private static Located<Boolean> switchedOn(Located<Boolean> b) {
        return b == null || !Boolean.TRUE.equals(b.value()) ? null : b;
    }

    /** model.moe: how an MoE model's layers route and compute (null when not written). */
    private Specs.Moe moe(MappingNode m) {
        if (m == null) return null;
        Specs.Moe x = new Specs.Moe(get(m, "expert_ffn_hidden_size"), get(m, "shared_expert_ffn_hidden_size"), get(m, "layer_freq"),
                get(m, "dense_layers"), get(m, "capacity_factor"), get(m, "pad_to_capacity"), get(m, "dispatcher"), get(m, "overlap_a2a"),
                get(m, "grouped_gemm"), get(m, "activation_clamp"), get(m, "expert_bias"), get(m, "router_num_groups"),
                get(m, "router_group_topk"), get(m, "flex_backend"));
        return x.empty() ? null : x;
    }

    /**
     * model.hybrid: a hybrid Mamba model's pattern and mixer sizes (null when not written); a size out of its bounds
     * (SYN002 at the value) is read as not written, and the estimate takes Megatron-LM's default and says so, as for a
     * Megatron script's --mamba-* flags.
     */
    private Specs.Hybrid hybrid(MappingNode m, Located<String> pattern, dev.gpulint.spec.HybridPattern read) {
        if (m == null) return null;
        Located<Long> heads = get(m, "mamba_num_heads"), dim = get(m, "mamba_head_dim"), state = get(m, "mamba_state_dim"),
                groups = get(m, "mamba_num_groups"), conv = get(m, "mamba_conv_kernel");
        if (pattern == null && heads == null && dim == null && state == null && groups == null && conv == null) return null;
        // the G layers' gated-delta-net sizes, Megatron-Core TransformerConfig's linear_* (each not written its default, said by
        // the estimate), read when the pattern holds a G: Megatron-Core builds every G as a GatedDeltaNet of them
        boolean g = read != null && pattern.value().indexOf('G') >= 0;
        Specs.Gdn gdn = !g ? null : new Specs.Gdn(get(m, "linear_num_key_heads"), get(m, "linear_num_value_heads"),
                get(m, "linear_key_head_dim"), get(m, "linear_value_head_dim"), get(m, "linear_conv_kernel_dim"));
        // the sizes written with a value the schema refused (SYN002): read as not written, named left out by PAR015
        java.util.Set<String> refused = new java.util.TreeSet<>();
        for (String k : HYBRID_SIZES) {
            Node n = m.get(k).orElse(null);
            if (n != null && !values.containsKey(n)) refused.add(k);
        }
        // the decoder's layers: the pattern before its first '/' (the MTP blocks), without '|' (stage boundaries: stages())
        return new Specs.Hybrid(read == null ? pattern : new Located<>(read.decoder(), pattern.span()), heads, dim, state, groups, conv, gdn,
                read == null ? 0 : dev.gpulint.spec.HybridPattern.gdnLayers(pattern.value()),
                read == null ? null : dev.gpulint.spec.HybridPattern.withGdn(pattern.value()), refused);
    }

    /** model.hybrid's size keys (Schema): the Mamba-2 mixer's and the gated delta net's. */
    private static final List<String> HYBRID_SIZES = List.of("mamba_num_heads", "mamba_head_dim", "mamba_state_dim", "mamba_num_groups",
            "mamba_conv_kernel", "linear_num_key_heads", "linear_num_value_heads", "linear_key_head_dim", "linear_value_head_dim",
            "linear_conv_kernel_dim");

    /**
     * model.mtp_layers, or a hybrid pattern's '/' groups ({@link dev.gpulint.spec.HybridPattern#mtp}, as the Megatron adapter reads
     * them): the groups are the MTP layers and their letters each one's blocks, over an mtp_layers written beside them, as
     * Megatron-LM's validate_args takes the pattern's count over --mtp-num-layers; null when neither writes any.
     */
    private Specs.Mtp mtp(MappingNode model, Located<String> pattern, dev.gpulint.spec.HybridPattern read,
                          Located<dev.gpulint.spec.PipelineLayout> layout) {
        Located<Long> layers = get(model, "mtp_layers");
        dev.gpulint.spec.HybridPattern.MtpGroups g = read == null ? null : read.mtp();
        if (g != null) return new Specs.Mtp(new Located<>(g.layers(), pattern.span()), new Located<>(g.blocks(), pattern.span()),
                new Located<>(g.letters(), pattern.span()), null);
        // a pipeline_layout's m letters are the MTP layers it places (Megatron-Core asserts they match --mtp-num-layers)
        if (layers == null && layout != null && layout.value().mtpLayers() > 0) layers = new Located<>(layout.value().mtpLayers(), layout.span());
        // mtp_loss_split (L on several stages): each loss slot priced on the stage that holds it, as the Megatron adapter reads the
        // flag (DraftBounds.pipelineLayout); GPTModel's alone: a hybrid model's HybridModel computes every loss on the last stage
        Located<List<Long>> lossStages = layers == null || layout == null || !layout.value().lossSplit() || sub(model, "hybrid") != null ? null
                : new Located<>(layout.value().stages().stream().map(st -> (long) st.loss()).toList(), layout.span());
        return layers == null ? null : new Specs.Mtp(layers, null, null, lossStages);
    }

    /**
     * model.hybrid.pattern's '|' segments as the job's pipeline split, stage by stage (null: no '|', or no parallelism
     * written), checked as Megatron-Core's select_pipeline_segment checks them ({@link dev.gpulint.spec.HybridPattern#problem}):
     * a pattern it refuses is SYN002 at the pattern, and its split is left out ({@code unknown} gains
     * {@link Specs#PIPELINE_LAYOUT}: PAR004 does not judge an even split the job does not ask for).
     */
    private Located<List<Long>> hybridStages(Document d, Located<String> pattern, dev.gpulint.spec.HybridPattern read, MappingNode par,
                                             java.util.Set<String> unknown) {
        if (par == null || read == null) return null;
        Located<Long> pp = get(par, PP.key());
        long size = pp != null ? pp.value() : unknown.contains(PP.key()) ? 0 : 1;
        Located<Long> vpp = get(par, VPP.key());
        String why = read.problem(size, vpp != null ? vpp.value() : 0,
                get(par, "first_stage_layers") != null || get(par, "last_stage_layers") != null);
        if (why == null) return read.stages().isEmpty() ? null : new Located<>(read.stages(), pattern.span());
        Located<String> name = get(d.root(), "name");
        String kind = d.root().get("kind").orElse(null) instanceof dev.gpulint.tree.ScalarNode k ? k.text() : "training_job";
        findings.add(dev.gpulint.core.Finding.of("SYN002", pattern.span(), kind + ":" + (name != null ? name.value() : "#" + d.index())
                + "/model/hybrid/pattern", dev.gpulint.spec.HybridPattern.refusal("pattern", read.stages(), why)));
        if (!read.stages().isEmpty()) unknown.add(Specs.PIPELINE_LAYOUT);
        return null;
    }

    /**
     * parallelism.pipeline_layout: Megatron-Core's --pipeline-model-parallel-layout / Megatron-Bridge's and NeMo 2's
     * pipeline_model_parallel_layout ("Et*4|(t*4|)*14tmL": Megatron-Bridge's DeepSeek-V3 and Kimi-K2 recipes at pp × vp 16),
     * read by {@link dev.gpulint.spec.PipelineLayout} into each stage's transformer blocks, the job's split in place of the
     * even one, as the Megatron adapter reads the flag (null: not written, or no parallelism). Checked as Megatron-Core
     * checks it against pp, the model's layers and its MTP layers, and against a virtual_pp written beside it (Megatron-Core
     * takes vp from the layout: its stages ÷ pp); text that does not read, a layout that does not fit, or one
     * beside a hybrid pattern's '|' segments that has another number of stages than they have (the two would give
     * Megatron-Core different virtual stages) is SYN002 at the value, and the split is left out. One that places the MTP
     * layers or the loss on several stages (Megatron-LM's mtp_split and mtp_loss_split, open pull requests #5329 and #5318,
     * which Megatron-Core's releases refuse at start-up) is priced as those pull requests build it and is SYN010 at the value
     * ({@link dev.gpulint.bind.adapt.NewerLayouts}), as the Megatron adapter reads the flag: one policy for both. Beside segments of as many
     * stages the layout is kept and the segments are the split priced, as Megatron-Core's HybridModel builds each stage from
     * them (select_pipeline_segment; hybrid_model.py never reads the layout for them) and the Megatron adapter prices them
     * (DraftBounds.pipelineLayout) ({@code unknown} gains {@link Specs#PIPELINE_LAYOUT}: PAR004 does not judge an even split the job does not
     * ask for). Bounded by PipelineLayout (10,000 characters, 100,000 letters unrolled).
     */
    private Located<dev.gpulint.spec.PipelineLayout> pipelineLayout(Document d, MappingNode model, MappingNode par,
                                                                    Located<List<Long>> hybridStages, java.util.Set<String> unknown) {
        Located<String> v = get(par, "pipeline_layout");
        if (v == null) return null;
        // a placeholder (${LAYOUT}, {{ .Values.layout }}): written, but not known; nothing to judge, no split to price
        if (Binder.placeholder(v.value())) { unknown.add(Specs.PIPELINE_LAYOUT); return null; }
        String why;
        dev.gpulint.spec.PipelineLayout layout = null;
        try {
            layout = dev.gpulint.spec.PipelineLayout.parse(v.value());
            Located<Long> pp = get(par, PP.key()), vpp = get(par, VPP.key()), layers = get(model, "layers"), mtp = get(model, "mtp_layers");
            long size = pp != null ? pp.value() : unknown.contains(PP.key()) ? 0 : 1;
            why = layout.problem(size, layers != null ? layers.value() : 0, mtp != null ? mtp.value() : -1);
            if (why == null && size > 0 && vpp != null && layout.stages().size() / size != vpp.value()) {
                why = "its " + layout.stages().size() + " stages over pp " + size + " are " + layout.stages().size() / size
                        + " virtual stages per rank, and virtual_pp is " + vpp.value() + " (Megatron-Core takes the virtual stages from the layout)";
            }
            // beside '|' segments of another number of stages: SYN002 here, at the layout, as the Megatron adapter gives it
            if (why == null && hybridStages != null) why = layout.segmentsProblem("model.hybrid.pattern", hybridStages.value());
        } catch (dev.gpulint.spec.PipelineLayout.Problem e) {
            why = e.getMessage();
        }
        Located<String> name = get(d.root(), "name");
        String owner = "training_job:" + (name != null ? name.value() : "#" + d.index()) + "/parallelism/pipeline_layout";
        if (why == null) {
            // m on several stages, L more than once: priced as the open pull requests build them, and SYN010, as the Megatron
            // adapter reads the flag (DraftBounds.pipelineLayout): a warning, never a layout left out that a build runs
            Located<Long> ranks = get(par, PP.key());
            long pp = ranks != null && ranks.value() != null ? ranks.value() : 0;
            if (layout.mtpSplit()) findings.add(dev.gpulint.bind.adapt.NewerLayouts.mtpSplit(owner, "pipeline_layout", v, layout, pp));
            if (layout.losses() > 1) findings.add(dev.gpulint.bind.adapt.NewerLayouts.lossSplit(owner, "pipeline_layout", v, layout, pp));
            return new Located<>(layout, v.span());
        }
        findings.add(dev.gpulint.core.Finding.of("SYN002", v.span(), owner, "'pipeline_layout' is '" + dev.gpulint.spec.Quantities.shortText(v.value()) + "': "
                + why + "; the layout is left out of the estimate"));
        unknown.add(Specs.PIPELINE_LAYOUT);
        return null;
    }

    /**
     * parallelism.virtual_pp as written; not written, a hybrid pattern's segments ÷ pp when they are more than pp (the
     * virtual stages Megatron-Core's direct form infers from them: _validate_direct_pipeline's inferred_vp_size,
     * megatron/core/models/hybrid/hybrid_architecture.py at 26f7d124),
     * at the pattern, as a Megatron script's --pipeline-model-parallel-layout or '|' gives it.
     */
    private Located<Long> virtualPp(MappingNode par, Located<List<Long>> hybridStages) {
        Located<Long> vpp = get(par, VPP.key()), pp = get(par, PP.key());
        if (vpp != null || hybridStages == null || pp == null || pp.value() < 1) return vpp;
        long stages = hybridStages.value().size() / pp.value();
        return stages > 1 ? new Located<>(stages, hybridStages.span()) : null;
    }

    /**
     * model.loss.kernel: Transformer Engine's fused cross-entropy computes the loss ({@code te}: Specs.Model#crossEntropy, as the
     * Megatron, Megatron-Bridge and NeMo 2 adapters read cross_entropy_loss_fusion with cross_entropy_fusion_impl te), or
     * Megatron-Core's own ({@code native}, its fused kernel, or {@code unfused}: false); null when not written (the schema
     * refused any other word, SYN002 at it, and it is read as not written).
     */
    private Located<Specs.CrossEntropy> crossEntropy(MappingNode loss) {
        Located<String> k = get(loss, "kernel");
        // a placeholder (${LOSS_KERNEL}) is written but not known: Megatron-Core's default, as when not written
        if (k == null || k.value() == null || Binder.placeholder(k.value())) return null;
        return new Located<>(switch (k.value()) {
            case "te" -> Specs.CrossEntropy.TE;
            case "linear" -> Specs.CrossEntropy.LINEAR;
            default -> Specs.CrossEntropy.NATIVE;
        }, k.span());
    }

    /** model.attention: the attention variant (null when not written). */
    private Specs.Attention attention(MappingNode m) {
        if (m == null) return null;
        Specs.Attention x = new Specs.Attention(get(m, "sliding_window"), get(m, "full_attention_every"), get(m, "sinks"), get(m, "kv_lora_rank"),
                get(m, "q_lora_rank"), get(m, "qk_head_dim"), get(m, "qk_rope_head_dim"), get(m, "v_head_dim"), get(m, "kernel"), null, List.of());
        return x.empty() ? null : x;
    }

    private static Located<String> named(Located<String> l) {
        return l == null || l.value() == null || Binder.placeholder(l.value()) ? null : l;
    }

    private static MappingNode sub(MappingNode m, String key) {
        if (m == null) return null;
        return m.get(key).filter(n -> n instanceof MappingNode).map(n -> (MappingNode) n).orElse(null);
    }

    private static Span keySpan(MappingNode m, String key) {
        return m == null ? null : m.entry(key).map(e -> e.key().span()).orElse(null);
    }

    private static List<MappingNode> items(MappingNode m, String key) {
        List<MappingNode> out = new ArrayList<>();
        if (m != null) m.get(key).filter(n -> n instanceof ListNode).ifPresent(l -> {
            for (Node n : ((ListNode) l).items()) if (n instanceof MappingNode mm) out.add(mm);
        });
        return out;
    }

    /** @param groups its node groups, built one by one as each was validated ({@link #group}) */
    Specs.Cluster cluster(Document d, List<Specs.NodeGroup> groups) {
        MappingNode r = d.root();
        MappingNode fab = sub(r, "fabric");
        MappingNode roce = sub(fab, "roce");
        Specs.Fabric fabric = fab == null ? null : new Specs.Fabric(get(fab, "type"), get(fab, "topology"),
                get(fab, "oversubscription"), stated(sub(roce, "pfc"), "enabled"), get(sub(roce, "pfc"), "priority"),
                stated(sub(roce, "ecn"), "enabled"), get(roce, "dscp"), get(fab, "link_speed"), keySpan(r, "fabric"));
        return new Specs.Cluster(get(r, "name"), d.file(), fabric, groups, r.span());
    }

    /** One node group of a cluster, from its validated mapping. */
    Specs.NodeGroup group(MappingNode g) {
        MappingNode gpu = sub(g, "gpu");
        MappingNode nv = sub(g, "nvlink");
        MappingNode pcie = sub(g, "pcie");
        List<Specs.Nic> nics = new ArrayList<>();
        for (MappingNode n : items(g, "nics")) {
            nics.add(new Specs.Nic(get(n, "model"), get(n, "count"), get(n, "speed"), get(n, "protocol"),
                    get(n, "gpudirect_rdma"), n.span()));
        }
        return new Specs.NodeGroup(get(g, "name"), get(g, "count"),
                new Specs.Gpu(get(gpu, "model"), get(gpu, "count"), get(gpu, "memory"), get(gpu, "clock_limit_mhz"),
                        get(gpu, "power_limit_w")),
                nv == null ? null : new Specs.Nvlink(get(nv, "switch"), get(nv, "bridge"), get(nv, "bandwidth"),
                        get(nv, "direction"), get(nv, "domain_size"), keySpan(g, "nvlink")),
                pcie == null ? null : new Specs.Pcie(get(pcie, "generation"), get(pcie, "lanes"),
                        get(pcie, "bandwidth"), get(pcie, "direction")),
                nics, g.span());
    }

    Specs.Job job(Document d) {
        MappingNode r = d.root();
        MappingNode model = sub(r, "model");
        MappingNode par = sub(r, "parallelism");
        MappingNode batch = sub(r, "batch");
        MappingNode opt = sub(r, "optimizer");
        MappingNode net = sub(r, "network");
        MappingNode off = sub(r, "offload");
        MappingNode bf16 = sub(r, "fp8_layers_bf16");
        Map<String, Located<String>> env = new LinkedHashMap<>();
        MappingNode envNode = sub(r, "env");
        if (envNode != null) {
            for (MappingNode.Entry e : envNode.entries()) {
                if (env.size() >= Specs.MAX_ENV) break;   // the binder's note says how many were left out
                if (e.value() instanceof ScalarNode s && !env.containsKey(e.key().text())) {
                    env.put(e.key().text(), new Located<>(s.text(), s.span()));
                }
            }
        }
        // a placeholder cluster or node group (${CLUSTER}, {{ .Values.nodeGroup }}) leaves where the job runs unknown:
        // no name to resolve, and no node group of a known cluster to pick
        Located<String> cluster = get(r, "cluster"), group = get(r, "node_group");
        boolean placeholder = named(cluster) != cluster || named(group) != group;
        java.util.Set<String> parUnknown = unknown(par, TP.key(), PP.key(), DP.key(), CP.key(), EP.key(), ETP.key(), VPP.key(), "dp_shard");
        // model.hybrid.pattern read once (the Binder accepted it: HybridPattern.valid), its decoder, stages and MTP groups read from that value
        Located<String> hybridPattern = get(sub(model, "hybrid"), "pattern");
        dev.gpulint.spec.HybridPattern hybridRead = hybridPattern == null ? null : dev.gpulint.spec.HybridPattern.read(hybridPattern.value());
        Located<List<Long>> hybridStages = hybridStages(d, hybridPattern, hybridRead, par, parUnknown);
        // parallelism.pipeline_layout: the job's split stage by stage, as a hybrid pattern's '|' segments give it
        Located<dev.gpulint.spec.PipelineLayout> layout = pipelineLayout(d, model, par, hybridStages, parUnknown);
        // beside a hybrid pattern's '|' segments, the segments: HybridModel builds each stage from them (pipelineLayout)
        Located<List<Long>> stages = layout == null || hybridStages != null ? hybridStages : new Located<>(layout.value().blocks(), layout.span());
        return new Specs.Job(get(r, "name"), d.file(), placeholder ? null : cluster, placeholder ? null : group, get(r, "nodes"),
                get(r, "gpus_per_node"),
                model == null ? null : new Specs.Model(get(model, "parameters"), get(model, "dtype"), get(model, "layers"),
                        get(model, "attention_heads"), get(model, "kv_heads"), get(model, "hidden_size"),
                        get(model, "seq_length"), get(model, "experts"), get(model, "expert_parameters"),
                        get(model, "ffn_hidden_size"), get(model, "vocab_size"), get(model, "head_dim"), get(model, "gated_mlp"),
                        get(model, "tied_embeddings"), get(model, "top_k"), moe(sub(model, "moe")), attention(sub(model, "attention")),
                        unknownShape(model), hybrid(sub(model, "hybrid"), hybridPattern, hybridRead),
                        mtp(model, hybridPattern, hybridRead, layout), crossEntropy(sub(model, "loss"))),
                par == null ? null : new Specs.Parallelism(get(par, TP.key()), get(par, PP.key()), get(par, DP.key()), get(par, CP.key()),
                        get(par, EP.key()), get(par, "order"), get(par, "sequence_parallel"), virtualPp(par, stages),
                        keySpan(r, "parallelism"), parUnknown, null,
                        switchedOn(get(par, "embedding_in_split")), switchedOn(get(par, "loss_in_split")),
                        get(par, ETP.key()), get(par, "first_stage_layers"), get(par, "last_stage_layers"),
                        get(par, "dp_shard"), null, stages, get(par, "tp_comm_overlap"), get(par, "tp_activation_layout"),
                        get(par, "variable_seq_lengths"), layout),
                batch == null ? null : new Specs.Batch(get(batch, "micro_batch_size"), get(batch, "global_batch_size"),
                        get(batch, "micro_batches")),
                opt == null ? null : new Specs.Optimizer(get(opt, "type"), get(opt, "zero_stage"), get(opt, "bytes_per_parameter"),
                        !unknown(opt, "zero_stage").isEmpty(), get(opt, "distributed"),
                        get(opt, "grad_reduce_dtype"), get(opt, "zero3_gather"), get(opt, "persistence_threshold"),
                        get(opt, "overlap_param_gather_with_step"), null),
                net == null ? null : new Specs.Network(get(net, "assumed_inter_node"), get(net, "assumed_intra_node")),
                get(r, "step_time"), env, r.span(), null, recompute(r),
                off == null ? null : new Specs.Offload(get(off, "activation_layers"), get(off, "optimizer"),
                        get(off, "optimizer_fraction"), get(off, "parameters")), get(r, "kernels"),
                get(r, "fp8_scaling"), get(r, "fp8_param_gather"),
                bf16 == null ? null : new Specs.Bf16Layers(get(bf16, "start"), get(bf16, "end"), keySpan(r, "fp8_layers_bf16"),
                        null, false));
    }
}
