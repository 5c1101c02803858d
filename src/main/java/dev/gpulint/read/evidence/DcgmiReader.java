package dev.gpulint.read.evidence;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * DCGM's command line, dcgmi (docs/evidence.md):
 * <ul>
 * <li>{@code dcgmi nvlink --link-status} (or {@code -s}): a "NvLink Link Status" box, {@code GPUs:}, then per GPU a
 * {@code gpuId 0:} line and under it the links' states in link order, {@code U} (up), {@code D} (down), {@code X}
 * (disabled) or {@code _} (not supported); then {@code NvSwitches:} with a {@code physicalId 8:} line and its ports'
 * states per switch, or "No NvSwitches found.".</li>
 * <li>{@code dcgmi diag -r 1|2|3|4}: the result table, a row {@code | Diagnostic | Result |}, category rows
 * ({@code |-----  Deployment  ---...}, {@code +-----  Hardware  ---...}), then per test {@code | PCIe | Pass - All |};
 * a test failing on some GPUs has a row per result ({@code | Memory Bandwidth | Fail - GPU: 3 |}, then
 * {@code |  | Pass - GPUs: 0, 1, 2 |}), and {@code | Warning | GPU 3 ... |} (or {@code Info}) rows under a result,
 * wrapped onto rows with an empty name, say why. Metadata rows (DCGM Version, Driver Version Detected) are passed over.
 * The layout of DCGM 2.x and 3.x.</li>
 * </ul>
 */
final class DcgmiReader {
    /** GPUs, switches, links and tests read: a node has 8 GPUs of 18 links and 4 switches of 64 ports. */
    static final int MAX_ITEMS = 65_536;
    static final Pattern GPU_ID = Pattern.compile("^\\s*gpuId (\\d{1,4}):\\s*$");
    private static final Pattern SWITCH_ID = Pattern.compile("^\\s*physicalId (\\d{1,6}):\\s*$");
    static final Pattern STATES = Pattern.compile("^\\s*[UDX_](?:\\s+[UDX_]){0,255}\\s*$");
    static final Pattern DIAG_HEADER = Pattern.compile("^\\s*\\|\\s*Diagnostic\\s*\\|\\s*Result\\s*\\|");
    private static final Pattern CATEGORY = Pattern.compile("^\\s*[|+]-{3,}\\s+([A-Za-z][A-Za-z ]{0,40}?)\\s+-+\\+");
    private static final Pattern ROW = Pattern.compile("^\\s*\\|(.*?)\\|(.*)\\|\\s*$");
    private static final Pattern RESULT = Pattern.compile("^(Pass|Fail|Skip|Warn)\\b(?:\\s*-\\s*(.*))?$");

    private DcgmiReader() {}

    static Evidence.DcgmNvlinkStatus nvlink(String file, List<String> lines) {
        List<Evidence.NvlinkGpu> gpus = new ArrayList<>(), switches = new ArrayList<>();
        List<Evidence.NvlinkGpu> into = gpus;
        java.util.Set<dev.gpulint.core.Span> disabled = new java.util.HashSet<>();
        int index = -1, items = 0;
        dev.gpulint.core.Span at = null;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.strip().equals("GPUs:")) { into = gpus; index = -1; continue; }
            if (l.strip().equals("NvSwitches:")) { into = switches; index = -1; continue; }
            Matcher g = (into == gpus ? GPU_ID : SWITCH_ID).matcher(l);
            if (g.matches()) {
                index = Integer.parseInt(g.group(1));
                at = Text.lineSpan(file, i + 1, l);
                continue;
            }
            if (index < 0 || !STATES.matcher(l).matches()) continue;
            List<Evidence.NvlinkLink> links = new ArrayList<>();
            List<Text.Token> tokens = Text.tokens(l);
            for (int k = 0; k < tokens.size(); k++) {
                Text.Token t = tokens.get(k);
                if (t.text().equals("_")) continue;
                dev.gpulint.core.Span span = Text.span(file, i + 1, t.column(), 1);
                if (t.text().equals("X")) disabled.add(span);
                links.add(new Evidence.NvlinkLink(k, 0, !t.text().equals("U"), span));
            }
            items += links.size() + 1;
            if (items > MAX_ITEMS) throw new Unreadable(Text.span(file, i + 1, 1, 0), "more than " + MAX_ITEMS + " GPUs, switches and links");
            into.add(new Evidence.NvlinkGpu(index, into == gpus ? "" : "NVSwitch", at, List.copyOf(links)));
            index = -1;
        }
        return new Evidence.DcgmNvlinkStatus(file, List.copyOf(gpus), List.copyOf(switches), java.util.Set.copyOf(disabled));
    }

    static Evidence.DcgmDiag diag(String file, List<String> lines) {
        List<Evidence.DiagTest> tests = new ArrayList<>();
        String category = "", name = null;
        boolean table = false, inReason = false;
        StringBuilder reason = new StringBuilder();
        int reasonOf = -1;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            if (!table) {
                table = DIAG_HEADER.matcher(l).find();
                continue;
            }
            Matcher c = CATEGORY.matcher(l);
            if (c.find()) {
                category = c.group(1).strip();
                continue;
            }
            Matcher r = ROW.matcher(l);
            if (!r.matches()) continue;
            String key = r.group(1).strip(), value = r.group(2).strip();
            Matcher res = RESULT.matcher(value);
            boolean result = res.matches();
            if (key.equals("Warning") || key.equals("Info") || key.isEmpty() && inReason && !result) {
                if (reasonOf >= 0) {
                    if (reason.length() > 0) reason.append(key.isEmpty() ? " " : "; ");
                    reason.append(value);
                    Evidence.DiagTest t = tests.get(reasonOf);
                    tests.set(reasonOf, new Evidence.DiagTest(t.category(), t.name(), t.result(), t.gpus(), reason.toString(), t.span()));
                }
                inReason = true;
                continue;
            }
            if (!result) {
                inReason = false;
                if (!key.isEmpty()) name = null;   // a metadata row (DCGM Version ...)
                continue;
            }
            if (!key.isEmpty()) name = key;
            if (name == null) continue;
            if (tests.size() >= MAX_ITEMS) throw new Unreadable(Text.span(file, i + 1, 1, 0), "more than " + MAX_ITEMS + " results");
            int col = l.indexOf(value, l.indexOf('|', l.indexOf('|') + 1)) + 1;
            tests.add(new Evidence.DiagTest(category, name, new Evidence.Word(res.group(1), Text.span(file, i + 1, col, res.group(1).length())),
                    res.group(2) == null ? "" : res.group(2).strip(), "", Text.lineSpan(file, i + 1, l)));
            reasonOf = tests.size() - 1;
            reason.setLength(0);
            inReason = false;
        }
        return new Evidence.DcgmDiag(file, List.copyOf(tests));
    }
}
