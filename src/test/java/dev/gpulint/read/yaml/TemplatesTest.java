package dev.gpulint.read.yaml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.read.SourceFile;
import org.junit.jupiter.api.Test;

class TemplatesTest {

    @Test
    void aTemplateIsAChartTemplateOrAFileWithALineStartingWithBraces() {
        assertTrue(Templates.looksLikeTemplate(SourceFile.of("chart/templates/job.yaml", "replicas: {{ .Values.n }}\n")));
        assertFalse(Templates.looksLikeTemplate(SourceFile.of("chart/templates/plain.yaml", "replicas: 2\n")));
        assertTrue(Templates.looksLikeTemplate(SourceFile.of("job.yaml", "kind: X\n  {{- include \"x\" . }}\n")));
        assertFalse(Templates.looksLikeTemplate(SourceFile.of("job.yaml", "env: \"{{ not at a line start }}\"\n")));
    }

    @Test
    void theLiteralViewKeepsEveryLineAndColumn() {
        String t = "{{- if .Values.on }}\nname: {{ .Release.Name }}-x\n  {{- include \"l\" . | nindent 4 }}\nreplicas: 2\n{{- end }}";
        String v = Templates.literalView(t);
        assertEquals(" ".repeat(20) + "\nname: ${ .Release.Name } -x\n" + " ".repeat(34) + "\nreplicas: 2\n" + " ".repeat(10), v);
        assertEquals(t.length(), v.length());
    }
}
