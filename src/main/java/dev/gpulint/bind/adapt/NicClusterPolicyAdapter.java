package dev.gpulint.bind.adapt;

import dev.gpulint.bind.adapt.shell.ScalarText;
import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.scalar;

import dev.gpulint.core.Span;
import dev.gpulint.read.ReadResult;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.json.JsonReader;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.Node;
import dev.gpulint.tree.ScalarNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * NVIDIA network operator's {@code NicClusterPolicy} ({@code mellanox.com}): of what it deploys, the
 * RDMA device plugins' resources bear on the rules. {@code rdmaSharedDevicePlugin.config} and
 * {@code sriovDevicePlugin.config} are JSON written inside a YAML string; each resource of
 * {@code configList} (shared plugin) or {@code resourceList} (SR-IOV plugin, those with
 * {@code isRdma}) binds as a NIC policy with the link type its {@code selectors.linkTypes} select
 * (exactly {@code ether} or {@code infiniband}, the net device's link type; both, none, or another
 * spelling leave it unknown), located in the JSON; {@code selectors} is an object or a list of one.
 * A resource also narrowed by {@code deviceIDs}, {@code ifNames}, {@code pfNames}, {@code rootDevices},
 * {@code pciAddresses} or {@code drivers}, or one of a policy that has resources of both link types, is
 * marked narrowed: it takes some NICs of a node (storage NICs, say), which says nothing of the fabric.
 * {@code ofedDriver}, {@code nvIpam} and {@code secondaryNetwork} are not read.
 */
final class NicClusterPolicyAdapter implements FormatAdapter {
    static final String KIND = "NicClusterPolicy";
    /** A config longer than this is not read (a device plugin's config is a few hundred bytes). */
    private static final int MAX_CONFIG = 64 * 1024;

    @Override public String id() { return "nic-cluster-policy"; }

    @Override public String displayName() { return KIND; }

    @Override public boolean accepts(ForeignDocument doc) {
        MappingNode root = doc.root();
        return NicObjects.is(root, "mellanox.com", KIND);
    }

    @Override public void bind(ForeignDocument doc, DraftSink sink) {
        MappingNode root = doc.root();
        NicObjects.Named n = NicObjects.name(root, doc.name());
        MappingNode spec = map(root, "spec");
        List<Specs.NicPolicy> found = new ArrayList<>();
        resources(scalar(spec, "rdmaSharedDevicePlugin", "config"), "configList", "rdma", false, n, doc.source(), found);
        resources(scalar(spec, "sriovDevicePlugin", "config"), "resourceList", null, true, n, doc.source(), found);
        // a policy with resources of both link types serves nodes with both kinds of NIC (InfiniBand compute, Ethernet storage)
        java.util.Set<String> kinds = new java.util.HashSet<>();
        for (Specs.NicPolicy p : found) if (p.linkType() != null) kinds.add(kind(p.linkType().value()));
        for (Specs.NicPolicy p : found) {
            sink.nicPolicy(kinds.size() < 2 ? p : new Specs.NicPolicy(p.kind(), p.name(), p.file(), p.linkType(), p.mtu(),
                    p.rdma(), p.nodeSelector(), p.nodeSelectorRequired(), p.span(), p.resource(), true));
        }
    }

    /** Selectors that pick particular NICs of a node, beyond their vendor and link type. */
    private static final List<String> NARROWING = List.of("deviceIDs", "ifNames", "pfNames", "rootDevices", "pciAddresses", "drivers");

    /** Each resource of a device plugin's JSON config, as a NIC policy. */
    private static void resources(ScalarNode config, String listKey, String defaultPrefix, boolean rdmaOnly,
                                  NicObjects.Named n, SourceFile file, List<Specs.NicPolicy> found) {
        if (config == null || config.isNull() || config.text().length() > MAX_CONFIG) return;
        ScalarText text = ScalarText.of(file.text(), config);
        ReadResult r = new JsonReader().read(SourceFile.of(file.displayPath(), config.text()));
        if (r.foreign().isEmpty()) return;                    // not a JSON object: unknown
        int[] starts = lineStarts(config.text());
        for (MappingNode res : TreeValues.maps(r.foreign().get(0).root(), listKey)) {
            MappingNode selectors = map(res, "selectors");
            if (selectors == null && TreeValues.list(res, "selectors").size() == 1) selectors = TreeValues.maps(res, "selectors").get(0);  // the list form
            if (rdmaOnly) {
                Located<Boolean> rdma = TreeValues.bool(scalar(selectors, "isRdma"));
                if (rdma == null || !rdma.value()) continue;
            }
            ScalarNode resName = scalar(res, "resourceName");
            if (resName == null || resName.isNull()) continue;
            String prefix = TreeValues.text(res, "resourcePrefix");
            if (prefix == null) prefix = defaultPrefix;
            String resource = (prefix == null ? "" : prefix + "/") + resName.text();
            Located<String> link = linkType(TreeValues.list(selectors, "linkTypes"), text, starts);
            Span at = inFile(text, starts, resName.span());
            boolean narrowed = false;
            for (String k : NARROWING) narrowed |= !TreeValues.list(selectors, k).isEmpty();
            found.add(new Specs.NicPolicy(KIND, n.located(), file.displayPath(), link, null,
                    new Located<>(true, at), null, false, at, resource, narrowed));
        }
    }

    /** The one kind of link the linkTypes select ("ether" or "infiniband", as written), at its first element; null for none or both. */
    private static Located<String> linkType(List<Node> types, ScalarText text, int[] starts) {
        Located<String> first = null;
        String kind = null;
        for (Node t : types) {
            if (!(t instanceof ScalarNode s) || s.isNull()) return null;
            String k = kind(s.text());
            if (k == null || kind != null && !kind.equals(k)) return null;
            kind = k;
            if (first == null) first = new Located<>(s.text(), inFile(text, starts, s.span()));
        }
        return first;
    }

    /**
     * "ethernet" or "infiniband" for a net device's link type as the device plugin matches it: exactly
     * {@code ether} or {@code infiniband} (the kernel's names); null for any other text, which selects no NIC
     * the rules can reason on.
     */
    private static String kind(String written) {
        String l = written.strip();
        return l.equals("ether") ? "ethernet" : l.equals("infiniband") ? "infiniband" : null;
    }

    private static int[] lineStarts(String v) {
        List<Integer> starts = new ArrayList<>();
        starts.add(0);
        for (int i = 0; i < v.length(); i++) if (v.charAt(i) == '\n') starts.add(i + 1);
        return starts.stream().mapToInt(Integer::intValue).toArray();
    }

    /** A span inside the JSON (lines and columns of the string's value) as a span of the YAML file. */
    private static Span inFile(ScalarText text, int[] starts, Span inner) {
        int from = offset(starts, inner.startLine(), inner.startColumn());
        int to = offset(starts, inner.endLine(), inner.endColumn());
        return text.span(from, Math.max(from + 1, to));
    }

    private static int offset(int[] starts, int line, int column) {
        int l = Math.max(1, Math.min(line, starts.length));
        return starts[l - 1] + Math.max(0, column - 1);
    }
}
