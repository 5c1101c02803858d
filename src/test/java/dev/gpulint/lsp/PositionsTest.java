package dev.gpulint.lsp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.core.Span;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;
import org.junit.jupiter.api.Test;

/** gpulint's code-point columns from 1 against LSP's UTF-16 units from 0, both ways, on every line break. */
class PositionsTest {

    @Test
    void codePointsBecomeUtf16Units() {
        // line 2: "a😀b: x" — the emoji is one code point and two UTF-16 units
        Positions p = new Positions("first\r\na😀b: x\rlast\n");
        assertEquals(new Range(new Position(1, 6), new Position(1, 7)), p.range(new Span("f", 2, 6, 2, 7)));
        assertEquals(new Position(1, 3), p.position(2, 3), "after the emoji: 3 units");
        assertArrayEquals(new int[] {2, 3}, p.lineColumn(new Position(1, 3)));
        assertArrayEquals(new int[] {2, 2}, p.lineColumn(new Position(1, 2)), "inside the surrogate pair: the emoji's column");
        assertEquals(new Position(2, 0), p.position(3, 1), "a lone \\r ends a line, as \\r\\n does");
        assertEquals("a😀b: x", p.line(1));
        assertEquals(4, p.lines());
    }

    @Test
    void placesPastTheEndAreClamped() {
        Positions p = new Positions("ab\ncd");
        assertEquals(new Position(0, 2), p.position(1, 40));
        assertEquals(new Position(1, 0), p.position(9, 1), "a line past the last is the last");
        assertEquals(5, p.offset(new Position(1, 99)));
        assertEquals(new Range(new Position(0, 1), new Position(0, 1)), p.range(new Span("f", 1, 2, 1, 1)), "an end before the start is the start");
    }
}
