package dev.gpulint.bind.adapt.shell;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The shell scan's tokenizer: splits a script into commands of raw words the way sh does for the
 * common cases (quotes, backslash-newline, comments, {@code ; && || |}, {@code $(...)}), and reads
 * the elements of a bash array {@code NAME=( ... )} as one word's elements. One pass, no recursion
 * beyond an array's one level: linear in the script's length.
 */
public final class ShellTokens {
    private ShellTokens() {}

    /** A word before expansion: its text without quotes, and its offsets in the script. */
    static final class Raw {
        final StringBuilder sb = new StringBuilder();
        /** Where each character of {@code sb} is written in the script (its offset), so a string run as a script can be placed. */
        int[] at = new int[8];
        String text;
        int start, end, valueStart = -1;
        boolean quoted, literal = true, quotedName;
        /** The elements of NAME=( ... ); null for any other word. */
        List<Raw> elements;
        /**
         * On a command's first word: the here-document the command reads (cat <<EOT > ds.json), its body's
         * offsets in the script ({@code -1} when none), and whether its body expands $VARIABLES (an unquoted delimiter).
         */
        int heredocStart = -1, heredocEnd = -1;
        boolean heredocExpands;
        /** On a command's first word: the {@code ( ... )} subshell the command runs in, null for the enclosing shell's own. */
        Group group;

        /** Appends one character written at {@code offset}. */
        void add(char c, int offset) {
            if (sb.length() == at.length) at = java.util.Arrays.copyOf(at, at.length * 2);
            at[sb.length()] = offset;
            sb.append(c);
        }

        /** Appends s[from, to), each character at its own offset. */
        void add(String s, int from, int to) {
            for (int k = from; k < to; k++) add(s.charAt(k), k);
        }

        /** The offsets of text[from, text.length()). */
        int[] offsets(int from) {
            return java.util.Arrays.copyOfRange(at, Math.min(from, text.length()), text.length());
        }
    }

    /** The most here-documents of one script whose bodies are kept; later ones are skipped as text only. */
    public static final int MAX_HEREDOCS = 16;

    /**
     * Moves the raw words of a string a script runs into the script's own offsets: each character's offset i in
     * the string becomes {@code toTop[i]} (ShellStrings), so a variable assigned there is placed in the script.
     */
    static void relocate(List<List<Raw>> commands, int[] toTop) {
        for (List<Raw> cmd : commands) relocateWords(cmd, toTop);
    }

    private static void relocateWords(List<Raw> words, int[] toTop) {
        for (Raw r : words) {
            for (int k = 0; k < r.sb.length(); k++) r.at[k] = toTop[Math.max(0, Math.min(toTop.length - 1, r.at[k]))];
            if (r.elements != null) relocateWords(r.elements, toTop);
        }
    }

    /**
     * A {@code ( ... )} group: its commands run in a subshell of the shell around it ({@code parent}, null for the script's
     * own), so what they export or assign does not reach the commands after the group. {@code id} is the shell's id once
     * {@link Shell} numbers it ({@link Shell.Command#shell}).
     */
    static final class Group {
        final Group parent;
        String id;
        Group(Group parent) { this.parent = parent; }
    }

    /**
     * How deep {@code ( ... )} groups are told apart: a group inside {@value} others runs in the innermost one kept (its
     * exports reach that one's later commands), so a run of 100,000 parentheses keeps every shell id short.
     */
    static final int MAX_GROUP_DEPTH = 16;

    /**
     * The open {@code ( ... )} groups of a scan. A {@code (} opens a subshell only where a command starts; any other
     * (a function's {@code name()}, {@code <(...)}) is matched by the next {@code )}; inside {@code case ... esac} no
     * parenthesis counts (a pattern's {@code a)}), so a group there is read as the enclosing shell's, as before.
     */
    private static final class Groups {
        final java.util.ArrayDeque<Group> open = new java.util.ArrayDeque<>();
        int depth, others, cases;

        Group current() { return open.peek(); }

        void opened(boolean commandStart) {
            if (cases > 0) return;
            if (!commandStart) { others++; return; }
            Group g = depth < MAX_GROUP_DEPTH ? new Group(open.peek()) : open.peek();
            open.push(g);
            depth++;
        }

        void closed() {
            if (cases > 0) return;
            if (others > 0) { others--; return; }
            if (!open.isEmpty()) { open.pop(); depth--; }
        }

        /** A command's first word: case opens a case block, esac closes one. */
        void first(Raw w) {
            if (w.quoted) return;
            if (w.text.equals("case")) cases++;
            else if (w.text.equals("esac") && cases > 0) cases--;
        }
    }

    private static void add(List<List<Raw>> commands, List<Raw> cur, Groups groups) {
        cur.get(0).group = groups.current();
        commands.add(cur);
    }

    private static final Pattern ARRAY_HEAD = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*\\+?=");

    static List<List<Raw>> tokenize(String s) {
        List<List<Raw>> commands = new ArrayList<>();
        scan(s, 0, commands, null);
        return commands;
    }

    /**
     * Splits s from {@code i} into commands of raw words; with {@code elements} set, reads the
     * elements of an array up to its closing parenthesis instead (newlines and separators only
     * separate words there) and returns the index after it.
     */
    private static int scan(String s, int i, List<List<Raw>> commands, List<Raw> elements) {
        List<Raw> cur = elements != null ? elements : new ArrayList<>();
        Groups groups = new Groups();
        Raw w = null;
        int n = s.length();
        String heredoc = null;              // the delimiter of a here-document whose body starts at the next line
        boolean strip = false, expands = false;
        int kept = 0;
        while (i < n) {
            char c = s.charAt(i);
            if (c == '<' && s.startsWith("<<<", i)) {
                // a here-string (read -ra ARGS <<< "$X"): its word is an ordinary word, and no here-document starts
                w = finish(w, cur);
                i += 3;
                continue;
            }
            if (c == '<' && elements == null && s.startsWith("<<", i)) {
                w = finish(w, cur);
                int j = i + 2;
                strip = j < n && s.charAt(j) == '-';
                if (strip) j++;
                while (j < n && (s.charAt(j) == ' ' || s.charAt(j) == '\t')) j++;
                StringBuilder d = new StringBuilder();
                expands = true;
                for (; j < n && " \t\n;|&<>()".indexOf(s.charAt(j)) < 0; j++) {
                    if (s.charAt(j) != '\'' && s.charAt(j) != '"' && s.charAt(j) != '\\') d.append(s.charAt(j)); else expands = false;
                }
                if (d.length() > 0 && !feedsShell(cur)) heredoc = d.toString();   // bash <<EOF: the body is the script run
                i = j;
                continue;
            }
            if (c == '\n' && heredoc != null) {
                int body = i + 1;
                int[] end = new int[1];
                i = afterHeredoc(s, body, heredoc, strip, end);  // a here-document's body is text, not commands
                int bodyEnd = end[0];
                heredoc = null;
                w = finish(w, cur);
                if (!cur.isEmpty() && kept < MAX_HEREDOCS) {
                    kept++;
                    Raw first = cur.get(0);
                    first.heredocStart = Math.min(body, i);
                    first.heredocEnd = Math.max(first.heredocStart, Math.min(i, bodyEnd));
                    first.heredocExpands = expands;
                }
                if (!cur.isEmpty()) { add(commands, cur, groups); cur = new ArrayList<>(); }
                continue;
            }
            if (c == '\\' && i + 1 < n && s.charAt(i + 1) == '\n') { i += 2; continue; }
            if (c == '\\' && i + 2 < n && s.charAt(i + 1) == '\r' && s.charAt(i + 2) == '\n') { i += 3; continue; }
            if (c == ' ' || c == '\t' || c == '\r') { w = finish(w, cur, groups); i++; continue; }
            if (elements != null && (c == ')' || c == '\n' || c == ';' || c == '&' || c == '|' || c == '(' || c == '`')) {
                w = finish(w, cur);
                i++;
                if (c == ')') return i;
                continue;
            }
            if (c == '(' && w != null && elements == null && w.valueStart == i && !w.quotedName && ARRAY_HEAD.matcher(w.sb).matches()) {
                w.elements = new ArrayList<>();
                i = scan(s, i + 1, null, w.elements);
                w.end = i;
                continue;
            }
            if (c == '\n' || c == ';' || c == '&' || c == '|' || c == '(' || c == ')' || c == '`') {
                boolean commandStart = w == null && cur.isEmpty();
                w = finish(w, cur, groups);
                if (!cur.isEmpty()) { add(commands, cur, groups); cur = new ArrayList<>(); }
                if (c == '(') groups.opened(commandStart);
                else if (c == ')') groups.closed();
                i++;
                continue;
            }
            if (c == '#' && w == null) {
                while (i < n && s.charAt(i) != '\n') i++;
                continue;
            }
            if (w == null) { w = new Raw(); w.start = i; }
            if (c == '=' && w.valueStart < 0) w.valueStart = i + 1;
            if (c == '\'') {
                if (w.valueStart < 0) w.quotedName = true;
                w.quoted = true;
                int close = s.indexOf('\'', i + 1);
                if (close < 0) close = n;
                w.add(s, i + 1, close);
                i = Math.min(n, close + 1);
                w.end = i;
                continue;
            }
            if (c == '"') {
                if (w.valueStart < 0) w.quotedName = true;
                w.quoted = true;
                i++;
                while (i < n && s.charAt(i) != '"') {
                    char d = s.charAt(i);
                    if (d == '\\' && i + 1 < n) { char e = s.charAt(i + 1); if (e == '\n') { i += 2; continue; } w.add(e, i + 1); i += 2; continue; }
                    if (d == '$') w.literal = false;
                    w.add(d, i);
                    i++;
                }
                i = Math.min(n, i + 1);
                w.end = i;
                continue;
            }
            if (c == '\\' && i + 1 < n) { w.add(s.charAt(i + 1), i + 1); i += 2; w.end = i; continue; }
            if (c == '$') {
                w.literal = false;
                if (i + 1 < n && s.charAt(i + 1) == '(') {
                    int depth = 0, j = i + 1;
                    for (; j < n; j++) {
                        char d = s.charAt(j);
                        if (d == '(') depth++;
                        else if (d == ')' && --depth == 0) break;
                    }
                    j = Math.min(n - 1, j);
                    w.add(s, i, j + 1);
                    i = j + 1;
                    w.end = i;
                    continue;
                }
            }
            w.add(c, i);
            i++;
            w.end = i;
        }
        finish(w, cur, groups);
        if (elements == null && !cur.isEmpty()) add(commands, cur, groups);
        return n;
    }

    /** Programs that run a here-document fed to them as commands (bash <<'EOF', ssh host <<EOF). */
    private static final java.util.Set<String> SHELLS = java.util.Set.of("bash", "sh", "zsh", "dash", "ksh", "ssh", "srun");

    /** Whether the command so far runs its standard input as a script. */
    private static boolean feedsShell(List<Raw> cur) {
        for (Raw r : cur) if (r.text != null && SHELLS.contains(r.text.substring(r.text.lastIndexOf('/') + 1))) return true;
        return false;
    }

    /**
     * The index after the line that ends a here-document whose body starts at {@code i} (the end when none does);
     * {@code bodyEnd[0]} receives where that line starts, the body's end.
     */
    private static int afterHeredoc(String s, int i, String delimiter, boolean stripTabs, int[] bodyEnd) {
        int n = s.length();
        bodyEnd[0] = n;
        while (i < n) {
            int eol = s.indexOf('\n', i);
            int end = eol < 0 ? n : eol;
            int from = i;
            if (stripTabs) while (from < end && s.charAt(from) == '\t') from++;
            int to = end > from && s.charAt(end - 1) == '\r' ? end - 1 : end;
            if (s.regionMatches(from, delimiter, 0, delimiter.length()) && to - from == delimiter.length()) {
                bodyEnd[0] = i;
                return eol < 0 ? n : eol + 1;
            }
            i = eol < 0 ? n : eol + 1;
        }
        return n;
    }

    private static Raw finish(Raw w, List<Raw> cur, Groups groups) {
        if (w != null && cur.isEmpty()) { w.text = w.sb.toString(); groups.first(w); }
        return finish(w, cur);
    }

    private static Raw finish(Raw w, List<Raw> cur) {
        if (w != null) {
            w.text = w.sb.toString();
            if (w.end < w.start) w.end = w.start;
            cur.add(w);
        }
        return null;
    }

    /** The longest here-document body whose variables are kept; a longer body expands nothing. */
    public static final int MAX_HEREDOC = 64 * 1024;
    /** The most text of variable values one here-document keeps; past it, further variables stay unknown. */
    public static final int MAX_HEREDOC_VALUES = 256 * 1024;

    /** The known variables the body s[start, end) names ($NAME, ${NAME}, ${NAME:-default}), within the bounds above. */
    static java.util.Map<String, String> referenced(String s, int start, int end, java.util.Map<String, String> vars) {
        java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
        if (end - start > MAX_HEREDOC) return out;
        java.util.regex.Matcher m = REFERENCE.matcher(s).region(start, end);
        long size = 0;
        while (m.find()) {
            String v = vars.get(m.group(1));
            if (v == null || out.containsKey(m.group(1))) continue;
            if ((size += v.length()) > MAX_HEREDOC_VALUES) break;
            out.put(m.group(1), v);
        }
        return out;
    }

    private static final Pattern REFERENCE = Pattern.compile("\\$\\{?([A-Za-z_][A-Za-z0-9_]*)");

}
