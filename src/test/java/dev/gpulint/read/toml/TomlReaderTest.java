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
}
