package dev.gpulint.fix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Finding;
import dev.gpulint.core.Fix;
import dev.gpulint.core.Safety;
import dev.gpulint.core.Span;
import dev.gpulint.core.TextEdit;
import dev.gpulint.engine.FindingSink;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Fixes edit only their spans: quoting, comments, line breaks and the rest of the file stay as they were. */
class FixApplierTest {

    private static final String YAML = "# the fabric\r\nnics:\r\n  - { speed: \"400 GB/s\" }   # NDR\r\n";

    private static Finding finding(Fix... fixes) {
        Finding f = Finding.of("UNIT001", Span.at("c.yaml", 3, 14), "c/nics[0]", "m");
        for (Fix x : fixes) f = f.withFix(x);
        return f;
    }

    @Test
    void aMatchInsideAQuotedValueIsReplacedAndNothingElseMoves() {
        Fix x = Fix.of("write Gb/s", Safety.SAFE, TextEdit.within(new Span("c.yaml", 3, 14, 3, 24), "GB/s", "Gb/s"));
        FixApplier.Result r = FixApplier.apply(Map.of("c.yaml", YAML), List.of(finding(x)), Safety.SAFE);
        assertEquals(YAML.replace("GB/s", "Gb/s"), r.texts().get("c.yaml"));
        assertEquals(1, r.applied().size());
    }

    @Test
    void resolvingPlacesTheMatchWithLinesColumnsAndCodePointOffsets() {
        String text = "a: \"\uD83D\uDE00\"\nspeed: \"400 GB/s\"\n";     // an emoji is one column, two chars
        TextEdit e = TextEdit.within(new Span("c.yaml", 2, 8, 2, 18), "GB/s", "Gb/s").resolve(text);
        assertEquals(new Span("c.yaml", 2, 13, 2, 17), e.span());
        assertEquals("GB/s", e.match());
        // code points: line 1 is 'a: "😀"' (6) and its line break (1), then 12 before the G
        assertEquals(19, e.startOffset());
        assertEquals(23, e.endOffset());
        assertEquals("a: \"\uD83D\uDE00\"\nspeed: \"400 Gb/s\"\n", FixApplier.edited(text, List.of(e)));
    }

    @Test
    void anEditTheTextDoesNotHoldIsNotApplied() {
        assertNull(TextEdit.within(new Span("c.yaml", 3, 14, 3, 24), "Gbit/s", "x").resolve(YAML));
        assertNull(TextEdit.replace(new Span("c.yaml", 9, 1, 9, 3), "x").resolve(YAML));
        assertNull(TextEdit.within(new Span("c.yaml", 1, 1, 3, 40), "s", "x").resolve(YAML), "a match found twice is ambiguous");
        Fix x = Fix.of("t", Safety.SAFE, TextEdit.within(new Span("c.yaml", 3, 14, 3, 24), "Gbit/s", "x"));
        assertTrue(FixApplier.apply(Map.of("c.yaml", YAML), List.of(finding(x)), Safety.SAFE).texts().isEmpty());
    }

    @Test
    void unsafeFixesOnlyWhenAskedAndOverlappingOnesWaitForTheNextPass() {
        Fix unsafe = Fix.of("u", Safety.UNSAFE, TextEdit.replace(new Span("c.yaml", 3, 15, 3, 18), "800"));
        assertTrue(FixApplier.apply(Map.of("c.yaml", YAML), List.of(finding(unsafe)), Safety.SAFE).applied().isEmpty());
        Fix a = Fix.of("a", Safety.SAFE, TextEdit.replace(new Span("c.yaml", 3, 15, 3, 18), "800"));
        Fix b = Fix.of("b", Safety.SAFE, TextEdit.replace(new Span("c.yaml", 3, 16, 3, 17), "9"));
        FixApplier.Result r = FixApplier.apply(Map.of("c.yaml", YAML), List.of(finding(a), finding(b)), Safety.UNSAFE);
        assertEquals(List.of("a"), r.applied().stream().map(x -> x.fix().title()).toList());
        assertEquals(1, r.waiting());
        assertTrue(r.texts().get("c.yaml").contains("\"800 GB/s\""));
    }

    @Test
    void aSuppressedFindingIsNeverFixed() {
        Fix a = Fix.of("a", Safety.SAFE, TextEdit.replace(new Span("c.yaml", 3, 15, 3, 18), "800"));
        assertTrue(FixApplier.apply(Map.of("c.yaml", YAML), List.of(finding(a).withSuppression("known")), Safety.UNSAFE).applied().isEmpty());
    }

    @Test
    void aRuleAttachesAFixThroughTheSinkWithATitleFromItsTemplates() {
        FindingSink sink = new FindingSink(id -> Map.of("m", "{v} is 8× off", "fix-unit", "write {v} as {to}"));
        sink.firing("UNIT001");
        Span where = new Span("c.yaml", 3, 14, 3, 24);
        sink.at(where, "c/nics[0]").arg("v", "400 GB/s").arg("to", "400 Gb/s")
                .fixWithin(Safety.SAFE, "fix-unit", where, "GB/s", "Gb/s").report("m");
        sink.at(where, "x").arg("v", 1).arg("to", 2).fix("unsafe", "fix-unit", null, "y").report("m");
        Finding f = sink.findings().get(0);
        assertEquals(List.of(Fix.of("write 400 GB/s as 400 Gb/s", Safety.SAFE, TextEdit.within(where, "GB/s", "Gb/s"))), f.fixes());
        assertTrue(sink.findings().get(1).fixes().isEmpty(), "a fix with no place to edit is not offered");
    }

    @Test
    void configurationDropsUnfixableRulesAndChangesSafety() {
        Fix a = Fix.of("a", Safety.SAFE, TextEdit.replace(new Span("c.yaml", 3, 15, 3, 18), "800"));
        List<Finding> in = List.of(finding(a));
        var rules = dev.gpulint.meta.RuleCatalog.builtIn();
        Map<String, String> texts = Map.of("c.yaml", YAML);
        assertTrue(new FixSettings(java.util.Set.of(), java.util.Set.of("bit-byte-mixup"), java.util.Set.of(), java.util.Set.of())
                .apply(in, texts, rules).get(0).fixes().isEmpty());
        Finding demoted = new FixSettings(java.util.Set.of(), java.util.Set.of(), java.util.Set.of(), java.util.Set.of("UNIT001"))
                .apply(in, texts, rules).get(0);
        assertEquals(Safety.UNSAFE, demoted.fixes().get(0).safety());
        assertEquals(14 + 7 + 14, demoted.fixes().get(0).edits().get(0).startOffset(), "after 14 and 7 characters of lines 1 and 2 (CR LF counted), 14 in");
        assertTrue(FixSettings.ALL.apply(in, Map.of(), rules).get(0).fixes().isEmpty(), "a file not linted is not edited");
    }

    /**
     * Fixes are placed and applied in time linear in findings and file size (issue 40, item 12): each edit built the
     * line index of its whole file, and was checked against every edit taken, so 20,000 fixes in a 20,000-line file
     * took minutes (8,000 took 14 s; bench/FixPlacementBench.java). Linear, they take well under a second; the timeout
     * is far above that, and far below the quadratic time.
     */
    @Test
    @org.junit.jupiter.api.Timeout(value = 120, unit = java.util.concurrent.TimeUnit.SECONDS)
    void manyFixesInALargeFileArePlacedInLinearTime() {
        int n = 20_000;
        StringBuilder b = new StringBuilder();
        List<Finding> findings = new java.util.ArrayList<>(n);
        for (int i = 1; i <= n; i++) {
            String line = "    \uD83D\uDE00 bandwidth_" + i + ": 900 Gb/s   # per GPU";
            b.append(line).append(i % 3 == 0 ? "\r\n" : "\n");
            Span s = new Span("f.yaml", i, 5, i, line.codePointCount(0, line.length()) - 10);
            findings.add(Finding.of("UNIT001", s, "k" + i, "m").withFix(Fix.of("unit", Safety.SAFE, TextEdit.within(s, "Gb/s", "GB/s"))));
        }
        String text = b.toString();
        List<Finding> placed = FixSettings.ALL.apply(findings, Map.of("f.yaml", text), null);
        assertTrue(placed.stream().allMatch(f -> f.fixes().size() == 1 && f.fixes().get(0).resolved()));
        TextEdit last = placed.get(n - 1).fixes().get(0).edits().get(0);
        assertEquals(text.codePointCount(0, text.lastIndexOf("Gb/s")), last.startOffset(), "code-point offsets across lines");
        FixApplier.Result r = FixApplier.apply(Map.of("f.yaml", text), placed, Safety.SAFE);
        assertEquals(n, r.applied().size());
        assertEquals(text.replace("Gb/s", "GB/s"), r.texts().get("f.yaml"));
    }

    /** An edit that overlaps one taken several edits earlier still waits (the neighbours kept by start find it). */
    @Test
    void anOverlapWithAnEditTakenEarlierIsFound() {
        String text = "0123456789abcdef\n";
        Fix wide = Fix.of("w", Safety.SAFE, TextEdit.replace(new Span("f", 1, 3, 1, 13), "X"));
        Fix before = Fix.of("b", Safety.SAFE, TextEdit.replace(new Span("f", 1, 1, 1, 2), "Y"));
        Fix after = Fix.of("a", Safety.SAFE, TextEdit.replace(new Span("f", 1, 14, 1, 15), "Z"));
        Fix inside = Fix.of("i", Safety.SAFE, TextEdit.replace(new Span("f", 1, 8, 1, 9), "!"));
        Fix across = Fix.of("c", Safety.SAFE, TextEdit.replace(new Span("f", 1, 12, 1, 15), "?"));
        List<Finding> fs = List.of(wide, before, after, inside, across).stream()
                .map(x -> Finding.of("UNIT001", Span.at("f", 1, 1), x.title(), "m").withFix(x)).toList();
        FixApplier.Result r = FixApplier.apply(Map.of("f", text), fs, Safety.SAFE);
        assertEquals("Y1XcZef\n", r.texts().get("f"));
        assertEquals(2, r.waiting(), "the edit inside and the one across wait for the next pass");
    }
}
