package dev.gpulint.bind.adapt.shell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.core.Span;
import dev.gpulint.tree.ScalarNode;
import org.junit.jupiter.api.Test;

/** Offsets of a double-quoted YAML scalar's characters, through escapes and line folding. */
class DoubleQuotedTest {

    @Test
    void escapesMapToTheirBackslash() {
        String src = "\"a\\tb\\x41\\u00e9\"";
        assertArrayEquals(new int[] {1, 2, 4, 5, 9, 15}, DoubleQuoted.offsets(src, 0, src.length() - 1, "a\tbAé"));
    }

    @Test
    void escapedLineBreakAndIndentationVanish() {
        String src = "\"mpirun \\\n    -np 64\"";
        int[] at = DoubleQuoted.offsets(src, 0, src.length() - 1, "mpirun -np 64");
        assertEquals(src.indexOf("-np"), at[7]);
        assertEquals(src.indexOf("64"), at[11]);
    }

    @Test
    void unescapedBreakFoldsToASpaceAndEmptyLinesToNewlines() {
        String src = "\"a  \n   b\n\n  c\"";
        int[] at = DoubleQuoted.offsets(src, 0, src.length() - 1, "a b\nc");
        assertEquals(4, at[1]);
        assertEquals(src.indexOf('b'), at[2]);
        assertEquals(src.lastIndexOf('c'), at[4]);
    }

    @Test
    void aValueTheSourceDoesNotDecodeToIsRefused() {
        String src = "\"abc\"";
        assertNull(DoubleQuoted.offsets(src, 0, src.length() - 1, "abd"));
        assertNull(DoubleQuoted.offsets("\"a\\qb\"", 0, 5, "aqb"));
    }

    @Test
    void scalarTextPointsInsideTheQuotedScript() {
        String src = "args: [\"echo \\\"x\\\"; mpirun \\\n      -np 8\"]\n";
        ScalarNode s = new ScalarNode("echo \"x\"; mpirun -np 8", true, new Span("f.yaml", 1, 8, 2, 13));
        ScalarText t = ScalarText.of(src, s);
        int np = t.value().indexOf("8");
        Span sp = t.span(np, np + 1);
        assertEquals(2, sp.startLine());
        assertEquals(11, sp.startColumn());
    }
}
