package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What a torchtitan TOML says of weight tying and of its model's name (our own fixtures in the shape of its
 * train_configs): {@code [model] enable_weight_tying} (the model args' switch, Qwen3ModelArgs.enable_weight_tying in
 * pytorch/torchtitan torchtitan/models/qwen3/model/args.py, which the flavors in torchtitan/models/qwen3/__init__.py set)
 * decides over the flavor's catalog entry; {@code [model] name} and {@code flavor} are the model PAR019 names.
 */
class TorchtitanTyingTest {

    private static String toml(String modelLines) {
        return """
                [model]
                %s

                [parallelism]
                data_parallel_shard_degree = -1
                pipeline_parallel_degree = 2
                """.formatted(modelLines);
    }

    private static String statedModel(Specs.Job j) {
        for (Specs.Stated s : j.origin().stated()) if (s.quantity().equals(Specs.Origin.MODEL_NAME)) return s.value() + " | " + s.where();
        return null;
    }

    @Test
    void aWrittenSwitchDecidesOverTheFlavorsCatalogEntry() {
        Specs.Job untied = Foreign.bind("q.toml", toml("name = \"qwen3\"\nflavor = \"0.6B\"\nenable_weight_tying = false"));
        assertEquals(false, untied.model().tiedEmbeddings().value(), "0.6B is tied in the catalog; the switch unties it");
        assertEquals(4, untied.model().tiedEmbeddings().span().startLine());
        Specs.Job tied = Foreign.bind("q.toml", toml("name = \"qwen3\"\nflavor = \"8B\"\nenable_weight_tying = true"));
        assertEquals(true, tied.model().tiedEmbeddings().value(), "8B is untied in the catalog; the switch ties it");
        assertEquals(4, tied.model().tiedEmbeddings().span().startLine());
        Specs.Job byFlavor = Foreign.bind("q.toml", toml("name = \"qwen3\"\nflavor = \"0.6B\""));
        assertEquals(true, byFlavor.model().tiedEmbeddings().value(), "no switch: the flavor's catalog entry");
        assertEquals(3, byFlavor.model().tiedEmbeddings().span().startLine());
    }

    @Test
    void aSwitchThatIsNoBooleanIsRefusedAndTheFlavorDecides() {
        var m = Foreign.model("q.toml", toml("name = \"qwen3\"\nflavor = \"0.6B\"\nenable_weight_tying = \"sometimes\""));
        assertEquals(List.of("4:23 '[model] enable_weight_tying' is 'sometimes'; expected true or false; the value is left out, so"
                + " the flavor's catalog entry decides whether the model ties."), Foreign.syn002(m));
        assertEquals(true, m.jobs().get(0).model().tiedEmbeddings().value());
    }

    @Test
    void theModelIsNamedAsTheFileWritesIt() {
        assertEquals("qwen3 0.6B | [model] name and flavor", statedModel(Foreign.bind("q.toml", toml("name = \"qwen3\"\nflavor = \"0.6B\""))));
        assertEquals("my_decoder | [model] name", statedModel(Foreign.bind("q.toml", toml("name = \"my_decoder\""))));
        assertEquals("8B | [model] flavor", statedModel(Foreign.bind("q.toml", toml("flavor = \"8B\""))));
        assertNull(statedModel(Foreign.bind("q.toml", toml("converters = []"))));
        String longName = "m".repeat(5000);
        String named = statedModel(Foreign.bind("q.toml", toml("name = \"" + longName + "\"")));
        assertTrue(named.startsWith("m".repeat(60) + "… |"), "a written name is cut to a readable length: " + named.length());
    }
}
