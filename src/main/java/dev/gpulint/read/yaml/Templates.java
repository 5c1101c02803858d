package dev.gpulint.read.yaml;

import dev.gpulint.read.SourceFile;

/**
 * Helm chart templates are YAML only once rendered: {@code {{- if .Values.x }}} on a line of its own,
 * {@code replicas: {{ .Values.workers }}} inside a value. gpulint reads what is literal and treats
 * every template expression as a placeholder (an unknown value no rule reasons on), so that the
 * literal settings of a chart are still checked. A file looks like a template when it lies in a
 * chart's {@code templates/} folder, or a line starts with {@code {{}.
 */
public final class Templates {
    private Templates() {}

    public static boolean looksLikeTemplate(SourceFile f) {
        String p = "/" + f.displayPath().replace('\\', '/');
        if (p.contains("/templates/")) return f.text().contains("{{");
        String t = f.text();
        for (int i = 0, n = t.length(); i < n; ) {
            int end = t.indexOf('\n', i);
            if (end < 0) end = n;
            int j = i;
            while (j < end && (t.charAt(j) == ' ' || t.charAt(j) == '\t')) j++;
            if (j + 1 < end && t.charAt(j) == '{' && t.charAt(j + 1) == '{') return true;
            i = end + 1;
        }
        return false;
    }

    /**
     * The literal view of a template, with every line and column where it was: a line that is only
     * template directives becomes blank; each {@code {{ ... }}} inside a line becomes
     * {@code ${ ... } } of the same length, a placeholder to the binder and the adapters.
     */
    public static String literalView(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0, n = text.length(); i < n; ) {
            int end = text.indexOf('\n', i);
            if (end < 0) end = n;
            String line = text.substring(i, end);
            String s = line.strip();
            if (s.startsWith("{{") && s.endsWith("}}") && onlyDirectives(s)) {
                out.append(" ".repeat(line.length()));
            } else {
                out.append(line.replace("{{", "${").replace("}}", "} "));
            }
            if (end < n) out.append('\n');
            i = end + 1;
        }
        return out.toString();
    }

    /** "{{- if x }}", "{{ end }}{{ else }}": nothing outside the braces but blanks. */
    static boolean onlyDirectives(String s) {
        int depth = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.startsWith("{{", i)) { depth++; i++; }
            else if (s.startsWith("}}", i)) { depth--; i++; }
            else if (depth == 0 && !Character.isWhitespace(s.charAt(i))) return false;
        }
        return depth == 0;
    }
}
