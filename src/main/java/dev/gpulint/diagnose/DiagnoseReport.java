package dev.gpulint.diagnose;

import dev.gpulint.derive.estimate.MeasuredLinks;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A {@link Diagnosis} as text (the path drawn as the study note draws it, each step marked), as JSON (docs/diagnose.md's
 * contract: seconds, fractions, "file:line") and as markdown for an incident ticket. Same bytes for the same diagnosis.
 */
public final class DiagnoseReport {
    private DiagnoseReport() {}

    /** The line that opens a diagnosis of a job of which no capture was read ({@link Diagnosis#nothingCaptured}). */
    public static final String NOTHING_CAPTURED_HEAD = "nothing captured";
    public static final String NOTHING_CAPTURED = "no training log and no capture of the job's nodes (nvidia-smi, dcgm-exporter, NCCL log,"
            + " nccl-tests, ibstat) among the paths, so nothing was diagnosed: the path below is the estimate's alone. Capture what"
            + " the list at the end names, put the files beside the manifests (docs/evidence.md) and run diagnose again";

    /** The text report, or with {@code markdown} the incident ticket's. */
    public static String text(Diagnosis d, boolean markdown) {
        StringBuilder s = new StringBuilder();
        String head = "Diagnosis of job " + d.job() + " (" + d.gpus() + " × " + d.gpu() + ")";
        if (markdown) s.append("### ").append(head).append("\n\n");
        else s.append(head).append('\n');
        if (d.nothingCaptured()) {
            if (markdown) s.append("> **").append(NOTHING_CAPTURED_HEAD).append("**: ").append(NOTHING_CAPTURED).append("\n\n");
            else s.append("  ").append(NOTHING_CAPTURED_HEAD).append(": ").append(NOTHING_CAPTURED).append('\n');
        }
        String measured = d.measured() == null ? "not given (no training log)"
                : String.format(Locale.ROOT, "step %s, MFU %.1f %%%s (%s, median of %d steps%s)", Diagnoser.secs(d.measured().stepSeconds()),
                100 * d.measured().mfu(), d.measured().mfuStated() ? "" : " (from the step)", Diagnoser.at(d.measured().where()),
                d.measured().steps(), d.measured().framework().isEmpty() ? "" : ", " + d.measured().framework());
        Diagnosis.Expected e = d.expected();
        String expected = String.format(Locale.ROOT, "step %s, MFU %.1f %% on the catalog's links", Diagnoser.secs(e.catalogStep()), 100 * e.catalogMfu());
        if (!e.changes().isEmpty()) expected += String.format(Locale.ROOT, "; step %s, MFU %.1f %% on the links as measured",
                Diagnoser.secs(e.measuredStep()), 100 * e.measuredMfu());
        if (markdown) {
            s.append("| | |\n|---|---|\n| **Measured** | ").append(cell(measured)).append(" |\n| **Expected** | ").append(cell(expected)).append(" |\n");
            for (Diagnosis.Priced p : e.changes()) s.append("| measured link | ").append(cell(change(p))).append(" |\n");
            s.append("\n#### The path\n\n| Step | Verdict | Finding | Evidence |\n|---|---|---|---|\n");
            for (Diagnosis.Step st : d.path()) {
                s.append("| ").append(st.name()).append(" | **").append(st.verdict().word()).append("** | ").append(cell(st.finding()))
                        .append(st.rules().isEmpty() ? "" : " (" + String.join(", ", st.rules()) + ")").append(" | ")
                        .append(st.where() == null ? "" : "`" + Diagnoser.at(st.where()) + "`").append(" |\n");
            }
            s.append("\n#### Attribution\n\n").append(d.attribution().text()).append('\n');
            if (!d.captures().isEmpty()) {
                s.append("\n#### To capture next\n\n");
                for (String c : d.captures()) s.append("- ").append(c).append('\n');
            }
            return s.toString();
        }
        s.append("  measured  ").append(measured).append('\n');
        s.append("  expected  ").append(expected).append('\n');
        for (Diagnosis.Priced p : e.changes()) s.append("            ").append(change(p)).append('\n');
        s.append('\n');
        int width = 0;
        for (Diagnosis.Step st : d.path()) width = Math.max(width, st.name().length());
        for (int i = 0; i < d.path().size(); i++) {
            Diagnosis.Step st = d.path().get(i);
            String mark = "[" + st.verdict().word() + "]";
            s.append(String.format(Locale.ROOT, "  %-" + width + "s  %-15s %s", st.name(), mark, st.finding()));
            if (!st.rules().isEmpty()) s.append(" (").append(String.join(", ", st.rules())).append(')');
            if (st.where() != null) s.append("  ").append(Diagnoser.at(st.where()));
            s.append('\n');
            if (i < d.path().size() - 1) s.append("      │\n      ▼\n");
        }
        s.append('\n').append("Attribution: ").append(d.attribution().text()).append('\n');
        if (!d.captures().isEmpty()) {
            s.append("\nTo capture next:\n");
            for (String c : d.captures()) s.append("  - ").append(c).append('\n');
        }
        return s.toString();
    }

    private static String change(Diagnosis.Priced p) {
        MeasuredLinks.Change c = p.change();
        return String.format(Locale.ROOT, "%s: %s instead of %s%s → step %s alone", c.tier().id(), c.measured(), c.catalog(),
                c.where() == null ? "" : " (" + Diagnoser.at(c.where()) + ")", Diagnoser.secs(p.stepSeconds()));
    }

    private static String cell(String t) {
        return t.replace("|", "\\|").replace("\n", " ");
    }

    /** docs/diagnose.md's JSON document. */
    public static Map<String, Object> json(Diagnosis d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("job", d.job());
        m.put("gpu", d.gpu());
        m.put("gpus", d.gpus());
        m.put("verdict", d.verdict());
        if (d.measured() == null) m.put("measured", null);
        else {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("step_s", d.measured().stepSeconds());
            x.put("mfu", d.measured().mfu());
            x.put("mfu_stated", d.measured().mfuStated());
            x.put("steps", d.measured().steps());
            x.put("framework", d.measured().framework());
            x.put("evidence", Diagnoser.at(d.measured().where()));
            m.put("measured", x);
        }
        Map<String, Object> e = new LinkedHashMap<>();
        Map<String, Object> cat = new LinkedHashMap<>();
        cat.put("step_s", d.expected().catalogStep());
        cat.put("mfu", d.expected().catalogMfu());
        e.put("catalog", cat);
        Map<String, Object> ml = new LinkedHashMap<>();
        ml.put("step_s", d.expected().measuredStep());
        ml.put("mfu", d.expected().measuredMfu());
        List<Object> changes = new ArrayList<>();
        for (Diagnosis.Priced p : d.expected().changes()) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("id", p.change().id());
            c.put("tier", p.change().tier().id());
            c.put("catalog", p.change().catalog());
            c.put("measured", p.change().measured());
            c.put("evidence", p.change().where() == null ? null : Diagnoser.at(p.change().where()));
            c.put("step_s", p.stepSeconds());
            changes.add(c);
        }
        ml.put("changes", changes);
        e.put("measured_links", ml);
        m.put("expected", e);
        List<Object> path = new ArrayList<>();
        for (Diagnosis.Step st : d.path()) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("step", st.id());
            p.put("name", st.name());
            p.put("verdict", st.verdict().id());
            p.put("finding", st.finding());
            p.put("evidence", st.where() == null ? null : Diagnoser.at(st.where()));
            p.put("rules", st.rules());
            p.put("capture", st.capture().isEmpty() ? null : st.capture());
            path.add(p);
        }
        m.put("path", path);
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("cause", d.attribution().cause());
        a.put("explained_s", d.attribution().explained());
        a.put("gap_s", d.attribution().gap());
        a.put("text", d.attribution().text());
        a.put("found", d.attribution().found());
        m.put("attribution", a);
        m.put("captures", d.captures());
        return m;
    }
}
