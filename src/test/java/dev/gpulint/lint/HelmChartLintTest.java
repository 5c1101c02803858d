package dev.gpulint.lint;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.core.Finding;
import dev.gpulint.core.LintResult;
import dev.gpulint.core.Safety;
import dev.gpulint.core.Span;
import dev.gpulint.read.SourceFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Helm chart on disk (rule cases live in memory, so a chart's values.yaml beside Chart.yaml is shown here): the
 * template is checked with the values its chart installs by default, findings in a substituted value point at its
 * expression, and each template action gpulint did not follow is a SYN006 note at its line.
 */
class HelmChartLintTest {

    private static final String MPIJOB = """
            {{- if .Values.enabled }}
            apiVersion: kubeflow.org/v2beta1
            kind: MPIJob
            metadata:
              name: {{ .Release.Name }}-nccl
            spec:
              slotsPerWorker: {{ .Values.gpusPerWorker }}
              mpiReplicaSpecs:
                Launcher:
                  replicas: 1
                  template:
                    spec:
                      containers:
                        - name: launcher
                          image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"
                          command: [mpirun, -np, "{{ .Values.ranks }}", /opt/nccl-tests/build/all_reduce_perf, -b, 8, -e, 8G]
                Worker:
                  replicas: {{ .Values.workers }}
                  template:
                    spec:
                      containers:
                        - name: worker
                          resources:
                            limits:
                              nvidia.com/gpu: {{ .Values.gpusPerWorker }}
            {{- end }}
            """;

    private static String values(int workers) {
        return """
                enabled: true
                image:
                  repository: ghcr.io/example/nccl-tests
                  tag: "2.13"
                ranks: 16
                gpusPerWorker: 8
                workers: %d
                """.formatted(workers);
    }

    /** Writes the chart under dir and lints its template as the CLI reads it (its path on disk, its display path). */
    private static LintResult lint(Path dir, String template, String values) throws IOException {
        Path chart = dir.resolve("nccl");
        Files.createDirectories(chart.resolve("templates"));
        Files.writeString(chart.resolve("Chart.yaml"), "apiVersion: v2\nname: nccl\nversion: 0.1.0\n");
        if (values != null) Files.writeString(chart.resolve("values.yaml"), values);
        Path t = chart.resolve("templates/mpijob.yaml");
        Files.writeString(t, template);
        return dev.gpulint.app.Checks.check(new Linter(), List.of(new SourceFile(t, "nccl/templates/mpijob.yaml", template)));
    }

    private static List<String> show(LintResult r, String rule) {
        List<String> out = new ArrayList<>();
        for (Finding f : r.findings()) {
            if (!f.ruleId().equals(rule)) continue;
            StringBuilder b = new StringBuilder(at(f.span()) + " " + f.message());
            for (Finding.Related x : f.related()) b.append(" | ").append(at(x.span()));
            out.add(b.toString());
        }
        return out;
    }

    private static String at(Span s) { return s.startLine() + ":" + s.startColumn() + "-" + s.endLine() + ":" + s.endColumn(); }

    @Test
    void theChartsValuesAreCheckedAndTheFindingPointsAtTheExpression(@TempDir Path dir) throws IOException {
        LintResult r = lint(dir, MPIJOB, values(4));
        assertEquals(List.of("16:38-16:59 mpirun -np 16 gives 16 as the number of ranks (GPUs) of the job, but 4 Worker pods × 8 "
                + "nvidia.com/gpu gives 32: fewer ranks than GPUs, so GPUs the job holds sit idle (or the job waits for ranks that "
                + "never come); make the two agree (one rank per GPU). | 25:35-25:62"), show(r, "CONSIST001"));
        assertEquals(List.of("1:1-1:26 'nccl/templates/mpijob.yaml' is a Helm template read with the default values of its chart "
                + "(nccl/values.yaml, 6 expressions substituted); {{- if .Values.enabled }} was not evaluated (gpulint substitutes "
                + "values, it does not follow conditions): the lines of every branch are read as written; to check it too, render "
                + "the chart (helm template CHART -f values.yaml > rendered.yaml) and lint the output."), show(r, "SYN006"));
    }

    @Test
    void aFixOfASubstitutedValueIsDroppedNeverWrittenIntoTheExpression(@TempDir Path dir) throws IOException {
        LintResult r = lint(dir, MPIJOB, values(4));
        // CONSIST001's fix replaces the "16" it read; the template holds the expression there, so the fix does not place
        var applied = dev.gpulint.fix.FixApplier.apply(Map.of("nccl/templates/mpijob.yaml", MPIJOB), r.findings(), Safety.UNSAFE);
        assertEquals(List.of(), applied.applied());
        assertEquals(Map.of(), applied.texts());
        // the same template written out is fixed: the fix is the rule's, only its place is the template's
        String literal = MPIJOB.replace("{{ .Values.ranks }}", "16").replace("{{ .Values.workers }}", "4");
        LintResult lr = lint(dir, literal, values(4));
        var fixed = dev.gpulint.fix.FixApplier.apply(Map.of("nccl/templates/mpijob.yaml", literal), lr.findings(), Safety.UNSAFE);
        assertEquals(true, fixed.texts().get("nccl/templates/mpijob.yaml").contains("[mpirun, -np, \"32\","));
    }

    @Test
    void valuesThatAgreeAndATemplateWithNothingSkippedAreQuiet(@TempDir Path dir) throws IOException {
        String plain = MPIJOB.replace("{{- if .Values.enabled }}\n", "").replace("{{- end }}\n", "");
        LintResult r = lint(dir, plain, values(2));
        assertEquals(List.of(), show(r, "CONSIST001"));
        assertEquals(List.of(), show(r, "SYN006"));
    }

    @Test
    void withoutValuesTheTemplateIsReadLiterallyAsBefore(@TempDir Path dir) throws IOException {
        LintResult r = lint(dir, MPIJOB, null);
        assertEquals(List.of(), show(r, "CONSIST001"));
        List<String> notes = show(r, "SYN006");
        assertEquals(1, notes.size());
        assertEquals(true, notes.get(0).contains("gpulint read its literal text only; 7 template expressions"), notes.get(0));
    }

    @Test
    void aValueNotSetIsANoteAtItsExpressionAndStaysUnknown(@TempDir Path dir) throws IOException {
        LintResult r = lint(dir, MPIJOB.replace("{{ .Values.workers }}", "{{ .Values.replicas.worker }}"), values(4));
        assertEquals(List.of(), show(r, "CONSIST001"));
        List<String> notes = show(r, "SYN006");
        assertEquals(2, notes.size(), String.join("\n", notes));
        assertEquals(true, notes.get(1).startsWith("18:17-18:46 'nccl/templates/mpijob.yaml' is a Helm template read with the default "
                + "values of its chart (nccl/values.yaml, 5 expressions substituted); {{ .Values.replicas.worker }} has no value: "
                + "nccl/values.yaml does not set it and no default is given, so it is an unknown value no rule checks"), notes.get(1));
    }
}
