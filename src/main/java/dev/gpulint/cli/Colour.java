package dev.gpulint.cli;

import java.util.function.Function;

/**
 * Whether `--color auto` colours the text report, by the conventions terminals and CI systems set:
 * FORCE_COLOR (non-empty, not 0 or false; Node's and GitHub Actions' convention) and CLICOLOR_FORCE
 * (not 0) force colour on; NO_COLOR (non-empty, no-color.org) and TERM=dumb turn it off, and so do
 * CLICOLOR=0 and FORCE_COLOR=0; otherwise colour when standard output is a terminal ({@link #stdoutIsTerminal}).
 */
final class Colour {
    private Colour() {}

    /** Set by bin/gpulint from {@code test -t 1}: 1 when standard output is a terminal, 0 when not. */
    static final String STDOUT_TTY = "GPULINT_STDOUT_TTY";

    /**
     * Whether standard output is a terminal: as the launcher found ({@code test -t 1}, in {@link #STDOUT_TTY});
     * without the launcher, {@code System.console()}, which Java 17 gives only when standard input is a
     * terminal too.
     */
    static boolean stdoutIsTerminal(Function<String, String> env) {
        String tty = env.apply(STDOUT_TTY);
        if ("1".equals(tty)) return true;
        if ("0".equals(tty)) return false;
        return System.console() != null;
    }

    static boolean auto(Function<String, String> env, boolean terminal) {
        String forceColor = env.apply("FORCE_COLOR");
        if (forceColor != null && !forceColor.isEmpty()) {
            return !forceColor.equals("0") && !forceColor.equalsIgnoreCase("false");
        }
        String force = env.apply("CLICOLOR_FORCE");
        if (force != null && !force.isEmpty() && !force.equals("0")) return true;
        String noColor = env.apply("NO_COLOR");
        if (noColor != null && !noColor.isEmpty()) return false;
        if ("dumb".equals(env.apply("TERM"))) return false;
        if ("0".equals(env.apply("CLICOLOR"))) return false;
        return terminal;
    }
}
