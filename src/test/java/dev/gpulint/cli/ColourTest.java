package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ColourTest {

    private static boolean auto(Map<String, String> env, boolean terminal) { return Colour.auto(env::get, terminal); }

    @Test
    void aTerminalGetsColourUnlessTheEnvironmentSaysOtherwise() {
        assertTrue(auto(Map.of("TERM", "xterm-256color"), true));
        assertFalse(auto(Map.of(), false), "a pipe or a file gets no colour");
        assertFalse(auto(Map.of("TERM", "dumb"), true), "TERM=dumb");
        assertFalse(auto(Map.of("NO_COLOR", "1"), true), "NO_COLOR");
        assertTrue(auto(Map.of("NO_COLOR", ""), true), "an empty NO_COLOR does not count (no-color.org)");
        assertFalse(auto(Map.of("CLICOLOR", "0"), true), "CLICOLOR=0");
        assertTrue(auto(Map.of("CLICOLOR_FORCE", "1", "TERM", "dumb"), false), "CLICOLOR_FORCE wins, even into a pipe");
        assertFalse(auto(Map.of("CLICOLOR_FORCE", "0"), false));
    }
}
