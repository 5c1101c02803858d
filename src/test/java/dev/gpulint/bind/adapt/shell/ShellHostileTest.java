package dev.gpulint.bind.adapt.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import dev.gpulint.testing.CpuBudget;

/** Hostile launch scripts: deep arithmetic and doubling variables end as unknown values, not as a crash. */
class ShellHostileTest {

    private static Shell.Script parse(String script) {
        return Shell.parse(ScalarText.detached("s", script), Map.of());
    }

    @Test
    void arithmeticNestedTwentyThousandDeepIsUnknown() {
        String script = "run -np $((" + "$((".repeat(20_000) + "1" + "))".repeat(20_001) + "\n";
        Shell.Word w = CpuBudget.ofSeconds(15).run(() -> parse(script)).commands().get(0).words().get(2);
        assertFalse(w.known());
    }

    @Test
    void threeHundredThousandUnaryMinusesAreUnknown() {
        assertNull(CpuBudget.ofSeconds(15).run(() -> Shell.arithmetic("-".repeat(300_000) + "1", Map.of())));
        assertNull(Shell.arithmetic("(".repeat(20_000) + "1" + ")".repeat(20_000), Map.of()));
    }

    @Test
    void shallowNestingStillEvaluates() {
        assertEquals(-3L, Shell.arithmetic("(".repeat(20) + "--" + "-3" + ")".repeat(20), Map.of()));
        assertEquals("16", parse("N=$((2*(3+1)*2))\necho $N").commands().get(1).words().get(1).text());
    }

    @Test
    void doublingVariablesStopAtTheValueBound() {
        StringBuilder sb = new StringBuilder("V=x\n");
        for (int i = 0; i < 32; i++) sb.append("V=$V$V\n");
        sb.append("echo $V\n");
        Shell.Script s = CpuBudget.ofSeconds(15).run(() -> parse(sb.toString()));
        Shell.Word last = s.commands().get(33).words().get(1);
        assertFalse(last.known(), "a value past " + Shell.MAX_VALUE + " characters is unknown");
        assertTrue(last.text().length() <= Shell.MAX_VALUE);
        assertNull(s.variables().get("V"));
        Shell.Script small = parse("V=x\nV=$V$V\nV=$V$V\necho $V\n");
        assertEquals("xxxx", small.commands().get(3).words().get(1).text());
    }

    @Test
    void manyLargeExpansionsShareOneBudget() {
        StringBuilder sb = new StringBuilder("V=" + "y".repeat(60_000) + "\n");
        for (int i = 0; i < 1_000; i++) sb.append("echo $V$V\necho $V\n");
        Shell.Script s = CpuBudget.ofSeconds(15).run(() -> parse(sb.toString()));
        assertTrue(s.commands().get(2).words().get(1).known());
        assertFalse(s.commands().get(s.commands().size() - 1).words().get(1).known(),
                "past the per-script budget every expansion is unknown");
    }

    @Test
    void doublingArraysStopAtTheValueBoundAndAnUnclosedArrayEndsAtTheEnd() {
        StringBuilder sb = new StringBuilder("A=( --x 1 )\n");
        for (int i = 0; i < 40; i++) sb.append("A=( \"${A[@]}\" \"${A[@]}\" )\n");
        sb.append("run \"${A[@]}\"\n");
        Shell.Script s = CpuBudget.ofSeconds(15).run(() -> parse(sb.toString()));
        var last = s.commands().get(s.commands().size() - 1).words();
        long chars = last.stream().mapToLong(w -> w.text().length() + 1).sum();
        assertTrue(chars <= 2L * Shell.MAX_VALUE, "the array stays within the value bound: " + chars);
        assertFalse(last.get(last.size() - 1).known(), "once past the bound, the array's words are unknown");
        Shell.Script open = CpuBudget.ofSeconds(15).run(() -> parse("A=( --x 1\n" + "(".repeat(100_000)));
        assertEquals(java.util.List.of("--x", "1"), open.arrays().get("A").stream().map(Shell.Word::text).toList());
    }
}
