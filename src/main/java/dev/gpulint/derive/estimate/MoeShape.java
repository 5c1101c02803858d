package dev.gpulint.derive.estimate;

import dev.gpulint.spec.ParallelDim;

import dev.gpulint.spec.HybridPattern;
import dev.gpulint.spec.LayerPattern;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import java.util.List;
import java.util.Locale;

/**
 * How an MoE model's layers route and compute beyond {@link ModelShape}'s experts and top-k (Megatron-Core's names in
 * brackets). {@link ModelShape#ffn()} is one routed expert's MLP size; the dense layers and the shared experts have their own.
 *
 * @param moeLayers      layers with experts ({@code --moe-layer-freq}); the others have a dense MLP of {@code denseFfn}
 * @param denseFfn       the dense layers' MLP hidden size ({@code --ffn-hidden-size} when {@code --moe-ffn-hidden-size} is given)
 * @param sharedFfn      the shared experts' MLP hidden size, all together, on every MoE layer (0: none)
 * @param capacityFactor expert capacity × the balanced share (0: dropless)
 * @param padToCapacity  experts compute their full capacity ({@code --moe-pad-expert-input-to-capacity})
 * @param dispatcher     how tokens reach their experts ({@code --moe-token-dispatcher-type})
 * @param overlapA2a     the all-to-alls run behind another micro-batch's compute ({@code --overlap-moe-expert-parallel-comm})
 * @param groupedGemm    a rank's local experts run as one grouped GEMM per matrix ({@code --moe-grouped-gemm}), not one GEMM each
 * @param etp            the experts' tensor-parallel size ({@code --expert-tensor-parallel-size}; 0: the layout's tp)
 * @param activationClamp the experts' GLU inputs clamped to this value (Megatron-Core's activation_func_clamp_value; 0: not
 *                       clamped): {@link ExpertPasses}
 * @param expertBias     the experts' linear layers have biases ({@link ExpertPasses})
 * @param hybrid         the MoE layers are a hybrid Mamba pattern's E layers ({@link MambaLayers}): the other layers are
 *                       Mamba-2, attention-only and MLP-only layers (MambaLayers prices them), none a dense transformer layer
 * @param lastMoe        the decoder's last layer has experts: the kind Megatron-LM's num_floating_point_operations counts each
 *                       MTP layer as ({@code last_layer_is_moe}); the kind Megatron-Core builds it as is its stage's
 *                       ({@link MtpLayers#moeKindPerRank}), which is this one unless the stage holds no decoder layer
 * @param routerGroups   the router's expert groups ({@code --moe-router-num-groups}; 0: no group limit), {@link FlexDispatch}
 * @param routerGroupTopk the groups a token's experts are chosen from ({@code --moe-router-group-topk}; 0: none stated)
 * @param flexBackend    the flex dispatcher's backend ({@code --moe-flex-dispatcher-backend}; when not stated
 *                       {@link FlexDispatch#unstated}: hybridep on a multi-node NVLink domain, else Megatron-Core's deepep),
 *                       {@link FlexDispatch#price}
 * @param layerKinds     each decoder layer's kind in order, {@code E} with experts and {@code -} dense, from a
 *                       {@code --moe-layer-freq} pattern or dense first layers; null: every layer of the {@code lastMoe} kind
 *                       (all MoE), and for a hybrid (its pattern's letters say it). Megatron-Core's MTP block takes its
 *                       stage's last layer's kind ({@link #moeAt}, {@link MtpLayers#moeKindPerRank})
 */
public record MoeShape(int moeLayers, long denseFfn, long sharedFfn, double capacityFactor, boolean padToCapacity,
                       Dispatcher dispatcher, boolean overlapA2a, boolean groupedGemm, int etp, double activationClamp,
                       boolean expertBias, boolean hybrid, boolean lastMoe, int routerGroups, int routerGroupTopk,
                       FlexDispatch.Backend flexBackend, String layerKinds) {

    /** Megatron-Core's token dispatchers. */
    public enum Dispatcher {
        ALLTOALL, ALLGATHER, FLEX;

        public String id() { return name().toLowerCase(Locale.ROOT); }

        static Dispatcher parse(String s) {
            if (s == null) return null;
            return switch (s.strip().toLowerCase(Locale.ROOT)) {
                case "alltoall", "alltoall_seq", "all-to-all", "all_to_all" -> ALLTOALL;
                case "allgather", "all-gather", "all_gather" -> ALLGATHER;
                case "flex", "deepep" -> FLEX;
                default -> null;
            };
        }
    }

    /**
     * What the estimate says of a job whose experts' inputs are not padded to a fixed capacity (docs/plan.md, "The MoE
     * host floor" and its second attempt): Megatron-Core's dispatchers then need the tokens per expert on the host in every
     * MoE layer's forward (the alltoall dispatcher's stream sync at its {@code cuda_sync_point}, the allgather dispatcher's
     * {@code .cpu()}, DeepEP's host-side receive counts), and after that wait the host issues the layer's remaining
     * kernels while the GPU runs them, so a forward segment takes the longer of the two. The one host time per local expert
     * measured by the library's authors (NVIDIA/TransformerEngine#2897, Transformer Engine's grouped MLP on GB200: 1.2 ms
     * forward for 64 experts, 18.75 µs each at most) is below the two {@code expert_gemm_s} (26 µs each) the estimate
     * already charges each local expert's forward, so a floor built from it adds nothing and none is priced; the host
     * time of the rest of the layer has no measurement of its own beyond the per-layer fixed time.
     */
    static final String HOST_WAIT = "MoE experts' inputs not padded to a fixed capacity: every MoE layer's forward waits on the"
            + " host for the tokens per expert (a device-to-host sync), then the host issues the layer's remaining kernels"
            + " while the GPU runs them; the host time per local expert measured by Transformer Engine's maintainers (18.75 µs"
            + " forward at most, NVIDIA/TransformerEngine#2897, GB200) is below the 2 × expert_gemm_s the estimate already"
            + " charges each local expert's forward, so it adds nothing; the host time of the rest of the layer is not measured"
            + " apart from the per-layer fixed time: with a small micro-batch the step can be longer than estimated"
            + " (docs/plan.md, \"The MoE host floor\")";

    /**
     * What the estimate says of a job that runs the ep all-to-alls behind the other micro-batch's compute
     * ({@code overlap_a2a}, Megatron-Core's {@code overlap_moe_expert_parallel_comm}): the estimate hides them (Estimator's ep
     * term) and prices no host time for the interleaved schedule, which no host-side or kernel-level measurement sets. The
     * end-to-end runs quoted are the maintainers' own, slower and faster; they set no constant (docs/plan.md, "The EP
     * all-to-all overlap's host cost").
     */
    static final String A2A_OVERLAP_HOST = "MoE all-to-all overlap on (overlap_a2a, Megatron-Core's"
            + " overlap_moe_expert_parallel_comm): the ep all-to-alls are priced behind the other micro-batch's MoE layer compute"
            + " (only what outlasts it is exposed), and the host (CPU) time of issuing that interleaved schedule is not priced (no"
            + " host-side measurement of it); measured end to end it can cost more than it hides: Megatron-Bridge's maintainers"
            + " turned it off for Qwen3-235B-A22B on 64 B200 \"due to CPU overhead\" (pull #1760, issue #1705: BF16 step 17.2 s"
            + " → 16.0 s with it off; MXFP8 20.1 s → 16.9 s with it and the virtual pipeline off) and on B300 (pull #2669; issue"
            + " #3399: it and VP degraded perf), while it made Qwen3-30B-A3B on 16 H100 faster (pull #5094: 240 → 287 model"
            + " TFLOP/s per GPU with it on); the step can be longer than estimated: to check, profile the host (Nsight Systems:"
            + " CPU launch gaps between the MoE layers' kernels) or time a few steps with it off (docs/plan.md, \"The EP"
            + " all-to-all overlap's host cost\")";

    /**
     * The host's time per local expert in an MoE layer's forward, measured by Transformer Engine's maintainers
     * (NVIDIA/TransformerEngine#2897, 2026-04-16: its fused grouped MLP, MXFP8, on GB200 with 64 experts of hidden size 128,
     * a host-bound shape: ~1.2 ms forward), with the block's fixed part spread over the 64 experts: an upper bound of the
     * slope per expert. Its home; {@link #HOST_WAIT} quotes it and docs/plan.md derives it.
     */
    static final double HOST_FORWARD_PER_EXPERT_S = 1.2e-3 / 64;

    public MoeShape {
        if (moeLayers < 0 || denseFfn < 1 || sharedFfn < 0 || capacityFactor < 0 || etp < 0 || activationClamp < 0 || dispatcher == null
                || routerGroups < 0 || routerGroupTopk < 0 || flexBackend == null) {
            throw new IllegalArgumentException("an MoE shape's sizes are not negative");
        }
    }

    /** Every layer MoE with its routed experts only, dropless, all-to-all, grouped GEMM: what the estimate took before. */
    public static MoeShape uniform(ModelShape m) {
        return new MoeShape(m.layers(), m.ffn(), 0, 0, false, Dispatcher.ALLTOALL, false, true, 0, 0, false, false, true, 0, 0,
                FlexDispatch.DEFAULT_BACKEND, null);
    }

    /**
     * Whether decoder layer {@code i} (from 0) has experts: its {@link #layerKinds} letter, else the {@code lastMoe} kind
     * every layer shares.
     */
    public boolean moeAt(int i) {
        if (layerKinds == null) return lastMoe;
        return i >= 0 && i < layerKinds.length() && layerKinds.charAt(i) == 'E';
    }

    /** The experts' tensor-parallel size in layout {@code l}. */
    public int etp(Layout l) { return etp > 0 ? etp : l.tp(); }

    /**
     * Ranks between consecutive members of an expert-parallel group. Megatron-Core generates the expert grid apart from
     * attention's (MoE parallel folding, Liu et al. 2025, arXiv:2504.14960; its RankGenerator for experts): the job's rank
     * order with cp left out, tp replaced by etp and dp by the expert data-parallel size tp·cp·dp ÷ (etp·ep). In the
     * default order tp-cp-ep-dp-pp an expert group's ranks are etp apart, whatever cp is: with etp 1 an 8-way
     * expert group is 8 consecutive ranks (one NVLink domain) where attention's tp 2 would have spread it over 16.
     *
     * @param order the job's rank order (Estimator.DEFAULT_ORDER's names; missing ones in the default order)
     */
    public long epStride(Layout l, List<ParallelDim> order) {
        return expertStride(l, order, ParallelDim.EP);
    }

    /** The expert data-parallel size, tp·cp·dp ÷ (etp·ep): the ranks holding one expert's replicas ({@link ExpertShare}). */
    public long expertDpSize(Layout l) {
        return (long) Math.max(1, ExpertShare.of(l.tp(), etp(l), l.ep(), (double) l.dp() * l.cp()).ranks());
    }

    /** The routed experts' share of one GPU in layout {@code l}, their states sharded as the dense ones over dp·cp (HSDP: its shard group). */
    public ExpertShare share(Layout l) {
        return StateShards.of(l.tp(), etp(l), l.ep(), l.shardRanks(), l.cp()).experts();
    }

    /**
     * How the routed experts' parameters are spread over the GPUs (Megatron-Core's MoE parallel folding, Liu et al. 2025,
     * arXiv:2504.14960): one MoE layer's experts are split over etp·ep GPUs (the experts' linear layers over the expert
     * tensor-parallel group, the experts over ep), and the ranks holding the same expert shard form the expert
     * data-parallel group of tp·cp·dp ÷ (etp·ep) ranks (github.com/NVIDIA/Megatron-LM, megatron/core/parallel_state.py,
     * initialize_model_parallel: {@code expert_data_parallel_size = world_size // (expert_tensor_parallel_size *
     * expert_model_parallel_size * pipeline_model_parallel_size)}, etp defaulting to tp), over which the distributed
     * optimizer shards their states (megatron/core/optimizer/__init__.py: the expert parameters' optimizer on
     * {@code intra_expt_dp_group}). The one home of the experts' share per GPU: the plan's memory
     * ({@link MemoryModel#stageSplit}), its optimizer step and expert gradient sync, and the MEM rules' numbers.
     *
     * @param divisor etp·ep: the GPUs one MoE layer's routed experts are split over (÷ pp by stage on top)
     * @param ranks   the expert data-parallel ranks their sharded states spread over: the dense parameters' ranks
     *                (dp·cp) × tp ÷ (etp·ep); infinite when those are (dp not known); not clamped (a sharding clamps at 1)
     */
    public record ExpertShare(double divisor, double ranks) {
        /**
         * @param denseRanks the data-parallel ranks the dense parameters' states shard over (dp·cp)
         */
        public static ExpertShare of(long tp, long etp, long ep, double denseRanks) {
            double d = (double) Math.max(1, etp) * Math.max(1, ep);
            return new ExpertShare(d, denseRanks * Math.max(1, tp) / d);
        }

        /** The expert data-parallel ranks are a whole number (Megatron refuses a grid where they are not). */
        public boolean whole() { return Double.isFinite(ranks) && ranks >= 1 && ranks == Math.rint(ranks); }
    }

    /**
     * Ranks between consecutive members of {@code dim}'s group in the folded expert grid ({@link #epStride}): the product of
     * the expert grid's sizes before it, tp as etp, ep, dp as {@link #expertDpSize}, pp, cp left out
     * ({@link RankGroup#expertStride}, the grid {@link RankGroup#expertDp} lays out).
     */
    long expertStride(Layout l, List<ParallelDim> order, ParallelDim dim) {
        return RankGroup.expertStride(etp(l), Math.max(1, l.ep()), expertDpSize(l), l.pp(), order, dim);
    }

    /**
     * The expert data-parallel group's ranks in layout {@code l} laid out in {@code order}, as Megatron-Core's expert
     * RankGenerator builds it ({@link RankGroup#expertDp}): {@link #expertDpSize} ranks, {@link #expertStride} of dp apart.
     */
    public RankGroup expertDpGroup(Layout l, List<ParallelDim> order) {
        return RankGroup.expertDp(etp(l), Math.max(1, l.ep()), expertDpSize(l), l.pp(), order);
    }

    /**
     * The expert-parallel group's ranks in layout {@code l} laid out in {@code order} ({@link RankGroup#expertEp}): ep ranks
     * {@link #epStride} apart, the group the plan prices the all-to-alls over and its tier table and drawing place.
     */
    public RankGroup epGroup(Layout l, List<ParallelDim> order) {
        return RankGroup.expertEp(etp(l), Math.max(1, l.ep()), expertDpSize(l), l.pp(), order);
    }

    /** Layers with a dense MLP beside attention: the layers without experts (none in a hybrid: its MLP-only layers are MambaLayers'). */
    public int denseLayers(ModelShape m) { return hybrid ? 0 : m.layers() - moeLayers; }

    /**
     * One MoE layer's model FLOPs per token, forward and backward: 6 × the top-k routed experts' and the shared experts'
     * matrices (Megatron-LM's num_floating_point_operations, and hybrid_flops' moe_layer_flops, 3 × 4·h·(ffn·k + shared)).
     */
    public double moeLayerFlopsPerToken(ModelShape m) {
        return 6.0 * (m.topK() * m.mlpParameters() + (m.gatedMlp() ? 3.0 : 2.0) * m.hidden() * sharedFfn);
    }

    /**
     * One layer's model FLOPs per token of the given kind, as {@link #modelFlopsPerToken} counts each: its attention (the
     * model's per-layer share without the MLP) and the MoE layer's experts ({@link #moeLayerFlopsPerToken}) or the dense MLP.
     */
    public double layerFlopsPerToken(ModelShape m, boolean moe) {
        double attention = (m.modelFlopsPerToken() - m.logitFlopsPerToken()) / m.layers() - 6.0 * m.topK() * m.mlpParameters();
        return attention + (moe ? moeLayerFlopsPerToken(m) : 6.0 * (m.gatedMlp() ? 3.0 : 2.0) * m.hidden() * denseFfn);
    }

    /**
     * Model FLOPs per token as Megatron-LM's num_floating_point_operations counts an MoE model: the MoE layers' top-k
     * routed experts and their shared experts, the dense layers' MLP, attention and logits (6 × the matrix parameters a
     * token passes through; the router's h × experts matrix is left out, as Megatron leaves it out).
     */
    public double modelFlopsPerToken(ModelShape m) {
        double gate = m.gatedMlp() ? 3.0 : 2.0;
        double routed = m.topK() * m.mlpParameters(), dense = gate * m.hidden() * denseFfn;
        return m.modelFlopsPerToken() - m.layers() * 6.0 * routed + moeLayers * moeLayerFlopsPerToken(m) + denseLayers(m) * 6.0 * dense;
    }

    /**
     * The MoE shape a job states, or null for a dense model. Each default taken is added to {@code as}; a layer pattern
     * that does not read (the binder has reported it) or does not fit the layers counts every layer as MoE, and says so.
     * {@code links} the job's (null: not known) decide the flex backend priced when none is stated
     * ({@link FlexDispatch#unstated}).
     */
    public static MoeShape of(Specs.Job j, ModelShape m, long statedFfn, Links links, List<String> as) {
        if (m.experts() <= 1) return null;
        Specs.Model model = j.model();
        Specs.Moe s = model == null ? null : model.moe();
        int moeLayers = m.layers();
        boolean lastMoe = true;                 // every layer MoE unless a pattern or dense first layers say otherwise
        String kinds = null;                    // each layer's kind where a pattern or dense first layers say it (layerKinds)
        String source = null;
        // a hybrid Mamba model's MoE layers are its pattern's E layers (Megatron-Core's MambaStack builds a layer per character
        // and reads no --moe-layer-freq); the other layers are MambaLayers'
        Specs.Hybrid hy = model == null ? null : model.hybrid();
        String pattern = hy == null || hy.pattern() == null ? null : hy.pattern().value();
        boolean hybrid = pattern != null && pattern.length() == m.layers() && pattern.indexOf('E') >= 0 && m.mla() == null;
        if (hybrid) {
            moeLayers = (int) HybridPattern.count(pattern, 'E');
            lastMoe = pattern.charAt(pattern.length() - 1) == 'E';
            source = "the hybrid layer pattern's E layers; the others " + others(pattern, hy.gdnLayers());
            if (s != null && (s.layerFreq() != null || s.denseLayers() != null)) {
                as.add("MoE " + (s.layerFreq() != null ? "layer pattern '" + shortText(s.layerFreq().value()) + "' (" + s.layerFreq().span() + ")"
                        : "dense layers (" + s.denseLayers().span() + ")") + " not used: a hybrid's MoE layers are its pattern's E layers"
                        + " (Megatron-Core's MambaStack builds one layer per character and reads no --moe-layer-freq)");
            }
        } else if (s != null && s.layerFreq() != null) {
            try {
                boolean[] layers = LayerPattern.parse(s.layerFreq().value(), m.layers());
                moeLayers = LayerPattern.count(layers);
                lastMoe = layers[layers.length - 1];
                StringBuilder k = new StringBuilder(layers.length);
                for (boolean b : layers) k.append(b ? 'E' : '-');
                kinds = k.toString();
                source = "moe layer_freq " + s.layerFreq().value().strip();
            } catch (IllegalArgumentException e) {
                as.add("MoE layer pattern '" + shortText(s.layerFreq().value()) + "' (" + s.layerFreq().span() + ") not used: "
                        + e.getMessage() + "; every layer taken as MoE");
            }
        } else if (s != null && s.denseLayers() != null && s.denseLayers().value() != null) {
            moeLayers = (int) Math.max(0, m.layers() - Math.min(m.layers(), s.denseLayers().value()));
            lastMoe = moeLayers > 0;
            kinds = "-".repeat(m.layers() - moeLayers) + "E".repeat(moeLayers);
            source = "the first " + s.denseLayers().value() + " layers dense";
        }
        if (source != null && moeLayers != m.layers()) as.add("MoE layers: " + moeLayers + " of " + m.layers() + " (" + source + ")");
        long expertFfn = m.ffn();
        long denseFfn = s != null && s.expertFfn() != null && statedFfn > 0 ? statedFfn : expertFfn;
        if ((hybrid ? pattern.indexOf('-') >= 0 : moeLayers < m.layers()) && denseFfn == expertFfn) {
            as.add("the dense layers' MLP size not given: " + expertFfn + " (the experts', Megatron's --moe-ffn-hidden-size default)");
        }
        long shared = s != null && s.sharedFfn() != null ? Math.max(0, s.sharedFfn().value()) : 0;
        double cf = s != null && s.capacityFactor() != null ? s.capacityFactor().value() : 0;
        boolean pad = s != null && s.padToCapacity() != null && s.padToCapacity().value();
        if (cf <= 0) as.add("MoE capacity factor not given: dropless (Megatron's default), routing taken as balanced (the"
                + " slowest expert-parallel rank's extra tokens are not modelled)");
        if (!pad) as.add(HOST_WAIT);
        Dispatcher d = Dispatcher.parse(s == null || s.dispatcher() == null ? null : s.dispatcher().value());
        if (d == null) {
            as.add("MoE token dispatcher " + (s == null || s.dispatcher() == null ? "not given" : "'" + s.dispatcher().value() + "' not known")
                    + ": alltoall (Megatron's recommendation with expert parallelism)");
            d = Dispatcher.ALLTOALL;
        }
        boolean overlap = s != null && s.overlapA2a() != null && Boolean.TRUE.equals(s.overlapA2a().value());
        if (overlap) as.add(A2A_OVERLAP_HOST);
        boolean grouped = s == null || s.groupedGemm() == null || s.groupedGemm().value();
        if (s == null || s.groupedGemm() == null) as.add("MoE grouped GEMM not stated: grouped (one kernel per matrix for a rank's local experts)");
        Specs.Parallelism p = j.parallelism();
        Located<Long> etp = p == null ? null : p.expertTp();
        int e = etp == null || etp.value() == null || etp.value() < 1 ? 0 : (int) Math.min(Integer.MAX_VALUE, etp.value());
        double clamp = s != null && s.activationClamp() != null && s.activationClamp().value() != null ? Math.max(0, s.activationClamp().value()) : 0;
        boolean bias = s != null && s.expertBias() != null && Boolean.TRUE.equals(s.expertBias().value());
        int groups = s == null ? 0 : small(s.routerGroups()), groupTopk = s == null ? 0 : small(s.routerGroupTopk());
        long statedGroups = s == null || s.routerGroups() == null || s.routerGroups().value() == null ? 0 : s.routerGroups().value();
        String backendText = s == null || s.flexBackend() == null ? null : s.flexBackend().value();
        if (backendText == null && namesDeepep(s)) backendText = "deepep";
        FlexDispatch.Backend backend = FlexDispatch.Backend.parse(backendText);
        if (backend == null) backend = FlexDispatch.unstated(links);
        if (d == Dispatcher.FLEX) {
            as.add(FlexDispatch.assumption(m.experts(), m.topK(), groups, groupTopk, statedGroups, backend,
                    backendText == null ? null : shortText(backendText), links));
        }
        return new MoeShape(moeLayers, denseFfn, shared, cf, pad, d, overlap, grouped, e, clamp, bias, hybrid, lastMoe, groups, groupTopk,
                backend, kinds);
    }

    /**
     * Whether the dispatcher is written as {@code deepep} (read as the flex dispatcher, {@link Dispatcher#parse}): the word
     * names the backend too, as the recipes that take it mean it (a recipe's {@code moe_token_dispatcher_type=deepep} sets
     * {@code moe_token_dispatcher_type = "flex"} and {@code moe_flex_dispatcher_backend = "deepep"}), so with no backend
     * written the backend is deepep, not the unstated one ({@link FlexDispatch#unstated}).
     */
    public static boolean namesDeepep(Specs.Moe s) {
        return s != null && s.dispatcher() != null && s.dispatcher().value() != null
                && s.dispatcher().value().strip().equalsIgnoreCase("deepep");
    }

    /** A stated count the schema bounds, or 0 when not stated. */
    private static int small(Located<Long> v) {
        return v == null || v.value() == null || v.value() < 1 || v.value() > FlexDispatch.MAX_GROUPS ? 0 : (int) (long) v.value();
    }

    /**
     * The non-E layers of a hybrid's pattern (its decoder, G held as M, {@code gdn} of them written G) as each is priced:
     * "36 gated delta net (G) and 12 attention-only (*)"; "none" when every layer is E.
     */
    static String others(String pattern, long gdn) {
        long m = HybridPattern.count(pattern, 'M');
        long[] n = {m - Math.min(m, gdn), Math.min(m, gdn), HybridPattern.count(pattern, '*'), HybridPattern.count(pattern, '-')};
        String[] kind = {" Mamba-2 (M)", " gated delta net (G)", " attention-only (*)", " MLP-only (-)"};
        java.util.List<String> parts = new java.util.ArrayList<>();
        for (int i = 0; i < n.length; i++) if (n[i] > 0) parts.add(n[i] + kind[i]);
        if (parts.isEmpty()) return "none";
        String last = parts.remove(parts.size() - 1);
        return parts.isEmpty() ? last : String.join(", ", parts) + " and " + last;
    }

    private static String shortText(String t) {
        String s = t.strip();
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }
}
