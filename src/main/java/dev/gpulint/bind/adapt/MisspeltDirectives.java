package dev.gpulint.bind.adapt;

import dev.gpulint.bind.adapt.shell.ScalarText;
import dev.gpulint.bind.adapt.shell.Shell.Word;
import dev.gpulint.core.DidYouMean;
import dev.gpulint.core.Finding;
import dev.gpulint.core.Level;
import java.util.List;
import java.util.Locale;

/**
 * SYN009: a comment among a batch script's directives that is meant as one but that sbatch never reads. sbatch takes
 * a directive only from a line that begins with {@code #SBATCH} exactly (Slurm's src/sbatch/opt.c compares the line's
 * first seven characters with "#SBATCH", case-sensitively, and reads the options after them, so {@code #SBATCH--nodes=2}
 * is read); any other spelling is a comment to sbatch and to the shell, and its options are silently not requested.
 * Found: an upper-case word one or two edits from SBATCH right after the '#' ({@code #SBTACH}, {@code #SBACTH},
 * {@code #SBATH}), {@code # SBATCH} with a space, and {@code #sbatch}/{@code #Sbatch}, each followed by an option.
 * Quiet: {@code ##SBATCH} (the usual way to switch a directive off), and {@code # sbatch --nodes=2 run.sh} in lower
 * case after a space (a usage line).
 */
final class MisspeltDirectives {
    private MisspeltDirectives() {}

    /** The longest options text quoted in a message. */
    private static final int MAX_QUOTED = 80;

    /** The sentinel as written ({@code #SBTACH}) with the options after it, when the line at {@code i} is a misspelt directive; else null. */
    static Word[] at(ScalarText text, String s, int i, int end) {
        if (i >= end || s.charAt(i) != '#' || (i + 1 < end && s.charAt(i + 1) == '#')) return null;
        int j = i + 1;
        while (j < end && (s.charAt(j) == ' ' || s.charAt(j) == '\t')) j++;
        boolean spaced = j > i + 1;
        int k = j;
        while (k < end && k - j <= 8 && Character.isLetter(s.charAt(k))) k++;
        String w = s.substring(j, k);
        if (w.length() < 4 || w.length() > 8) return null;
        int o = k;
        while (o < end && (s.charAt(o) == ' ' || s.charAt(o) == '\t')) o++;
        if (o >= end || s.charAt(o) != '-') return null;                     // not followed by an option: prose
        boolean upper = w.equals(w.toUpperCase(Locale.ROOT));
        if (spaced) {
            if (!w.equals("SBATCH")) return null;                                // "# sbatch --nodes=2 run.sh": a usage line
        } else if (upper) {
            if (w.equals("SBATCH") || w.charAt(0) != 'S' || DidYouMean.distance(w, "SBATCH") > 2) return null;
        } else if (!w.equalsIgnoreCase("SBATCH")) {
            return null;
        }
        String options = s.substring(o, end).strip();
        if (options.length() > MAX_QUOTED) options = options.substring(0, MAX_QUOTED) + "...";
        return new Word[] {new Word(s.substring(i, k), true, text.span(i, k)), new Word(options, true, text.span(o, end))};
    }

    /**
     * The line at {@code pos}, whose {@code #SBATCH} (at {@code i}) comes after blanks: the indentation and the sentinel,
     * placed from the line's start, with the options after it. sbatch compares the line's own first seven characters with
     * "#SBATCH" ({@code xstrncmp(line, magic_word1, magic_word_len1)} in _opt_batch_script, SchedMD/slurm src/sbatch/opt.c),
     * so an indented one is a comment line to it: read past, its options never requested. Null when no option follows
     * ({@code   #SBATCH lines must come first}: prose, as {@link #at} leaves a misspelling followed by words).
     */
    static Word[] indented(ScalarText text, String s, int pos, int i, int end) {
        int o = i + 7;
        while (o < end && SlurmDirectives.isspace(s.charAt(o))) o++;
        if (o >= end || s.charAt(o) != '-') return null;                     // not followed by an option: prose, as at()'s
        String options = s.substring(o, end).strip();
        if (options.length() > MAX_QUOTED) options = options.substring(0, MAX_QUOTED) + "...";
        return new Word[] {new Word(s.substring(pos, i + 7), true, text.span(pos, i + 7)), new Word(options, true, text.span(o, end))};
    }

    /** The finding of one misspelt directive: the sentinel and the options sbatch does not see. */
    static Finding finding(String format, String jobName, Word[] m) {
        String written = m[0].text(), options = m[1].text();
        if (!written.startsWith("#")) {
            String blanks = written.substring(0, written.length() - 7);
            String indent = blanks.chars().allMatch(c -> c == ' ') ? blanks.length() + (blanks.length() == 1 ? " space" : " spaces")
                    : blanks.chars().allMatch(c -> c == '\t') ? blanks.length() + (blanks.length() == 1 ? " tab" : " tabs")
                    : blanks.length() + " blank characters";
            String message = "this #SBATCH is indented (" + indent + " before it): sbatch reads a directive only from a line whose"
                    + " first seven characters are #SBATCH (Slurm's _opt_batch_script compares the line's start, not its first word),"
                    + " so it reads this line as a comment and never requests " + options + "; to the shell the line is a comment"
                    + " too, and the job runs with sbatch's defaults for those options instead; write '#SBATCH " + options
                    + "' at the start of the line, or '##SBATCH' to switch the directive off on purpose";
            return new Finding("SYN009", Level.WARNING, m[0].span(), message, List.of(), format + ":" + jobName + "/#SBATCH " + options);
        }
        String message = "'" + written + "' is not '#SBATCH': sbatch reads a directive only from a line that begins with #SBATCH exactly "
                + "(upper case, right after the '#'), so it ignores this line and never requests " + options
                + "; to the shell the line is a comment too, and the job runs with sbatch's defaults for those options instead; write '#SBATCH "
                + options + "', or '##SBATCH' to switch the directive off on purpose";
        return new Finding("SYN009", Level.WARNING, m[0].span(), message, List.of(), format + ":" + jobName + "/" + written + " " + options);
    }
}
