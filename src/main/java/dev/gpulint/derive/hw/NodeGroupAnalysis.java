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

import static dev.gpulint.derive.Text.gib;

/** The HW family's analysis: a node group's GPU against the catalog, its NVLink and its NICs. */
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
        String modelName = spec.gpu() == null ? null : value(spec.gpu().model());
        Specs.Nvlink nv = spec.nvlink();
        String memoryText = null;
        Span memorySpan = null;
        if (gpu != null && spec.gpu().memory() != null) {
            memorySpan = spec.gpu().memory().span();
            if (!g.memoryMatches()) memoryText = memoryText(gpu, spec.gpu().memory().value().bytes(), spec.gpu().memory().value().written());
        }
        long rdmaNics = 0;
        for (Specs.Nic n : spec.nics()) {
            Protocol p = Resolver.protocol(n, fabric);
            if (p != null && p.rdma()) rdmaNics += n.count() == null ? 1L : n.count().value();
        }
        String closest = null;
        if (gpu == null && modelName != null) {
            List<String> names = new ArrayList<>();
            for (Catalog.Gpu x : catalog.gpus()) names.add(x.name());
            closest = String.join(", ", DidYouMean.closestN(modelName, names, 3));
        }
        out.add(new NodeGroupFact(g.clusterName(), g.name(), g.cluster().file(), spec.span(), spec.count() == null ? 0L : spec.count().value(),
                g.gpusPerNode(), spec.gpu() == null ? null : span(spec.gpu().count()), modelName,
                spec.gpu() == null ? null : span(spec.gpu().model()), gpu != null, gpu == null ? null : gpu.name(),
                gpu != null && gpu.form() == Catalog.Form.PCIE, gpu == null ? 0 : gpu.nvlinkGeneration(),
                gpu == null ? 0 : gpu.bridgeMax(), g.nvlinkDeclared(), nv == null ? null : nv.keySpan(), g.nvswitch(),
                nv == null ? null : span(nv.nvswitch()), g.bridge(), nv == null ? null : span(nv.bridge()),
                g.declaredDomainSize(), nv == null ? null : span(nv.domainSize()), g.domainSize(), g.domainKind().name(),
                g.domainSpan(), g.domainText())
                .withExtras(closest, !g.memoryMatches(), memoryText, memorySpan, rdmaNics, !spec.nics().isEmpty()));
        int i = 0;
        for (Specs.Nic n : spec.nics()) {
            i++;
            Protocol protocol = Resolver.protocol(n, fabric);
            out.add(new NicFact(g.clusterName(), g.name(), g.cluster().file(), i, value(n.model()),
                    protocol == null ? null : protocol.id(), value(n.gpudirectRdma()), n.span(), span(n.gpudirectRdma())));
        }
    }

    /** "96 GB for H100-SXM5-80GB, whose memory is 80 GiB (85.9 GB); H100-NVL-94GB has ..." */
    private String memoryText(Catalog.Gpu gpu, double declared, String written) {
        StringBuilder alt = new StringBuilder();
        for (Catalog.Gpu other : catalog.gpus()) {
            if (other.family().equals(gpu.family()) && !other.name().equals(gpu.name())
                    && Math.abs(declared / other.memoryBytes() - 1) <= 0.05) {
                alt.append("; ").append(other.name()).append(" has ").append(gib(other.memoryBytes()));
            }
        }
        return written + " for " + gpu.name() + ", whose memory is " + gib(gpu.memoryBytes()) + alt;
    }

    private static <T> T value(Located<T> l) { return l == null ? null : l.value(); }

    private static Span span(Located<?> l) { return l == null ? null : l.span(); }
}
