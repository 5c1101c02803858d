package dev.gpulint.tree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.core.Span;
import org.junit.jupiter.api.Test;

/** A scalar keeps its span's numbers itself; it still behaves as the record of (text, quoted, span) it was. */
class ScalarNodeTest {
    private static final Span AT = new Span("c.yaml", 3, 7, 3, 15);

    @Test
    void itGivesBackAnEqualSpanAndIsEqualByTextQuotingAndSpan() {
        ScalarNode a = new ScalarNode("400 Gb/s", false, AT);
        assertEquals(AT, a.span());
        assertEquals(new ScalarNode("400 Gb/s", false, new Span("c.yaml", 3, 7, 3, 15)), a);
        assertEquals(a.hashCode(), new ScalarNode("400 Gb/s", false, new Span("c.yaml", 3, 7, 3, 15)).hashCode());
        assertNotEquals(new ScalarNode("400 Gb/s", true, AT), a);
        assertNotEquals(new ScalarNode("400 Gb/s", false, new Span("c.yaml", 3, 7, 3, 16)), a);
        assertNotEquals(new ScalarNode("400 Gb/s", false, new Span("d.yaml", 3, 7, 3, 15)), a);
        assertEquals("ScalarNode[text=400 Gb/s, quoted=false, span=c.yaml:3:7]", a.toString());
    }

    @Test
    void aSpanNormalisedByItsConstructorIsKeptAsNormalised() {
        // Span moves a start before line 1 to 1 and an end before the start to the start
        assertEquals(new Span("c.yaml", 1, 1, 1, 1), new ScalarNode("x", false, new Span("c.yaml", 0, 0, 0, 0)).span());
    }

    @Test
    void aNullSpanStaysNull() {
        ScalarNode n = new ScalarNode("x", false, null);
        assertNull(n.span());
        assertEquals(new ScalarNode("x", false, null), n);
    }
}
