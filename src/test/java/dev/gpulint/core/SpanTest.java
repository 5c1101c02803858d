package dev.gpulint.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

/** Span writes equals and hashCode out (a record's own cost a cold JVM its method-handle setup): they read every component. */
class SpanTest {

    @Test
    void equalSpansAreEqualAndHashAlike() {
        Span a = new Span("jobs/a.yaml", 3, 5, 4, 9);
        Span b = new Span(new String("jobs/a.yaml"), 3, 5, 4, 9);
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertEquals(new Span(null, 1, 1, 1, 1), new Span(null, 1, 1, 1, 1));
        assertNotEquals(a, null);
        assertNotEquals(a, "jobs/a.yaml:3:5");
    }

    @Test
    void aSpanDifferingInAnyComponentDiffers() {
        Span a = new Span("jobs/a.yaml", 3, 5, 4, 9);
        Span[] others = {
            new Span("jobs/b.yaml", 3, 5, 4, 9), new Span(null, 3, 5, 4, 9), new Span("jobs/a.yaml", 2, 5, 4, 9),
            new Span("jobs/a.yaml", 3, 6, 4, 9), new Span("jobs/a.yaml", 3, 5, 5, 9), new Span("jobs/a.yaml", 3, 5, 4, 8),
        };
        assertEquals(Span.class.getRecordComponents().length + 1, others.length, "a new component of Span needs a case here");
        for (Span o : others) {
            assertNotEquals(a, o, o.file() + " " + o.startLine() + ":" + o.startColumn() + "-" + o.endLine() + ":" + o.endColumn());
            assertNotEquals(o, a);
            assertNotEquals(a.hashCode(), o.hashCode());
        }
    }
}
