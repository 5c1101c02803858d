package dev.gpulint.read.toml;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.read.ReadResult;
import dev.gpulint.read.SourceFile;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The TOML front end, on a torchtitan job configuration's shape ([job], [parallelism], [training]). */
class TomlReaderTest {

    private static final String JOB = """
            [job]
            description = "Llama 3 8B training"

            [parallelism]
            data_parallel_shard_degree = -1
            tensor_parallel_degree = 2

            [training]
            local_batch_size = 1
            """;

    @Test
    void tablesAreMappingsAndValuesKeepTheirPlaces() {
        ReadResult r = new TomlReader().read(SourceFile.of("llama3_8b.toml", JOB));
        assertEquals(List.of(), r.problems());
        MappingNode root = r.foreign().get(0).root();
        MappingNode par = (MappingNode) root.get("parallelism").orElseThrow();
        ScalarNode tp = (ScalarNode) par.get("tensor_parallel_degree").orElseThrow();
        assertEquals("2", tp.text());
        assertEquals(6, tp.span().startLine());
        ScalarNode description = (ScalarNode) ((MappingNode) root.get("job").orElseThrow()).get("description").orElseThrow();
        assertEquals("Llama 3 8B training", description.text());
        assertTrue(description.quoted());
        assertEquals("-1", ((ScalarNode) par.get("data_parallel_shard_degree").orElseThrow()).text());
    }

    @Test
    void aSyntaxErrorIsSyn001AtItsLine() {
        ReadResult r = new TomlReader().read(SourceFile.of("bad.toml", "[parallelism]\ntensor_parallel_degree = = 2\n"));
        assertEquals(1, r.problems().size());
        assertEquals("SYN001", r.problems().get(0).ruleId());
        assertEquals(2, r.problems().get(0).span().startLine());
        assertTrue(r.problems().get(0).message().startsWith("TOML syntax error: "), r.problems().get(0).message());
    }

    @Test
    void aWholeNumberBeyondALongIsABareScalarOverItsDigits() {
        String text = "[training]\nsteps = -1_234_567_890_123_456_789_012 # big\nmax = 9223372036854775807\n"
                + "over = 9223372036854775808\nday = 1979-05-27\nlist = [[12345678901234567890123], 1]\nrate = 12345678901234567890.5\n";
        ReadResult r = new TomlReader().read(SourceFile.of("t.toml", text));
        assertEquals(List.of(), r.problems());
        MappingNode t = (MappingNode) r.foreign().get(0).root().get("training").orElseThrow();
        ScalarNode steps = (ScalarNode) t.get("steps").orElseThrow();
        assertEquals("-1234567890123456789012", steps.text());
        assertEquals(false, steps.quoted());
        assertEquals(List.of(2, 9, 2, 39), List.of(steps.span().startLine(), steps.span().startColumn(),
                steps.span().endLine(), steps.span().endColumn()));
        assertEquals("9223372036854775807", ((ScalarNode) t.get("max").orElseThrow()).text());
        ScalarNode over = (ScalarNode) t.get("over").orElseThrow();
        assertEquals("9223372036854775808", over.text());
        assertEquals(false, over.quoted());
        assertEquals(List.of(4, 8, 4, 27), List.of(over.span().startLine(), over.span().startColumn(),
                over.span().endLine(), over.span().endColumn()));
        assertEquals("1979-05-27", ((ScalarNode) t.get("day").orElseThrow()).text());
        assertEquals("[[12345678901234567890123], 1]", t.get("list").orElseThrow().toString().isEmpty() ? "" :
                "[[" + ((ScalarNode) ((dev.gpulint.tree.ListNode) ((dev.gpulint.tree.ListNode) t.get("list").orElseThrow()).items().get(0))
                        .items().get(0)).text() + "], 1]");
        assertEquals("1.2345678901234567E19", ((ScalarNode) t.get("rate").orElseThrow()).text());
    }
}
