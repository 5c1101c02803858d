package dev.gpulint.bind.adapt.shell;

import java.util.Arrays;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The shell scan's parameter expansion: {@code $VAR}, {@code ${VAR}}, {@code ${VAR:-default}} and its kin,
 * {@code $((arithmetic))}, each within the bounds below. An expansion may also be traced: given where each
 * character of the word is written, it says where each character of the result is written (a variable's value
 * where its assignment wrote it), which places the words of a string a script runs ({@code bash -c "$CMD"}).
 */
final class ShellExpansion {
    private ShellExpansion() {}

    /** The longest value an expansion may produce; a longer one is unknown (V=$V$V doubling stays bounded). */
    static final int MAX_VALUE = 64 * 1024;
    /** The most text the expansions of one script may produce in all; past it every expansion is unknown. */
    static final long MAX_TOTAL = 8L * 1024 * 1024;
    /** Defaults inside defaults (${A:-${B:-1}}) are followed this deep; deeper is unknown. */
    private static final int MAX_DEFAULT_DEPTH = 4;
    /** The longest ${...} whose default is followed: a longer one is unknown (each scan is bounded, so expansion stays linear). */
    private static final int MAX_BRACED = 1024;

    private static final Pattern VAR = Pattern.compile("\\$(?:\\{([A-Za-z_][A-Za-z0-9_]*)\\}|([A-Za-z_][A-Za-z0-9_]*))");
    /** ${NAME:-default}, ${NAME-default}, ${NAME:=default}, ${NAME=default}: the name, the ':' (or nothing), the default. */
    private static final Pattern DEFAULTED = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)(:?)([-=])(.*)", Pattern.DOTALL);

    /**
     * Where an expansion's characters are written. {@code in}: the offsets of the word's characters (null: not
     * traced); {@code out}: those of the result, filled by the expansion. With {@code partial}, a variable whose
     * value is only partly known ({@code CMD="$LAUNCHER $PROGRAM"} with an unknown part) expands to that value,
     * its unknown parts left as written, for a string run as a script to expand again.
     */
    static final class Trace {
        final int[] in;
        final boolean partial;
        int[] out = new int[16];
        int size;

        Trace(int[] in, boolean partial) { this.in = in; this.partial = partial; }

        void add(int offset, int count) {
            if (size + count > out.length) out = Arrays.copyOf(out, Math.max(out.length * 2, size + count));
            Arrays.fill(out, size, size + count, offset);
            size += count;
        }

        void add(int[] offsets, int from, int to) {
            int count = Math.max(0, to - from);
            if (size + count > out.length) out = Arrays.copyOf(out, Math.max(out.length * 2, size + count));
            System.arraycopy(offsets, from, out, size, count);
            size += count;
        }

        /** The result's offsets, one per character of a result {@code length} long; null when they do not add up. */
        int[] offsets(int length) {
            return size == length ? Arrays.copyOf(out, size) : null;
        }
    }

    /** {expanded, null} when every expansion is known, else {text, "unknown"}. */
    static String[] expand(String s, boolean literal, Map<String, String> vars, ShellState budget, Trace t) {
        return expand(s, literal, vars, budget, 0, t);
    }

    private static String[] expand(String s, boolean literal, Map<String, String> vars, ShellState budget, int depth, Trace t) {
        if (literal || s.indexOf('$') < 0) {
            if (t != null) t.add(t.in, 0, s.length());
            return new String[] {s, null};
        }
        if (budget.used > MAX_TOTAL) return whole(s, t);
        int mark = t == null ? 0 : t.size;
        StringBuilder out = new StringBuilder();
        boolean unknown = false;
        int i = 0;
        while (i < s.length()) {
            if (s.startsWith("$((", i)) {
                int close = s.indexOf("))", i + 3);
                if (close < 0) { unknown = true; out.append(s.substring(i)); trace(t, i, s.length()); break; }
                Long v = Shell.arithmetic(s.substring(i + 3, close), vars);
                if (v == null) { unknown = true; out.append(s, i, close + 2); trace(t, i, close + 2); }
                else { String x = String.valueOf(v); out.append(x); site(t, i, x.length()); }
                i = close + 2;
                continue;
            }
            if (s.startsWith("${", i)) {
                int close = closingBrace(s, i + 2);
                Matcher p = close < 0 ? null : DEFAULTED.matcher(s).region(i + 2, close);
                if (p != null && p.matches()) {
                    String name = p.group(1), v = vars.get(name);
                    boolean set = v != null && (p.group(2).isEmpty() || !v.isEmpty());     // with ':' an empty value takes the default too
                    String[] x = set ? new String[] {v, null}
                            : depth >= MAX_DEFAULT_DEPTH || Shell.runtimeSet(name) || budget.mayBeSet(name)
                            ? new String[] {s.substring(i, close + 1), "unknown"}
                            : expand(p.group(4), false, vars, budget, depth + 1, null);
                    if (!set && p.group(3).equals("=")) budget.assign(name, x[1] == null ? x[0] : null);   // ${X:=d} assigns X
                    if (x[1] != null || out.length() + x[0].length() > MAX_VALUE) { unknown = true; out.append(s, i, close + 1); trace(t, i, close + 1); }
                    else if (set) { out.append(x[0]); value(t, budget, name, x[0].length(), i); }
                    else { out.append(x[0]); site(t, i, x[0].length()); }
                    i = close + 1;
                    continue;
                }
            }
            if (s.charAt(i) == '$') {
                Matcher m = VAR.matcher(s).region(i, s.length());
                if (m.lookingAt()) {
                    String name = m.group(1) != null ? m.group(1) : m.group(2);
                    String v = vars.get(name);
                    boolean partly = v == null && t != null && t.partial && budget.partial(name) != null;
                    if (partly) v = budget.partial(name);
                    if (v == null || out.length() + v.length() > MAX_VALUE) { unknown = true; out.append(m.group()); trace(t, i, m.end()); }
                    else { out.append(v); value(t, budget, name, v.length(), i); unknown |= partly; }
                    i = m.end();
                    continue;
                }
                unknown = true;
            }
            out.append(s.charAt(i));
            trace(t, i, i + 1);
            i++;
        }
        budget.used += out.length();
        if (out.length() > MAX_VALUE || budget.used > MAX_TOTAL) {
            if (t != null) t.size = mark;
            return whole(s, t);
        }
        return new String[] {out.toString(), unknown ? "unknown" : null};
    }

    private static String[] whole(String s, Trace t) {
        if (t != null) t.add(t.in, 0, s.length());
        return new String[] {s, "unknown"};
    }

    /** The word's characters [from, to), each where it is written. */
    private static void trace(Trace t, int from, int to) {
        if (t != null) t.add(t.in, from, to);
    }

    /** {@code count} characters that stand where the word's character {@code at} is written (a number $((...)) gave). */
    private static void site(Trace t, int at, int count) {
        if (t != null) t.add(at < t.in.length ? t.in[at] : 0, count);
    }

    /** A variable's value: where its assignment wrote it, when that is known, else where it is expanded. */
    private static void value(Trace t, ShellState budget, String name, int count, int at) {
        if (t == null) return;
        int[] o = budget.origins(name);
        if (o != null && o.length == count) t.add(o, 0, count); else site(t, at, count);
    }

    /** The index of the '}' that closes a ${ whose contents start at {@code from}; -1 when none does within {@link #MAX_BRACED}. */
    private static int closingBrace(String s, int from) {
        int depth = 1;
        for (int j = from, end = Math.min(s.length(), from + MAX_BRACED); j < end; j++) {
            if (s.startsWith("${", j)) { depth++; j++; }
            else if (s.charAt(j) == '}' && --depth == 0) return j;
        }
        return -1;
    }
}
