package dev.gpulint.derive.hw;

import dev.gpulint.catalog.Catalog;
import dev.gpulint.core.DidYouMean;
import dev.gpulint.core.Span;
import dev.gpulint.derive.Facts;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.Resolver;
import dev.gpulint.facts.NicFact;
import dev.gpulint.facts.NodeGroupFact;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Protocol;
import dev.gpulint.spec.Specs;
import java.util.ArrayList;
import java.util.List;

/**
 * The HW family's analysis: a node group's GPU with its catalog entry, its NVLink and its NICs.
 * The facts carry the declared and catalog values; the rules compare them.
 */
public final class NodeGroupAnalysis {

    private final Catalog catalog;
    private final Facts out;

    public NodeGroupAnalysis(Catalog catalog, Facts out) {
        this.catalog = catalog;
        this.out = out;
    }

    public void group(Resolved.Group g, Protocol fabric) {
        Specs.NodeGroup spec = g.spec();
        Catalog.Gpu gpu = g.gpu();
        Specs.Gpu declaredGpu = spec.gpu();
        String modelName = declaredGpu == null ? null : value(declaredGpu.model());
        Specs.Nvlink nv = spec.nvlink();
        NodeGroupFact.Builder b = NodeGroupFact.builder()
                .group(g.clusterName(), g.name(), g.cluster().file(), spec.span(), spec.count() == null ? 0L : spec.count().value())
                .gpus(g.gpusPerNode(), declaredGpu == null ? null : span(declaredGpu.count()), modelName,
                        declaredGpu == null ? null : span(declaredGpu.model()))
                .nvlink(g.nvlinkDeclared(), nv == null ? null : nv.keySpan(), g.nvswitch(), nv == null ? null : span(nv.nvswitch()),
                        g.bridge(), nv == null ? null : span(nv.bridge()))
                .domain(g.declaredDomainSize(), nv == null ? null : span(nv.domainSize()), g.domainSize(), g.domainKind(), g.domainSpan())
                .nics(!spec.nics().isEmpty(), rdmaNics(spec, fabric));
        if (gpu != null) {
            b.catalog(gpu.name(), gpu.form() == Catalog.Form.PCIE, gpu.nvlinkGeneration(), gpu.bridgeMax()).boardNvswitch(gpu.nvswitch());
            if (g.memoryDeclared()) {
                b.memory(g.memoryBytes(), declaredGpu.memory().value().written(), declaredGpu.memory().span(), gpu.memoryBytes(),
                        g.nearestMemoryBytes(), neighbours(gpu, g.memoryBytes(), catalog.gpus()));
            }
        } else if (modelName != null) {
            List<String> names = new ArrayList<>();
            for (Catalog.Gpu x : catalog.gpus()) names.add(x.name());
            b.closestGpuModels(DidYouMean.closestN(modelName, names, 3)).nearestGpuModel(DidYouMean.clearlyNearest(modelName, names));
        }
        out.add(b.build());
        int i = 0;
        for (Specs.Nic n : spec.nics()) {
            i++;
            out.add(new NicFact(g.clusterName(), g.name(), g.cluster().file(), i, value(n.model()), Resolver.protocol(n, fabric),
                    value(n.gpudirectRdma()), n.span(), span(n.gpudirectRdma())));
        }
    }

    /** NICs per node whose protocol (stated, or the fabric's) carries RDMA; an entry without a count is one NIC. */
    static long rdmaNics(Specs.NodeGroup spec, Protocol fabric) {
        long n = 0;
        for (Specs.Nic nic : spec.nics()) {
            Protocol p = Resolver.protocol(nic, fabric);
            if (p != null && p.rdma()) n += nic.count() == null ? 1L : nic.count().value();
        }
        return n;
    }

    /** Other models of the GPU's family whose memory is within 5% of the declared bytes: what the user may have meant. */
    static List<NodeGroupFact.Variant> neighbours(Catalog.Gpu gpu, double declared, List<Catalog.Gpu> all) {
        List<NodeGroupFact.Variant> near = new ArrayList<>();
        for (Catalog.Gpu other : all) {
            if (other.family().equals(gpu.family()) && !other.name().equals(gpu.name())
                    && Math.abs(declared / other.memoryBytes() - 1) <= 0.05) {
                near.add(new NodeGroupFact.Variant(other.name(), other.memoryBytes()));
            }
        }
        return near;
    }

    private static <T> T value(Located<T> l) { return l == null ? null : l.value(); }

    private static Span span(Located<?> l) { return l == null ? null : l.span(); }
}
