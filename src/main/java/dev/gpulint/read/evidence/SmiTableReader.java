package dev.gpulint.read.evidence;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The plain {@code nvidia-smi} summary table, the capture most pasted into issues: the header box
 * ("| NVIDIA-SMI 550.54.15   Driver Version: 550.54.15   CUDA Version: 12.4 |"; drivers before 410 print no CUDA
 * version), then per GPU a row "|   0  NVIDIA H100 80GB HBM3   On  | 00000000:18:00.0 Off | ... |" and under it
 * "| N/A  27C  P0  69W / 700W |  0MiB / 81559MiB |  0%  Default |", then the "Processes:" box, one row per process
 * ("|    0   N/A  N/A   12345   C   python   72450MiB |"; drivers before 450 print no GI/CI columns). The layouts of
 * drivers 331 to 580 are read (the columns' widths changed with 535; a long name is cut to "Tesla P100-PCIE..." by
 * drivers before 535, and that name names no catalog GPU). MIG device boxes are passed over.
 */
final class SmiTableReader {
    /** GPUs and processes read: a node has 8 GPUs and a handful of processes each. */
    static final int MAX_ROWS = 65_536;
    static final Pattern HEADER = Pattern.compile("\\|\\s*NVIDIA-SMI\\s+(\\S{1,32})\\s+Driver Version:\\s*(\\S{1,32})(?:\\s+CUDA Version:\\s*(\\S{1,16}))?");
    private static final Pattern GPU = Pattern.compile("^\\|\\s*(\\d{1,4})\\s+(.{1,80}?)\\s+(On|Off|N/A)\\s*\\|\\s*([0-9A-Fa-f]{4,8}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}\\.[0-9A-Fa-f])\\b.*$");
    private static final Pattern MEMORY = Pattern.compile("(\\d{1,9})MiB\\s*/\\s*(\\d{1,9})MiB");
    private static final Pattern UTIL = Pattern.compile("^\\s*(\\d{1,3})%");
    private static final Pattern PROCESS = Pattern.compile(
            "^\\|\\s*(\\d{1,4})\\s+(?:(?:N/A|\\d{1,4})\\s+(?:N/A|\\d{1,4})\\s+)?(\\d{1,10})\\s+(C\\+G|C|G|M\\+C|M)\\s+(.{1,200}?)\\s+(\\d{1,9}MiB|N/A)\\s*\\|\\s*$");

    private SmiTableReader() {}

    static Evidence.SmiTable read(String file, List<String> lines) {
        Evidence.Word driver = null, cuda = null;
        List<Evidence.SmiGpu> gpus = new ArrayList<>();
        List<Evidence.SmiProcess> processes = new ArrayList<>();
        boolean inProcesses = false;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (driver == null) {
                Matcher h = HEADER.matcher(l);
                if (h.find()) {
                    driver = word(file, i, l, h, 2);
                    cuda = h.group(3) == null ? null : word(file, i, l, h, 3);
                    continue;
                }
            }
            if (l.contains("Processes:")) { inProcesses = true; continue; }
            if (l.contains("MIG devices:")) { inProcesses = false; continue; }
            if (gpus.size() + processes.size() > MAX_ROWS) {
                throw new Unreadable(Text.span(file, i + 1, 1, 0), "more than " + MAX_ROWS + " GPUs and processes");
            }
            if (inProcesses) {
                Matcher p = PROCESS.matcher(l);
                if (p.matches()) {
                    String mem = p.group(5);
                    processes.add(new Evidence.SmiProcess(Integer.parseInt(p.group(1)), Long.parseLong(p.group(2)), p.group(4).strip(),
                            mem.endsWith("MiB") ? Long.parseLong(mem.substring(0, mem.length() - 3)) : -1, Text.lineSpan(file, i + 1, l)));
                }
                continue;
            }
            Matcher g = GPU.matcher(l);
            if (!g.matches()) continue;
            long used = -1, total = -1;
            int util = -1;
            if (i + 1 < lines.size()) {
                String next = lines.get(i + 1);
                Matcher m = MEMORY.matcher(next);
                if (m.find()) {
                    used = Long.parseLong(m.group(1));
                    total = Long.parseLong(m.group(2));
                    int cell = next.indexOf('|', m.end());
                    Matcher u = cell < 0 ? null : UTIL.matcher(next.substring(cell + 1));
                    if (u != null && u.find()) util = Integer.parseInt(u.group(1));
                }
            }
            gpus.add(new Evidence.SmiGpu(Integer.parseInt(g.group(1)), word(file, i, l, g, 2), g.group(4), used, total, util,
                    Text.lineSpan(file, i + 1, l)));
        }
        return new Evidence.SmiTable(file, driver, cuda, List.copyOf(gpus), List.copyOf(processes));
    }

    private static Evidence.Word word(String file, int i, String line, Matcher m, int group) {
        return new Evidence.Word(m.group(group), Text.span(file, i + 1, m.start(group) + 1, m.group(group).length()));
    }
}
