package dev.gpulint.derive.evid;

import dev.gpulint.core.Span;
import dev.gpulint.derive.Facts;
import dev.gpulint.facts.Collective;
import dev.gpulint.facts.EvidenceLineFact;
import dev.gpulint.facts.LineKind;
import dev.gpulint.facts.NcclLogFact;
import dev.gpulint.facts.NcclTestsFact;
import dev.gpulint.read.evidence.Evidence;
import java.util.HashMap;
import java.util.Map;

/**
 * nccl-tests runs and NCCL_DEBUG=INFO logs. The bus bandwidth a node group's hardware allows
 * (nccl-tests doc/PERFORMANCE.md: busbw is comparable with the hardware's link bandwidth) is,
 * on one host, a GPU's NVLink bandwidth per direction through the NVSwitch; across hosts, the
 * smaller of that and the line rate of the node's RDMA NICs in bytes (NICs × Gb/s ÷ 8): a ring
 * crosses each node once per channel, one channel per NIC, so busbw reaches the NICs' sum.
 */
final class NcclAnalysis {
    private NcclAnalysis() {}

    static void tests(Evidence.NcclTests n, Target t, Facts out) {
        Map<String, Integer> perHost = new HashMap<>();
        for (Evidence.Rank r : n.ranks()) perHost.merge(r.host(), 1, Integer::sum);
        int gpusPerHost = perHost.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        int wrongRows = 0;
        long wrongValues = 0, largest = 0, peakBytes = 0;
        Span wrongSpan = null, peakSpan = null;
        double peak = -1;
        for (Evidence.Row r : n.rows()) {
            long w = Math.max(r.wrongOut(), 0) + Math.max(r.wrongIn(), 0);
            if (w > 0) {
                wrongRows++;
                wrongValues += w;
                if (wrongSpan == null) wrongSpan = r.wrongOut() > 0 ? r.wrongOutSpan() : r.wrongInSpan();
            }
            largest = Math.max(largest, r.bytes());
            double b = Math.max(r.busbwOut(), r.busbwIn());
            if (b > peak) {
                peak = b;
                peakBytes = r.bytes();
                peakSpan = r.span();
            }
        }
        double expected = -1;
        String basis = "";
        double nicTotal = t.rdmaNics() > 0 && t.nicGbps() > 0 ? t.rdmaNics() * t.nicGbps() / 8 : 0;
        if (t.linked() && gpusPerHost == t.gpus()) {
            if (perHost.size() == 1 && t.nvlinkPerDirection() > 0) {
                expected = t.nvlinkPerDirection();
                basis = "NVLINK";
            } else if (perHost.size() > 1 && nicTotal > 0) {
                boolean nvlinkBound = t.nvlinkPerDirection() > 0 && t.nvlinkPerDirection() < nicTotal;
                expected = nvlinkBound ? t.nvlinkPerDirection() : nicTotal;
                basis = nvlinkBound ? "NVLINK" : "NIC";
            }
        }
        out.add(new NcclTestsFact(n.file(), n.test(), Collective.of(n.test()), n.headerSpan(), n.ranks().size(), perHost.size(), gpusPerHost, wrongRows,
                wrongValues, wrongSpan, largest, peak, peakBytes, peakSpan, n.avgBusbw(), t.linked(), t.cluster(), t.group(), expected,
                basis, t.nvlinkPerDirection(), Math.max(t.rdmaNics(), 0), Math.max(t.nicGbps(), 0), t.gpuModel(), t.declaredSpan()));
    }

    /** A channel path through NCCL's network transport, of any network (NET/IB/0/GDRDMA, NET/Socket/1, NET/<plugin>). */
    private static boolean isNet(String via) {
        return via.equals("NET") || via.startsWith("NET/");
    }

    static void log(Evidence.NcclLog l, Target t, Facts out) {
        Map<String, Integer> c = l.counts();
        int socket = c.getOrDefault("NET_SOCKET", 0), ib = c.getOrDefault("NET_IB", 0);
        Span socketSpan = null, shmSpan = null, netSpan = null, socketChannel = null;
        Evidence.LogLine firstNet = null;
        for (Evidence.LogLine x : l.lines()) {
            if (x.what().equals("USING_NETWORK")) {
                if (x.detail().equals("Socket")) socket++;
                else if (x.detail().equals("IB")) ib++;
            }
            boolean isSocket = x.what().equals("NET_SOCKET") || (x.what().equals("USING_NETWORK") && x.detail().equals("Socket"));
            if (isSocket && socketSpan == null) socketSpan = x.span();
            if (x.what().equals("CHANNEL")) {
                if (x.detail().startsWith("SHM") && shmSpan == null) shmSpan = x.span();
                if (x.detail().startsWith("NET/IB/") && !x.detail().endsWith("/GDRDMA") && netSpan == null) netSpan = x.span();
                if (isNet(x.detail()) && firstNet == null) firstNet = x;
                if (x.detail().startsWith("NET/Socket") && socketChannel == null) socketChannel = x.span();
            }
            if (x.what().equals("WARN")) {
                out.add(new EvidenceLineFact(l.file(), LineKind.NCCL_WARN, x.detail(), x.span(), "", -1, false, 0, 0, t.linked(), t.nvlink(), ""));
            }
        }
        // a log pasted without NCCL's init lines still shows the socket transport in its channels ("via NET/Socket/0")
        int socketChannels = c.getOrDefault("CHANNEL:NET/Socket", 0);
        if (socket == 0 && socketChannels > 0 && socketChannel != null) { socket = socketChannels; socketSpan = socketChannel; }
        int gdr = c.getOrDefault("CHANNEL:NET/IB/GDRDMA", 0);
        int net = c.getOrDefault("CHANNEL:NET/IB", 0) + gdr;
        int anyNet = 0;
        for (Map.Entry<String, Integer> e : c.entrySet()) {
            if (e.getKey().startsWith("CHANNEL:") && isNet(e.getKey().substring("CHANNEL:".length()))) anyNet += e.getValue();
        }
        out.add(new NcclLogFact(l.file(), socket, socketSpan, ib, c.getOrDefault("CHANNEL:SHM", 0), shmSpan, net, gdr, netSpan,
                anyNet, firstNet == null ? null : firstNet.span(), firstNet == null ? "" : firstNet.detail(), l.maxNodes(),
                l.oneNodeRanks(), l.maxNetRank(), t.linked(), t.cluster(), t.group(), t.rdma(), t.fabric(), t.nvlink(), t.gdr(), t.declaredSpan()));
    }
}
