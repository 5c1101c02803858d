package dev.gpulint.bind.adapt;

import dev.gpulint.bind.adapt.shell.Shell;
import dev.gpulint.core.Span;
import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs.Stated;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Numbers a launch script takes from a variable's default ({@code NGPU=${NGPU:-"8"}}, torchtitan's run_train.sh;
 * {@code --nnodes ${NNODES:-2}}): the shell scan uses the default, and the messages say so, because the
 * environment the script runs in can override it ({@code NGPU=4 ./run_train.sh}). A value is marked when the
 * text written where it stands names such a variable, or holds a default itself. Bounded: one linear pass over
 * the script for the defaults (at most {@link #MAX_DEFAULTS}), and one over each marked value's own text.
 */
final class ShellDefaults {
    private ShellDefaults() {}

    /** The most defaulted variables one script keeps track of. */
    static final int MAX_DEFAULTS = 1024;
    /** The longest value text looked at; a longer one is not marked. */
    private static final int MAX_WORD = 4096;

    /** NAME=${NAME:-default} (or -, :=, =; the default may be quoted), at a word's start. */
    private static final Pattern SELF_DEFAULT = Pattern.compile(
            "(?<![A-Za-z0-9_$])([A-Za-z_][A-Za-z0-9_]{0,127})=[\"']?\\$\\{\\1:?[-=][\"']?([^}\"'\\n]{0,256})[\"']?\\}");
    /** A variable named in a value: $NAME, ${NAME}, or ${NAME:-default} with its default. */
    private static final Pattern USE = Pattern.compile("\\$\\{?([A-Za-z_][A-Za-z0-9_]{0,127})(?:(:?[-=])[\"']?([^}\"']{0,256})[\"']?)?\\}?");

    /** The script's variables assigned their own default, each with that default as written. */
    static Map<String, String> of(String script) {
        Map<String, String> out = new LinkedHashMap<>();
        Matcher m = SELF_DEFAULT.matcher(script);
        while (m.find() && out.size() < MAX_DEFAULTS) out.putIfAbsent(m.group(1), m.group(2).strip());
        return out;
    }

    /**
     * Marks, in place, the statements, the GPUs per node and the keys of {@code j} whose value is written
     * (in {@code source}, the file's text) through a variable's default.
     */
    static void mark(JobDraft j, String source, Map<String, String> defaults) {
        int[] lines = lineStarts(source);
        j.stated.replaceAll(s -> {
            String note = note(raw(source, lines, s.span(), j.file), defaults);
            return note == null ? s : new Stated(s.quantity(), s.value(), s.where() + note, s.kind(), s.span());
        });
        if (j.gpusPerNode != null && j.gpusPerNodeWhere != null) {
            String note = note(raw(source, lines, j.gpusPerNode.span(), j.file), defaults);
            if (note != null) j.gpusPerNodeWhere += note;
        }
        for (Map.Entry<Located<?>, String> k : j.keys.entrySet()) {
            if (k.getValue().startsWith("torchrun's default")) continue;       // placed at --nproc_per_node, not written
            String note = note(raw(source, lines, k.getKey().span(), j.file), defaults);
            if (note != null) k.setValue(k.getValue() + note);
        }
    }

    /** " (the default of NGPU, ${NGPU:-8}: the environment can override it)", or null when the text names no default. */
    static String note(String raw, Map<String, String> defaults) {
        if (raw == null || raw.indexOf('$') < 0) return null;
        Matcher m = USE.matcher(raw);
        while (m.find()) {
            String name = m.group(1);
            String dflt = m.group(2) != null && (m.group(2).endsWith("-") || m.group(2).endsWith("=")) ? m.group(3) : defaults.get(name);
            if (dflt != null && !Shell.runtimeSet(name)) {
                return " (the default of " + name + ", ${" + name + ":-" + dflt.strip() + "}: the environment the script runs in can override it)";
            }
        }
        return null;
    }

    private static int[] lineStarts(String s) {
        int count = 1;
        for (int i = 0; i < s.length(); i++) if (s.charAt(i) == '\n') count++;
        int[] starts = new int[count];
        for (int i = 0, l = 1; i < s.length(); i++) if (s.charAt(i) == '\n') starts[l++] = i + 1;
        return starts;
    }

    /** The text a one-line span covers in this file; null for another file's span, several lines, or too long a text. */
    private static String raw(String source, int[] lines, Span sp, String file) {
        if (sp == null || !file.equals(sp.file()) || sp.startLine() != sp.endLine() || sp.startLine() < 1 || sp.startLine() > lines.length) {
            return null;
        }
        int from = lines[sp.startLine() - 1] + sp.startColumn() - 1, to = lines[sp.startLine() - 1] + sp.endColumn() - 1;
        if (from < 0 || to > source.length() || to <= from || to - from > MAX_WORD) return null;
        return source.substring(from, to);
    }
}
