package dev.gpulint.read.yaml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.read.ReadResult;
import dev.gpulint.read.SourceFile;
import org.junit.jupiter.api.Test;

/** A large YAML file, scanned ahead on a thread of its own, reads as a small one does: documents and errors in place. */
class AheadEventsTest {

    /** A cluster whose node groups take more than {@link AheadEvents#AHEAD_FROM} characters, then {@code tail}. */
    private static String big(String tail) {
        StringBuilder sb = new StringBuilder("kind: cluster\nname: fleet\nnode_groups:\n");
        for (int i = 0; sb.length() <= AheadEvents.AHEAD_FROM; i++) {
            sb.append("  - { name: n").append(i).append(", count: 1, gpu: { model: H100-SXM5-80GB, count: 8 } }\n");
        }
        return sb + tail;
    }

    private static long lines(String text) { return text.chars().filter(c -> c == '\n').count(); }

    @Test
    void aLargeFileReadsWholeWithItsFoldedGroups() {
        String text = big("---\nkind: training_job\nname: j\ncluster: fleet\n");
        ReadResult r = new YamlReader().read(SourceFile.of("big.yaml", text));
        assertEquals(2, r.documents().size());
        assertEquals(java.util.List.of(), r.problems());
        assertTrue(r.documents().get(0).folds().all().get(0).size() > 10_000);
    }

    @Test
    void anErrorAtTheEndIsReportedWhereItIs() {
        String text = big("bad: [1, 2\n");
        ReadResult r = new YamlReader().read(SourceFile.of("big.yaml", text));
        assertEquals(1, r.problems().size(), r.problems().toString());
        assertEquals("SYN001", r.problems().get(0).ruleId());
        assertEquals(lines(text) + 1, r.problems().get(0).span().startLine());
    }

    @Test
    void aReaderThatStopsEarlyStopsTheScan() {
        // the undefined alias stops the reader at line 3 while the rest is still being scanned
        String text = "kind: cluster\nname: fleet\nfabric: *nowhere\n" + big("").substring("kind: cluster\nname: fleet\n".length());
        ReadResult r = new YamlReader().read(SourceFile.of("big.yaml", text));
        assertEquals("SYN001", r.problems().get(0).ruleId());
        assertEquals(3, r.problems().get(0).span().startLine());
        assertTrue(r.problems().get(0).message().contains("undefined alias 'nowhere'"), r.problems().get(0).message());
    }
}
