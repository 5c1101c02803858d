package dev.gpulint.discover;

import dev.gpulint.bind.FillIn;
import dev.gpulint.catalog.Catalog;
import dev.gpulint.core.Span;
import dev.gpulint.discover.Manifest.Block;
import dev.gpulint.discover.Manifest.Field;
import dev.gpulint.discover.Manifest.Item;
import dev.gpulint.discover.Manifest.Kind;
import dev.gpulint.discover.Manifest.Note;
import dev.gpulint.discover.Manifest.Val;
import dev.gpulint.read.evidence.ComputePorts;
import dev.gpulint.read.evidence.Evidence;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One node's cluster manifest from what its captures show (docs/evidence.md, "gpulint discover"):
 * the GPU count and NVLink layout from nvidia-smi topo -m (or -q, nvlink -s), the GPU model from
 * nvidia-smi -q (or nvlink -s, an nccl-tests run), the RDMA NICs' count, speed and protocol from
 * ibstat or ibv_devinfo (or, without them, the NIC count from topo -m). What no capture shows is a
 * {@link FillIn} placeholder: the node count, the fabric's topology, PFC and ECN. A placeholder's words agree with the
 * captures: when nccl-tests or an NCCL log shows several hosts, the node count's says "at least N" and names them,
 * rather than "the captures are of one node" (issue #37).
 */
final class Discover {
    private final Catalog catalog;
    private final List<Evidence> evidence;
    private final List<String> notes = new ArrayList<>();

    Discover(Catalog catalog, List<Evidence> evidence) {
        this.catalog = catalog;
        this.evidence = evidence;
    }

    /** What the captures did not settle and the user should know: several captures of one kind, and so on. */
    List<String> notes() { return notes; }

    private <T extends Evidence> List<T> all(Class<T> type) {
        return evidence.stream().filter(type::isInstance).map(type::cast).toList();
    }

    private static String at(Span s) { return s == null ? "" : s.file() + ":" + s.startLine(); }

    /** The cluster block: name, fabric, one node group. */
    Block cluster(String name, String groupName) {
        List<Item> group = new ArrayList<>();
        group.add(new Field("count", nodeCount()));
        List<Item> gpu = new ArrayList<>();
        Catalog.Gpu model = gpu(gpu);
        group.add(new Block("gpu", null, null, gpu));
        List<Item> nvlink = nvlink(model);
        if (!nvlink.isEmpty()) group.add(new Block("nvlink", null, null, nvlink));
        List<Block> nics = new ArrayList<>();
        String protocol = nics(nics);
        group.addAll(nics);
        List<Item> top = new ArrayList<>();
        if (protocol != null) {
            List<Item> fabric = new ArrayList<>();
            fabric.add(new Field("type", protocol.startsWith("<") ? new Val(protocol, Kind.STRING, "the captures show no link layer")
                    : new Val(protocol, Kind.WORD, protocolSource)));
            fabric.add(new Field("topology", fill("rail-optimized, fat-tree or other", "the switches are in no capture")));
            if (protocol.equals("roce")) {
                fabric.add(new Block("roce", null, null, List.of(
                        new Block("pfc", null, null, List.of(new Field("enabled", fill("true or false", "a switch and NIC setting; no capture shows it")))),
                        new Block("ecn", null, null, List.of(new Field("enabled", fill("true or false", "a switch and NIC setting; no capture shows it")))))));
            }
            top.add(new Block("fabric", null, null, fabric));
        }
        top.add(new Block("node_group", groupName, "node_groups", group));
        return new Block("cluster", name, null, top);
    }

    /**
     * The node count: always a placeholder (a run on some nodes does not say how many the cluster has), worded by
     * what the captures show: the hosts of nccl-tests' ranks and of an NCCL log's lines, and a log's "nNodes".
     */
    private Val nodeCount() {
        java.util.Set<String> hosts = new java.util.TreeSet<>();
        String where = null;
        int nNodes = -1;
        for (Evidence.NcclTests t : all(Evidence.NcclTests.class)) {
            for (Evidence.Rank r : t.ranks()) {
                if (r.host() == null || r.host().isBlank()) continue;
                hosts.add(r.host());
                if (where == null) where = at(r.span()) + " nccl-tests ranks";
            }
        }
        for (Evidence.NcclLog l : all(Evidence.NcclLog.class)) {
            for (Evidence.LogLine line : l.lines()) {
                if (line.host() == null || line.host().isBlank()) continue;
                hosts.add(line.host());
                if (where == null) where = at(line.span()) + " NCCL log lines";
            }
            if (l.maxNodes() > nNodes) {
                nNodes = l.maxNodes();
                if (hosts.isEmpty()) where = l.file() + " NCCL's nNodes";
            }
        }
        int seen = Math.max(hosts.size(), nNodes);
        if (seen >= 2) {
            List<String> named = new ArrayList<>(hosts);
            String list = named.size() > 4 ? String.join(", ", named.subList(0, 4)) + ", ..." : String.join(", ", named);
            return fill("how many nodes like this one: the captures show at least " + seen,
                    where + (hosts.isEmpty() ? " nNodes " + nNodes : " on " + hosts.size() + " hosts: " + list));
        }
        if (hosts.size() == 1) return fill("how many nodes like this one", where + " on one host, " + hosts.iterator().next());
        return fill("how many nodes like this one", "no capture shows how many nodes there are");
    }

    private static Val fill(String what, String why) {
        return new Val(FillIn.marker(what), Kind.STRING, why);
    }

    /** gpu.model and gpu.count; the model as the catalog names it, or null when unknown. */
    private Catalog.Gpu gpu(List<Item> out) {
        Catalog.Gpu model = null;
        Val modelVal = null, countVal = null;
        for (Evidence.SmiQuery q : all(Evidence.SmiQuery.class)) {
            if (countVal == null && q.attached() > 0) countVal = new Val(Integer.toString(q.attached()), Kind.WORD,
                    at(q.attachedSpan()) + " Attached GPUs");
            if (modelVal == null && !q.productNames().isEmpty()) {
                Evidence.Word w = q.productNames().get(0);
                model = catalog.gpu(w.text()).orElse(null);
                modelVal = modelVal(model, w.text(), at(w.span()));
            }
        }
        for (Evidence.SmiTable t : all(Evidence.SmiTable.class)) {
            if (countVal == null && !t.gpus().isEmpty()) countVal = new Val(Integer.toString(t.gpus().size()), Kind.WORD,
                    at(t.gpus().get(0).span()) + " " + t.gpus().size() + " GPU rows of nvidia-smi");
            Evidence.Word w = t.gpus().isEmpty() ? null : t.gpus().get(0).name();
            if (modelVal == null && w != null && !w.text().endsWith("...")) {
                model = catalog.gpu(w.text()).orElse(null);
                modelVal = modelVal(model, w.text(), at(w.span()));
            }
        }
        for (Evidence.NvlinkStatus s : all(Evidence.NvlinkStatus.class)) {
            if (modelVal == null && !s.gpus().isEmpty()) {
                model = catalog.gpu(s.gpus().get(0).name()).orElse(null);
                modelVal = modelVal(model, s.gpus().get(0).name(), at(s.gpus().get(0).span()));
            }
        }
        for (Evidence.NcclTests n : all(Evidence.NcclTests.class)) {
            if (modelVal == null && !n.ranks().isEmpty()) {
                model = catalog.gpu(n.ranks().get(0).gpuName()).orElse(null);
                modelVal = modelVal(model, n.ranks().get(0).gpuName(), at(n.ranks().get(0).span()));
            }
        }
        List<Evidence.Topology> topos = all(Evidence.Topology.class);
        if (!topos.isEmpty()) {
            Evidence.Topology t = topos.get(0);
            List<Evidence.Device> gpus = t.devices().stream().filter(Evidence.Device::gpu).toList();
            Val fromTopo = new Val(Integer.toString(gpus.size()), Kind.WORD, at(gpus.get(0).span()) + " GPU0.." + gpus.get(gpus.size() - 1).name()
                    + " in the matrix");
            if (countVal != null && !countVal.text().equals(fromTopo.text())) {
                notes.add("the captures disagree on the GPU count: " + fromTopo.source() + " shows " + fromTopo.text() + ", "
                        + countVal.source() + " " + countVal.text() + "; the matrix's count is written");
            }
            countVal = fromTopo;
            for (int k = 1; k < topos.size(); k++) {
                long other = topos.get(k).devices().stream().filter(Evidence.Device::gpu).count();
                if (other != gpus.size()) notes.add(topos.get(k).file() + " shows " + other + " GPUs, not " + gpus.size()
                        + ": only the first matrix is written; run discover once per kind of node");
            }
        } else {
            for (Evidence.NvlinkStatus s : all(Evidence.NvlinkStatus.class)) {
                if (countVal == null && !s.gpus().isEmpty()) countVal = new Val(Integer.toString(s.gpus().size()), Kind.WORD,
                        at(s.gpus().get(0).span()) + " " + s.gpus().size() + " GPUs listed");
            }
        }
        if (modelVal == null) {
            String hint = rackTray(topos) ? "the GPU model: 4 GPUs joined by NV18 through NVSwitches is a GB200 or GB300 tray of an NVL72 rack"
                    : "the GPU model, e.g. H100-SXM5-80GB (nvidia-smi -q prints it)";
            modelVal = fill(hint, "no capture names the GPU");
        }
        out.add(new Field("model", modelVal));
        out.add(new Field("count", countVal != null ? countVal : fill("GPUs per node", "no capture counts the GPUs")));
        return model;
    }

    private static Val modelVal(Catalog.Gpu model, String printed, String at) {
        return model != null ? new Val(model.name(), Kind.STRING, at + " " + printed.strip())
                : new Val(FillIn.marker("the GPU model: '" + printed.strip() + "' is not in gpulint's catalog"), Kind.STRING, at);
    }

    /** Every pair of 4 GPUs shows NV18: through NVSwitches a GPU's 18 links reach each other GPU, so the domain is the rack's. */
    private static boolean rackTray(List<Evidence.Topology> topos) {
        if (topos.isEmpty()) return false;
        Layout l = Layout.of(topos.get(0));
        return l.gpus() == 4 && l.allPairs() && l.links() == 18;
    }

    /** The nvlink block from the first matrix: an NVSwitch, pairs on bridges, a direct mesh, or none. */
    private List<Item> nvlink(Catalog.Gpu model) {
        List<Evidence.Topology> topos = all(Evidence.Topology.class);
        List<Item> out = new ArrayList<>();
        if (topos.isEmpty()) return out;
        Layout l = Layout.of(topos.get(0));
        String src = l.first() == null ? topos.get(0).file() : at(l.first().span());
        int perGpu = model != null && model.hasNvlink() ? catalog.nvlink(model.nvlinkGeneration()).map(Catalog.Nvlink::links).orElse(18) : 18;
        if (l.gpus() < 2) return out;
        if (l.allPairs() && l.links() * (l.gpus() - 1) > perGpu) {
            out.add(new Field("switch", new Val("true", Kind.WORD, src + " every GPU pair NV" + l.links()
                    + ": more links than a GPU has, so through NVSwitches")));
            if (l.gpus() == 4 && l.links() == 18) {
                out.add(new Note("4 GPUs joined through NVSwitches: a GB200/GB300 tray whose NVLink domain is the rack (the catalog's"));
                out.add(new Note("rack domain, 72 GPUs for NVL72, applies; set domain_size for an NVL36 rack)"));
            }
        } else if (l.pairsOnly()) {
            out.add(new Field("switch", new Val("false", Kind.WORD, src + " no NVSwitch: each GPU has one NVLink peer")));
            out.add(new Field("bridge", new Val("pairs", Kind.WORD, src + " NV" + l.links() + " between pairs")));
        } else if (l.links() > 0) {
            out.add(new Field("switch", new Val("false", Kind.WORD, src + (l.allPairs() ? " every GPU pair NV" + l.links()
                    + ": direct links, no NVSwitch" : " some GPU pairs without NVLink: no NVSwitch"))));
        } else {
            out.add(new Field("switch", new Val("false", Kind.WORD, src + " no NVLink between GPUs (" + l.path() + ")")));
            out.add(new Field("bridge", new Val("none", Kind.WORD, src + " the GPUs talk over PCIe")));
        }
        return out;
    }

    private String protocolSource = "";

    /**
     * The nics blocks, one per kind of port (link layer and rate) of ibstat or ibv_devinfo, else one from the matrix's NIC
     * columns; the fabric's protocol (null without NICs, a placeholder when no link layer is shown).
     */
    private String nics(List<Block> out) {
        Map<String, List<Evidence.IbPort>> kinds = new LinkedHashMap<>();
        List<Evidence.IbPort> others = new ArrayList<>();
        for (Evidence.IbPorts p : all(Evidence.IbPorts.class)) {
            // the compute NICs only (read.evidence.ComputePorts): a DGX H100's 4 Ethernet storage and in-band ports
            // beside its 8 InfiniBand rails are other networks; written as a second NIC they fail the manifest's NET001
            List<Evidence.IbPort> compute = ComputePorts.choose(p.ports());
            java.util.Set<Evidence.IbPort> chosen = new java.util.HashSet<>(compute);
            for (Evidence.IbPort port : p.ports()) if (!chosen.contains(port)) others.add(port);
            Evidence.IbPort kind = compute.stream().filter(ComputePorts::active).findFirst().orElse(compute.isEmpty() ? null : compute.get(0));
            if (kind != null) kinds.computeIfAbsent(ComputePorts.layer(kind) + "|" + kind.rateGbps(), k -> new ArrayList<>()).addAll(compute);
        }
        String protocol = null;
        for (List<Evidence.IbPort> ports : kinds.values()) {
            Evidence.IbPort first = ports.stream().filter(ComputePorts::active).findFirst().orElse(ports.get(0));
            List<Item> nic = new ArrayList<>();
            nic.add(new Field("count", new Val(Integer.toString(ports.size()), Kind.WORD, at(first.span()) + " " + ports.size()
                    + " port(s): " + names(ports))));
            if (first.rateGbps() > 0) nic.add(new Field("speed", new Val(fmt(first.rateGbps()) + " Gb/s", Kind.WORD,
                    at(first.rateSpan()) + " Rate " + fmt(first.rateGbps()))));
            String layer = first.linkLayer() == null ? "" : first.linkLayer().text().toLowerCase(Locale.ROOT);
            String p = layer.startsWith("infiniband") ? "infiniband" : layer.startsWith("ethernet") ? "roce" : null;
            if (p != null) {
                String src = at(first.linkLayer().span()) + " link layer " + first.linkLayer().text();
                nic.add(new Field("protocol", new Val(p, Kind.WORD, src + (p.equals("roce") ? " (an RDMA device: RoCE)" : ""))));
                if (protocol == null) {
                    protocol = p;
                    protocolSource = src;
                }
            } else {
                nic.add(new Field("protocol", fill("infiniband, roce or ethernet", "the capture shows no link layer")));
            }
            nic.add(new Note("gpudirect_rdma: no capture shows it (lsmod | grep nvidia_peermem on the node)"));
            if (out.isEmpty() && !others.isEmpty()) nic.add(new Note(otherNetworks(others)));
            out.add(new Block("nic", null, "nics", nic));
        }
        if (kinds.isEmpty()) {
            List<Evidence.Topology> topos = all(Evidence.Topology.class);
            if (topos.isEmpty()) return null;
            List<Evidence.Device> nics = topos.get(0).devices().stream().filter(d -> !d.gpu()).toList();
            if (nics.isEmpty()) return null;
            List<Item> nic = new ArrayList<>();
            nic.add(new Field("count", new Val(Integer.toString(nics.size()), Kind.WORD, at(nics.get(0).span()) + " " + nics.size()
                    + " NICs in the matrix")));
            nic.add(new Field("protocol", fill("infiniband, roce or ethernet", "topo -m does not say; ibstat does")));
            out.add(new Block("nic", null, "nics", nic));
            return FillIn.marker("infiniband, roce or ethernet");
        }
        return protocol == null ? FillIn.marker("infiniband, roce or ethernet") : protocol;
    }

    /**
     * The comment on the ports not written: "not written: mlx5_1, mlx5_2 (Ethernet, 400 Gb/s), mlx5_7, mlx5_8 (Ethernet,
     * 200 Gb/s): ...", ports of one kind together, in the capture's order.
     */
    private static String otherNetworks(List<Evidence.IbPort> others) {
        Map<String, List<String>> byKind = new LinkedHashMap<>();
        for (Evidence.IbPort p : others) {
            String layer = ComputePorts.layer(p).isEmpty() ? "link layer not shown" : ComputePorts.layer(p);
            String kind = layer + (p.rateGbps() > 0 ? ", " + fmt(p.rateGbps()) + " Gb/s" : "")
                    + (ComputePorts.active(p) ? "" : ", not Active");
            byKind.computeIfAbsent(kind, k -> new ArrayList<>()).add(p.adapter() + (p.port() > 1 ? " port " + p.port() : ""));
        }
        StringBuilder sb = new StringBuilder("not written: ");
        int k = 0;
        for (Map.Entry<String, List<String>> e : byKind.entrySet()) {
            if (k++ > 0) sb.append("; ");
            List<String> names = e.getValue();
            sb.append(String.join(", ", names.subList(0, Math.min(names.size(), 8)))).append(names.size() > 8 ? ", ..." : "")
                    .append(" (").append(e.getKey()).append(')');
        }
        return sb.append(": other networks than the compute NICs (storage, in-band management: a DGX H100's mlx5_1, mlx5_2, "
                + "mlx5_7, mlx5_8); add a nics entry for any that NCCL uses (NCCL_IB_HCA)").toString();
    }

    private static String names(List<Evidence.IbPort> ports) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < ports.size() && i < 4; i++) sb.append(i == 0 ? "" : ", ").append(ports.get(i).adapter());
        return sb.append(ports.size() > 4 ? ", ..." : "").toString();
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
    }
}
