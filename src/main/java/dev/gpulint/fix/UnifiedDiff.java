package dev.gpulint.fix;

import java.util.ArrayList;
import java.util.List;

/**
 * A unified diff of two texts (what {@code check --diff} prints): {@code --- a/FILE}, {@code +++ b/FILE}, then
 * hunks with three lines of context, as {@code diff -u} and {@code git diff} write them, so {@code patch -p1} and
 * {@code git apply} take it. Lines are compared with their line breaks; a last line without one is marked
 * {@code \ No newline at end of file}.
 *
 * <p>Bounded: the common start and end are cut off first (fixes change a few lines of a file); the lines between
 * are compared with Myers' algorithm up to {@link #MAX_DIFFERENCES} differences, beyond which they are shown as
 * one replaced block.
 */
public final class UnifiedDiff {
    private UnifiedDiff() {}

    static final int CONTEXT = 3;
    /** Inserted plus deleted lines the diff searches for a shortest script (its memory grows with the square). */
    static final int MAX_DIFFERENCES = 2000;

    /** The diff of {@code before} and {@code after} of {@code file}; empty when they are equal. */
    public static String of(String file, String before, String after) {
        if (before.equals(after)) return "";
        List<String> a = lines(before), b = lines(after);
        int pre = 0;
        while (pre < a.size() && pre < b.size() && a.get(pre).equals(b.get(pre))) pre++;
        int suf = 0;
        while (suf < a.size() - pre && suf < b.size() - pre && a.get(a.size() - 1 - suf).equals(b.get(b.size() - 1 - suf))) suf++;
        List<String> am = a.subList(pre, a.size() - suf), bm = b.subList(pre, b.size() - suf);
        // one op per line: ' ' kept, '-' deleted, '+' inserted; with its line
        List<char[]> ops = new ArrayList<>();
        List<String> text = new ArrayList<>();
        for (int i = 0; i < pre; i++) { ops.add(new char[] {' '}); text.add(a.get(i)); }
        middle(am, bm, ops, text);
        for (int i = a.size() - suf; i < a.size(); i++) { ops.add(new char[] {' '}); text.add(a.get(i)); }
        return hunks(file, ops, text);
    }

    /** The text's lines as patch reads them, each up to and with its line feed; none for an empty text. */
    static List<String> lines(String s) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = s.indexOf('\n'); i >= 0; i = s.indexOf('\n', start)) {
            out.add(s.substring(start, i + 1));
            start = i + 1;
        }
        if (start < s.length()) out.add(s.substring(start));
        return out;
    }

    /**
     * The name as git writes it in a diff header: as it is, or C-quoted when it holds a control character, a double
     * quote or a backslash ({@code "a/new\nline.yaml"}; other bytes as three octal digits of their UTF-8), so that a
     * name with a line feed cannot end the header and git apply and patch read back the name written.
     */
    static String quoted(String name) {
        boolean plain = name.chars().noneMatch(c -> c < 0x20 || c == 0x7f || c == '"' || c == '\\');
        if (plain) return name;
        StringBuilder b = new StringBuilder("\"");
        for (byte x : name.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            int c = x & 0xff;
            switch (c) {
                case 0x07 -> b.append("\\a");
                case '\b' -> b.append("\\b");
                case '\t' -> b.append("\\t");
                case '\n' -> b.append("\\n");
                case 0x0b -> b.append("\\v");
                case '\f' -> b.append("\\f");
                case '\r' -> b.append("\\r");
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                default -> {
                    if (c < 0x20 || c == 0x7f) b.append('\\').append(String.format("%03o", c));
                    else b.append((char) c);
                }
            }
        }
        // bytes of 0x80 and above were appended one char each: decode them back to the name's UTF-8 text
        String latin = b.append('"').toString();
        return new String(latin.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1), java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Myers' shortest edit script of the middle lines, or all deleted then all inserted past the bound. */
    private static void middle(List<String> a, List<String> b, List<char[]> ops, List<String> text) {
        int n = a.size(), m = b.size(), max = Math.min(n + m, MAX_DIFFERENCES);
        int off = max + 1;
        int[] v = new int[2 * max + 3];
        List<int[]> trace = new ArrayList<>();
        int found = -1;
        for (int d = 0; d <= max && found < 0; d++) {
            trace.add(java.util.Arrays.copyOfRange(v, off - d - 1, off + d + 2));
            for (int k = -d; k <= d; k += 2) {
                int x = k == -d || k != d && v[off + k - 1] < v[off + k + 1] ? v[off + k + 1] : v[off + k - 1] + 1;
                int y = x - k;
                while (x < n && y < m && a.get(x).equals(b.get(y))) { x++; y++; }
                v[off + k] = x;
                if (x >= n && y >= m) { found = d; break; }
            }
        }
        if (found < 0) {
            for (String l : a) { ops.add(new char[] {'-'}); text.add(l); }
            for (String l : b) { ops.add(new char[] {'+'}); text.add(l); }
            return;
        }
        // walk back from (n, m) through the saved diagonals
        List<char[]> rOps = new ArrayList<>();
        List<String> rText = new ArrayList<>();
        int x = n, y = m;
        for (int d = found; d > 0; d--) {
            int[] pv = trace.get(d);          // v before step d, indexed from diagonal -d-1
            int k = x - y;
            int down = k == -d || k != d && pv[k - 1 + d + 1] < pv[k + 1 + d + 1] ? 1 : 0;
            int pk = down == 1 ? k + 1 : k - 1;
            int px = pv[pk + d + 1], py = px - pk;
            while (x > px + (down == 1 ? 0 : 1) && y > py + down) { x--; y--; rOps.add(new char[] {' '}); rText.add(a.get(x)); }
            if (down == 1) { y--; rOps.add(new char[] {'+'}); rText.add(b.get(y)); }
            else { x--; rOps.add(new char[] {'-'}); rText.add(a.get(x)); }
        }
        while (x > 0 && y > 0) { x--; y--; rOps.add(new char[] {' '}); rText.add(a.get(x)); }
        for (int i = rOps.size() - 1; i >= 0; i--) { ops.add(rOps.get(i)); text.add(rText.get(i)); }
    }

    private static String hunks(String file, List<char[]> ops, List<String> text) {
        StringBuilder out = new StringBuilder();
        // a name with a space ends in a tab, as git writes it: GNU patch reads a name up to a tab, else up to a space
        String nameEnd = file.indexOf(' ') >= 0 ? "\t\n" : "\n";
        out.append("--- ").append(quoted("a/" + file)).append(nameEnd).append("+++ ").append(quoted("b/" + file)).append(nameEnd);
        int n = ops.size(), i = 0;
        while (i < n) {
            while (i < n && ops.get(i)[0] == ' ') i++;
            if (i == n) break;
            int start = Math.max(0, i - CONTEXT), end = i;
            // extend while the next change is within two contexts
            while (true) {
                while (end < n && ops.get(end)[0] != ' ') end++;
                int next = end;
                while (next < n && ops.get(next)[0] == ' ') next++;
                if (next < n && next - end <= 2 * CONTEXT) { end = next; continue; }
                end = Math.min(n, end + CONTEXT);
                break;
            }
            int aLine = 1, bLine = 1;
            for (int j = 0; j < start; j++) {
                if (ops.get(j)[0] != '+') aLine++;
                if (ops.get(j)[0] != '-') bLine++;
            }
            int aCount = 0, bCount = 0;
            for (int j = start; j < end; j++) {
                if (ops.get(j)[0] != '+') aCount++;
                if (ops.get(j)[0] != '-') bCount++;
            }
            out.append("@@ -").append(range(aLine, aCount)).append(" +").append(range(bLine, bCount)).append(" @@\n");
            for (int j = start; j < end; j++) {
                String l = text.get(j);
                // a CRLF line keeps its CR, as diff -u writes it: patch and git apply match a CRLF file's lines only so
                String body = l.endsWith("\n") ? l.substring(0, l.length() - 1) : l;
                out.append(ops.get(j)[0]).append(body).append('\n');
                if (body.length() == l.length()) out.append("\\ No newline at end of file\n");
            }
            i = end;
        }
        return out.toString();
    }

    /** A hunk's range: {@code start,count}; an empty one starts at the line before it. */
    private static String range(int line, int count) {
        if (count == 0) return (line - 1) + ",0";
        return count == 1 ? String.valueOf(line) : line + "," + count;
    }
}
