package dev.gpulint.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The message template syntax: arguments, formats, plurals, choices, nesting and its errors. */
class MessagesTest {

    @Test
    void argumentsAreWrittenAsJavaWritesThem() {
        assertEquals("tp=16 on dgx-0 (true, 2.5)", Messages.render("tp={tp} on {node} ({b}, {d})",
                Map.of("tp", 16, "node", "dgx-0", "b", true, "d", 2.5)));
    }

    @Test
    void formatsNameUnits() {
        Map<String, Object> a = Map.of("bw", 450e9, "mem", 80.0 * (1L << 30), "f", 0.4286, "p", 8e9, "big", Long.MAX_VALUE);
        assertEquals("450 GB/s, 3600 Gb/s = 450 GB/s, 80 GiB (85.9 GB), 43%, 42.9%, 8B, more than 9.2e18",
                Messages.render("{bw:gbs}, {bw:both}, {mem:gib}, {f:percent}%, {f:percent1}%, {p:count}, {big:big}", a));
    }

    @Test
    void pluralsChooseByTheNumberAndHashIsTheNumber() {
        String t = "{n|# node|# nodes} ({n|one|many})";
        assertEquals("1 node (one)", Messages.render(t, Map.of("n", 1)));
        assertEquals("3 nodes (many)", Messages.render(t, Map.of("n", 3L)));
        assertEquals("0 nodes (many)", Messages.render(t, Map.of("n", 0)));
    }

    @Test
    void choicesNestAndMayLeaveTheElseOut() {
        String t = "{big?{tp} is larger than {size}|{strided?{stride} apart|{tp} does not divide {size}}}{note?; see {tp}}";
        assertEquals("16 is larger than 8", Messages.render(t, Map.of("big", true, "strided", false, "note", false, "tp", 16, "size", 8, "stride", 2)));
        assertEquals("2 apart; see 3", Messages.render(t, Map.of("big", false, "strided", true, "note", true, "tp", 3, "size", 8, "stride", 2)));
        assertEquals("3 does not divide 8", Messages.render(t, Map.of("big", false, "strided", false, "note", false, "tp", 3, "size", 8, "stride", 2)));
    }

    @Test
    void aHashInAnArgumentIsNotTheNumber() {
        assertEquals("2 of #rail", Messages.render("{n|# of {x}|# of {x}}", Map.of("n", 2, "x", "#rail")));
    }

    enum Kind { SYS, NODE, PHB }

    @Test
    void selectsChooseByValueWithALastBranchForTheRest() {
        String t = "{k=SYS,SOC:sockets|NODE:host bridges of {cpu}|*:one bridge}";
        assertEquals("sockets", Messages.render(t, Map.of("k", Kind.SYS, "cpu", 0)));
        assertEquals("sockets", Messages.render(t, Map.of("k", "SOC", "cpu", 0)));
        assertEquals("host bridges of 1", Messages.render(t, Map.of("k", Kind.NODE, "cpu", 1)));
        assertEquals("one bridge", Messages.render(t, Map.of("k", Kind.PHB, "cpu", 1)));
        assertEquals(Set.of("k", "cpu"), Messages.arguments(t));
        assertThrows(Messages.TemplateException.class, () -> Messages.arguments("{k=A:a|B:b}"));
    }

    @Test
    void listsShowSixteenItemsAndCountTheRest() {
        List<Integer> many = java.util.stream.IntStream.range(0, 20).boxed().toList();
        assertEquals("0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, \u2026 and 4 more", Messages.render("{l:list}", Map.of("l", many)));
        assertEquals("a, b", Messages.render("{l:list}", Map.of("l", List.of("a", "b"))));
    }

    record Variant(String model, double bytes) {}

    @Test
    void eachItemOfAListIsWrittenWithItsOwnProperties() {
        String t = "{mem:gib}{others*; {model} has {bytes:gib}}; fix it";
        assertEquals("80 GiB (85.9 GB); H100 NVL has 94 GiB (100.93 GB); H200 has 141 GiB (151.4 GB); fix it",
                Messages.render(t, Map.of("mem", 80.0 * (1L << 30), "others",
                        List.of(new Variant("H100 NVL", 94.0 * (1L << 30)), new Variant("H200", 141.0 * (1L << 30))))));
        assertEquals("80 GiB (85.9 GB); fix it", Messages.render(t, Map.of("mem", 80.0 * (1L << 30), "others", List.of())));
        // an item is a map too; the template's own arguments are not the item's
        assertEquals("[x=1][x=2]", Messages.render("{l*[x={x}]}", Map.of("l", List.of(Map.of("x", 1), Map.of("x", 2)))));
        assertThrows(Messages.TemplateException.class, () -> Messages.render("{l*{y}}", Map.of("l", List.of(Map.of("x", 1)), "y", 3)));
        assertThrows(Messages.TemplateException.class, () -> Messages.render("{l*{x}}", Map.of("l", "not a list")));
    }

    @Test
    void anItemTemplatesPlaceholdersAreNotTheTemplatesArguments() {
        assertEquals(Set.of("mem", "others"), Messages.arguments("{mem:gib}{others*; {model} has {bytes:gib}}"));
        String re = Messages.pattern("memory 80 GB{others*; {model} has {bytes:gib}}.");
        assertTrue(java.util.regex.Pattern.compile(re).matcher("memory 80 GB; H100 NVL has 94 GiB; H200 has 141 GiB.").matches());
        assertTrue(java.util.regex.Pattern.compile(re).matcher("memory 80 GB.").matches());
        assertFalse(java.util.regex.Pattern.compile(re).matcher("memory 80 GB; H200 owns 141 GiB.").matches());
    }

    @Test
    void literalBracesAreDoubled() {
        assertEquals("{\"a\": 1}", Messages.render("{{\"a\": {v}}}", Map.of("v", 1)));
    }

    @Test
    void theArgumentsOfATemplateAreListedFromEveryBranch() {
        assertEquals(Set.of("big", "tp", "size", "strided", "stride"),
                Messages.arguments("{big?{tp} > {size}|{strided?{stride:num} apart}}"));
    }

    @Test
    void mistakesAreExceptions() {
        for (String bad : List.of("{tp", "tp}", "{}", "{tp:furlongs}", "{n|only one}", "{tp!}")) {
            assertThrows(Messages.TemplateException.class, () -> Messages.arguments(bad), bad);
        }
        assertThrows(Messages.TemplateException.class, () -> Messages.render("{tp}", Map.of()));
        assertThrows(Messages.TemplateException.class, () -> Messages.render("{n|a|b}", Map.of("n", "x")));
        assertThrows(Messages.TemplateException.class, () -> Messages.render("{b?a}", Map.of("b", 1)));
    }
}
