package dev.gpulint.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Finding;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The nesting guard reads the text in chunks: comments, strings and positions must not care where a chunk ends. */
class NestingGuardTest {
    private static final String DEEP = "{".repeat(NestingGuard.MAX_DEPTH + 1);

    /** Text whose interesting part starts {@code offset} characters after the last line break before it. */
    private static String at(int offset, String tail) {
        return "a: 1\n" + "#".repeat(offset) + "\n" + " ".repeat(offset) + tail;
    }

    @Test
    void theLineAndColumnOfTheBracketTooManyAreExactAcrossChunks() {
        for (int pad : new int[] {0, 8190, 8191, 8192, 20000}) {
            Optional<Finding> f = NestingGuard.check(SourceFile.of("x.topo", at(pad, DEEP)), false);
            assertTrue(f.isPresent(), "pad " + pad);
            assertEquals("x.topo", f.get().span().file());
            assertEquals(3, f.get().span().startLine(), "pad " + pad);
            assertEquals(pad + NestingGuard.MAX_DEPTH + 1, f.get().span().startColumn(), "pad " + pad);
        }
    }

    @Test
    void aBlockCommentOrStringThatStraddlesAChunkEndStillHidesItsBrackets() {
        // "/*" and the quote are placed so that the chunk of 8192 characters ends inside or right at them
        for (int cut = 8186; cut <= 8194; cut++) {
            String comment = "x".repeat(cut) + "/*" + DEEP + "*/";
            assertTrue(NestingGuard.check(SourceFile.of("c.topo", comment), false).isEmpty(), "comment at " + cut);
            String string = "x".repeat(cut) + "\"\\\"" + DEEP + "\"";
            assertTrue(NestingGuard.check(SourceFile.of("s.topo", string), false).isEmpty(), "string at " + cut);
            String escaped = "x".repeat(cut) + "\"\\\\\"" + DEEP;
            assertTrue(NestingGuard.check(SourceFile.of("e.topo", escaped), false).isPresent(), "escaped backslash at " + cut);
        }
    }

    @Test
    void yamlHashStartsACommentOnlyAfterABlank() {
        assertTrue(NestingGuard.check(SourceFile.of("a.yaml", "k: v #" + DEEP), true).isEmpty());
        assertTrue(NestingGuard.check(SourceFile.of("b.yaml", "k: v#" + DEEP), true).isPresent());
        // a single quote is a YAML string, not a DSL one; a line break ends a YAML string (the guard is conservative)
        assertTrue(NestingGuard.check(SourceFile.of("c.yaml", "k: '" + DEEP + "'"), true).isEmpty());
        assertTrue(NestingGuard.check(SourceFile.of("d.topo", "k = '" + DEEP), false).isPresent());
    }

    @Test
    void aLineBreakEscapedInsideAStringStillCountsAsALine() {
        // a YAML double-quoted scalar continued with a backslash: the finding is on the line of the brackets
        String yaml = "k: \"a\\\nb\"\nx: " + "[".repeat(NestingGuard.MAX_DEPTH + 1);
        Finding f = NestingGuard.check(SourceFile.of("x.yaml", yaml), true).orElseThrow();
        assertEquals(3, f.span().startLine());
        assertEquals("x: ".length() + NestingGuard.MAX_DEPTH + 1, f.span().startColumn());
    }
}
