package dev.gpulint.derive.nccl;

import dev.gpulint.core.TextEdit;
import dev.gpulint.derive.Facts;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.Resolver;
import dev.gpulint.facts.EnvFact;
import dev.gpulint.facts.EnvFamily;
import dev.gpulint.facts.NcclVariable;
import dev.gpulint.spec.DomainKind;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Protocol;
import dev.gpulint.spec.Quantities;
import dev.gpulint.spec.Specs;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The NCCL family's analysis: each environment variable of a job, its value parsed, beside what the job's cluster offers.
 *
 * <p>One instance serves one derive run and reads each environment once: what a variable says by itself (known to NCCL,
 * a debugging setting, the name it is a misspelling of, the lines a fix removes) depends on its name, value and place
 * only, so jobs that share their environment (the plan's candidate layouts of one job: thousands of jobs, one
 * environment) share that reading instead of comparing every unknown name with NCCL's list again.
 */
public final class EnvAnalysis {
    /** What the variables of one environment say by themselves, by the environment's identity (a run's jobs keep theirs). */
    private final Map<Map<String, Located<String>>, List<Reading>> readings;

    /**
     * What environments say by themselves, shared by the derive runs of one plan search (each its own EnvAnalysis, on
     * any thread): the candidate jobs of every run share the job's environment, read once for the whole search.
     */
    public static final class Readings {
        private final Map<Map<String, Located<String>>, List<Reading>> byEnvironment =
                java.util.Collections.synchronizedMap(new IdentityHashMap<>());
    }

    /** NVIDIA's RoCE configuration guides assume this PFC priority when a cluster states none. */
    public static final int DEFAULT_PFC_PRIORITY = 3;

    /**
     * With {@link #oncePerEnvironment}: the jobs whose variables were already turned into facts, by their environment's
     * identity, each with what else its facts read (cluster, node group, nodes, file, EFA).
     */
    private final IdentityHashMap<Map<String, Located<String>>, List<Seen>> emitted = new IdentityHashMap<>();
    private final boolean oncePerEnvironment;

    /** What an environment's facts read besides the variables: jobs that agree on all of it get the same facts but for their name. */
    private record Seen(Resolved.Cluster cluster, Resolved.Group group, String clusterName, long nodes, String file, boolean efa) {
        boolean same(Seen o) {
            return cluster == o.cluster && group == o.group && java.util.Objects.equals(clusterName, o.clusterName) && nodes == o.nodes
                    && java.util.Objects.equals(file, o.file) && efa == o.efa;
        }
    }

    /** An analysis for one derive run (not shared between threads). */
    public EnvAnalysis() { this(false, null); }

    /**
     * @param oncePerEnvironment true: a job whose environment (the same map), cluster, node group, node count and file are
     *                           those of a job already analysed in this run gets no facts: they would be that job's facts
     *                           under another job name. For the plan's candidate search (thousands of candidate jobs of
     *                           one job), whose rules of these facts (the NCCL family: one EnvFact each, no layout) say
     *                           something about the cluster, not about a candidate.
     */
    public EnvAnalysis(boolean oncePerEnvironment) { this(oncePerEnvironment, null); }

    /** As above, reading each environment once for every analysis that shares {@code shared} (null: for this one alone). */
    public EnvAnalysis(boolean oncePerEnvironment, Readings shared) {
        this.oncePerEnvironment = oncePerEnvironment;
        this.readings = shared != null ? shared.byEnvironment : new IdentityHashMap<>();
    }

    /**
     * A variable's reading apart from the job and cluster: its value (stripped, upper-cased, on/off, a whole number or
     * -1), its catalog entry, its did-you-mean and one-edit fix, and the lines a fix removes.
     */
    private record Reading(String value, String upper, boolean on, NcclVariable variable, EnvFamily family, boolean localOrZero,
                           boolean off, long wholeNumber, boolean known, boolean debugSet, String suggestion, String oneEdit,
                           List<TextEdit> removals) {
        static Reading of(NcclVariables vars, String name, Located<String> located, boolean othersSet) {
            String value = located.value().strip();
            String upper = value.toUpperCase(Locale.ROOT);
            Quantities.Parsed<Long> whole = Quantities.integer(value);
            return new Reading(value, upper, ON.contains(upper), NcclVariable.of(name), EnvFamily.of(name),
                    upper.equals("LOC") || upper.equals("0"), OFF.contains(upper),
                    WHOLE.matcher(value).matches() && whole.ok() ? whole.value() : -1,
                    vars.isKnown(name), vars.isDebugOnly(name) && !vars.isDefault(name, value),
                    vars.suggestion(name), vars.oneEdit(name), List.copyOf(EnvLines.removals(name, value, located.span(), othersSet)));
        }
    }

    private static final List<String> ON = List.of("1", "TRUE", "YES", "ON");
    private static final List<String> OFF = List.of("0", "FALSE", "NO", "OFF");
    /** A value EnvFact reads as a whole number: at most nine digits. */
    private static final java.util.regex.Pattern WHOLE = java.util.regex.Pattern.compile("[0-9]{1,9}");

    /** One job's variables, read afresh (a derive run reads them through one instance: {@link #analyse}). */
    public static void job(Resolved.Job r, Facts out) { new EnvAnalysis().analyse(r, out); }

    /** One job's variables: a fact each. */
    public void analyse(Resolved.Job r, Facts out) {
        Specs.Job j = r.spec();
        if (j.env().isEmpty()) return;
        List<Reading> read = readings.computeIfAbsent(j.env(), env -> {
            NcclVariables vars = NcclVariables.builtIn();
            List<Reading> list = new ArrayList<>(env.size());
            for (Map.Entry<String, Located<String>> e : env.entrySet()) list.add(Reading.of(vars, e.getKey(), e.getValue(), env.size() > 1));
            return list;
        });
        Resolved.Group group = r.group();
        Resolved.Cluster cf = r.cluster();
        boolean efa = j.origin() != null && j.origin().rdmaResources().stream().anyMatch(l -> l.value().startsWith("vpc.amazonaws.com/efa"));
        // before the NICs are read: the plan's search asks for thousands of candidate jobs of one environment, all but the
        // first of each run seen already
        if (oncePerEnvironment) {
            Seen seen = new Seen(cf, group, j.cluster() == null ? null : j.cluster().value(), r.nodes(), j.file(), efa);
            List<Seen> before = emitted.computeIfAbsent(j.env(), x -> new ArrayList<>());
            for (Seen b : before) if (b.same(seen)) return;
            before.add(seen);
        }
        // NVLink-joined GPUs (an Infinity Fabric platform is not NVLink: NCCL002's advice does not apply as written)
        boolean nvlink = group != null && group.domainKind() != DomainKind.NONE && group.domainKind() != DomainKind.UNKNOWN
                && group.domainKind() != DomainKind.INFINITY_FABRIC;
        boolean gdr = false;
        if (group != null) {
            for (Specs.Nic n : group.spec().nics()) {
                Protocol proto = Resolver.protocol(n, cf.fabric());
                if ((proto != null && proto.rdma()) || (n.gpudirectRdma() != null && Boolean.TRUE.equals(n.gpudirectRdma().value()))) gdr = true;
            }
        }
        int at = 0;
        for (Map.Entry<String, Located<String>> e : j.env().entrySet()) {
            Reading v = read.get(at++);
            String name = e.getKey();
            String value = v.value();
            String upper = v.upper();
            EnvFact.Builder f = EnvFact.builder()
                    .of(r.name(), j.cluster() == null ? null : j.cluster().value(), r.nodes(), j.file(), name,
                            e.getValue().span(), value, e.getValue().span())
                    .reading(upper, v.on())
                    .variable(v.variable(), v.family())
                    .levels(v.localOrZero(), v.off())
                    .catalog(v.known(), v.debugSet(), v.suggestion()).fix(v.oneEdit())
                    .cluster(cf != null && cf.rdma(), nvlink, gdr)
                    .efa(efa)
                    .lineRemovals(v.removals());
            Specs.NicQos qos = cf == null || cf.spec().fabric() == null ? null : cf.spec().fabric().qos();
            boolean dscpPicks = dev.gpulint.derive.net.ClusterAnalysis.trustsDscp(qos);
            if (cf != null && cf.roce() && dscpPicks) {       // trusting PCP (or trust not known), the NICs pick no known priority from the byte
                if (qos != null && qos.dscpPriority() != null) f.dscpMap(qos.dscpPriority());
                if (cf.pfcPriority() >= 0) {
                    f.pfc(cf.pfcPriority(), qos != null && qos.partial() ? qos.pfcFlags() + " priority" : "fabric.roce.pfc.priority",
                            cf.pfcPrioritySpan());
                } else {
                    f.pfc(DEFAULT_PFC_PRIORITY, "default", cf.roceSpan());
                }
                Specs.Fabric fab = cf.spec().fabric();
                if (fab != null && fab.dscp() != null) f.dscp((int) (long) fab.dscp().value());
            }
            if (name.equals("NCCL_SOCKET_IFNAME")) {
                List<String> interfaces = interfaceNames(value);
                f.interfaces(interfaces, value.startsWith("^"))
                        .loopbackOnly(!interfaces.isEmpty() && interfaces.stream().allMatch(i -> i.startsWith("lo")));
            }
            if (name.equals("NCCL_IB_TC")) f.trafficClass(trafficClassByte(value));
            if (name.equals("NCCL_IB_HCA")) {
                String hca = prefixHca(value);
                if (hca != null) f.hcaPrefix(hca, deviceNumber(hca));
            }
            if (v.wholeNumber() >= 0) f.wholeNumber(v.wholeNumber());
            Located<String> topology = cf == null || cf.spec().fabric() == null ? null : cf.spec().fabric().topology();
            if (topology != null) f.railOptimized("rail-optimized".equals(topology.value()), topology.span());
            out.add(f.build());
        }
    }

    /**
     * The interface names of an NCCL_SOCKET_IFNAME value: split at commas, each stripped and its
     * exact-match "=" dropped, a leading "^" (exclude) removed first; empty for an empty value.
     */
    public static List<String> interfaceNames(String value) {
        String list = value.startsWith("^") ? value.substring(1) : value;
        List<String> names = new ArrayList<>();
        if (list.isEmpty()) return names;
        for (String part : list.split(",")) names.add(part.strip().replaceFirst("^=", ""));
        return names;
    }

    /**
     * The HCA of an NCCL_IB_HCA value that NCCL matches by prefix and that ends in the smallest device
     * number above 0 (mlx5_1 of "mlx5_0,mlx5_1:1": the name with the most longer twins, mlx5_10..19);
     * null when the list starts with "=" or "^=" (exact match), or no name ends in such a number. A
     * leading "^" (exclude) is dropped; ports and rails after ":" are dropped.
     */
    public static String prefixHca(String value) {
        String list = value.startsWith("^") ? value.substring(1) : value;
        if (list.startsWith("=")) return null;
        String best = null;
        long bestNumber = Long.MAX_VALUE;
        for (String part : list.split(",", -1)) {
            String name = part.strip();
            int colon = name.indexOf(':');
            if (colon >= 0) name = name.substring(0, colon);
            long n = deviceNumber(name);
            if (n >= 1 && n < bestNumber) { best = name; bestNumber = n; }
        }
        return best;
    }

    /**
     * The decimal number an HCA name ends in, after a non-digit (1 for mlx5_1, 10 for mlx5_10); -1 without
     * one, or when it has a leading zero (mlx5_01 is nobody's device name).
     */
    public static long deviceNumber(String hca) {
        int i = hca.length();
        while (i > 0 && Character.isDigit(hca.charAt(i - 1))) i--;
        if (i == 0 || i == hca.length() || hca.length() - i > 9) return -1;
        if (hca.charAt(i) == '0' && hca.length() - i > 1) return -1;
        return Long.parseLong(hca.substring(i));
    }

    /** The traffic-class byte an NCCL_IB_TC value states; -1 when it is not a whole number 0..255. */
    public static int trafficClassByte(String value) {
        Quantities.Parsed<Long> tc = Quantities.integer(value);
        return tc.ok() && tc.value() >= 0 && tc.value() <= 255 ? (int) (long) tc.value() : -1;
    }
}
