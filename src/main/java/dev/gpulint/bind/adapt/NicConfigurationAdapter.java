package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.scalar;

import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.List;
import java.util.Locale;

/**
 * NVIDIA's NIC configuration operator: a {@code NicConfigurationTemplate}
 * ({@code configuration.net.nvidia.com}) is where a Kubernetes cluster's RoCE lossless settings
 * live. Its {@code template.roceOptimized} sets trust DSCP, PFC on priority 3 (or
 * {@code qos.pfc}, eight 0/1 flags, one per priority) and DCQCN congestion control on every
 * priority (ROCE_CC_PRIO_MASK 255, so ECN is answered); it can only be enabled with linkType
 * Ethernet. The template binds as a cluster with a fabric and no node groups, so that NET001,
 * NET002 and NET007 judge it, and jobs of the run that get a cluster made for them run on its
 * fabric (NCCL006); and as a NIC policy (its node selector).
 */
final class NicConfigurationAdapter implements FormatAdapter {
    static final String KIND = "NicConfigurationTemplate";

    @Override public String id() { return "nic-configuration-template"; }

    @Override public String displayName() { return KIND; }

    @Override public boolean accepts(ForeignDocument doc) {
        MappingNode root = doc.root();
        return NicObjects.is(root, "configuration.net.nvidia.com", KIND);
    }

    @Override public void bind(ForeignDocument doc, DraftSink sink) {
        MappingNode root = doc.root();
        NicObjects.Named n = NicObjects.name(root, doc.name());
        MappingNode spec = map(root, "spec");
        MappingNode template = map(spec, "template");
        ScalarNode link = scalar(template, "linkType");
        MappingNode selector = map(spec, "nodeSelector");
        sink.nicPolicy(new Specs.NicPolicy(KIND, n.located(), doc.file(), TreeValues.string(link),
                null, new Located<>(true, n.span()), selector == null ? null : selector.span(), false, n.span()));
        if (link == null || link.isNull()) return;
        String l = link.text().strip().toLowerCase(Locale.ROOT);
        String origin = KIND + " '" + n.label() + "'";
        if (l.equals("infiniband")) {
            Specs.Fabric f = new Specs.Fabric(new Located<>("infiniband", link.span()), null, null, null, null, null, null, null, link.span());
            sink.cluster(new Specs.Cluster(n.located(), doc.file(), f, List.of(), root.span(), origin));
            return;
        }
        MappingNode roce = map(template, "roceOptimized");
        Located<Boolean> enabled = TreeValues.bool(scalar(roce, "enabled"));
        if (!l.equals("ethernet") || enabled == null || !enabled.value()) return;
        // roceOptimized: PFC on priority 3 unless qos.pfc says otherwise; DCQCN on every priority
        Located<Boolean> pfcOn = new Located<>(true, enabled.span());
        Located<Long> pfcPriority = new Located<>(NicObjects.ROCE_PRIORITY, enabled.span());
        ScalarNode pfc = scalar(roce, "qos", "pfc");
        if (pfc != null && !pfc.isNull() && !TreeValues.placeholder(pfc.text())) {
            NicObjects.Pfc flags = NicObjects.pfc(pfc.text(), pfc.span());
            if (flags == null) return;                        // not eight flags: unknown
            pfcOn = flags.on();
            pfcPriority = flags.priority();
        }
        ScalarNode trust = scalar(roce, "qos", "trust");
        Located<String> trusted = trust == null || trust.isNull() || TreeValues.placeholder(trust.text()) ? null
                : new Located<>(trust.text().strip().toLowerCase(Locale.ROOT), trust.span());
        Specs.Fabric f = new Specs.Fabric(new Located<>("roce", enabled.span()), null, null, pfcOn, pfcPriority,
                new Located<>(true, enabled.span()), null, null, roce.span(),
                new Specs.NicQos(trusted, null, null, KIND + " qos.pfc", false, false));
        sink.cluster(new Specs.Cluster(n.located(), doc.file(), f, List.of(), root.span(),
                origin + " roceOptimized"));
    }
}
