package dev.gpulint.bind.adapt.shell;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What the shell scan knows of a script's variables at one point, without following control flow:
 * the known values, the names the script assigns a value it cannot know (a command substitution, an
 * argument, a loop variable, a {@code read} target, an assignment inside an {@code if}, loop or
 * {@code case} once that block ends), and whether a {@code source}/{@code .} line came before (it may set
 * anything). A {@code ${NAME:-default}} of such a name is unknown, not its default. Also the text the
 * script's expansions have produced so far (their bound).
 */
final class ShellState {
    /** The known values. */
    final Map<String, String> vars;
    /** Names assigned a value the scan cannot know. */
    private final Set<String> unknown = new HashSet<>();
    /** After a source or . line: any unset variable may have been set by the sourced file. */
    boolean sourced;
    /** The text expansions have produced so far. */
    long used;
    /** The child shells the script's strings have run so far ({@link Shell.Command#shell}). */
    int childShells;
    /** Each shell's last {@code set -a} (true) or {@code set +a} (false): a shell without one has its parent's (allexport). */
    final Map<String, Boolean> allexport = new java.util.HashMap<>();
    /** The characters of each known bash array (its elements and a separator each), kept so an append need not count them again. */
    final Map<String, Long> arraySizes = new java.util.HashMap<>();
    /** Arrays that grew past the value bound: unknown until assigned afresh. */
    final java.util.Set<String> unknownArrays = new java.util.HashSet<>();

    /** An open if/loop/case/brace block and the names assigned inside it. */
    private static final class Block {
        final boolean isCase;
        final Set<String> names = new HashSet<>();
        Block(boolean isCase) { this.isCase = isCase; }
    }

    private final Deque<Block> blocks = new ArrayDeque<>();
    private int cases;

    ShellState(Map<String, String> vars) { this.vars = vars; }

    /** NAME=value; {@code value} null when unknown. Inside a case branch any value is unknown (branches are not told apart). */
    void assign(String name, String value) {
        if (value == null || cases > 0) { vars.remove(name); unknown.add(name); }
        else { vars.put(name, value); unknown.remove(name); }
        forgetTrace(name);
        if (!blocks.isEmpty()) blocks.peek().names.add(name);
    }

    /**
     * The most characters of variable values whose places are kept ({@link #traced}); past it a value is placed
     * where it is expanded. Bounds the memory the places take (four bytes a character).
     */
    static final long MAX_TRACED = 1024 * 1024;

    /** Where each character of a variable's value is written (see ShellExpansion.Trace), by name. */
    private final Map<String, int[]> origins = new java.util.HashMap<>();
    /** The text of a value only partly known (its unknown parts as written), by name: a string run as a script expands it. */
    private final Map<String, String> partial = new java.util.HashMap<>();
    private long traced;

    /**
     * Keeps where NAME's value (just assigned) is written, and its text when only partly known
     * ({@code partialText} non-null), within {@link #MAX_TRACED}.
     */
    void traced(String name, String partialText, int[] offsets) {
        if (offsets == null || traced + offsets.length > MAX_TRACED) return;
        traced += offsets.length;
        origins.put(name, offsets);
        if (partialText != null) partial.put(name, partialText);
    }

    int[] origins(String name) { return origins.get(name); }

    String partial(String name) { return partial.get(name); }

    private void forgetTrace(String name) {
        int[] o = origins.remove(name);
        if (o != null) traced -= o.length;
        partial.remove(name);
    }

    /** unset NAME: really unset again (inside a block, unknown). */
    void unset(String name) {
        if (blocks.isEmpty()) { vars.remove(name); unknown.remove(name); forgetTrace(name); } else assign(name, null);
    }

    /** Whether NAME's ${NAME:-default} may not take its default though NAME has no known value. */
    boolean mayBeSet(String name) { return sourced || unknown.contains(name); }

    /** if, while, until, for, select, case, {: a block opens. */
    void open(boolean isCase) {
        blocks.push(new Block(isCase));
        if (isCase) cases++;
    }

    /** else/elif: what the branch before assigned is unknown in this one. */
    void branch() {
        if (!blocks.isEmpty()) forget(blocks.peek());
    }

    /** fi, done, esac, }: the block's assignments may or may not have run, so their values are unknown. */
    void close() {
        if (blocks.isEmpty()) return;
        Block b = blocks.pop();
        if (b.isCase) cases--;
        forget(b);
    }

    /** A leading keyword's effect on what is known: blocks open and close, branches part. */
    void keyword(String keyword) {
        switch (keyword) {
            case "if", "while", "until", "{" -> open(false);
            case "else", "elif" -> branch();
            case "fi", "done", "}", "esac" -> close();
            default -> { }
        }
    }

    /** Commands that change what is known: for/select/case open blocks, loop variables and read targets are unknown, source may set anything. */
    void command(List<ShellTokens.Raw> cmd, int i) {
        if (i >= cmd.size() || cmd.get(i).quoted) return;
        String w = cmd.get(i).text;
        switch (w) {
            case "for", "select" -> {
                open(false);
                if (i + 1 < cmd.size() && NAME.matcher(cmd.get(i + 1).text).matches()) assign(cmd.get(i + 1).text, null);
            }
            case "case" -> open(true);
            case "source", "." -> sourced = true;
            case "read", "mapfile", "readarray" -> {
                for (int j = i + 1; j < cmd.size(); j++) {
                    String a = cmd.get(j).text;
                    if (a.matches("-[pdtnNuiC]")) j++;
                    else if (NAME.matcher(a).matches()) assign(a, null);
                }
            }
            case "unset" -> {
                for (int j = i + 1; j < cmd.size(); j++) if (NAME.matcher(cmd.get(j).text).matches()) unset(cmd.get(j).text);
            }
            default -> { }
        }
    }

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private void forget(Block b) {
        for (String n : b.names) { vars.remove(n); unknown.add(n); forgetTrace(n); }
    }
}
