package dev.gpulint.cli;

import java.util.function.Function;

/**
 * Whether `--color auto` colours the text report, by the conventions terminals and CI systems set:
 * CLICOLOR_FORCE (not 0) forces colour on; NO_COLOR (non-empty, no-color.org) and TERM=dumb turn it
 * off, and so does CLICOLOR=0; otherwise colour when the output is a terminal.
 */
final class Colour {
    private Colour() {}

    static boolean auto(Function<String, String> env, boolean terminal) {
        String force = env.apply("CLICOLOR_FORCE");
        if (force != null && !force.isEmpty() && !force.equals("0")) return true;
        String noColor = env.apply("NO_COLOR");
        if (noColor != null && !noColor.isEmpty()) return false;
        if ("dumb".equals(env.apply("TERM"))) return false;
        if ("0".equals(env.apply("CLICOLOR"))) return false;
        return terminal;
    }
}
