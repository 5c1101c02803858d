package dev.gpulint.read.evidence;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The tools' outputs one capture holds, in order: a node's report pasted into one .txt often has
 * nvidia-smi topo -m, then ibstat, then an nccl-tests run. A section starts at its tool's signature
 * line (the matrix's header row, "CA 'mlx5_0'", "hca_id:", "# nThread", "GPU 0: ..." followed by a
 * "Link 0:" line, "==NVSMI LOG==" or "Attached GPUs", "| NVIDIA-SMI ... Driver Version:") and ends where the next one starts; the
 * shell prompt and command lines just before a section belong to it. Adapters of one ibstat or
 * ibv_devinfo, and GPUs of one nvlink -s, are one section. NCCL's debug lines are not a section:
 * they interleave with an nccl-tests run, and the NCCL log reader reads them wherever they are.
 * Each section is read with its lines only (the others blanked, so lines keep their numbers).
 */
final class Sections {
    /** Sections read from one file; a node report holds a handful. */
    static final int MAX_SECTIONS = 64;
    private static final Pattern IB_CA = Pattern.compile("^\\s*CA '[^'\\n]{1,64}'");
    private static final Pattern HCA = Pattern.compile("^\\s*hca_id:");
    private static final Pattern SMI_Q = Pattern.compile("^\\s*(=+NVSMI LOG=+|Attached GPUs\\s*:)");
    /** A shell prompt or command line that may precede a tool's output (it names the tool and its arguments). */
    private static final Pattern COMMAND = Pattern.compile(
            "^\\s*(\\S{0,64}[$#>]\\s|\\$\\s|sudo\\s|mpirun\\s|srun\\s|nvidia-smi\\b|[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]\\d \\d\\d:\\d\\d:\\d\\d \\d{4}|ibstat\\b|ibstatus\\b|ibv_devinfo\\b|dcgmi\\b|#?\\s*Collective test starting|#?\\s*nccl-tests version)");

    private Sections() {}

    /** One tool's output: its kind and its lines [start, end), 0-based. */
    record Section(Evidence.Kind kind, int start, int end) {
        /** The file's lines with every line outside this section blank. */
        List<String> lines(List<String> all) {
            List<String> out = new ArrayList<>(Collections.nCopies(all.size(), ""));
            for (int i = start; i < end; i++) out.set(i, all.get(i));
            return out;
        }
    }

    /** The kind of tool output whose first line this is, or null. */
    static Evidence.Kind startsAt(List<String> lines, int i) {
        String l = lines.get(i);
        if (l.contains("nThread") && NcclTestsReader.isHeader(l)) return Evidence.Kind.NCCL_TESTS;
        if (l.contains("GPU0") && l.contains("Affinity") && TopologyReader.isHeader(Text.tokens(l))) return Evidence.Kind.TOPOLOGY;
        if (l.contains("CA '") && IB_CA.matcher(l).find()) return Evidence.Kind.IBSTAT;
        if (l.contains("hca_id") && HCA.matcher(l).find()) return Evidence.Kind.IBV_DEVINFO;
        if (l.contains("Infiniband device") && IbReader.IBSTATUS.matcher(l).find()) return Evidence.Kind.IBSTATUS;
        if (l.contains("NVSMI LOG") || l.contains("Attached GPUs")) return SMI_Q.matcher(l).find() ? Evidence.Kind.SMI_QUERY : null;
        if (l.contains("NVIDIA-SMI") && l.contains("Driver Version") && SmiTableReader.HEADER.matcher(l).find()) {
            return Evidence.Kind.SMI_TABLE;
        }
        if (l.startsWith("GPU ") && SmiReader.GPU.matcher(l).matches() && i + 1 < lines.size()
                && SmiReader.LINK.matcher(lines.get(i + 1)).matches()) return Evidence.Kind.NVLINK;
        Evidence.Kind dcgmi = dcgmi(lines, i);
        return dcgmi != null ? dcgmi : TelemetryReader.startsAt(lines, i);
    }

    /** dcgmi's outputs: the NvLink Link Status box or a "gpuId n:" line over a line of link states, or the diag table's header. */
    static Evidence.Kind dcgmi(List<String> lines, int i) {
        String l = lines.get(i);
        if (l.contains("NvLink Link Status")) return Evidence.Kind.DCGMI_NVLINK;
        if (l.contains("gpuId") && DcgmiReader.GPU_ID.matcher(l).matches() && i + 1 < lines.size()
                && DcgmiReader.STATES.matcher(lines.get(i + 1)).matches()) return Evidence.Kind.DCGMI_NVLINK;
        if (l.contains("Diagnostic") && DcgmiReader.DIAG_HEADER.matcher(l).find()) return Evidence.Kind.DCGMI_DIAG;
        return null;
    }

    /**
     * The file's sections, in order; none when no tool's signature shows. Linear in the lines.
     *
     * @throws Unreadable past {@link #MAX_SECTIONS}
     */
    static List<Section> of(String file, List<String> lines) {
        List<Evidence.Kind> kinds = new ArrayList<>();
        List<Integer> starts = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Evidence.Kind k = startsAt(lines, i);
            if (k == null) continue;
            Evidence.Kind last = kinds.isEmpty() ? null : kinds.get(kinds.size() - 1);
            // the next adapter of an ibstat, the next GPU of an nvlink -s, the smi -q's GPUs: the same output goes on
            if (k == last && k != Evidence.Kind.NCCL_TESTS && k != Evidence.Kind.TOPOLOGY) continue;
            if (kinds.size() >= MAX_SECTIONS) throw new Unreadable(Text.span(file, i + 1, 1, 0),
                    "more than " + MAX_SECTIONS + " tool outputs in one file");
            int s = i;
            int floor = starts.isEmpty() ? 0 : starts.get(starts.size() - 1) + 1;
            while (s > floor && s > i - 3 && COMMAND.matcher(lines.get(s - 1)).find()) s--;
            kinds.add(k);
            starts.add(s);
        }
        List<Section> out = new ArrayList<>();
        for (int k = 0; k < kinds.size(); k++) {
            out.add(new Section(kinds.get(k), k == 0 ? 0 : starts.get(k), k + 1 < kinds.size() ? starts.get(k + 1) : lines.size()));
        }
        return out;
    }
}
