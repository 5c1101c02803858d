package dev.gpulint.read.evidence;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * NCCL_DEBUG=INFO logs: lines "host:pid:tid [dev] NCCL INFO text" (or NCCL WARN), possibly behind a
 * launcher's prefix ("[1,0]&lt;stdout&gt;:"), among the program's other output. Kept: the network
 * NCCL chose ("NET/IB : Using ...", "NET/Socket : Using ...", "Using network X"), each
 * channel's transport ("Channel 00/0 : 0[0] -> 1[1] via P2P/IPC", "... [send] via
 * NET/IB/0/GDRDMA", "via SHM/direct/direct"), the node count of communicators
 * and rank count of communicators (their init line "comm 0x... rank 0 nRanks 16 nNodes 2", NCCL 2.19+),
 * the largest rank a channel through the network names, and NCCL WARN lines.
 */
final class NcclLogReader {
    /**
     * The head of an NCCL debug line: host:pid:tid [device], then, on WARN lines (and some INFO lines) of every NCCL
     * release, the source position that printed it ("misc/ibvwrap.cc:63", "net.cc:626"; group 3), then NCCL INFO or WARN.
     */
    static final Pattern PREFIX = Pattern.compile(
            "([^\\s:\\]>]{1,253}):\\d{1,10}:\\d{1,10} \\[[^\\]]{0,16}\\] (?:([A-Za-z0-9_./-]{1,128}:\\d{1,6}) )?NCCL (INFO|WARN) ");
    /** A channel's path: "Channel 00/0 : 0[0] -> 1[1] via P2P/IPC"; NCCL before 2.7 printed "Ring 00 : 15 -> 0 [send] via NET/Socket/0". */
    private static final Pattern CHANNEL = Pattern.compile("(?:Channel|Ring) \\d{1,4}(?:/\\d{1,4})? : (\\d{1,7})(?:\\[[^\\]]{0,32}\\])? -> "
            + "(\\d{1,7})(?:\\[[^\\]]{0,32}\\])? (\\[(?:send|receive)\\] )?via (\\S{1,64})");
    /** A communicator's init line (NCCL 2.19+): "comm 0x55d0c3a0 rank 0 nRanks 16 nNodes 2 localRanks 8 ...". */
    private static final Pattern COMM = Pattern.compile(
            "^comm 0x[0-9a-fA-F]{1,16} rank \\d{1,7} nRanks (\\d{1,7}) nNodes (\\d{1,7})\\b");

    private NcclLogReader() {}

    /** The line is an NCCL debug line. */
    static boolean isLogLine(String line) {
        return (line.contains("NCCL INFO ") || line.contains("NCCL WARN ")) && PREFIX.matcher(line).find();
    }

    static Evidence.NcclLog read(String file, List<String> lines) {
        List<Evidence.LogLine> kept = new ArrayList<>();
        Map<String, Integer> counts = new LinkedHashMap<>();
        int maxNodes = -1, oneNodeRanks = -1, maxNetRank = -1;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (!l.contains("NCCL ")) continue;
            Matcher p = PREFIX.matcher(l);
            if (!p.find()) continue;
            String host = p.group(1), text = l.substring(p.end());
            int col = p.end() + 1;
            Evidence.LogLine line = null;
            if (p.group(3).equals("WARN")) {
                String where = p.group(2) == null ? "" : " (" + p.group(2) + ")";
                line = new Evidence.LogLine("WARN", host, text.strip() + where, -1, -1, false,
                        Text.span(file, i + 1, p.start() + 1, l.stripTrailing().length() - p.start()));
            } else if (text.startsWith("NET/IB : Using ")) {
                line = new Evidence.LogLine("NET_IB", host, text.contains("/RoCE") ? "RoCE" : "IB", -1, -1, false, Text.span(file, i + 1, col, text.length()));
            } else if (text.startsWith("NET/Socket : Using ")) {
                line = new Evidence.LogLine("NET_SOCKET", host, "Socket", -1, -1, false, Text.span(file, i + 1, col, text.length()));
            } else if (text.startsWith("Using network ")) {
                String net = text.substring("Using network ".length()).strip();
                line = new Evidence.LogLine("USING_NETWORK", host, net, -1, -1, false, Text.span(file, i + 1, col, text.length()));
            } else {
                Matcher c = CHANNEL.matcher(text);
                if (c.find()) {
                    if (c.group(4).equals("NET") || c.group(4).startsWith("NET/")) {
                        maxNetRank = Math.max(maxNetRank, Math.max(Integer.parseInt(c.group(1)), Integer.parseInt(c.group(2))));
                    }
                    line = new Evidence.LogLine("CHANNEL", host, c.group(4), Integer.parseInt(c.group(1)), Integer.parseInt(c.group(2)),
                            c.group(3) != null, Text.span(file, i + 1, col + c.start(), c.end() - c.start()));
                } else {
                    Matcher n = COMM.matcher(text);
                    if (n.find()) {
                        int nodes = Integer.parseInt(n.group(2));
                        maxNodes = Math.max(maxNodes, nodes);
                        if (nodes == 1) oneNodeRanks = Math.max(oneNodeRanks, Integer.parseInt(n.group(1)));
                    }
                }
            }
            if (line == null) continue;
            String key = line.what().equals("CHANNEL") ? "CHANNEL:" + transport(line.detail()) : line.what();
            int seen = counts.merge(key, 1, Integer::sum);
            if (seen <= Evidence.NcclLog.KEEP) kept.add(line);
        }
        return new Evidence.NcclLog(file, List.copyOf(kept), java.util.Collections.unmodifiableMap(counts), maxNodes,
                oneNodeRanks, maxNetRank);
    }

    /**
     * The transport of a channel's path, the key its channels are counted under: P2P, SHM, COLLNET...
     * (the path's first part); for the network, NET/IB, NET/IB/GDRDMA (GPUDirect RDMA), NET/Socket or
     * NET/ plus a plugin's name.
     */
    static String transport(String via) {
        int slash = via.indexOf('/');
        if (slash < 0) return via;
        String first = via.substring(0, slash);
        if (!first.equals("NET")) return first;
        int next = via.indexOf('/', slash + 1);
        String net = next < 0 ? via : via.substring(0, next);
        return net + (via.endsWith("/GDRDMA") ? "/GDRDMA" : "");
    }
}
