package dev.gpulint.bind.adapt.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Appending to a bash array costs what is appended (#25): 200,000 {@code ARGS+=( --x )} lines took 5.9 GB,
 * each append copying the array and joining it into a string. Cost is the bytes the thread allocates, not time.
 */
class ShellScaleTest {

    private static final com.sun.management.ThreadMXBean THREADS = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static Shell.Script parse(String script) {
        return Shell.parse(ScalarText.detached("s", script), Map.of());
    }

    private static long allocated(String script) {
        parse(script);
        long before = THREADS.getCurrentThreadAllocatedBytes();
        parse(script);
        return THREADS.getCurrentThreadAllocatedBytes() - before;
    }

    @Test
    void appendsCostLinearlyInTheirNumber() {
        assumeTrue(THREADS.isThreadAllocatedMemorySupported());
        // 8,000 appends of 4 characters stay below the 64 KiB bound of a value: the array is known throughout
        long small = allocated("ARGS=()\n" + "ARGS+=( --x )\n".repeat(4_000)), large = allocated("ARGS=()\n" + "ARGS+=( --x )\n".repeat(8_000));
        assertTrue(large < 2.5 * small, "twice the appends cost " + (double) large / small + "× the bytes (" + small + ", " + large + ")");
        Shell.Script s = parse("ARGS=()\n" + "ARGS+=( --x )\n".repeat(8_000) + "torchrun t.py \"${ARGS[@]}\"\n");
        assertEquals(8_002, s.commands().get(8_001).words().size());
    }

    @Test
    void anArrayPastTheBoundStaysUnknownThroughLaterAppends() {
        Shell.Script s = parse("ARGS=( " + "--x ".repeat(20_000) + ")\nARGS+=( --tp 4 )\ntorchrun t.py \"${ARGS[@]}\"\n");
        List<Shell.Word> words = s.commands().get(2).words();
        assertEquals(3, words.size(), "the array is one unknown word, not the last append alone");
        assertFalse(words.get(2).known());
        Shell.Script fresh = parse("ARGS=( " + "--x ".repeat(20_000) + ")\nARGS=( --tp 4 )\ntorchrun t.py \"${ARGS[@]}\"\n");
        assertEquals(List.of("torchrun", "t.py", "--tp", "4"), fresh.commands().get(2).words().stream().map(Shell.Word::text).toList());
        assertTrue(fresh.commands().get(2).words().get(3).known());
    }
    @Test
    void deepGroupsKeepShortShellIds() {
        // 100,000 nested ( ... ) groups: ids stop growing at ShellTokens.MAX_GROUP_DEPTH, and the closing ones end them
        int n = 100_000;
        Shell.Script s = parse("(".repeat(n) + " export A=1; echo in " + ")".repeat(n) + "\nexport B=1\ntorchrun t.py\n");
        List<Shell.Command> c = s.commands();
        assertEquals(4, c.size());
        assertEquals(ShellTokens.MAX_GROUP_DEPTH, c.get(0).shell().split("/").length);
        assertEquals(c.get(0).shell(), c.get(1).shell(), "the groups past the depth run in the innermost kept");
        assertEquals("", c.get(2).shell());
        assertEquals("", c.get(3).shell());
        assertFalse(c.get(3).inside(c.get(0).shell()));
    }
}
