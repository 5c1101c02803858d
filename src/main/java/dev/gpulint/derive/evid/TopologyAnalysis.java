package dev.gpulint.derive.evid;

import dev.gpulint.derive.Facts;
import dev.gpulint.facts.TopoGpuFact;
import dev.gpulint.facts.TopoNicFact;
import dev.gpulint.facts.TopoPath;
import dev.gpulint.facts.TopoPairFact;
import dev.gpulint.read.evidence.Evidence;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An nvidia-smi topo -m matrix: each GPU's NVLinks (the most and fewest it shows to another GPU),
 * each GPU pair's link (NVLink count, or the PCIe path), and each GPU's nearest NIC with the kind
 * of path to it.
 */
final class TopologyAnalysis {
    /** PCIe path kinds, nearest first (nvidia-smi's legend); SOC is the old name of SYS. */
    static final Map<String, Integer> DISTANCE = Map.of("PIX", 1, "PXB", 2, "PHB", 3, "NODE", 4, "SYS", 5, "SOC", 5);

    private TopologyAnalysis() {}

    /** The NVLink count of a cell: # of NV#, 0 for any other. */
    static int nvlinks(String cell) {
        if (!cell.startsWith("NV") || cell.length() < 3 || cell.length() > 5) return 0;
        for (int i = 2; i < cell.length(); i++) if (!Character.isDigit(cell.charAt(i))) return 0;
        return Integer.parseInt(cell.substring(2));
    }

    /**
     * @param fullLinks the links per GPU of each NVLink generation of the catalog (V100 6, A100 12, H100 and B200 18):
     *                  through an NVSwitch every pair of a board shows one of them
     */
    static void facts(Evidence.Topology m, Target t, java.util.Set<Integer> fullLinks, Facts out) {
        List<Evidence.Device> d = m.devices();
        int n = d.size();
        int max = 0;
        boolean all = true;
        // each GPU's own links: the most it shows to any other GPU; and the fewest
        int[] most = new int[n], fewest = new int[n];
        java.util.Arrays.fill(fewest, Integer.MAX_VALUE);
        for (int i = 0; i < n; i++) {
            if (!d.get(i).gpu()) continue;
            for (int j = 0; j < n; j++) {
                if (j == i || !d.get(j).gpu()) continue;
                int links = nvlinks(m.cell(i, j).text());
                most[i] = Math.max(most[i], links);
                fewest[i] = Math.min(fewest[i], links);
                if (j > i) {
                    max = Math.max(max, links);
                    if (links == 0) all = false;
                }
            }
        }
        // the fewest links any GPU shows as its own (its most to another GPU)
        int minLinks = Integer.MAX_VALUE;
        for (int i = 0; i < n; i++) if (d.get(i).gpu()) minLinks = Math.min(minLinks, most[i]);
        if (minLinks == Integer.MAX_VALUE) minLinks = 0;
        boolean full = fullLinks.contains(max);
        int index = 0;
        for (int i = 0; i < n; i++) {
            if (!d.get(i).gpu()) continue;
            List<String> cells = new ArrayList<>();
            for (int j = 0; j < n; j++) if (j != i && d.get(j).gpu()) cells.add(d.get(j).name() + " " + m.cell(i, j).text());
            out.add(new TopoGpuFact(m.file(), d.get(i).name(), index++, d.get(i).span(), most[i], cells.isEmpty() ? 0 : fewest[i], cells,
                    cells.size(), t.linked(), t.cluster(), t.group(), t.nvswitch(), t.gpuModel(), t.expectedLinks(), max, minLinks, all,
                    full, t.nvlinkSpan()));
        }
        for (int i = 0; i < n; i++) {
            if (!d.get(i).gpu()) continue;
            for (int j = i + 1; j < n; j++) {
                if (!d.get(j).gpu()) continue;
                Evidence.Word c = m.cell(i, j);
                out.add(new TopoPairFact(m.file(), d.get(i).name(), d.get(j).name(), c.text(), nvlinks(c.text()), c.span(), most[i],
                        most[j], t.linked(), t.cluster(), t.group(), t.nvswitch(), t.gpuModel(), t.expectedLinks(), max, all,
                        full, t.nvlinkSpan()));
            }
            int best = -1, bestDistance = Integer.MAX_VALUE, nics = 0;
            for (int j = 0; j < n; j++) {
                if (d.get(j).gpu()) continue;
                nics++;
                Integer dist = DISTANCE.get(m.cell(i, j).text());
                if (dist != null && dist < bestDistance) {
                    best = j;
                    bestDistance = dist;
                }
            }
            if (best < 0) continue;
            String label = d.get(best).name();
            out.add(new TopoNicFact(m.file(), d.get(i).name(), label, m.nicNames().getOrDefault(label, label), m.cell(i, best).text(),
                    TopoPath.of(m.cell(i, best).text()),
                    m.cell(i, best).span(), nics, t.linked(), t.cluster(), t.group(), t.railOptimized(), t.gdr(), t.gdrSpan()));
        }
    }
}
