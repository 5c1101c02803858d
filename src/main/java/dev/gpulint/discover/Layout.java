package dev.gpulint.discover;

import dev.gpulint.read.evidence.Evidence;
import java.util.List;

/**
 * The NVLink layout of an nvidia-smi topo -m matrix's GPUs: how many, whether every pair shows NV#
 * and with how many links (the most any pair shows), whether each GPU has exactly one NVLink peer
 * (bridged pairs), and the PCIe path between GPUs when no NVLink joins them.
 */
record Layout(int gpus, boolean allPairs, int links, boolean pairsOnly, String path, Evidence.Device first) {

    static Layout of(Evidence.Topology t) {
        List<Evidence.Device> d = t.devices();
        int n = 0, max = 0;
        boolean all = true, pairs = true;
        String path = "";
        for (int i = 0; i < d.size(); i++) {
            if (!d.get(i).gpu()) continue;
            n++;
            int peers = 0;
            for (int j = 0; j < d.size(); j++) {
                if (j == i || !d.get(j).gpu()) continue;
                String c = t.cell(i, j).text();
                int links = nv(c);
                if (links > 0) peers++;
                else {
                    all = false;
                    if (path.isEmpty()) path = c;
                }
                max = Math.max(max, links);
            }
            if (peers != 1) pairs = false;
        }
        Evidence.Device first = d.isEmpty() ? null : d.get(0);
        return new Layout(n, all && max > 0, max, pairs && max > 0 && n >= 2, path, first);
    }

    /** The links of an NV# cell; 0 for any other. */
    static int nv(String cell) {
        if (!cell.startsWith("NV") || cell.length() < 3 || cell.length() > 5) return 0;
        for (int i = 2; i < cell.length(); i++) if (!Character.isDigit(cell.charAt(i))) return 0;
        return Integer.parseInt(cell.substring(2));
    }
}
