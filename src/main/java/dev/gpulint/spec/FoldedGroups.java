package dev.gpulint.spec;

import dev.gpulint.core.Fold;
import dev.gpulint.core.Span;
import dev.gpulint.spec.Specs.Cluster;
import dev.gpulint.spec.Specs.Gpu;
import dev.gpulint.spec.Specs.Nic;
import dev.gpulint.spec.Specs.NodeGroup;
import dev.gpulint.spec.Specs.Nvlink;
import dev.gpulint.spec.Specs.Pcie;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * A cluster's folded node groups ({@link Fold}) as the node groups they stand for: one member as a node group
 * of its own, the names in source order, the whole cluster unfolded.
 */
final class FoldedGroups {
    private FoldedGroups() {}

    /** Member {@code i} of the group's fold: its name, and every place moved to it. */
    static NodeGroup member(NodeGroup g, int i) {
        Fold fold = g.fold();
        if (fold == null) return g;
        UnaryOperator<Span> at = s -> fold.span(s, i);
        List<Nic> nics = new ArrayList<>();
        for (Nic n : g.nics()) {
            nics.add(new Nic(moved(n.model(), at), moved(n.count(), at), moved(n.speed(), at), moved(n.protocol(), at),
                    moved(n.gpudirectRdma(), at), at.apply(n.span())));
        }
        Gpu gpu = g.gpu();
        Nvlink nv = g.nvlink();
        Pcie pcie = g.pcie();
        return new NodeGroup(g.name() == null ? null : new Located<>(fold.name(i), at.apply(g.name().span())), moved(g.count(), at),
                gpu == null ? null : new Gpu(moved(gpu.model(), at), moved(gpu.count(), at), moved(gpu.memory(), at),
                        moved(gpu.clockLimitMhz(), at), moved(gpu.powerLimitW(), at)),
                nv == null ? null : new Nvlink(moved(nv.nvswitch(), at), moved(nv.bridge(), at), moved(nv.bandwidth(), at),
                        moved(nv.direction(), at), moved(nv.domainSize(), at), at.apply(nv.keySpan())),
                pcie == null ? null : new Pcie(moved(pcie.generation(), at), moved(pcie.lanes(), at), moved(pcie.bandwidth(), at),
                        moved(pcie.direction(), at)),
                List.copyOf(nics), at.apply(g.span()), null);
    }

    private static <T> Located<T> moved(Located<T> v, UnaryOperator<Span> at) {
        return v == null ? null : new Located<>(v.value(), at.apply(v.span()));
    }

    /** The names of the cluster's first {@code limit} named node groups as written. */
    static List<String> names(Cluster c, int limit) {
        List<String> names = new ArrayList<>();
        for (Written w : inOrder(c, limit)) {
            if (w.group().name() == null) continue;
            names.add(w.group().fold() == null ? w.group().name().value() : w.group().fold().name(w.member()));
            if (names.size() == limit) break;
        }
        return names;
    }

    /** The cluster with every folded node group replaced by its members, in source order. */
    static Cluster unfolded(Cluster c) {
        if (c.nodeGroups().stream().allMatch(g -> g.fold() == null)) return c;
        List<NodeGroup> all = new ArrayList<>();
        for (Written w : inOrder(c, Integer.MAX_VALUE)) all.add(member(w.group(), w.member()));
        return new Cluster(c.name(), c.file(), c.fabric(), List.copyOf(all), c.span(), c.origin());
    }

    /** A node group, or member {@code member} of a folded one, and where it was written. */
    private record Written(long order, NodeGroup group, int member) {}

    /**
     * The node groups as written, with at most {@code limit} members of each fold. The i-th node group of the
     * spec comes after the members folded before it ({@link Fold#order}); a fold's members come in source order,
     * so the first {@code limit} of all are among each fold's first {@code limit}.
     */
    private static List<Written> inOrder(Cluster c, int limit) {
        List<Written> out = new ArrayList<>();
        boolean folded = false;
        List<NodeGroup> groups = c.nodeGroups();
        for (int i = 0; i < groups.size(); i++) {
            NodeGroup g = groups.get(i);
            long at = ((long) i << 32) | Integer.MAX_VALUE;
            if (g.fold() == null) { out.add(new Written(at, g, 0)); continue; }
            folded = true;
            for (int m = 0; m < Math.min(limit, g.fold().size()); m++) out.add(new Written(m == 0 ? at : g.fold().order(m), g, m));
        }
        if (folded) out.sort(java.util.Comparator.comparingLong(Written::order));
        return out;
    }
}
