package dev.gpulint.bind.adapt.shell;

import dev.gpulint.bind.adapt.shell.Shell.Word;
import dev.gpulint.core.Span;
import java.util.ArrayList;
import java.util.List;

/**
 * GNU env's split string: {@code env -S 'NAME=V prog args'} (also {@code -SSTRING}, {@code --split-string=STRING},
 * {@code --split-string STRING}) splits STRING into arguments that take the option's place, so its NAME=value words, its
 * {@code -u}/{@code -i} and its program are read as if written one by one (coreutils src/env.c parse_split_string, added in
 * coreutils/coreutils commit 668306ed86c8c79b0af0db8b9c882654ebb66db2; env(1): "-S, --split-string=S process and split S
 * into separate arguments"). Splitting as env does: spaces and tabs separate; '...' is literal; "..." keeps its spaces,
 * with backslash escapes; outside quotes {@code \_} separates and inside double quotes is a space; {@code \c} ends the
 * string; {@code #} opening an argument comments out the rest; {@code \t \n \r \f \v \\ \" \' \$ \#} are the character. An
 * argument with a {@code ${NAME}} (env's substitution from its own environment) is not known. A part is placed at its own
 * characters when the word is written on one line as it reads (or only quoted around), else at the whole word.
 * <p>
 * This is the one walk of env's arguments as env reads them ({@code env [-i] [-u NAME] [-S '...'] NAME=value ... program}):
 * the split strings' words take their place, and each NAME=value before the program is in the program's environment, as
 * a NAME=value before a command is (exported, the command's own); {@code -i} and {@code -u} are read where the command's
 * environment is (bind/adapt/LaunchEnvironment). A word with '=' that is no shell NAME ({@code a-b=1}) env also puts in
 * the environment (env.c: every argument with '=' before the program); no rule reads it, so it is not kept.
 */
final class EnvSplitString {
    private EnvSplitString() {}

    /**
     * The command's words with each of env's split strings split in place (words not env's: unchanged), and env's
     * NAME=value words added to {@code assigns} as exported assignments; stops at the program.
     */
    static void expand(List<Word> words, List<Shell.Assignment> assigns) {
        if (words.isEmpty() || !words.get(0).is("env")) return;
        for (int k = 1; k < words.size(); k++) {
            Word w = words.get(k);
            if (!w.known()) return;
            String t = w.text();
            if (Shell.envOptionWithValue(t)) { k++; continue; }
            Word string = null;
            int drop = 1;
            if ((t.equals("-S") || t.equals("--split-string")) && k + 1 < words.size()) { string = words.get(k + 1); drop = 2; }
            else if (t.startsWith("--split-string=")) string = WordParts.part(w, "--split-string=".length(), t.length());
            else if (t.startsWith("-S") && t.length() > 2) string = WordParts.part(w, 2, t.length());
            if (string != null) {
                if (!string.known()) return;
                List<Word> split = split(string);
                for (int d = 0; d < drop; d++) words.remove(k);
                words.addAll(k, split);
                k--;                                       // its words are read next, as env reads them (each split shortens)
                continue;
            }
            if (t.startsWith("-")) continue;
            if (!t.contains("=")) return;                  // the program: env reads no option after it
            java.util.regex.Matcher m = Shell.ASSIGN.matcher(t);
            if (!m.matches()) continue;
            String name = m.group(1);
            assigns.add(new Shell.Assignment(name, WordParts.part(w, name.length() + 1, t.length()), true,
                    WordParts.part(w, 0, name.length()).span()));
        }
    }

    /** The arguments of one split string, each placed where it is written when the word allows it. */
    static List<Word> split(Word w) {
        Word at = quotedAround(w);
        String s = w.text();
        List<Word> out = new ArrayList<>();
        StringBuilder cur = null;
        boolean plain = true, known = true;
        int start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n') {
                if (cur != null) { out.add(word(at, w, cur, start, i, plain, known)); cur = null; }
                continue;
            }
            if (cur == null) {
                if (c == '#') break;                       // a comment: the rest of the string
                cur = new StringBuilder();
                plain = true;
                known = true;
                start = i;
            }
            if (c == '\'') {
                plain = false;
                int end = s.indexOf('\'', i + 1);
                if (end < 0) end = s.length();
                cur.append(s, i + 1, end);
                i = end;
            } else if (c == '"') {
                plain = false;
                for (i++; i < s.length() && s.charAt(i) != '"'; i++) {
                    char d = s.charAt(i);
                    if (d == '\\' && i + 1 < s.length()) {
                        char e = s.charAt(++i);
                        if (e == 'c') { i = s.length(); break; }
                        cur.append(e == '_' ? ' ' : escaped(e));
                    } else {
                        if (d == '$' && i + 1 < s.length() && s.charAt(i + 1) == '{') known = false;
                        cur.append(d);
                    }
                }
            } else if (c == '\\' && i + 1 < s.length()) {
                plain = false;
                char e = s.charAt(++i);
                if (e == 'c') break;
                if (e == '_') { out.add(word(at, w, cur, start, i + 1, false, known)); cur = null; continue; }
                cur.append(escaped(e));
            } else {
                if (c == '$' && i + 1 < s.length() && s.charAt(i + 1) == '{') known = false;
                cur.append(c);
            }
        }
        if (cur != null) out.add(word(at, w, cur, start, s.length(), plain, known));
        return out;
    }

    private static char escaped(char e) {
        return switch (e) { case 't' -> '\t'; case 'n' -> '\n'; case 'r' -> '\r'; case 'f' -> '\f'; case 'v' -> '\u000b'; default -> e; };
    }

    private static Word word(Word at, Word w, StringBuilder text, int from, int to, boolean plain, boolean known) {
        Word placed = plain ? WordParts.part(at, from, to) : new Word(text.toString(), known, w.span());
        return new Word(text.toString(), known && w.known(), placed.span());
    }

    /** {@code w} placed at its text when its span is the text quoted around ('...' or "..." on one line), else {@code w}. */
    private static Word quotedAround(Word w) {
        Span sp = w.span();
        if (sp.startLine() != sp.endLine() || sp.endColumn() - sp.startColumn() != w.text().length() + 2) return w;
        return new Word(w.text(), w.known(), new Span(sp.file(), sp.startLine(), sp.startColumn() + 1, sp.startLine(), sp.endColumn() - 1));
    }
}
