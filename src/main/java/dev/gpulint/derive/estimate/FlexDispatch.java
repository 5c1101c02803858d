package dev.gpulint.derive.estimate;

import java.util.Locale;

/**
 * The flex dispatcher across nodes: Megatron-Core's MoEFlexTokenDispatcher on DeepEP's normal kernels (or HybridEP, built
 * the same way) moves a token as the tokens are routed, not as NCCL's all-to-all of the routed rows
 * (docs/plan.md, "Dispatcher").
 *
 * <p>DeepEP's internode dispatch (deepseek-ai/DeepEP docs/legacy.md, "Normal kernels with NVLink and RDMA forwarding";
 * tests/test_internode.py) sends a token ONCE to each node that holds one of its experts, over RDMA to the GPU of the same
 * local index there, which forwards it over NVLink to each GPU of that node holding one of its experts, once per GPU
 * whatever the number of its experts there. The combine sends the same volume back; the backward of a dispatch is a combine
 * and of a combine a dispatch: 4 such passes per MoE layer, as the all-to-all's 4. Megatron-Core hands DeepEP the 16-bit
 * hidden states ({@code fused_dispatch(x, ...)}; HybridEP's {@code fp8_dispatch = False  # Currently, we do not support fp8
 * dispatch}: NVIDIA/Megatron-LM megatron/core/transformer/moe/fused_a2a.py at 02ad939), so every pass is 16-bit.
 *
 * <p>Per token and pass, under balanced routing (every expert equally likely, the experts of an ep rank consecutive, the
 * ep ranks of a node consecutive): RDMA copies {@code E[nodes] · (N − 1)/N} (the token's own node is one of the N nodes
 * it may reach, by symmetry) and NVLink forwards {@code E[ranks] · (L − 1)/L} (the forwarding GPU's own share stays on
 * it), {@link #expectedUnits} giving the distinct nodes (ranks) among the token's k experts. Both legs run at once
 * (DeepEP pipelines the RDMA chunks into the NVLink forwarding): the slower decides.
 *
 * <p>The two rates are DeepEP's own kernel measurements (the calibration rule's kernel-level data of a library's
 * authors), H800 with a ConnectX-7 400 Gb/s NIC per GPU, 4,096 tokens, hidden 7,168, top-8 of 256 experts in top-4
 * groups, fp8 dispatch and bf16 combine (docs/legacy.md's table; its "bottleneck bandwidth" counts every node a token
 * reaches, its own too: test_internode.py's {@code num_rdma_token_sent}, so the NIC's share of it is (N − 1)/N):
 * {@link #RDMA} and {@link #NVLINK}.
 */
public final class FlexDispatch {

    /**
     * DeepEP's internode RDMA rate as a share of the NIC's line rate: docs/legacy.md's internode rows on H800 + CX7 400 Gb/s
     * (50 GB/s), RDMA-bound: EP 32 (4 nodes) 58 / 57 GB/s dispatch / combine, × 3/4 remote = 43.5 / 42.8; EP 64 (8 nodes)
     * 51 / 50, × 7/8 = 44.6 / 43.8: mean 43.7 GB/s = 0.874, 0.88 rounded to two places as the catalog's shares are. Its
     * EP 16 row (43 GB/s) is NVLink-bound (this model: the forwarding leg takes 1.9 × the RDMA leg there). DeepEP V2's table
     * (README.md, SM90 and SM100 with CX7, EP 8 × 2 and 8 × 4: 90 / 61 GB/s "logical", local traffic included) gives 45–46
     * GB/s, 0.90–0.92, on Blackwell too: within 4 % of this, and V2 (NCCL Gin) is not the V1 Buffer Megatron-Core calls.
     */
    public static final double RDMA = 0.88;

    /**
     * DeepEP's NVLink rate as a share of the GPU's NVLink per direction: docs/legacy.md's intranode row, H800 (NVLink 400
     * GB/s both directions, 200 per direction) at EP 8: 153 / 158 GB/s dispatch / combine counting the rank's own tokens
     * (test_intranode.py: {@code recv_x.numel()}), × 7/8 = 134 / 138 GB/s = 0.67 / 0.69 of 200: 0.67. The forwarding leg
     * of an internode dispatch runs on the same kernels' NVLink channels. Blackwell: DeepEP V2's SM100 EP 8 row (726 / 740
     * GB/s at 64 SMs, × 7/8 = 635 / 648 of 900: 0.71) agrees within 6 %.
     */
    public static final double NVLINK = 0.67;

    /**
     * The most router groups the estimate prices a limit for: the native schema's bound on {@code router_num_groups} and
     * {@code router_group_topk} (1..1,024, docs/format.md), which also bounds {@link #hypergeometric}'s sums. A larger count
     * another format states is a real router setting, not priced: MoeShape takes the routing as unlimited and the assumptions
     * say that the count is above this bound.
     */
    public static final int MAX_GROUPS = 1024;

    /**
     * The GPUs DeepEP V1 treats as one node: {@code NUM_MAX_NVL_PEERS} (deepseek-ai/DeepEP csrc/kernels/configs.cuh at
     * 10e8a3b43e5726184b3fda6ae9b46ccfbb1074ce, {@code #define NUM_MAX_NVL_PEERS 8}). Its Buffer numbers the ranks of the
     * expert-parallel group {@code rdma_rank = rank / NUM_MAX_NVL_PEERS}, {@code nvl_rank = rank % NUM_MAX_NVL_PEERS}, opens
     * CUDA IPC handles to the 8 of its own rdma_rank only and goes internode when the group has more than 8 ranks
     * ({@code is_internode_available}: {@code num_ranks > NUM_MAX_NVL_PEERS}; csrc/deep_ep.cpp at
     * 011d766f19b3d7a3074ec6df9c627eb10b632460); its internode kernels put to another rdma_rank through NVSHMEM's IBGDA, the
     * NIC ({@code nvshmemi_ibgda_put_nbi_warp} in csrc/kernels/internode.cu). So on an NVLink domain larger than 8 (an NVL72
     * rack) the deepep backend moves tokens between 8-GPU groups over the NICs, as across nodes.
     */
    public static final int DEEPEP_NVL_PEERS = 8;

    /**
     * The flex dispatcher's backend ({@code --moe-flex-dispatcher-backend}, Megatron-Core's
     * {@code TransformerConfig.moe_flex_dispatcher_backend}; NVIDIA/Megatron-LM megatron/core/transformer/transformer_config.py
     * at 002526d81b81f6ab534e93844f9a228709887494: {@code Literal['deepep', 'deepepv2', 'hybridep', 'ncclep'] = "deepep"},
     * "Currently only "hybridep" backend supports the MNNVL case"). The two priced: DeepEP V1 ({@link #DEEPEP_NVL_PEERS}) and
     * HybridEP (its NVLink domain the rack's: Megatron-Bridge's launcher sets {@code NVLINK_DOMAIN_SIZE} for it).
     */
    public enum Backend {
        DEEPEP, HYBRIDEP;

        public String id() { return name().toLowerCase(Locale.ROOT); }

        /** The backend a file names, or null for another (deepepv2, ncclep, uccl_ep: not priced apart) or none. */
        public static Backend parse(String s) {
            if (s == null) return null;
            return switch (s.strip().toLowerCase(Locale.ROOT)) {
                case "deepep" -> DEEPEP;
                case "hybridep" -> HYBRIDEP;
                default -> null;
            };
        }
    }

    /** Megatron-Core's default backend when none is stated (transformer_config.py at 002526d: "deepep"). */
    public static final Backend DEFAULT_BACKEND = Backend.DEEPEP;

    /**
     * The links join more than one node in one NVLink domain (MNNVL: a GB200 / GB300 NVL72 rack of 4-GPU trays), where
     * Megatron-Core runs the flex dispatcher on HybridEP only (transformer_config.py at 002526d: "Currently only "hybridep"
     * backend supports the MNNVL case") and Megatron-Bridge refuses deepep (validate_flex_dispatcher_backend: Ampere, Hopper,
     * B200 and B300 only).
     */
    public static boolean multiNodeNvlink(Links k) {
        return k != null && k.scaleUp() && k.domainSize() > k.gpusPerNode();
    }

    /**
     * The backend priced when the file states none (or one not priced apart): on a multi-node NVLink domain HybridEP, the
     * one that runs there ({@link #multiNodeNvlink}); elsewhere Megatron-Core's default, {@link #DEFAULT_BACKEND}.
     */
    public static Backend unstated(Links k) {
        return multiNodeNvlink(k) ? Backend.HYBRIDEP : DEFAULT_BACKEND;
    }

    private FlexDispatch() {}

    /**
     * What one token sends per pass across nodes.
     *
     * @param nodes       the nodes the expert-parallel group spans (N)
     * @param local       its ranks on one node (L)
     * @param nodesHit    E[distinct nodes among the token's k experts]
     * @param ranksHit    E[distinct ranks among them]
     * @param remote      RDMA copies: nodesHit · (N − 1)/N
     * @param forwarded   NVLink copies: ranksHit · (L − 1)/L
     * @param allToAll    what the all-to-all sends through the NIC per token: k · (n − L)/n
     */
    public record Traffic(long nodes, long local, double nodesHit, double ranksHit, double remote, double forwarded, double allToAll) {}

    /**
     * The traffic of a token routed to {@code topK} of {@code experts} experts over an expert-parallel group of {@code n}
     * ranks, {@code local} of them on each node; {@code groups} and {@code groupTopK} the router's group limit
     * ({@code --moe-router-num-groups}, {@code --moe-router-group-topk}; 0 when not stated).
     */
    public static Traffic traffic(long experts, long topK, long n, long local, long groups, long groupTopK) {
        long l = Math.max(1, Math.min(local, n));
        long nodes = Math.max(1, n / l);
        double nodesHit = expectedUnits(experts, topK, nodes, groups, groupTopK);
        double ranksHit = expectedUnits(experts, topK, n, groups, groupTopK);
        double k = Math.min(topK, experts);
        return new Traffic(nodes, l, nodesHit, ranksHit, nodesHit * (nodes - 1) / nodes, ranksHit * (l - 1) / l,
                k * (n - l) / (double) n);
    }

    /**
     * The expected number of distinct units (nodes, or ranks) among a token's {@code k} experts, the {@code experts} split
     * evenly over {@code units} consecutive blocks, routing uniform: {@code units · P(a unit is hit)}.
     * <ul>
     * <li>no group limit: {@code P = 1 − C(E − E/U, k) / C(E, k)};</li>
     * <li>group-limited routing (DeepSeek-V3's node-limited routing, Megatron-Core's {@code group_limited_topk}: the token
     *     picks M of G groups of E/G consecutive experts, then its k experts among those M·E/G), when G is a multiple of U
     *     (c = G/U groups on a unit): {@code P = Σ_j H(j; G, c, M) · (1 − C((M − j)·g, k) / C(M·g, k))}, H the
     *     hypergeometric chance that j of the unit's c groups are among the M, g = E/G;</li>
     * <li>when U is a multiple of G (a group over s = U/G units): {@code P = M/G · (1 − C(M·g − g/s, k) / C(M·g, k))};</li>
     * <li>groups that fit neither way (or M ≥ G, or E not a multiple of G): the limit is not applied.</li>
     * </ul>
     */
    public static double expectedUnits(long experts, long k, long units, long groups, long groupTopK) {
        if (units <= 1 || experts <= 0 || k <= 0) return Math.min(1, Math.max(0, units));
        double e = experts, u = units;
        if (limited(experts, units, groups, groupTopK)) {
            double g = (double) experts / groups, pool = groupTopK * g;
            if (groups % units == 0) {
                long c = groups / units;
                double p = 0;
                long j0 = Math.max(0, groupTopK - (groups - c));
                double h = hypergeometric(j0, groups, c, groupTopK);
                for (long j = j0; j <= Math.min(c, groupTopK); j++) {
                    p += h * (1 - ratio(pool - j * g, pool, k));
                    // H(j + 1) = H(j) · (c − j)(M − j) / ((j + 1)(G − c − M + j + 1))
                    h *= (double) (c - j) * (groupTopK - j) / ((j + 1.0) * (groups - c - groupTopK + j + 1));
                }
                return u * p;
            }
            double s = (double) units / groups;
            return u * groupTopK / groups * (1 - ratio(pool - g / s, pool, k));
        }
        return u * (1 - ratio(e - e / u, e, k));
    }

    /** The router's group limit applies to units of this many: M of G groups, G and E/G whole, groups aligned to units. */
    static boolean limited(long experts, long units, long groups, long groupTopK) {
        return groups > 1 && groups <= MAX_GROUPS && groupTopK > 0 && groupTopK < groups && experts % groups == 0
                && (groups % units == 0 || units % groups == 0);
    }

    /** C(a, k) / C(b, k) = Π (a − i)/(b − i), i < k; 0 when fewer than k are left in a (every draw then hits). */
    static double ratio(double a, double b, long k) {
        double r = 1;
        for (long i = 0; i < k; i++) {
            double num = a - i, den = b - i;
            if (num <= 0 || den <= 0) return 0;
            r *= num / den;
            if (r == 0) return 0;
        }
        return r;
    }

    /** C(c, j) · C(G − c, M − j) / C(G, M), as a sum of logs (G at most {@link #MAX_GROUPS}). */
    static double hypergeometric(long j, long groups, long c, long m) {
        return Math.exp(logChoose(c, j) + logChoose(groups - c, m - j) - logChoose(groups, m));
    }

    private static double logChoose(long n, long r) {
        if (r < 0 || r > n) return Double.NEGATIVE_INFINITY;
        long s = Math.min(r, n - r);
        double v = 0;
        for (long i = 0; i < s; i++) v += Math.log(n - i) - Math.log(i + 1);
        return v;
    }

    /**
     * A flex pass priced across nodes: what a token sends, and the pass's cost per rank; {@code deepEpGroups} when its "nodes"
     * are DeepEP's 8-GPU groups inside one NVLink domain larger than 8 ({@link #DEEPEP_NVL_PEERS}), not the domains.
     */
    record Priced(Traffic traffic, CollectiveCost cost, boolean deepEpGroups) {}

    /**
     * One flex pass (dispatch or combine) per rank across nodes, on the NIC and NVLink legs at once: {@code s} the
     * all-to-all's bytes (T·k·h·2, what the record shows beside it), {@code tokenBytes} the rank's tokens' bytes T·h·2 (one
     * copy of each of its tokens). The group's ranks on a node (or on a multi-node NVLink domain) are its L, at most
     * {@link #DEEPEP_NVL_PEERS} for the deepep backend. Null, the all-to-all's pricing standing, when the group does not cross
     * the network tier (inside one NVLink domain: HybridEP's, and DeepEP's up to 8 ranks), or the nodes have no NVLink for the
     * forwarding. DeepEP over more than 8 ranks of one NVLink domain is priced across its 8-GPU groups through the NICs.
     */
    static Priced price(Links k, Efficiency e, RankGroup g, long experts, long topK, long groups, long groupTopK, double s,
                        double tokenBytes, Backend backend) {
        long gpn = k.gpusPerNode();
        Tier tier = Tier.of(g, gpn, k.domainSize(), k.scaleUp(), k.jobGpus());
        if (!k.scaleUp() || g.n() <= 1 || tokenBytes <= 0) return null;
        boolean deepEp = backend == Backend.DEEPEP;
        // inside one NVLink domain HybridEP (and DeepEP up to its 8 NVLink peers) moves tokens as the all-to-all prices them
        boolean groupsInDomain = tier != Tier.NETWORK && deepEp && g.n() > DEEPEP_NVL_PEERS && k.nicPerGpu() > 0;
        if (tier != Tier.NETWORK && !groupsInDomain) return null;
        long perNode = g.membersPerUnit(gpn, k.jobGpus()), perDomain = g.membersPerUnit(k.domainSize(), k.jobGpus());
        long local = Math.max(1, k.domainSize() >= gpn ? Math.max(perNode, perDomain) : perNode);
        boolean eight = deepEp && local > DEEPEP_NVL_PEERS;
        if (eight) local = DEEPEP_NVL_PEERS;
        Traffic t = traffic(experts, topK, g.n(), local, groups, groupTopK);
        if (t.nodes() <= 1) return null;
        double remote = tokenBytes * t.remote(), inside = tokenBytes * t.forwarded();
        double own = k.hostLinked() ? Math.min(k.nicPerGpu(), k.pciePerDirection()) : k.nicPerGpu();
        double rdma = e == null ? 1 : RDMA, nvl = e == null ? 1 : NVLINK;
        return new Priced(t, CollectiveCost.twoLegs(k, Collective.ALL_TO_ALL, g.n(), Tier.NETWORK, s, remote, inside, own, rdma,
                k.scaleUpPerDirection(), nvl, t.local()), eight);
    }

    /**
     * The assumption the plan lists when the job's dispatcher is flex: {@code groups} / {@code groupTopK} the limit applied
     * (0: none), {@code statedGroups} the count the file states (0: none; above {@link #MAX_GROUPS}: said so),
     * {@code backend} the one priced, {@code backendText} as the file writes it (null: not stated, {@link #unstated}),
     * {@code k} the job's links (null: not known).
     */
    static String assumption(long experts, long topK, long groups, long groupTopK, long statedGroups, Backend backend,
                             String backendText, Links k) {
        boolean mnnvl = multiNodeNvlink(k);
        String limit = groups > 1 && groupTopK > 0 && groupTopK < groups
                ? String.format(Locale.ROOT, ", group-limited to %d of %d groups (--moe-router-group-topk / --moe-router-num-groups;"
                        + " applied where the groups align with nodes and ranks)", groupTopK, groups)
                : statedGroups > MAX_GROUPS
                ? String.format(Locale.ROOT, ", --moe-router-num-groups %d is above the %,d groups the estimate prices a group limit"
                        + " for (FlexDispatch.MAX_GROUPS, the native schema's bound): routing taken as unlimited", statedGroups, MAX_GROUPS)
                : ", no group limit stated (--moe-router-num-groups)";
        String runs = !mnnvl ? null : "hybridep, the one Megatron-Core runs on a multi-node NVLink domain (" + k.domainSize() + " GPUs, "
                + k.gpusPerNode() + " a node; transformer_config.py at 002526d: \"Currently only \"hybridep\" backend supports the"
                + " MNNVL case\"; Megatron-Bridge's validate_flex_dispatcher_backend refuses deepep on GB200 / GB300), not its default"
                + " deepep";
        String which = backendText == null
                ? mnnvl ? "backend not stated: " + runs
                : "backend not stated: deepep, Megatron-Core's default (TransformerConfig.moe_flex_dispatcher_backend = \"deepep\","
                        + " megatron/core/transformer/transformer_config.py at 002526d)"
                : Backend.parse(backendText) == null
                ? "backend '" + backendText + "' not priced apart: priced as " + (mnnvl ? runs : "deepep, Megatron-Core's default")
                : backend == Backend.DEEPEP && mnnvl
                ? "backend deepep as written, on a multi-node NVLink domain (" + k.domainSize() + " GPUs, " + k.gpusPerNode()
                        + " a node) where it may not run: Megatron-Core supports only hybridep there (transformer_config.py at"
                        + " 002526d), Megatron-Bridge's validate_flex_dispatcher_backend refuses deepep on GB200 / GB300"
                        + (k.gpusPerNode() < DEEPEP_NVL_PEERS ? ", and DeepEP V1's CUDA IPC group of " + DEEPEP_NVL_PEERS
                        + " spans " + ((DEEPEP_NVL_PEERS + k.gpusPerNode() - 1) / k.gpusPerNode()) + " hosts" : "")
                        + "; priced as what it would move (set flex_backend / moe_flex_dispatcher_backend to hybridep for the"
                        + " backend that runs there)"
                : "backend " + backend.id();
        String how = backend == Backend.DEEPEP
                ? "DeepEP V1 treats 8 GPUs as a node (NUM_MAX_NVL_PEERS 8): up to 8 ranks priced as the all-to-all, over more than 8"
                        + " its 8-GPU groups exchange tokens over RDMA through the NICs, inside a larger NVLink domain (an NVL72 rack) too"
                : "HybridEP: inside one NVLink domain priced as the all-to-all";
        return String.format(Locale.ROOT, "MoE flex dispatcher (DeepEP / HybridEP), %s; %s: across nodes each token goes once per"
                + " distinct remote node among its %d experts' nodes over RDMA and is forwarded over NVLink once per GPU holding them"
                + " there (uniform routing over %d experts%s; the expected counts per layout in the ep term), in 16 bits"
                + " (Megatron-Core's fused_dispatch hands DeepEP the bf16 hidden states, HybridEP's fp8 dispatch is off), at %.2f ×"
                + " the NIC's line rate and %.2f × NVLink's per direction (DeepEP's own H800 + ConnectX-7 kernel measurements,"
                + " docs/legacy.md); the combine moves the same back", which, how, topK, experts, limit, RDMA, NVLINK);
    }
}
