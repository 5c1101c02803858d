package dev.gpulint.read.yaml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.read.SourceFile;
import dev.gpulint.tree.MappingNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HelmChartTest {

    private static MappingNode values(String text) {
        var r = new YamlReader().readAll(SourceFile.of("values.yaml", text));
        return r.foreign().isEmpty() ? r.documents().get(0).root() : r.foreign().get(0).root();
    }

    private static final MappingNode VALUES = values("""
            image:
              repository: nvcr.io/nvidia/pytorch
              tag: "24.09-py3"
            workers: 4
            gpusPerWorker: 8
            nccl:
              ib_hca: mlx5
            resources:
              limits:
                nvidia.com/gpu: 8
            script: |
              torchrun train.py
              echo done
            empty:
            longname: abcdefghijklmnopqrstuvwxyz
            """);

    private static List<String> skipped(HelmChart.Rendered r) {
        return r.skipped().stream().map(s -> s.line() + ":" + s.column() + " " + s.why() + " " + s.expression()).toList();
    }

    @Test
    void aValueIsSubstitutedAndPaddedToTheExpressionsLengthWhenABlankFollows() {
        var r = HelmChart.render("replicas: {{ .Values.workers }}\nimage: \"{{ .Values.image.repository }}:{{ .Values.image.tag }}\"\n", VALUES, "values.yaml");
        assertEquals("replicas: 4" + " ".repeat(20) + "\nimage: \"nvcr.io/nvidia/pytorch:24.09-py3\"\n", r.text());
        assertEquals(3, r.substituted());
        assertEquals(List.of(), r.skipped());
    }

    @Test
    void defaultQuoteAndTheFunctionsThatKeepAScalarAreApplied() {
        String t = "a: {{ default 8 .Values.gpus }}\n"
                + "b: {{ .Values.gpusPerWorker | default 2 }}\n"
                + "c: {{ .Values.nccl.ib_hca | quote }}\n"
                + "d: {{ quote .Values.workers }}\n"
                + "e: {{ .Values.missing | default \"x y\" | quote }}\n"
                + "f: {{ .Values.workers | int }}\n"
                + "g: {{ .Values.empty | default 3 }}\n";
        var r = HelmChart.render(t, VALUES, "values.yaml");
        List<String> lines = r.text().lines().map(String::strip).toList();
        assertEquals(List.of("a: 8", "b: 8", "c: \"mlx5\"", "d: \"4\"", "e: \"x y\"", "f: 4", "g: 3"), lines);
        assertEquals(List.of(), r.skipped());
    }

    @Test
    void aVariableSetOnALineOfItsOwnIsSubstitutedWhereItIsUsed() {
        var r = HelmChart.render("{{- $gpus := .Values.gpusPerWorker -}}\nnvidia.com/gpu: {{ $gpus }}\n", VALUES, "values.yaml");
        assertEquals("nvidia.com/gpu: 8", r.text().lines().toList().get(1).strip());
        assertEquals(List.of(), r.skipped());
    }

    @Test
    void aVariableThatCouldNotBeSetIsNotedOnceWhereItIsSet() {
        var r = HelmChart.render("{{- $gpus := .Values.gpus -}}\nnvidia.com/gpu: {{ $gpus }}\n", VALUES, "values.yaml");
        assertEquals(List.of("1:1 MISSING {{- $gpus := .Values.gpus -}}"), skipped(r));
        assertEquals("nvidia.com/gpu: ${ $gpus } ", r.text().lines().toList().get(1));
    }

    @Test
    void everyOtherActionIsListedAtItsLineAndColumnAndReleaseNamesAreNot() {
        String t = """
                {{- if .Values.enabled }}
                name: {{ .Release.Name }}-job
                labels:
                  {{- include "chart.labels" . | nindent 4 }}
                gpus: {{ .Values.gpus }}
                resources: {{ toYaml .Values.resources | nindent 12 }}
                  {{- toYaml .Values.resources | nindent 12 }}
                cmd: {{ .Values.script }}
                ib: {{ .Values.nccl.ib_hca | upper }}
                {{- range $i, $e := .Values.extra }}
                {{- end }}
                {{- define "x" }}
                {{/* a comment */}}
                {{- end }}
                """;
        var r = HelmChart.render(t, VALUES, "values.yaml");
        assertEquals(List.of(
                "1:1 BRANCH {{- if .Values.enabled }}",
                "4:3 INCLUDE {{- include \"chart.labels\" . | nindent 4 }}",
                "5:7 MISSING {{ .Values.gpus }}",
                "6:12 NOT_SCALAR {{ toYaml .Values.resources | nindent 12 }}",
                "7:3 NOT_SCALAR {{- toYaml .Values.resources | nindent 12 }}",
                "8:6 NOT_SCALAR {{ .Values.script }}",
                "9:5 OTHER {{ .Values.nccl.ib_hca | upper }}",
                "10:1 LOOP {{- range $i, $e := .Values.extra }}",
                "12:1 DEFINE {{- define \"x\" }}"), skipped(r));
        // what is not substituted keeps every column: a placeholder of the same length, a blank directive line
        assertEquals(t.length(), r.text().length());
        assertEquals(0, r.substituted());
    }

    @Test
    void columnsMapBackToTheTemplateBeforeInsideAndAfterASubstitution() {
        // a shorter value before '-' (not padded), one before a blank (padded), one longer than its expression
        var r = HelmChart.render("x: {{ .Values.image.repository }}-{{ .Values.workers }} y\nz: {{ .Values.longname }} w\n", VALUES, "values.yaml");
        assertEquals("x: nvcr.io/nvidia/pytorch-4" + " ".repeat(20) + " y", r.text().lines().toList().get(0));
        assertEquals("z: abcdefghijklmnopqrstuvwxyz w", r.text().lines().toList().get(1));
        var regions = r.regions();
        assertEquals(2, HelmChart.column(1, 2, true, regions));            // before: unchanged
        assertEquals(4, HelmChart.column(1, 4, true, regions));            // a value's start: its expression's start
        assertEquals(34, HelmChart.column(1, 26, false, regions));         // the first value's end: its expression's end
        assertEquals(34, HelmChart.column(1, 26, true, regions));          // the '-' between them
        assertEquals(35, HelmChart.column(1, 27, true, regions));          // the second value's start
        assertEquals(57, HelmChart.column(1, 49, true, regions));          // 'y' after the padded second value
        assertEquals(27, HelmChart.column(2, 31, true, regions));          // 'w' after a value longer than its expression
    }

    @Test
    void aTemplateIsRenderedOnlyInAChartWithAValuesFileAndABoundedOne(@TempDir Path dir) throws IOException {
        Path chart = dir.resolve("trainer");
        Files.createDirectories(chart.resolve("templates/sub"));
        Path job = chart.resolve("templates/sub/job.yaml");
        Files.writeString(job, "replicas: {{ .Values.workers }}\n");
        SourceFile f = new SourceFile(job, "trainer/templates/sub/job.yaml", Files.readString(job));
        assertTrue(HelmChart.render(f).isEmpty(), "no Chart.yaml: not a chart");
        Files.writeString(chart.resolve("Chart.yaml"), "apiVersion: v2\nname: trainer\nversion: 0.1.0\n");
        assertTrue(HelmChart.render(f).isEmpty(), "a chart without values.yaml");
        Files.writeString(chart.resolve("values.yaml"), "workers: 4\n");
        var r = HelmChart.render(f).orElseThrow();
        assertEquals("trainer/values.yaml", r.valuesFile());
        assertTrue(r.text().startsWith("replicas: 4 "), r.text());
        Files.writeString(chart.resolve("values.yaml"), "workers: 4\n#" + "x".repeat(HelmChart.MAX_VALUES_BYTES) + "\n");
        assertTrue(HelmChart.render(f).isEmpty(), "a values file over the bound is not read");
        Files.writeString(chart.resolve("values.yaml"), "workers: \"a: b\"\n");
        assertTrue(HelmChart.render(f).isEmpty(), "a value that breaks the YAML where it is put: read literally");
        Files.writeString(chart.resolve("values.yaml"), "workers: [4\n");
        assertTrue(HelmChart.render(f).isEmpty(), "a values file that does not parse is not used");
    }
}
