package dev.gpulint.settle;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads one suppression comment, {@code # gpulint: ignore RULE[, RULE] [until=DATE] [-- reason] [until=DATE]},
 * in one left-to-right pass: no regular expression, so no backtracking on a hostile line. Only the
 * first {@link #MAX_BODY} characters after {@code ignore} are examined.
 */
final class SuppressionComment {

    /** The most characters of a comment's body (after {@code ignore}) that are read; a reason is far shorter. */
    static final int MAX_BODY = 4096;

    /** Rules, reason and until of a comment that reads well; {@code rules} empty when it does not. */
    record Body(List<String> rules, String reason, String until) {
        static final Body MALFORMED = new Body(List.of(), null, null);
    }

    private SuppressionComment() {}

    /** Where the comment starts ({@code #} or {@code //}) and where its body starts; null when the line has none. */
    static int[] find(String line) {
        for (int g = line.indexOf("gpulint:"); g >= 0; g = line.indexOf("gpulint:", g + 1)) {
            int k = g;
            while (k > 0 && space(line.charAt(k - 1))) k--;
            int start;
            if (k >= 1 && line.charAt(k - 1) == '#') start = k - 1;
            else if (k >= 2 && line.charAt(k - 1) == '/' && line.charAt(k - 2) == '/') start = k - 2;
            else continue;
            int i = skip(line, g + "gpulint:".length());
            if (!line.startsWith("ignore", i)) continue;
            int body = i + "ignore".length();
            if (body < line.length() && word(line.charAt(body))) continue;
            return new int[] {start, body};
        }
        return null;
    }

    /** Reads a comment's body, the text after {@code ignore}. */
    static Body parse(String text) {
        String b = text.length() > MAX_BODY ? text.substring(0, MAX_BODY) : text;
        List<String> rules = new ArrayList<>();
        int i = skip(b, 0);
        int end = rule(b, i);
        if (end > i) {
            rules.add(b.substring(i, end).toUpperCase(Locale.ROOT));
            i = end;
            while (true) {
                int k = skip(b, i);
                if (k >= b.length() || b.charAt(k) != ',') break;
                int r = skip(b, k + 1);
                int e = rule(b, r);
                if (e == r) break;
                rules.add(b.substring(r, e).toUpperCase(Locale.ROOT));
                i = e;
            }
        }
        i = skip(b, i);
        String until = null;
        if (b.startsWith("until=", i) && i + 6 < b.length() && !space(b.charAt(i + 6))) {
            int v = i + 6, e = v;
            while (e < b.length() && !space(b.charAt(e))) e++;
            Body rest = tail(b, skip(b, e));
            if (rest == null) {
                // like the former pattern's backtracking: the date may run straight into "--"
                int dash = b.lastIndexOf("--", e - 2);
                if (dash <= v) return Body.MALFORMED;
                e = dash;
                rest = tail(b, e);
            }
            until = b.substring(v, e);
            return rules.isEmpty() ? Body.MALFORMED : new Body(rules, rest.reason(), until);
        }
        Body rest = tail(b, i);
        if (rest == null || rules.isEmpty()) return Body.MALFORMED;
        return new Body(rules, rest.reason(), rest.until());
    }

    /** From {@code i}: an optional {@code -- reason}, an optional {@code until=DATE}, blanks; null when something else follows. */
    private static Body tail(String b, int i) {
        if (b.startsWith("--", i)) {
            String t = b.substring(skip(b, i + 2));
            int n = t.length();
            while (n > 0 && space(t.charAt(n - 1))) n--;
            t = t.substring(0, n);
            int w = n;
            while (w > 0 && !space(t.charAt(w - 1))) w--;
            int p = t.indexOf("until=", w);
            if (p >= 0 && p + 6 < n) return new Body(List.of(), blankToNull(t.substring(0, p)), t.substring(p + 6));
            return new Body(List.of(), blankToNull(t), null);
        }
        if (b.startsWith("until=", i) && i + 6 < b.length() && !space(b.charAt(i + 6))) {
            int e = i + 6;
            while (e < b.length() && !space(b.charAt(e))) e++;
            return skip(b, e) == b.length() ? new Body(List.of(), null, b.substring(i + 6, e)) : null;
        }
        return i >= b.length() ? new Body(List.of(), null, null) : null;
    }

    private static String blankToNull(String s) {
        return s.isBlank() ? null : s.strip();
    }

    /** The end of a rule id {@code [A-Za-z]+[0-9]+} at {@code i}, or {@code i} when there is none. */
    private static int rule(String b, int i) {
        int j = i;
        while (j < b.length() && letter(b.charAt(j))) j++;
        if (j == i) return i;
        int k = j;
        while (k < b.length() && b.charAt(k) >= '0' && b.charAt(k) <= '9') k++;
        return k == j ? i : k;
    }

    private static int skip(String s, int i) {
        while (i < s.length() && space(s.charAt(i))) i++;
        return i;
    }

    private static boolean letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

    private static boolean word(char c) { return letter(c) || (c >= '0' && c <= '9') || c == '_'; }

    /** The characters of the regex class {@code \s}. */
    private static boolean space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r'; }
}
