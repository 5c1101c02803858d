package dev.gpulint.read.evidence;

import dev.gpulint.read.evidence.Text.Token;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * nvidia-smi topo -m: the header row names the devices (GPU0.., then NIC0.. or mlx5_0..), then
 * "CPU Affinity", "NUMA Affinity" and, on newer drivers, "GPU NUMA ID"; one row per device
 * follows, its cells in header order, then the affinity columns (GPU rows only); then the
 * legend and, on newer drivers, the NIC legend ("NIC0: mlx5_0"). Cells are words (X, SYS,
 * NODE, PHB, PXB, PIX, NV#; SOC on old drivers), so rows are split on any blank: a capture
 * whose tabs became spaces reads the same.
 */
final class TopologyReader {
    /** Devices a matrix may name: an 8-GPU node prints 8 GPUs and up to ~20 NICs. */
    static final int MAX_DEVICES = 256;
    private static final Set<String> AFTER_DEVICES = Set.of("CPU", "NUMA");

    private TopologyReader() {}

    static boolean isHeader(List<Token> t) {
        return !t.isEmpty() && t.get(0).text().equals("GPU0") && (t.size() == 1 || !t.get(1).text().equals("X"));
    }

    static Evidence.Topology read(String file, List<String> lines) {
        int header = -1;
        for (int i = 0; i < lines.size() && header < 0; i++) if (isHeader(Text.tokens(lines.get(i)))) header = i;
        if (header < 0) throw new Unreadable(Text.span(file, 1, 1, 0), "no header row starting with GPU0");
        List<Token> h = Text.tokens(lines.get(header));
        List<String> names = new ArrayList<>();
        for (int k = 0; k < h.size(); k++) {
            String w = h.get(k).text();
            if (AFTER_DEVICES.contains(w) || (w.equals("GPU") && k + 1 < h.size() && h.get(k + 1).text().equals("NUMA"))) break;
            if (names.contains(w)) throw new Unreadable(Text.span(file, header + 1, h.get(k).column(), w.length()),
                    "the header names " + w + " twice");
            names.add(w);
        }
        int n = names.size();
        if (n > MAX_DEVICES) throw new Unreadable(Text.span(file, header + 1, 1, 0),
                "the matrix names " + n + " devices, more than the " + MAX_DEVICES + " gpulint reads");
        Map<String, Integer> index = new HashMap<>();
        for (int k = 0; k < n; k++) index.put(names.get(k), k);
        Evidence.Device[] devices = new Evidence.Device[n];
        Evidence.Word[] cells = new Evidence.Word[n * n];
        Map<String, String> nicNames = new LinkedHashMap<>();
        int i = header + 1;
        for (; i < lines.size(); i++) {
            List<Token> t = Text.tokens(lines.get(i));
            if (t.isEmpty()) continue;
            String first = t.get(0).text();
            if (first.startsWith("Legend")) break;
            Integer r = index.get(first);
            if (r == null) continue;
            if (devices[r] != null) throw new Unreadable(Text.span(file, i + 1, t.get(0).column(), first.length()),
                    "a second row for " + first);
            if (t.size() - 1 < n) throw new Unreadable(Text.span(file, i + 1, t.get(0).column(), first.length()),
                    "the row of " + first + " has " + (t.size() - 1) + " cells where the header names " + n + " devices");
            for (int c = 0; c < n; c++) {
                Token cell = t.get(c + 1);
                cells[r * n + c] = new Evidence.Word(cell.text(), Text.span(file, i + 1, cell.column(), cell.text().length()));
            }
            String cpu = t.size() > n + 1 ? t.get(n + 1).text() : "";
            String numa = t.size() > n + 2 ? t.get(n + 2).text() : "";
            devices[r] = new Evidence.Device(first, first.startsWith("GPU"), Text.span(file, i + 1, t.get(0).column(), first.length()),
                    cpu, numa);
        }
        for (; i < lines.size(); i++) {
            List<Token> t = Text.tokens(lines.get(i));
            if (t.size() == 2 && t.get(0).text().matches("NIC[0-9]{1,4}:")) {
                nicNames.put(t.get(0).text().substring(0, t.get(0).text().length() - 1), t.get(1).text());
            }
        }
        for (int k = 0; k < n; k++) {
            if (devices[k] == null) throw new Unreadable(Text.span(file, header + 1, h.get(k).column(), names.get(k).length()),
                    "the header names " + names.get(k) + " but the matrix has no row for it");
        }
        if (!devices[0].gpu()) throw new Unreadable(devices[0].span(), "the first device is not a GPU");
        return new Evidence.Topology(file, List.of(devices), java.util.Collections.unmodifiableList(java.util.Arrays.asList(cells)),
                java.util.Collections.unmodifiableMap(nicNames));
    }
}
