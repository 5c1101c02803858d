package dev.gpulint.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class InternerTest {
    @Test
    void equalTextsShareTheFirstStringUpToTheBound() {
        Interner texts = new Interner(2);
        String a = new String("bidirectional"), a2 = new String("bidirectional");
        assertSame(a, texts.of(a));
        assertSame(a, texts.of(a2));
        texts.of("per direction");
        // the bound is reached: a third distinct text is returned as it is, equal and not kept
        String c = new String("InfiniBand NDR"), c2 = new String("InfiniBand NDR");
        assertSame(c, texts.of(c));
        assertSame(c2, texts.of(c2));
        assertEquals(c, texts.of(c2));
        assertSame(a, texts.of(new String("bidirectional")));
        assertNull(texts.of(null));
    }
}
