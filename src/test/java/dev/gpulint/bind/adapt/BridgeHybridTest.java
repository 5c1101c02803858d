package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Finding;
import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A hybrid as Megatron-Bridge's providers state it: HybridModelProvider's {@code hybrid_layer_pattern} (Qwen3-Next's and
 * Qwen3.5's G / * blocks, each followed by its MLP or MoE layer: qwen_hybrid.py's qwen_hybrid_layer_pattern) or
 * MambaModelProvider's {@code hybrid_override_pattern} (Nemotron-H), with TransformerConfig's mamba_* and linear_* fields.
 * Our own config dump in the shape of Megatron-Bridge's.
 */
class BridgeHybridTest {

    private static final String BRIDGE = """
            model:
              tensor_model_parallel_size: 2
              context_parallel_size: 2
              num_layers: 8
              hidden_size: 2048
              num_attention_heads: 16
              seq_length: 4096
              %s
            train:
              global_batch_size: 64
              micro_batch_size: 1
            mixed_precision: bf16_mixed
            """;

    private static dev.gpulint.spec.Model bind(String model) {
        return Foreign.model("run_config.yaml", BRIDGE.formatted(model));
    }

    /** Binding gave one finding, SYN002, on line {@code line}: that finding. */
    private static Finding syn002At(dev.gpulint.spec.Model m, int line) {
        assertEquals(1, m.findings().size(), m.findings().toString());
        Finding f = m.findings().get(0);
        assertEquals("SYN002", f.ruleId());
        assertEquals(line, f.span().startLine());
        return f;
    }

    @Test
    void aQwenHybridsPatternAndGatedDeltaNetSizesAreRead() {
        dev.gpulint.spec.Model m = bind("hybrid_layer_pattern: \"G-G-G-*-\"\n  linear_num_key_heads: 16\n  linear_num_value_heads: 32\n"
                + "  linear_value_head_dim: 128");
        assertEquals(List.of(), m.findings());
        Specs.Hybrid h = m.jobs().get(0).model().hybrid();
        assertEquals("G-G-G-*-", h.gdnPattern());
        assertEquals(3, h.gdnLayers());
        assertEquals(16L, h.gdn().keyHeads().value());
        assertEquals(32L, h.gdn().valueHeads().value());
        assertEquals(10, h.gdn().valueHeads().span().startLine());
        assertNull(h.gdn().keyHeadDim(), "not written: Megatron-Core's default, said by the estimate");
        assertEquals(128L, h.gdn().valueHeadDim().value());
        assertEquals("model.hybrid_layer_pattern", m.jobs().get(0).origin().key(Specs.Origin.HYBRID_PATTERN));
    }

    @Test
    void aNemotronHOverridePatternAndItsMambaSizesAreRead() {
        dev.gpulint.spec.Model m = bind("hybrid_override_pattern: \"M-M*M-M-\"\n  mamba_num_heads: 64\n  mamba_num_groups: 8\n"
                + "  mamba_state_dim: 128\n  mamba_head_dim: 64");
        assertEquals(List.of(), m.findings());
        Specs.Hybrid h = m.jobs().get(0).model().hybrid();
        assertEquals("M-M*M-M-", h.pattern().value());
        assertEquals(List.of(64L, 64L, 128L, 8L), List.of(h.heads().value(), h.headDim().value(), h.state().value(), h.groups().value()));
        assertNull(h.gdn());
        assertNull(bind("hybrid_override_pattern: null").jobs().get(0).model().hybrid(), "None: no hybrid");
    }

    @Test
    void aSizeThatIsNoWholeNumberIsSyn002AtTheValueNamedByItsField() {
        dev.gpulint.spec.Model m = bind("hybrid_layer_pattern: \"G-G-G-*-\"\n  linear_num_key_heads: 0");
        Finding f = syn002At(m, 9);
        // named as the file writes it, under model., and by what takes it: the provider's int field, not Megatron's argparse
        assertTrue(f.message().startsWith("'model.linear_num_key_heads' is '0'; expected a whole number from 1 to"
                + " 65536 (Megatron-Core's TransformerConfig field is an int; its GatedDeltaNet divides its heads and widths by tp);"
                + " the value is left out, so the estimate takes Megatron-Core's default for it"), f.message());
        Specs.Job j = m.jobs().get(0);
        assertNull(j.model().hybrid().gdn().keyHeads());
        assertTrue(j.origin().isLeftOut("model.linear_num_key_heads"), "PAR015 names it left out, under its key");
    }

    /** PAR015 names a size not written by the key the user would write: the provider's model.mamba_num_groups, not Megatron's flag. */
    @Test
    void theMixerSizesKeysAreRecordedAsTheFileWritesThemWrittenOrNot() {
        Specs.Origin o = bind("hybrid_override_pattern: \"M-M*M-M-\"\n  mamba_num_heads: 64").jobs().get(0).origin();
        assertEquals("model.mamba_num_heads", o.key("mamba_num_heads"));
        assertEquals("model.mamba_num_groups", o.key("mamba_num_groups"), "not written: the key it would be written under");
        assertEquals("model.linear_num_key_heads", o.key("linear_num_key_heads"));
    }

    /** A pattern Megatron-Core refuses says how the provider's layers are priced, by their key (model.num_layers, not --num-layers). */
    @Test
    void aRefusedPatternNamesTheProvidersLayersKey() {
        dev.gpulint.spec.Model m = bind("hybrid_layer_pattern: \"M-Q*\"");
        assertEquals(1, m.findings().size(), m.findings().toString());
        String message = m.findings().get(0).message();
        assertTrue(message.contains("every layer of model.num_layers is priced as attention + MLP"), message);
        assertTrue(!message.contains("--num-layers"), message);
    }

    /** A pattern written as a list (the provider's field is a str, which Megatron-Core parses letter by letter) is SYN002 at it, not ignored. */
    @Test
    void aPatternWrittenAsAListIsSyn002NotIgnored() {
        dev.gpulint.spec.Model m = bind("hybrid_layer_pattern: [\"G\", \"-\", \"G\", \"-\"]");
        Finding f = syn002At(m, 8);
        assertTrue(f.message().contains("'model.hybrid_layer_pattern' is 'a list'"), f.message());
        assertNull(m.jobs().get(0).model().hybrid());
    }

    /**
     * A provider dump without num_layers: Megatron-Bridge's HybridModelProvider.finalize sets num_layers to the pattern's
     * get_hybrid_total_layer_count (the letters before the first '/'), so the job's layers are the pattern's, said in the
     * assumptions under the provider's key; one that writes num_layers keeps it and says nothing.
     */
    @Test
    void withoutNumLayersTheProvidersPatternCountsTheLayers() {
        dev.gpulint.spec.Model m = Foreign.model("run_config.yaml", BRIDGE.replace("  num_layers: 8\n", "")
                .formatted("hybrid_layer_pattern: \"G-G-*-/*-\""));
        assertEquals(List.of(), m.findings());
        Specs.Job j = m.jobs().get(0);
        assertEquals(6L, j.model().layers().value());
        assertEquals(List.of("model.num_layers 6 from model.hybrid_layer_pattern (2 gated delta net, 1 attention and 3 MLP layers): the"
                + " job writes no model.num_layers, and Megatron-Bridge's HybridModelProvider.finalize derives it from the pattern,"
                + " asserting a written one equal as Megatron-Core's get_hybrid_total_layer_count counts it: the layer symbols before the"
                + " first '/', '|' not counted"), j.origin().unpriced().stream().filter(s -> s.startsWith("model.num_layers")).toList());
        Specs.Job written = bind("hybrid_layer_pattern: \"G-G-*-/*-\"").jobs().get(0);
        assertEquals(8L, written.model().layers().value(), "as written: PAR014 checks it against the pattern's 6");
        assertEquals(List.of(), written.origin().unpriced().stream().filter(s -> s.startsWith("model.num_layers")).toList());
        // the older hybrid_override_pattern (MambaModelProvider, which derives num_layers in some Bridge versions only): not counted
        Specs.Job older = Foreign.model("run_config.yaml", BRIDGE.replace("  num_layers: 8\n", "")
                .formatted("hybrid_override_pattern: \"M-M*M-M-\"")).jobs().get(0);
        assertEquals("M-M*M-M-", older.model().hybrid().pattern().value());
        assertNull(older.model().layers());
        assertEquals(List.of(), older.origin().unpriced().stream().filter(s -> s.startsWith("model.num_layers")).toList());
    }
}
