package dev.gpulint.derive.evid;

import dev.gpulint.derive.Facts;
import dev.gpulint.facts.EvidenceLineFact;
import dev.gpulint.facts.IbPortFact;
import dev.gpulint.facts.LineKind;
import dev.gpulint.read.evidence.ComputePorts;
import dev.gpulint.read.evidence.Evidence;
import dev.gpulint.facts.Fmt;

/** The links a machine reports: InfiniBand and RoCE ports (ibstat, ibv_devinfo, ibstatus) and NVLinks (nvidia-smi nvlink -s, dcgmi nvlink -s). */
final class PortAnalysis {
    private PortAnalysis() {}

    static void facts(Evidence.IbPorts p, Target t, Facts out) {
        java.util.List<Evidence.IbPort> others = t.linked()
                ? ComputePorts.others(p.ports(), t.layer(), t.nicGbps(), t.rdmaNics()) : java.util.List.of();
        java.util.Set<Evidence.IbPort> other = new java.util.HashSet<>(others);
        StringBuilder list = new StringBuilder();
        for (Evidence.IbPort o : others) {
            list.append(list.length() == 0 ? "" : ", ").append(o.adapter()).append(" port ").append(o.port()).append(" (")
                    .append(ComputePorts.layer(o).isEmpty() ? "link layer not shown" : ComputePorts.layer(o))
                    .append(o.rateGbps() >= 0 ? ", " + Fmt.num(o.rateGbps()) + " Gb/s" : "").append(')');
        }
        for (Evidence.IbPort port : p.ports()) {
            String state = port.state() == null ? "" : port.state().text();
            String phys = port.physicalState() == null ? "" : port.physicalState().text();
            boolean active = ComputePorts.active(state);
            boolean up = ComputePorts.linkUp(phys);
            out.add(new IbPortFact(p.file(), port.adapter(), port.port(), port.span(), state,
                    port.state() == null ? port.span() : port.state().span(), active, phys, up, port.rateGbps(), port.rateSpan(),
                    port.linkLayer() == null ? "" : port.linkLayer().text(), port.linkLayer() == null ? null : port.linkLayer().span(),
                    t.linked(), t.cluster(), t.group(), t.nicGbps(), t.layer(), t.protocol(), t.declaredSpan(), other.contains(port),
                    !others.isEmpty() && port == others.get(0) ? list.toString() : "", p.ports().size() - others.size(),
                    t.linked() ? t.rdmaNics() : 0));
        }
    }

    static void nvlinks(Evidence.NvlinkStatus s, Target t, Facts out) {
        nvlinks(s.file(), s.gpus(), l -> l.inactive() ? "<inactive>" : dev.gpulint.facts.Fmt.num(l.gigabytesPerSecond()) + " GB/s", t, out);
    }

    /** dcgmi nvlink --link-status: its GPUs' links, judged as nvidia-smi's; its NVSwitches' ports are read, not judged. */
    static void nvlinks(Evidence.DcgmNvlinkStatus s, Target t, Facts out) {
        nvlinks(s.file(), s.gpus(), l -> !l.inactive() ? "U (Up)" : s.disabled().contains(l.span()) ? "X (Disabled)" : "D (Down)", t, out);
    }

    private static void nvlinks(String file, java.util.List<Evidence.NvlinkGpu> gpus,
                                java.util.function.Function<Evidence.NvlinkLink, String> state, Target t, Facts out) {
        for (Evidence.NvlinkGpu g : gpus) {
            int active = (int) g.links().stream().filter(l -> !l.inactive()).count();
            String gpu = "GPU " + g.index() + (g.name().isBlank() ? "" : " (" + g.name() + ")");
            for (Evidence.NvlinkLink l : g.links()) {
                out.add(new EvidenceLineFact(file, LineKind.NVLINK, "Link " + l.link(), l.span(), gpu, l.link(), l.inactive(),
                        l.gigabytesPerSecond(), active, t.linked(), t.nvlink(), state.apply(l)));
            }
        }
    }
}
