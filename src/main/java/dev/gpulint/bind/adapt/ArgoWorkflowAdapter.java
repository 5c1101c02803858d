package dev.gpulint.bind.adapt;

import static dev.gpulint.bind.adapt.TreeValues.map;
import static dev.gpulint.bind.adapt.TreeValues.maps;
import static dev.gpulint.bind.adapt.TreeValues.scalar;
import static dev.gpulint.bind.adapt.TreeValues.text;

import dev.gpulint.read.ReadResult;
import dev.gpulint.read.SourceFile;
import dev.gpulint.read.yaml.YamlReader;
import dev.gpulint.tree.Document;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.List;
import java.util.Set;

/**
 * Argo Workflows ({@code argoproj.io}: Workflow, WorkflowTemplate, ClusterWorkflowTemplate,
 * CronWorkflow) whose templates create a training job through a {@code resource} template: the
 * {@code manifest} is YAML inside a YAML string. A literal block ({@code manifest: |}) is read in
 * place: the file's other lines are blanked and the block's lines kept where they are, so every
 * value of the inner manifest keeps its line and column in the outer file. The inner job binds
 * like any Kubernetes job ({@link KubernetesAdapter}). A manifest written another way (quoted,
 * folded) is skipped.
 */
final class ArgoWorkflowAdapter implements FormatAdapter {
    static final Set<String> KINDS = Set.of("Workflow", "WorkflowTemplate", "ClusterWorkflowTemplate", "CronWorkflow");

    @Override public String id() { return "argo-workflow"; }

    @Override public String displayName() { return "Argo Workflow"; }

    @Override public boolean accepts(ForeignDocument doc) {
        MappingNode root = doc.root();
        String api = text(root, "apiVersion");
        return api != null && api.startsWith("argoproj.io/") && KINDS.contains(text(root, "kind")) && !manifests(root).isEmpty();
    }

    private static List<MappingNode> templates(MappingNode root) {
        MappingNode spec = map(root, "spec");
        MappingNode inner = map(spec, "workflowSpec");       // CronWorkflow
        return maps(inner != null ? inner : spec, "templates");
    }

    private static List<ScalarNode> manifests(MappingNode root) {
        List<ScalarNode> out = new java.util.ArrayList<>();
        for (MappingNode t : templates(root)) {
            ScalarNode m = scalar(t, "resource", "manifest");
            if (m != null && !m.isNull()) out.add(m);
        }
        return out;
    }

    @Override public void bind(ForeignDocument doc, DraftSink sink) {
        MappingNode root = doc.root();
        String[] lines = doc.text().split("\n", -1);
        for (MappingNode t : templates(root)) {
            ScalarNode m = scalar(t, "resource", "manifest");
            if (m == null || m.isNull()) continue;
            String inPlace = inPlace(lines, m);
            if (inPlace == null) continue;
            ReadResult r = new YamlReader().readAll(SourceFile.of(doc.file(), inPlace));
            if (r.failed()) continue;
            String template = text(t, "name");
            for (Document d : r.documents()) {
                if (!KubernetesAdapter.accepts(d.root())) continue;
                String job = doc.name() + "#" + (template == null ? "template" : template);
                sink.draft(KubernetesAdapter.bind(d.root(), doc.file(), job, inPlace, sink::finding));
            }
        }
    }

    /**
     * The file's text with every line blanked but the literal block's own, which stay where they
     * are; null when the manifest is not a literal block or its lines do not give its text back.
     */
    static String inPlace(String[] lines, ScalarNode manifest) {
        int at = manifest.span().startLine() - 1;
        int col = manifest.span().startColumn() - 1;
        if (at < 0 || at >= lines.length || col >= lines[at].length() || lines[at].charAt(col) != '|') return null;
        int indent = -1;
        int end = at + 1;
        for (int i = at + 1; i < lines.length; i++) {
            String l = lines[i];
            if (l.isBlank()) { end = i + 1; continue; }
            int lead = 0;
            while (lead < l.length() && l.charAt(lead) == ' ') lead++;
            if (indent < 0) indent = lead;
            if (lead < indent) break;
            end = i + 1;
        }
        if (indent <= 0) return null;
        StringBuilder body = new StringBuilder();
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < lines.length; i++) {
            boolean keep = i > at && i < end;
            if (keep) {
                String l = lines[i];
                body.append(l.length() >= indent ? l.substring(indent) : "").append('\n');
                out.append(l);
            }
            if (i < lines.length - 1) out.append('\n');
        }
        // the lines must give back the string snakeyaml read (chomping aside)
        if (!body.toString().replace("\r", "").strip().equals(manifest.text().strip())) return null;
        return out.toString();
    }
}
