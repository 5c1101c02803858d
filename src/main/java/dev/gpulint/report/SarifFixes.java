package dev.gpulint.report;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Fix;
import dev.gpulint.core.ProjectPaths;
import dev.gpulint.core.TextEdit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A result's {@code fixes} (SARIF 2.1.0 §3.55): per fix a description (its title and safety) and, per file it edits,
 * an artifactChange whose replacements give the deleted region by line and column and by character offset and
 * length (code points, as the run's columnKind), with the inserted text. Editors and review bots apply them as
 * {@code gpulint check --fix} would.
 */
final class SarifFixes {
    private SarifFixes() {}

    static List<Object> of(Finding f, ProjectPaths paths) {
        List<Object> out = new ArrayList<>();
        for (Fix x : f.fixes()) {
            Map<String, Object> fix = new LinkedHashMap<>();
            fix.put("description", Map.of("text", Finding.sentence(x.title() + " (" + x.safety().id() + " fix)")));
            List<Object> changes = new ArrayList<>();
            for (String file : x.files()) {
                Map<String, Object> change = new LinkedHashMap<>();
                change.put("artifactLocation", SarifRenderer.artifact(file, paths));
                List<Object> replacements = new ArrayList<>();
                for (TextEdit e : x.edits()) if (e.file().equals(file)) replacements.add(replacement(e));
                change.put("replacements", replacements);
                changes.add(change);
            }
            fix.put("artifactChanges", changes);
            fix.put("properties", Map.of("safety", x.safety().id()));
            out.add(fix);
        }
        return out;
    }

    private static Map<String, Object> replacement(TextEdit e) {
        Map<String, Object> region = new LinkedHashMap<>();
        region.put("startLine", e.span().startLine());
        region.put("startColumn", e.span().startColumn());
        region.put("endLine", e.span().endLine());
        region.put("endColumn", e.span().endColumn());       // equal to startColumn: an insertion point
        if (e.resolved()) {
            region.put("charOffset", e.startOffset());
            region.put("charLength", e.endOffset() - e.startOffset());
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("deletedRegion", region);
        m.put("insertedContent", Map.of("text", e.replacement()));
        return m;
    }
}
