package dev.gpulint.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Span;
import org.junit.jupiter.api.Test;

/** A rule's message is bounded whatever the manifest makes it quote. */
class FindingSinkTest {

    private static final Span AT = Span.at("c.yaml", 3, 7);

    @Test
    void aMessageUpToTheBoundIsKeptWhole() {
        String m = "x".repeat(FindingSink.MAX_MESSAGE);
        assertSame(m, FindingSink.bounded(m));
    }

    @Test
    void aLongerMessageKeepsItsStartAndEndAndSaysHowMuchWasLeftOut() {
        String m = "GPU model '" + "X".repeat(3_000_000) + "' is not in the catalog";
        String b = FindingSink.bounded(m);
        assertTrue(b.startsWith("GPU model 'XXX"), b.substring(0, 20));
        assertTrue(b.endsWith("XXX' is not in the catalog"));
        int left = m.length() - FindingSink.MAX_MESSAGE;
        assertTrue(b.contains(" … (" + String.format(java.util.Locale.ROOT, "%,d", left) + " characters left out) … "), b.substring(990, 1060));
        assertEquals(FindingSink.MAX_MESSAGE, b.replaceFirst(" … \\([0-9,]+ characters left out\\) … ", "").length());
    }

    @Test
    void aCutNeverSplitsACharacterInTwo() {
        // U+1F600 is two chars; place one across each cut point
        String m = "a".repeat(FindingSink.MAX_MESSAGE / 2 - 1) + "\uD83D\uDE00" + "b".repeat(5000) + "\uD83D\uDE00" + "c".repeat(FindingSink.MAX_MESSAGE / 2 - 1);
        String b = FindingSink.bounded(m);
        for (int i = 0; i < b.length(); i++) {
            char c = b.charAt(i);
            if (Character.isHighSurrogate(c)) assertTrue(i + 1 < b.length() && Character.isLowSurrogate(b.charAt(i + 1)), "pair at " + i);
            if (Character.isLowSurrogate(c)) assertTrue(i > 0 && Character.isHighSurrogate(b.charAt(i - 1)), "pair at " + i);
        }
    }

    @Test
    void everyReportPathBoundsTheMessageAndTheRelatedMessage() {
        FindingSink sink = new FindingSink();
        String huge = "y".repeat(100_000);
        sink.report("HW003", AT, "a", huge);
        sink.report("HW003", AT, "b", huge, AT, huge);
        sink.reportAs("PAR006", "note", AT, "c", huge, AT, huge);
        assertEquals(3, sink.findings().size());
        for (Finding f : sink.findings()) {
            assertTrue(f.message().length() < FindingSink.MAX_MESSAGE + 60, f.ruleId());
            f.related().forEach(r -> assertTrue(r.message().length() < FindingSink.MAX_MESSAGE + 60));
        }
    }

    @Test
    void theSameMessageReportedAgainIsOneStringAsTheFindingHoldsIt() {
        FindingSink sink = new FindingSink();
        // built at run time, as a rule's consequence builds it: two equal Strings, not one literal
        for (int i = 0; i < 2; i++) sink.report("UNIT004", AT, "id" + i, new StringBuilder("900 GB/s states no direction").toString());
        sink.report("PAR002", AT, "p", "tp spans nodes", AT, new StringBuilder("the NVLink domain").toString());
        sink.report("PAR002", AT, "q", "tp spans nodes", AT, new StringBuilder("the NVLink domain").toString());
        var f = sink.findings();
        assertEquals("900 GB/s states no direction.", f.get(0).message());
        assertSame(f.get(0).message(), f.get(1).message());
        assertEquals("the NVLink domain", f.get(2).related().get(0).message());   // a phrase: no full stop added
        assertSame(f.get(2).related().get(0).message(), f.get(3).related().get(0).message());
    }
}
