package dev.gpulint.derive.par;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.catalog.Catalog;
import dev.gpulint.derive.Facts;

import dev.gpulint.derive.Resolved;
import dev.gpulint.facts.TpPlacementFact;
import dev.gpulint.spec.DomainKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/** PAR002/PAR003's analysis: where the job's tensor-parallel groups land under its rank order. */
public final class TpPlacementAnalysis {
    private TpPlacementAnalysis() {}

    public static void job(Resolved.Job j, Catalog catalog, Facts out) {
        Resolved.Group g = j.group();
        if (g == null || j.spec().parallelism() == null || j.spec().parallelism().tp() == null || j.tp() <= 1
                || !j.modelSizesKnown() || j.gpusPerNode() <= 0 || g.domainKind() == DomainKind.UNKNOWN) return;
        long tp = j.tp(), gpn = j.gpusPerNode();
        long domain = Math.max(1, g.domainSize());
        long world = j.totalGpus() > 0 ? j.totalGpus()
                : Placement.mulSat(Placement.mulSat(tp, j.pp()), Placement.mulSat(j.cp(), Math.max(j.dpEffective(), 1)));
        long stride = Placement.tpStride(j.order(), j.cp(), Math.max(1, j.dpEffective()), j.pp());
        Optional<Placement.Crossing> crossing = Placement.firstCrossingTpGroup(world, gpn, domain, tp, stride);
        // the group's ranks and places are words of PAR002/PAR003's messages, made only when a finding is worded (the plan
        // derives this fact for each of its thousands of candidate jobs and words none of their findings)
        Supplier<String> ranks = null;
        Supplier<String> places = null;
        int spanned = 0;
        if (crossing.isPresent()) {
            Placement.Crossing c = crossing.get();
            ranks = () -> Placement.ranks(c.ranks());
            spanned = c.domainCount();
            String group = g.name();
            DomainKind kind = g.domainKind();
            places = () -> places(c, group, gpn, kind);
        }
        String model = g.spec().gpu() == null || g.spec().gpu().model() == null ? null : g.spec().gpu().model().value();
        int gen = g.gpu() == null ? 0 : g.gpu().pcieGeneration();
        double pcie = gen > 0 && catalog.pcie(gen).isPresent() ? catalog.pcie(gen).get().perDirection() : 0;
        out.add(new TpPlacementFact(j.name(), j.spec().file(), tp, j.spec().parallelism().tp().span(), stride,
                ParallelDim.orderText(j.order()), spanned, ranks, places, g.domainKind(), domain, g.declaredDomainSize(),
                g.domainSpan(), g.name(), g.clusterName(), g.gpusPerNode(), g.gpu() != null ? g.gpu().name() : model,
                pcie > 0 ? gen : 0, pcie));
    }

    /** "dgx-0 (0-7) and dgx-1 (8-15)", "NVLink domain 0 (64-71) and ...", "bridged set 0 (0-1) and ...". */
    static String places(Placement.Crossing c, String groupName, long gpn, DomainKind kind) {
        Map<Long, List<Long>> byPlace = new LinkedHashMap<>();
        for (int i = 0; i < c.ranks().length; i++) {
            long place = kind == DomainKind.NODE || kind == DomainKind.INFINITY_FABRIC ? c.ranks()[i] / gpn : c.domains()[i];
            byPlace.computeIfAbsent(place, k -> new ArrayList<>()).add(c.ranks()[i]);
        }
        List<String> parts = new ArrayList<>();
        for (Map.Entry<Long, List<Long>> e : byPlace.entrySet()) {
            long[] rs = e.getValue().stream().mapToLong(Long::longValue).toArray();
            String label = switch (kind) {
                case NODE, INFINITY_FABRIC -> Placement.nodeName(groupName, e.getKey());
                case RACK -> "NVLink domain " + e.getKey();
                case BRIDGE -> "bridged set " + e.getKey();
                default -> "GPU " + e.getKey();
            };
            parts.add(kind == DomainKind.NONE ? label : label + " (" + Placement.ranks(rs) + ")");
        }
        if (parts.size() > 4) {
            int n = parts.size();
            parts = List.of(parts.get(0), parts.get(1), "… " + (n - 3) + " more", parts.get(n - 1));
        }
        if (parts.size() == 1) return parts.get(0);
        return String.join(", ", parts.subList(0, parts.size() - 1)) + " and " + parts.get(parts.size() - 1);
    }
}
