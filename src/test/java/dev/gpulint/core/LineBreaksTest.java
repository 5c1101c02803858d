package dev.gpulint.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Line starts and ends as every span of gpulint counts lines: LF, CRLF and a lone CR each end one. */
class LineBreaksTest {

    private static List<String> lines(String s) {
        int[] starts = LineBreaks.starts(s);
        List<String> out = new ArrayList<>();
        for (int k = 0; k < starts.length; k++) out.add(s.substring(starts[k], LineBreaks.end(s, starts, k)));
        return out;
    }

    @Test
    void startsAndEndsOfEveryKindOfBreak() {
        assertArrayEquals(new int[] {0, 2, 5, 7, 8, 10}, LineBreaks.starts("a\nb\r\nc\r\rd\n"));
        assertEquals(List.of("a", "b", "c", "", "d", ""), lines("a\nb\r\nc\r\rd\n"));
        assertEquals(List.of(""), lines(""));
        assertEquals(List.of("", ""), lines("\r\n"));
        assertEquals(List.of("", "", ""), lines("\n\r"));
        assertEquals(List.of("x", "", "y"), lines("x\r\r\ny"));
    }

    /** The index every edit of a file is placed with: lines and code-point offsets as counted from the text itself. */
    @Test
    void anIndexCountsLinesAndCodePointsOnce() {
        String s = "a\uD83D\uDE00\r\nb\rc\n\uD83D\uDE00d";
        LineBreaks.Index i = new LineBreaks.Index(s);
        assertArrayEquals(LineBreaks.starts(s), i.starts());
        for (int at = 0; at <= s.length(); at++) {
            if (at < s.length() && Character.isLowSurrogate(s.charAt(at))) continue;
            assertEquals(s.codePointCount(0, at), i.codePoints(at), "offset " + at);
            int line = 0;
            for (int k = 0; k < i.starts().length; k++) if (i.starts()[k] <= at) line = k;
            assertEquals(line, i.line(at), "line of " + at);
        }
        var indexes = LineBreaks.indexes(java.util.Map.of("f", s));
        assertEquals(indexes.apply("f"), indexes.apply("f"), "built once per file");
        assertEquals(null, indexes.apply("g"));
    }
}
