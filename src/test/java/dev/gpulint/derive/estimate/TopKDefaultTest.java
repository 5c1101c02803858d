package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.EstimateManifest;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** model.top_k's default is one truth: what the estimate takes is what the JSON schema and docs/format.md say. */
class TopKDefaultTest {
    private static final String SAYS = "default 2 when the model has experts";

    private static ModelShape shape(String experts) {
        return EstimateManifest.h100().model("layers: 4, hidden_size: 1024, attention_heads: 8" + experts).estimate().inputs().model();
    }

    @Test
    void theEstimateTakesWhatTheSchemaAndTheFormatSay() throws Exception {
        assertEquals(2, shape(", experts: 8").topK(), "a MoE model without top_k");
        assertEquals(1, shape("").topK(), "a dense model");
        assertTrue(Files.readString(Path.of("..", "schema", "gpulint-manifest.schema.json")).contains(SAYS), "the schema says it");
        assertTrue(Files.readString(Path.of("..", "docs", "format.md")).replace('\n', ' ').contains(SAYS), "docs/format.md says it");
    }
}
