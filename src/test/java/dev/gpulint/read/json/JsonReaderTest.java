package dev.gpulint.read.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.read.ReadResult;
import dev.gpulint.read.SourceFile;
import dev.gpulint.tree.MappingNode;
import dev.gpulint.tree.ScalarNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The JSON front end, on DeepSpeed configurations of the shape DeepSpeed's examples use. */
class JsonReaderTest {

    private static ReadResult read(String text) { return new JsonReader().read(SourceFile.of("ds_config.json", text)); }

    @Test
    void anObjectIsADocumentWithTheSpanOfEveryValue() {
        ReadResult r = read("{\n  \"train_batch_size\": 256,\n  \"zero_optimization\": { \"stage\": 3 }\n}\n");
        assertEquals(List.of(), r.problems());
        MappingNode root = r.foreign().get(0).root();
        ScalarNode batch = (ScalarNode) root.get("train_batch_size").orElseThrow();
        assertEquals("256", batch.text());
        assertEquals(2, batch.span().startLine());
        assertEquals(23, batch.span().startColumn());
        ScalarNode stage = (ScalarNode) ((MappingNode) root.get("zero_optimization").orElseThrow()).get("stage").orElseThrow();
        assertEquals("3", stage.text());
        assertEquals(3, stage.span().startLine());
    }

    @Test
    void aKeyGivenTwiceIsSyn002AtTheSecondAndTheFirstIsKept() {
        ReadResult r = read("{\"train_batch_size\": 8,\n \"train_batch_size\": 16}");
        assertEquals(1, r.problems().size());
        assertEquals("SYN002", r.problems().get(0).ruleId());
        assertEquals(2, r.problems().get(0).span().startLine());
        assertEquals("8", ((ScalarNode) r.foreign().get(0).root().get("train_batch_size").orElseThrow()).text());
    }

    @Test
    void aSyntaxErrorIsSyn001WhereJacksonStopped() {
        ReadResult r = read("{\n  \"stage\": 3,\n  \"oops\"\n}");
        assertEquals(1, r.problems().size());
        assertEquals("SYN001", r.problems().get(0).ruleId());
        assertEquals(4, r.problems().get(0).span().startLine());
        assertTrue(r.problems().get(0).message().startsWith("JSON syntax error: "), r.problems().get(0).message());
    }

    @Test
    void commentsAreReadAndATopLevelArrayIsNoDocument() {
        assertEquals(List.of(), read("// DeepSpeed allows none, Jackson is told to\n{\"a\": 1}").problems());
        ReadResult list = read("[1, 2]");
        assertEquals(List.of(), list.problems());
        assertEquals(List.of(), list.foreign());
    }
}
