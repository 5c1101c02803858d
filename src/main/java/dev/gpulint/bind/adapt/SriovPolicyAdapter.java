package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.scalar;
import static dev.gpulint.bind.adapt.TreeValues.text;

import dev.gpulint.core.Span;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.Locale;

/**
 * The SR-IOV network operator's {@code SriovNetworkNodePolicy} ({@code sriovnetwork.openshift.io}),
 * which NVIDIA's network operator uses for SR-IOV RDMA NICs: {@code linkType} (eth or ib),
 * {@code mtu}, {@code isRdma} / {@code deviceType}, and {@code nodeSelector}, which its API
 * requires. It binds as a NIC policy (NET008, NET009); it states no lossless settings.
 */
final class SriovPolicyAdapter implements FormatAdapter {
    static final String KIND = "SriovNetworkNodePolicy";

    @Override public String id() { return "sriov-network-node-policy"; }

    @Override public String displayName() { return KIND; }

    @Override public boolean accepts(ForeignDocument doc) {
        MappingNode root = doc.root();
        return NicObjects.is(root, "sriovnetwork.openshift.io", KIND);
    }

    @Override public void bind(ForeignDocument doc, DraftSink sink) {
        MappingNode root = doc.root();
        NicObjects.Named n = NicObjects.name(root, doc.name());
        MappingNode spec = map(root, "spec");
        if (spec == null) return;
        Located<Boolean> rdma = TreeValues.bool(scalar(spec, "isRdma"));
        String device = text(spec, "deviceType");
        if ((rdma == null || !rdma.value()) && device != null && device.strip().toLowerCase(Locale.ROOT).equals("rdma")) {
            rdma = new Located<>(true, scalar(spec, "deviceType").span());
        }
        MappingNode selector = map(spec, "nodeSelector");
        Span selectorSpan = selector != null ? selector.span()
                : spec.entry("nodeSelector").map(e -> e.key().span()).orElse(null);     // written, but empty or not a map
        sink.nicPolicy(new Specs.NicPolicy(KIND, n.located(), doc.file(),
                TreeValues.string(scalar(spec, "linkType")), TreeValues.integer(scalar(spec, "mtu")), rdma, selectorSpan, true, n.span()));
    }
}
