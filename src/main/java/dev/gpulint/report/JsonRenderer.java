package dev.gpulint.report;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Level;

import dev.gpulint.core.LintResult;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.core.Span;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A plain JSON report for scripts: one object per finding, and a summary. */
public final class JsonRenderer implements Renderer {
    private final RuleCatalog rules;
    private final String version;

    public JsonRenderer(RuleCatalog rules, String version) {
        this.rules = rules;
        this.version = version;
    }

    @Override
    public void render(LintResult result, Writer out) throws IOException {
        result = ReportPaths.stable(result);     // the same bytes from any working directory
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("tool", "gpulint");
        root.put("version", version);
        List<Object> findings = new ArrayList<>();
        for (Finding f : result.findings()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("ruleId", f.ruleId());
            m.put("ruleName", rules.get(f.ruleId()).map(r -> r.name()).orElse(f.ruleId()));
            m.put("level", f.level().id());
            m.put("message", f.message());
            m.put("location", location(f.span()));
            List<Object> related = new ArrayList<>();
            for (Finding.Related r : f.related()) {
                Map<String, Object> rm = location(r.span());
                rm.put("message", r.message());
                related.add(rm);
            }
            m.put("related", related);
            m.put("fingerprint", result.fingerprint(f));
            if (f.suppressed()) m.put("suppressed", f.suppression());
            m.put("fixes", fixes(f));
            findings.add(m);
        }
        root.put("findings", findings);
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("errors", result.count(Level.ERROR));
        summary.put("warnings", result.count(Level.WARNING));
        summary.put("notes", result.count(Level.NOTE));
        summary.put("suppressed", result.suppressedCount());
        summary.put("files", result.reportedFiles().size());
        summary.put("inputFailed", result.inputFailed());
        root.put("summary", summary);
        JsonOut.write(root, out);
    }

    /** A finding's fixes: title, safety ("safe" or "unsafe") and edits (place, code-point offsets, replacement). */
    static List<Object> fixes(Finding f) {
        List<Object> out = new ArrayList<>();
        for (dev.gpulint.core.Fix x : f.fixes()) {
            Map<String, Object> fm = new LinkedHashMap<>();
            fm.put("title", x.title());
            fm.put("safety", x.safety().id());
            List<Object> edits = new ArrayList<>();
            for (dev.gpulint.core.TextEdit e : x.edits()) {
                Map<String, Object> em = location(e.span());
                em.put("startOffset", e.startOffset());
                em.put("endOffset", e.endOffset());
                em.put("replacement", e.replacement());
                edits.add(em);
            }
            fm.put("edits", edits);
            out.add(fm);
        }
        return out;
    }

    static Map<String, Object> location(Span s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("file", s.file());
        m.put("startLine", s.startLine());
        m.put("startColumn", s.startColumn());
        m.put("endLine", s.endLine());
        m.put("endColumn", s.endColumn());
        return m;
    }
}
