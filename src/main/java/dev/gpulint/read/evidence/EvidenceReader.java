package dev.gpulint.read.evidence;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Level;
import dev.gpulint.core.Span;
import dev.gpulint.read.ReadResult;
import dev.gpulint.read.SourceFile;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Captured tool output in .txt and .log files (docs/evidence.md). A file's kind is decided by its
 * content: the first {@link #SNIFF_CHARS} characters must show one of the tools' signatures, or, for
 * an NCCL_DEBUG=INFO log, any line of the file must be an NCCL debug line. A
 * folder's other .txt and .log files are not gpulint's and are skipped quietly; a file named
 * as evidence (node1.topo-m.txt, run.nccl.log, ...) whose content is no such output gets a SYN006
 * note saying what was expected; one whose content shows a signature but whose structure is broken
 * or too large is a SYN001 finding at the line.
 */
public final class EvidenceReader {
    /** The head of a file its kind is decided from. */
    public static final int SNIFF_CHARS = 64 * 1024;

    private static final Pattern IB_CA = Pattern.compile("(?m)^[ \\t]*CA '[^'\\n]{1,64}'");
    private static final Pattern HCA = Pattern.compile("(?m)^[ \\t]*hca_id:");
    private static final Pattern IB_STATUS = Pattern.compile("(?m)^[ \\t]*Infiniband device '[^'\\n]{1,64}' port \\d{1,3} status:");
    private static final Pattern SMI_Q = Pattern.compile("(?m)^[ \\t]*(=+NVSMI LOG=+|Attached GPUs[ \\t]*:)");
    private static final Pattern SMI_TABLE = Pattern.compile("(?m)^[ \\t]*\\|\\s*NVIDIA-SMI\\s+\\S{1,32}\\s+Driver Version:");

    private EvidenceReader() {}

    /** .txt and .log files: gpulint's only when their content is evidence. */
    public static boolean sniffedByContent(String fileName) {
        String n = fileName.toLowerCase(Locale.ROOT);
        return n.endsWith(".txt") || n.endsWith(".log");
    }

    /** The evidence kind a file's name promises by the naming convention of docs/evidence.md. */
    public static Optional<Evidence.Kind> named(String fileName) {
        String n = fileName.toLowerCase(Locale.ROOT);
        if (!sniffedByContent(n)) return Optional.empty();
        n = n.substring(0, n.length() - 4);
        if (n.endsWith(".topo-m")) return Optional.of(Evidence.Kind.TOPOLOGY);
        if (n.endsWith(".nvlink-s")) return Optional.of(Evidence.Kind.NVLINK);
        if (n.endsWith(".smi-q")) return Optional.of(Evidence.Kind.SMI_QUERY);
        if (n.endsWith(".nvidia-smi") || n.endsWith(".smi")) return Optional.of(Evidence.Kind.SMI_TABLE);
        if (n.endsWith(".ibstat")) return Optional.of(Evidence.Kind.IBSTAT);
        if (n.endsWith(".ibv-devinfo") || n.endsWith(".ibv_devinfo")) return Optional.of(Evidence.Kind.IBV_DEVINFO);
        if (n.endsWith(".ibstatus")) return Optional.of(Evidence.Kind.IBSTATUS);
        if (n.endsWith(".dcgmi-nvlink") || n.endsWith(".dcgmi-nvlink-s")) return Optional.of(Evidence.Kind.DCGMI_NVLINK);
        if (n.endsWith(".dcgmi-diag")) return Optional.of(Evidence.Kind.DCGMI_DIAG);
        if (n.endsWith("_perf") || n.endsWith(".nccl-tests")) return Optional.of(Evidence.Kind.NCCL_TESTS);
        if (n.endsWith(".nccl")) return Optional.of(Evidence.Kind.NCCL_LOG);
        if (n.endsWith(".train") || n.endsWith(".training")) return Optional.of(Evidence.Kind.TRAINING_LOG);
        if (n.endsWith(".dmon")) return Optional.of(Evidence.Kind.SMI_DMON);
        if (n.endsWith(".query-gpu")) return Optional.of(Evidence.Kind.SMI_CSV);
        if (n.endsWith(".dcgm") || n.endsWith(".dcgm-exporter")) return Optional.of(Evidence.Kind.DCGM_METRICS);
        return Optional.empty();
    }

    /** The kind of evidence the head of a file shows, if any. */
    public static Optional<Evidence.Kind> sniff(String text) {
        String head = text.length() > SNIFF_CHARS ? text.substring(0, SNIFF_CHARS) : text;
        List<String> lines = Text.lines(head);
        boolean gpuLine = false;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (NcclTestsReader.isHeader(l)) return Optional.of(Evidence.Kind.NCCL_TESTS);
            Evidence.Kind dcgmi = Sections.dcgmi(lines, i);
            if (dcgmi != null) return Optional.of(dcgmi);
            Evidence.Kind telemetry = TelemetryReader.startsAt(lines, i);
            if (telemetry != null) return Optional.of(telemetry);
            if (TopologyReader.isHeader(Text.tokens(l)) && l.contains("Affinity")) return Optional.of(Evidence.Kind.TOPOLOGY);
            if (SmiReader.GPU.matcher(l).matches()) gpuLine = true;
            else if (gpuLine && SmiReader.LINK.matcher(l).matches()) return Optional.of(Evidence.Kind.NVLINK);
        }
        if (IB_CA.matcher(head).find()) return Optional.of(Evidence.Kind.IBSTAT);
        if (IB_STATUS.matcher(head).find()) return Optional.of(Evidence.Kind.IBSTATUS);
        if (HCA.matcher(head).find()) return Optional.of(Evidence.Kind.IBV_DEVINFO);
        if (SMI_Q.matcher(head).find()) return Optional.of(Evidence.Kind.SMI_QUERY);
        if (SMI_TABLE.matcher(head).find()) return Optional.of(Evidence.Kind.SMI_TABLE);
        // a training log's first step line, like its first NCCL line, may come after any amount of the program's output
        if (TrainingLogReader.present(text)) return Optional.of(Evidence.Kind.TRAINING_LOG);
        // a training log's first NCCL line may come after any amount of the program's output: the whole text is looked
        // through (bounded by the maximum file size it was read with), one line at a time
        return hasLogLine(text) ? Optional.of(Evidence.Kind.NCCL_LOG) : Optional.empty();
    }

    /** Some line of the text is an NCCL debug line; linear in the text's length. */
    static boolean hasLogLine(String text) {
        int from = 0, n = text.length();
        while (from < n) {
            int end = text.indexOf('\n', from);
            if (end < 0) end = n;
            int i = text.indexOf("NCCL ", from);
            if (i < 0) return false;
            if (i >= end) {
                // no candidate on this line: skip to the line holding the next "NCCL "
                int start = text.lastIndexOf('\n', i);
                from = start < 0 ? 0 : start + 1;
                continue;
            }
            String line = text.substring(from, end);
            if (NcclLogReader.isLogLine(line.endsWith("\r") ? line.substring(0, line.length() - 1) : line)) return true;
            from = end + 1;
        }
        return false;
    }

    /** Reads one .txt or .log file: its evidence, or why it holds none. */
    public static ReadResult read(SourceFile f) {
        String file = f.displayPath();
        Optional<Evidence.Kind> kind = sniff(f.text());
        Optional<Evidence.Kind> promised = named(file);
        if (kind.isEmpty()) {
            String why = promised.map(k -> "'" + file + "' is named as " + k.tool() + " output but does not look like it: expected "
                    + k.shape() + "; gpulint skipped it").orElse("'" + file + "' holds no tool output gpulint reads (nvidia-smi topo -m, nvlink -s, -q, "
                    + "dmon, --query-gpu CSV or its table; ibstat, ibstatus, ibv_devinfo; dcgmi nvlink --link-status or diag; dcgm-exporter "
                    + "metrics; nccl-tests; an NCCL_DEBUG=INFO log; a training log), so it was skipped");
            return new ReadResult(f, List.of(), List.of(new Finding("SYN006", Level.NOTE, Span.at(file, 1, 1), why, List.of(),
                    "format")), false);
        }
        List<String> lines = Text.lines(f.text());
        List<Evidence> out = new ArrayList<>();
        List<Finding> problems = new ArrayList<>();
        List<Sections.Section> sections;
        try {
            sections = Sections.of(file, lines);
        } catch (Unreadable e) {
            return new ReadResult(f, List.of(), List.of(Finding.of("SYN001", e.span, "syntax", "'" + file
                    + "' could not be read: " + e.getMessage())), true);
        }
        for (Sections.Section s : sections) {
            Evidence.Kind k = s.kind();
            List<String> part = sections.size() == 1 ? lines : s.lines(lines);
            try {
                Evidence e = switch (k) {
                    case TOPOLOGY -> TopologyReader.read(file, part);
                    case NVLINK -> SmiReader.nvlink(file, part);
                    case SMI_QUERY -> SmiReader.query(file, part);
                    case SMI_TABLE -> SmiTableReader.read(file, part);
                    case IBSTAT, IBV_DEVINFO, IBSTATUS -> IbReader.read(file, part, k);
                    case DCGMI_NVLINK -> DcgmiReader.nvlink(file, part);
                    case DCGMI_DIAG -> DcgmiReader.diag(file, part);
                    case NCCL_TESTS -> NcclTestsReader.read(file, part);
                    case NCCL_LOG -> NcclLogReader.read(file, part);
                    case SMI_DMON -> TelemetryReader.dmon(file, part);
                    case SMI_CSV -> TelemetryReader.csv(file, part);
                    case DCGM_METRICS -> TelemetryReader.dcgm(file, part);
                    // a training log's steps are read across the whole file below, never as a section
                    case TRAINING_LOG -> throw new IllegalStateException("a training log is not a section");
                };
                if (empty(e)) problems.add(nothingRead(file, s.start() + 1, k));
                else out.add(e);
            } catch (Unreadable e) {
                problems.add(Finding.of("SYN001", e.span, "syntax", "'" + file + "' looks like " + k.tool()
                        + " output but could not be read: " + e.getMessage() + "; expected " + k.shape()));
            }
        }
        // a training run's step lines, wherever they are among the program's output (and its NCCL lines)
        if (kind.get() == Evidence.Kind.TRAINING_LOG || lines.stream().anyMatch(l -> TrainingLogReader.stepLine(l) != null)) {
            try {
                Evidence.TrainingLog log = TrainingLogReader.read(file, lines);
                if (log != null) out.add(log);
                else if (sections.isEmpty()) problems.add(nothingRead(file, 1, Evidence.Kind.TRAINING_LOG));
            } catch (Unreadable e) {
                problems.add(Finding.of("SYN001", e.span, "syntax", "'" + file + "' looks like a training log but could not be read: "
                        + e.getMessage() + "; expected " + Evidence.Kind.TRAINING_LOG.shape()));
            }
        }
        // NCCL's debug lines, alone or among an nccl-tests run's lines
        if (kind.get() == Evidence.Kind.NCCL_LOG || lines.stream().anyMatch(NcclLogReader::isLogLine)) {
            Evidence.NcclLog log = NcclLogReader.read(file, lines);
            if (!empty(log)) out.add(log);
            else if (sections.isEmpty() && kind.get() == Evidence.Kind.NCCL_LOG) problems.add(nothingRead(file, 1, Evidence.Kind.NCCL_LOG));
        }
        return new ReadResult(f, List.of(), problems, !out.isEmpty() || problems.stream().anyMatch(p -> p.ruleId().equals("SYN001")),
                List.of(), out);
    }

    /** The output was recognised, but nothing gpulint checks was found in it. */
    static boolean empty(Evidence e) {
        if (e instanceof Evidence.Topology t) return t.devices().isEmpty();
        if (e instanceof Evidence.NvlinkStatus s) return s.gpus().isEmpty();
        if (e instanceof Evidence.SmiQuery q) return q.attached() < 0 && q.productNames().isEmpty();
        if (e instanceof Evidence.SmiTable t) return t.gpus().isEmpty();
        if (e instanceof Evidence.IbPorts p) return p.ports().isEmpty();
        if (e instanceof Evidence.NcclTests n) return n.rows().isEmpty() && n.ranks().isEmpty() && n.avgBusbw() < 0;
        if (e instanceof Evidence.TrainingLog t) return t.steps().isEmpty();
        if (e instanceof Evidence.GpuSamples g) return g.samples().isEmpty();
        if (e instanceof Evidence.DcgmNvlinkStatus d) return d.gpus().isEmpty() && d.switches().isEmpty();
        if (e instanceof Evidence.DcgmDiag d) return d.tests().isEmpty();
        Evidence.NcclLog l = (Evidence.NcclLog) e;
        return l.lines().isEmpty() && l.counts().isEmpty() && l.maxNodes() < 0;
    }

    /**
     * SYN006 for a capture whose head showed a tool's signature but from which nothing was read: saying nothing
     * would count it as linted and tell the user it passed.
     */
    private static Finding nothingRead(String file, int line, Evidence.Kind k) {
        return new Finding("SYN006", Level.NOTE, Span.at(file, line, 1), "'" + file + "' looks like " + k.tool()
                + " output from line " + line + " on, but gpulint found nothing in it to check: expected " + k.shape()
                + "; it was skipped", List.of(), "format");
    }
}
