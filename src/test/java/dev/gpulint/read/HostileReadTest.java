package dev.gpulint.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Finding;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Limits that protect gpulint, not ones that reject ordinary files; duplicates DeepSpeed rejects. */
class HostileReadTest {

    @Test
    void yamlOverThreeMebibytesIsReadUpToTheFileSizeLimit() {
        StringBuilder sb = new StringBuilder("replicaCount: 2\nitems:\n");
        while (sb.length() < (4 << 20)) sb.append("  - name: an-ordinary-list-item-with-some-text\n");
        ReadResult r = Readers.read(SourceFile.of("values.yaml", sb.toString()));
        assertEquals(List.of(), r.problems());
        assertFalse(r.failed());
    }

    /** snakeyaml re-copied its window per 1 KiB read: one 8 MiB scalar without a blank took 46 s (quadratic). */
    @Test
    @org.junit.jupiter.api.Timeout(20)
    void anEightMebibyteScalarIsReadInLinearTime() {
        String big = "x".repeat((8 << 20) - 200);
        String text = "kind: cluster\nname: c\nnode_groups:\n  - name: a\n    count: 1\n    gpu: { model: \"" + big + "\", count: 8 }\n"
                + "  - name: b\n    count: 1\n    gpu: { model: " + big + ", count: 8 }\n";
        ReadResult r = Readers.read(SourceFile.of("big.yaml", text));
        assertEquals(List.of(), r.problems());
        assertEquals(1, r.documents().size());
    }

    @Test
    void sixtyMergeKeysOfDefaultsAreOrdinary() {
        StringBuilder sb = new StringBuilder(".defaults: &defaults\n  image: python:3.12\n  tags: [gpu, docker]\n  retry: { max: 2 }\n");
        for (int i = 0; i < 60; i++) sb.append("job").append(i).append(":\n  <<: *defaults\n  script: [make test").append(i).append("]\n");
        ReadResult r = Readers.read(SourceFile.of(".gitlab-ci.yml", sb.toString()));
        assertEquals(List.of(), r.problems());
    }

    @Test
    void aSelfReferentialAliasIsStopped() {
        ReadResult r = Readers.read(SourceFile.of("loop.yaml", "a: &a [x, *a]\n"));
        assertTrue(r.failed(), r.toString());
        assertEquals("SYN001", r.problems().get(0).ruleId());
    }

    @Test
    void aDuplicateDeepSpeedKeyIsSyn002AtTheSecond() {
        String ds = "{\n  \"train_batch_size\": 32,\n  \"zero_optimization\": { \"stage\": 2, \"stage\": 3 },\n  \"train_batch_size\": 64\n}\n";
        ReadResult r = Readers.read(SourceFile.of("ds.json", ds));
        List<String> got = r.problems().stream().map(HostileReadTest::line).toList();
        assertEquals(List.of(
                "ds.json:3:38 SYN002 'stage' appears twice in 'zero_optimization' (first at line 3); DeepSpeed rejects duplicate keys: remove one of them.",
                "ds.json:4:3 SYN002 'train_batch_size' appears twice in the file (first at line 2); DeepSpeed rejects duplicate keys: remove one of them."),
                got);
        assertEquals(1, r.foreign().size(), "the first values are still read");
    }

    @Test
    void duplicateKeysInJsonThatIsNotDeepSpeedStayQuiet() {
        ReadResult r = Readers.read(SourceFile.of("package.json", "{\"name\": \"a\", \"name\": \"b\"}"));
        assertEquals(List.of(), r.problems());
    }

    private static String line(Finding f) {
        return f.span().file() + ":" + f.span().startLine() + ":" + f.span().startColumn() + " " + f.ruleId() + " " + f.message();
    }
}
