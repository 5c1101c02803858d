package dev.gpulint.cli;

import dev.gpulint.core.Safety;
import dev.gpulint.app.Checks;
import dev.gpulint.fix.FixWriter;
import dev.gpulint.fix.UnifiedDiff;
import dev.gpulint.app.CheckRequest;
import dev.gpulint.report.Visible;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;

/**
 * {@code check --fix}, {@code --unsafe-fixes} and {@code --diff} (README, "Fixes"): the options' rules, the diff
 * printed, the fixes written, and the closing line saying what was fixed and what remains.
 */
final class Fixing {
    private Fixing() {}

    /** Why these options cannot run together, or null. */
    static String refused(boolean fix, boolean unsafe, boolean diff, boolean fromStdin, String output) {
        if (unsafe && !fix && !diff) return "--unsafe-fixes adds unsafe fixes to --fix or --diff: give one of them too";
        if (diff && output != null) return "--diff prints the changes to standard output: it takes no --output";
        // standard input has no file to write back to; its fixes are shown, never printed as if they were a report
        if (fix && !diff && fromStdin) {
            return "--fix rewrites files, and standard input is none: use --diff to see its fixes, or lint the file itself with --fix";
        }
        return null;
    }

    /** The safety the run applies up to. */
    static Safety atMost(boolean unsafe) { return unsafe ? Safety.UNSAFE : Safety.SAFE; }

    /** Prints the diff of every changed file and a closing line on standard error; exit 1 when there is a diff. */
    static int diff(Checks.Fixed r, PrintWriter out, PrintWriter err, boolean unsafe, boolean quiet) {
        for (var e : r.after().entrySet()) {
            // a byte-order mark is in the file's first line as patch and git apply read it: the diff's line 1 has it too
            var src = r.texts().sources().get(e.getKey());
            String bom = src != null && !e.getKey().equals(r.texts().stdin()) && FixWriter.startsWithBom(src.path()) ? "\uFEFF" : "";
            out.print(UnifiedDiff.of(e.getKey(), bom + r.before().get(e.getKey()), bom + e.getValue()));
        }
        out.flush();
        if (r.refused() != null) err.println("gpulint: " + r.refused());
        if (!quiet) {
            String more = unsafe ? "" : more(r.fixable(Safety.UNSAFE));
            err.println(r.fixed() == 0 ? "gpulint: nothing to fix" + more
                    : "gpulint: would fix " + count(r.fixed(), "finding") + " in " + count(r.after().size(), "file") + more);
        }
        // fix settings with an error: no diff could be made, which is not "nothing to change" (exit 0)
        if (r.last().result().inputFailed() || r.refused() != null) return Main.BAD_INPUT;
        return r.changed() ? Main.FINDINGS : Main.OK;
    }

    /**
     * Writes the fixes; the files not written are told on {@code err} (their {@link Checks.Fixed#unwritten} makes
     * the run fail), and the result returned reports them as linted: their findings as read, their fixes not counted.
     */
    static Checks.Fixed write(Checks.Fixed r, CheckRequest request, PrintWriter err) {
        if (r.refused() != null) err.println("gpulint: " + r.refused());
        Map<String, String> problems = FixWriter.write(r.texts());
        for (String p : problems.values()) err.println("gpulint: " + Visible.of(p));
        if (problems.isEmpty()) return r;
        return Checks.unwritten(request, r, List.copyOf(problems.keySet()));
    }

    /** The closing line of --fix: "fixed 3 findings in 2 files; 1 remains (1 more with --unsafe-fixes)". */
    static String closing(Checks.Fixed r, boolean unsafe) {
        long remain = r.last().result().findings().stream().filter(f -> !f.suppressed()).count();
        return "fixed " + count(r.fixed(), "finding") + (r.fixed() == 0 ? "" : " in " + count(r.after().size(), "file")) + "; "
                + remain + (remain == 1 ? " remains" : " remain") + (unsafe ? "" : more(r.fixable(Safety.UNSAFE)));
    }

    private static String more(long unsafe) {
        return unsafe == 0 ? "" : " (" + unsafe + " more with --unsafe-fixes)";
    }

    private static String count(long n, String word) { return n + " " + word + (n == 1 ? "" : "s"); }
}
