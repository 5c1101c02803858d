package dev.gpulint.plan.search;

import dev.gpulint.core.Span;
import dev.gpulint.facts.BubbleFact;
import dev.gpulint.facts.HybridLayersFact;
import dev.gpulint.facts.JobFact;
import dev.gpulint.facts.OriginFact;
import dev.gpulint.facts.TpPlacementFact;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.ToIntFunction;

/**
 * The facts of a session of the candidate search that their rules read alone, each distinct one inserted once: a
 * candidate job's {@link BubbleFact} (PAR006), {@link HybridLayersFact} (PAR014, PAR015) and {@link OriginFact}
 * (CONSIST003). Their rules match that one fact and the rules' parameters, and no condition reads the job's name
 * (CandidateSearchTest holds both), so whether a rule fires on a candidate's fact depends on what the fact says but for
 * the name; candidates whose facts say the same (the bubble of one pp, vpp and micro-batch count, the pattern checked
 * against one tp and cp, the job's one origin) get the findings of the first of them, whose fact alone is inserted. A session of
 * 1,024 candidates of the hybrid plan held 1,000 bubble, 1,024 hybrid-layer and 1,024 origin facts, a fifth of the rule
 * session's time on a sixth of its facts (measured by leaving each class out, 2026-12-06).
 *
 * <p>A candidate job's {@link JobFact} too (the PAR rules of its sizes, NET004/NET005 and SYN003 joined with the cluster's
 * facts, SYN004): no condition reads its name or its position among the facts, and the cluster's facts it joins are the
 * same for every candidate of a session, so two candidates whose JobFacts say the same ({@link JobFact#saying}: every
 * other field) get the same findings. Candidates that differ only in what no JobFact field holds (the optimizer's
 * sharding, which the memory rules judge) share one: half the hybrid plan's 1,024 JobFacts a session, the fact a session
 * spent most on (2.9 of 7.6 ms by leaving each class out, 2026-12-06).
 *
 * <p>A candidate job's {@link TpPlacementFact} (PAR002, PAR003) too: where its tp group lands, a function of tp, the rank
 * order's stride and the node group, which hundreds of a session's candidates share (the hybrid plan's 52,896 such facts
 * were a fifth of what its sessions inserted).
 */
final class AloneFacts {
    private AloneFacts() {}

    /** The rules that read each such fact, and only it (CandidateSearchTest holds it against the DRL). */
    static final Map<Class<?>, Set<String>> RULES = Map.of(
            BubbleFact.class, Set.of("PAR006"),
            HybridLayersFact.class, Set.of("PAR014", "PAR015"),
            OriginFact.class, Set.of("CONSIST003"),
            TpPlacementFact.class, Set.of("PAR002", "PAR003"),
            JobFact.class, Set.of("NET004", "NET005", "PAR001", "PAR004", "PAR005", "PAR007", "PAR008", "PAR009", "PAR010", "PAR011",
                    "PAR012", "PAR019", "SYN003", "SYN004"));

    /** The facts of {@link #RULES} by number (their rules' findings are found by it, not by a hash of the class). */
    private static final List<Class<?>> TYPES = List.of(BubbleFact.class, HybridLayersFact.class, OriginFact.class, JobFact.class,
            TpPlacementFact.class);

    /** The number of the fact class each rule of {@link #RULES} reads. */
    private static final Map<String, Integer> READS;

    static {
        Map<String, Integer> reads = new HashMap<>();
        RULES.forEach((type, ids) -> ids.forEach(id -> reads.put(id, TYPES.indexOf(type))));
        READS = Map.copyOf(reads);
    }

    /** The number of a fact's class among {@link #TYPES}, or −1 (instanceof: the classes are final). */
    private static int type(Object f) {
        return f instanceof BubbleFact ? 0 : f instanceof HybridLayersFact ? 1 : f instanceof OriginFact ? 2 : f instanceof JobFact ? 3
                : f instanceof TpPlacementFact ? 4 : -1;
    }

    /**
     * A session's facts with each such fact kept only when no earlier one of its class says the same but for its job,
     * and by class and candidate (its index less the session's first) the candidate whose fact was kept in its place.
     */
    record Kept(List<Object> facts, int from, int[][] keptFor, Stands[] stands) {

        /**
         * The candidates a finding of {@code ruleId} about candidate {@code k} is about: those whose fact the one it fired
         * on stands for, in their order, or {@code k} alone (a rule that reads no such fact, a class kept whole). Found in
         * an index made once per class and session ({@link Stands}): the job's rules fire on hundreds of a session's
         * candidates, and a walk of the session's candidates per finding would cost a million steps a session.
         */
        int[] whose(String ruleId, int k) {
            Integer type = READS.get(ruleId);
            Stands of = type == null ? null : stands[type];
            if (of == null) return new int[] {k};
            int[] all = of.of(k - from, from);
            return all.length == 0 ? new int[] {k} : all;
        }
    }

    /**
     * For one class, the candidates each kept fact stands for: {@code members[start[r] .. start[r + 1])} those of the
     * session's candidate {@code r} (its index less the session's first), in their order.
     */
    record Stands(int[] start, int[] members) {
        static Stands of(int[] keptFor, int from) {
            int n = keptFor.length;
            int[] start = new int[n + 1];
            for (int k : keptFor) if (k >= 0) start[k - from + 1]++;
            for (int r = 0; r < n; r++) start[r + 1] += start[r];
            int[] members = new int[start[n]], at = java.util.Arrays.copyOf(start, n);
            for (int i = 0; i < n; i++) if (keptFor[i] >= 0) members[at[keptFor[i] - from]++] = from + i;
            return new Stands(start, members);
        }

        int[] of(int r, int from) {
            return r < 0 || r + 1 >= start.length ? new int[0] : java.util.Arrays.copyOfRange(members, start[r], start[r + 1]);
        }
    }

    /**
     * @param candidate the candidate of the session a job name names ({@code from} ≤ k < {@code to}), or −1 for another
     *                  job's; always −1 keeps every fact
     */
    static Kept keep(List<Object> facts, int from, int to, ToIntFunction<String> candidate) {
        int n = to - from;
        int[][] keptFor = new int[TYPES.size()][];
        boolean[] whole = new boolean[TYPES.size()];
        // a candidate with two facts of one class, or another job's fact of it, would make its findings ambiguous: that
        // class is then inserted whole
        int[] whoseFact = new int[facts.size()];                      // the candidate of each such fact, found once
        for (int i = 0; i < facts.size(); i++) {
            Object f = facts.get(i);
            int t = type(f);
            if (t < 0 || whole[t]) continue;
            int k = whoseFact[i] = candidate.applyAsInt(jobOf(f));
            if (k < 0) { whole[t] = true; continue; }
            if (keptFor[t] == null) { keptFor[t] = new int[n]; java.util.Arrays.fill(keptFor[t], -1); }
            if (keptFor[t][k - from] >= 0) whole[t] = true;
            keptFor[t][k - from] = k;
        }
        Map<Object, Integer> first = new HashMap<>();                 // what a fact says but its job → the first candidate saying it
        List<Object> out = new ArrayList<>(facts.size());
        for (int i = 0; i < facts.size(); i++) {
            Object f = facts.get(i);
            int t = type(f);
            if (t < 0 || whole[t]) {
                out.add(f);
                continue;
            }
            int k = whoseFact[i];
            Integer at = first.putIfAbsent(sayingOf(f), k);
            if (at == null) out.add(f);
            else keptFor[t][k - from] = at;
        }
        for (int t = 0; t < whole.length; t++) if (whole[t]) keptFor[t] = null;
        Stands[] stands = new Stands[TYPES.size()];
        for (int t = 0; t < stands.length; t++) if (keptFor[t] != null) stands[t] = Stands.of(keptFor[t], from);
        return new Kept(out, from, keptFor, stands);
    }

    /** The job a fact of {@link #RULES} is about. */
    private static String jobOf(Object f) {
        if (f instanceof BubbleFact b) return b.getJobName();
        if (f instanceof HybridLayersFact h) return h.getJobName();
        if (f instanceof JobFact j) return j.getName();
        if (f instanceof TpPlacementFact p) return p.getJobName();
        return ((OriginFact) f).getJob();
    }

    /** What a fact of {@link #RULES} says but its job's name (every other field), or null for another fact. */
    static Object sayingOf(Object f) {
        if (f instanceof BubbleFact b) return new Bubble(b.getFile(), b.getPp(), b.getVirtualPp(), b.getMicroBatches(),
                b.getGlobalBatchSize(), b.getMicroBatchSize(), b.getDp(), b.getBubble(), b.getPpSpan(), b.getMicroBatchKey(),
                b.getGlobalBatchKey(), b.getLocalBatchSize(), b.getLocalBatchKey(), b.getMicroBatchesKey(), b.getSchedules(),
                b.getScheduleDp());
        if (f instanceof HybridLayersFact h) return new Hybrid(h.getFile(), h.getPatternKey(), h.getPatternSpan(),
                h.getPatternLayers(), h.getLayers(), h.getLayersSpan(), h.getMambaLayers(), h.getHeads(), h.isHeadsStated(),
                h.getHeadsKey(), h.getGroups(), h.isGroupsStated(), h.getGroupsKey(), h.getTp(), h.getTpSpan(), h.getGdnLayers(),
                h.getGdnKeyHeads(), h.getGdnKeyHeadsSpan(), h.getGdnValueHeads(), h.getGdnValueHeadsSpan(), h.getAttentionHeads(),
                h.isHeadsLeftOut(), h.isGroupsLeftOut(), h.isGdnKeyHeadsLeftOut(), h.isGdnValueHeadsLeftOut(), h.getCp(), h.getCpSpan(),
                h.getGdnKeyHeadsKey(), h.getGdnValueHeadsKey(), h.getKvHeads(), h.getDomain(), h.isInfinityFabric(),
                h.getGroupsDefaultOwner());
        if (f instanceof JobFact j) return j.saying();
        if (f instanceof TpPlacementFact p) return new TpPlacement(p.getFile(), p.getTp(), p.getTpSpan(), p.getStride(), p.getOrder(),
                p.getDomainsSpanned(), p.getDomainKind(), p.getDomainSize(), p.getDeclaredDomainSize(), p.getDomainSpan(), p.getGroupName(),
                p.getClusterName(), p.getGroupGpusPerNode(), p.getGpuName(), p.getPcieGeneration(), p.getPcieBytesPerSecond());
        if (f instanceof OriginFact o) return new Origin(o.getFormat(), o.isPodsVisible(), o.getRdmaResources(), o.isRdmaByAccess(),
                o.getIbHca(), o.getIbHcaSpan());
        return null;
    }

    // every field of the fact but its job's name (CandidateSearchTest counts them against the fact's fields)
    record Bubble(String file, long pp, long virtualPp, long microBatches, long globalBatchSize, long microBatchSize, long dp,
                  double bubble, Span ppSpan, String microBatchKey, String globalBatchKey, long localBatchSize,
                  String localBatchKey, String microBatchesKey, long schedules, long scheduleDp) {
        // written out, as CandidateSearch.Key's are: the record's own go through method handles the launcher's C1 JIT does not inline
        @Override
        public boolean equals(Object o) {
            return o instanceof Bubble b && pp == b.pp && virtualPp == b.virtualPp && microBatches == b.microBatches
                    && globalBatchSize == b.globalBatchSize && microBatchSize == b.microBatchSize && dp == b.dp
                    && Double.compare(bubble, b.bubble) == 0 && Objects.equals(file, b.file) && Objects.equals(ppSpan, b.ppSpan)
                    && Objects.equals(microBatchKey, b.microBatchKey) && Objects.equals(globalBatchKey, b.globalBatchKey)
                    && localBatchSize == b.localBatchSize && Objects.equals(localBatchKey, b.localBatchKey)
                    && Objects.equals(microBatchesKey, b.microBatchesKey) && schedules == b.schedules && scheduleDp == b.scheduleDp;
        }

        @Override
        public int hashCode() {
            int h = Long.hashCode(pp);
            h = 31 * h + Long.hashCode(virtualPp);
            h = 31 * h + Long.hashCode(microBatches);
            h = 31 * h + Long.hashCode(globalBatchSize);
            h = 31 * h + Long.hashCode(microBatchSize);
            h = 31 * h + Long.hashCode(dp);
            return 31 * h + Double.hashCode(bubble);
        }
    }

    record Hybrid(String file, String patternKey, Span patternSpan, long patternLayers, long layers, Span layersSpan,
                  long mambaLayers, long heads, boolean headsStated, String headsKey, long groups, boolean groupsStated,
                  String groupsKey, long tp, Span tpSpan, long gdnLayers, long gdnKeyHeads, Span gdnKeyHeadsSpan, long gdnValueHeads,
                  Span gdnValueHeadsSpan, long attentionHeads, boolean headsLeftOut, boolean groupsLeftOut, boolean gdnKeyHeadsLeftOut,
                  boolean gdnValueHeadsLeftOut, long cp, Span cpSpan, String gdnKeyHeadsKey, String gdnValueHeadsKey, long kvHeads,
                  long domain, boolean infinityFabric, String groupsDefaultOwner) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Hybrid h && patternLayers == h.patternLayers && layers == h.layers && mambaLayers == h.mambaLayers
                    && heads == h.heads && headsStated == h.headsStated && groups == h.groups && groupsStated == h.groupsStated
                    && tp == h.tp && gdnLayers == h.gdnLayers && gdnKeyHeads == h.gdnKeyHeads && gdnValueHeads == h.gdnValueHeads
                    && attentionHeads == h.attentionHeads && headsLeftOut == h.headsLeftOut && groupsLeftOut == h.groupsLeftOut
                    && gdnKeyHeadsLeftOut == h.gdnKeyHeadsLeftOut && gdnValueHeadsLeftOut == h.gdnValueHeadsLeftOut && cp == h.cp
                    && kvHeads == h.kvHeads && domain == h.domain && infinityFabric == h.infinityFabric
                    && Objects.equals(cpSpan, h.cpSpan) && Objects.equals(gdnKeyHeadsKey, h.gdnKeyHeadsKey)
                    && Objects.equals(gdnValueHeadsKey, h.gdnValueHeadsKey) && Objects.equals(file, h.file) && Objects.equals(patternKey, h.patternKey)
                    && Objects.equals(patternSpan, h.patternSpan) && Objects.equals(layersSpan, h.layersSpan)
                    && Objects.equals(headsKey, h.headsKey) && Objects.equals(groupsKey, h.groupsKey) && Objects.equals(tpSpan, h.tpSpan)
                    && Objects.equals(gdnKeyHeadsSpan, h.gdnKeyHeadsSpan) && Objects.equals(gdnValueHeadsSpan, h.gdnValueHeadsSpan)
                    && Objects.equals(groupsDefaultOwner, h.groupsDefaultOwner);
        }

        @Override
        public int hashCode() {
            int h = Long.hashCode(patternLayers);
            h = 31 * h + Long.hashCode(layers);
            h = 31 * h + Long.hashCode(heads);
            h = 31 * h + Long.hashCode(groups);
            h = 31 * h + Long.hashCode(cp);
            return 31 * h + Long.hashCode(tp);
        }
    }

    // every field of the fact but its job's name and the group's ranks and places, words of PAR002/PAR003's messages made only
    // when a finding is worded (the search's are not; no condition reads them: CandidateSearchTest holds it)
    record TpPlacement(String file, long tp, Span tpSpan, long stride, String order, int domainsSpanned,
                       dev.gpulint.spec.DomainKind domainKind, long domainSize, long declaredDomainSize, Span domainSpan, String groupName,
                       String clusterName, long groupGpusPerNode, String gpuName, int pcieGeneration, double pcieBytesPerSecond) {
        @Override
        public boolean equals(Object o) {
            return o instanceof TpPlacement p && tp == p.tp && stride == p.stride && domainsSpanned == p.domainsSpanned
                    && domainKind == p.domainKind && domainSize == p.domainSize && declaredDomainSize == p.declaredDomainSize
                    && groupGpusPerNode == p.groupGpusPerNode && pcieGeneration == p.pcieGeneration
                    && Double.compare(pcieBytesPerSecond, p.pcieBytesPerSecond) == 0 && Objects.equals(file, p.file)
                    && Objects.equals(tpSpan, p.tpSpan) && Objects.equals(order, p.order) && Objects.equals(domainSpan, p.domainSpan)
                    && Objects.equals(groupName, p.groupName) && Objects.equals(clusterName, p.clusterName) && Objects.equals(gpuName, p.gpuName);
        }

        @Override
        public int hashCode() {
            int h = Long.hashCode(tp);
            h = 31 * h + Long.hashCode(stride);
            h = 31 * h + domainsSpanned;
            return 31 * h + Long.hashCode(domainSize);
        }
    }

    record Origin(String format, boolean podsVisible, int rdmaResources, boolean rdmaByAccess, String ibHca, Span ibHcaSpan) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Origin x && podsVisible == x.podsVisible && rdmaResources == x.rdmaResources
                    && rdmaByAccess == x.rdmaByAccess && Objects.equals(format, x.format) && Objects.equals(ibHca, x.ibHca)
                    && Objects.equals(ibHcaSpan, x.ibHcaSpan);
        }

        @Override
        public int hashCode() { return 31 * rdmaResources + (podsVisible ? 1 : 0) + (rdmaByAccess ? 2 : 0); }
    }
}
