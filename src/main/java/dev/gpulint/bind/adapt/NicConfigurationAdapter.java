package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.Nodes.map;
import static dev.gpulint.bind.adapt.Nodes.scalar;
import static dev.gpulint.bind.adapt.Nodes.text;

import dev.gpulint.core.Span;
import dev.gpulint.read.SourceFile;
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
    /** NVIDIA's RoCE priority, which roceOptimized makes lossless when qos.pfc is not written. */
    static final long ROCE_PRIORITY = 3;

    @Override public String format() { return KIND; }

    @Override public boolean accepts(MappingNode root, SourceFile file) {
        String api = text(root, "apiVersion");
        return api != null && api.startsWith("configuration.net.nvidia.com/") && KIND.equals(text(root, "kind"));
    }

    @Override public void bind(MappingNode root, SourceFile file, String name, Sink sink) {
        ScalarNode nameNode = scalar(root, "metadata", "name");
        Span nameSpan = nameNode != null ? nameNode.span() : root.entries().isEmpty() ? root.span() : root.entries().get(0).key().span();
        String label = nameNode != null && !nameNode.isNull() ? nameNode.text() : name;
        MappingNode spec = map(root, "spec");
        MappingNode template = map(spec, "template");
        ScalarNode link = scalar(template, "linkType");
        MappingNode selector = map(spec, "nodeSelector");
        sink.nicPolicies.add(new Specs.NicPolicy(KIND, new Located<>(label, nameSpan), file.displayPath(), Nodes.string(link),
                null, new Located<>(true, nameSpan), selector == null ? null : selector.span(), false, nameSpan));
        if (link == null || link.isNull()) return;
        String l = link.text().strip().toLowerCase(Locale.ROOT);
        String origin = KIND + " '" + label + "'";
        if (l.equals("infiniband")) {
            Specs.Fabric f = new Specs.Fabric(new Located<>("infiniband", link.span()), null, null, null, null, null, null, null, link.span());
            sink.clusters.add(new Specs.Cluster(new Located<>(label, nameSpan), file.displayPath(), f, List.of(), root.span(), origin));
            return;
        }
        MappingNode roce = map(template, "roceOptimized");
        Located<Boolean> enabled = Nodes.bool(scalar(roce, "enabled"));
        if (!l.equals("ethernet") || enabled == null || !enabled.value()) return;
        // roceOptimized: PFC on priority 3 unless qos.pfc says otherwise; DCQCN on every priority
        Located<Boolean> pfcOn = new Located<>(true, enabled.span());
        Located<Long> pfcPriority = new Located<>(ROCE_PRIORITY, enabled.span());
        ScalarNode pfc = scalar(roce, "qos", "pfc");
        if (pfc != null && !pfc.isNull() && !Nodes.placeholder(pfc.text())) {
            long[] on = priorities(pfc.text());
            if (on == null) return;                        // not eight flags: unknown
            if (on.length == 0) {
                pfcOn = new Located<>(false, pfc.span());
                pfcPriority = null;
            } else {
                long chosen = on[0];
                for (long p : on) if (p == ROCE_PRIORITY) chosen = p;
                pfcOn = new Located<>(true, pfc.span());
                pfcPriority = new Located<>(chosen, pfc.span());
            }
        }
        Specs.Fabric f = new Specs.Fabric(new Located<>("roce", enabled.span()), null, null, pfcOn, pfcPriority,
                new Located<>(true, enabled.span()), null, null, roce.span());
        sink.clusters.add(new Specs.Cluster(new Located<>(label, nameSpan), file.displayPath(), f, List.of(), root.span(),
                origin + " roceOptimized"));
    }

    /** The priorities a pfc string of eight 0/1 flags enables ("0,0,0,1,0,0,0,0" → [3]); null when it is not eight flags. */
    static long[] priorities(String flags) {
        String t = flags.strip();
        if (t.length() > 64) return null;
        String[] parts = t.split(",", -1);
        if (parts.length != 8) return null;
        long[] on = new long[8];
        int n = 0;
        for (int i = 0; i < 8; i++) {
            String p = parts[i].strip();
            if (p.equals("1")) on[n++] = i;
            else if (!p.equals("0")) return null;
        }
        return java.util.Arrays.copyOf(on, n);
    }
}
