package dev.gpulint.read.toml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gpulint.read.ReadResult;
import dev.gpulint.read.SourceFile;
import dev.gpulint.tree.ListNode;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * The TOML reader is linear in its input (#25): the cost of a read is measured as the bytes the reading
 * thread allocates (HotSpot counts them exactly), never as time. A 1M-item array copied the key's line
 * for every item (quadratic); a 10 MB string took 5 GB and an unclosed 5 MB multi-line string 2.4 GB
 * (a parser token per character).
 */
class TomlScaleTest {

    private static final com.sun.management.ThreadMXBean THREADS = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** Bytes allocated by one read of {@code text} (after a first read, so class loading is not counted). */
    private static long allocated(String text) {
        SourceFile f = SourceFile.of("t.toml", text);
        new TomlReader().read(f);
        long before = THREADS.getCurrentThreadAllocatedBytes();
        new TomlReader().read(f);
        return THREADS.getCurrentThreadAllocatedBytes() - before;
    }

    private static String array(int n) {
        StringBuilder b = new StringBuilder("[parallelism]\ndata_parallel_shard_degree = 2\n[job]\nranks = [");
        for (int i = 0; i < n; i++) b.append(i == 0 ? "" : ", ").append(i % 10);
        return b.append("]\n").toString();
    }

    @Test
    @org.junit.jupiter.api.Timeout(value = 120, unit = java.util.concurrent.TimeUnit.SECONDS,
            threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)   // a hang guard: tomlj's arrays are quadratic
    void aMillionItemArrayIsASyntaxErrorAtASmallCost() {
        assumeTrue(THREADS.isThreadAllocatedMemorySupported());
        String text = array(1_000_000);
        long bytes = allocated(text);
        assertTrue(bytes < 40L * text.length(), bytes + " bytes allocated for a file of " + text.length());
        ReadResult r = new TomlReader().read(SourceFile.of("t.toml", text));
        assertEquals(1, r.problems().size());
        assertEquals("t.toml:4:" + (11 + 3 * 10_000), r.problems().get(0).span().toString(), "at the comma past the limit");
        assertTrue(r.problems().get(0).message().startsWith("TOML syntax error: more than 10000 array items and inline-table entries"),
                r.problems().get(0).message());
    }

    @Test
    void arrayItemsArePlacedAtTheirKeysValue() {
        ListNode ranks = (ListNode) ((MappingNode) ((MappingNode) new TomlReader().read(SourceFile.of("t.toml", array(3))).foreign().get(0).root())
                .entry("job").orElseThrow().value()).entry("ranks").orElseThrow().value();
        assertEquals(3, ranks.items().size());
        assertEquals(new dev.gpulint.core.Span("t.toml", 4, 9, 4, 11), ranks.items().get(2).span());
    }

    @Test
    void aLongStringCostsASmallMultipleOfTheFile() {
        assumeTrue(THREADS.isThreadAllocatedMemorySupported());
        for (String quote : new String[] {"\"", "'", "\"\"\"", "'''"}) {
            String text = "[parallelism]\ntensor_parallel_degree = 2\n[job]\ndescription = " + quote + "x".repeat(400_000) + quote + "\nname = \"a\"\n";
            long bytes = allocated(text);
            assertTrue(bytes < 40L * text.length(), quote + ": " + bytes + " bytes allocated for a file of " + text.length());
            MappingNode job = (MappingNode) ((MappingNode) new TomlReader().read(SourceFile.of("t.toml", text)).foreign().get(0).root())
                    .entry("job").orElseThrow().value();
            assertEquals(400_000, ((ScalarNode) job.entry("description").orElseThrow().value()).text().length(), quote);
            assertEquals("t.toml:5:8", job.entry("name").orElseThrow().value().span().toString(), quote);
        }
    }

    @Test
    void anUnclosedMultiLineStringIsASyntaxErrorAtItsStartAtASmallCost() {
        assumeTrue(THREADS.isThreadAllocatedMemorySupported());
        String text = "[parallelism]\ntensor_parallel_degree = 2\nnotes = \"\"\"\n" + "some words\n".repeat(40_000);
        long bytes = allocated(text);
        assertTrue(bytes < 40L * text.length(), bytes + " bytes allocated for a file of " + text.length());
        ReadResult r = new TomlReader().read(SourceFile.of("t.toml", text));
        assertEquals(1, r.problems().size());
        assertEquals("t.toml:3:9", r.problems().get(0).span().toString());
        assertTrue(r.problems().get(0).message().startsWith("TOML syntax error: "), r.problems().get(0).message());
    }
}
