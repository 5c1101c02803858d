package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.Model;
import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import dev.gpulint.testing.Recipes;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Megatron's hybrid Mamba models written by their sizes ({@code --is-hybrid-model}, {@code --hybrid-layer-pattern}, the
 * {@code --mamba-*} sizes): a pattern of Mamba-2, attention, MLP and MoE layers is the job's hybrid layers (priced by kind,
 * derive/estimate/MambaLayers); a job without one is priced as transformer layers and the assumptions say so.
 * Our own fixtures, in the shapes of Megatron-LM's functional-test MODEL_ARGS and a launch script.
 */
class HybridLayersTest {

    /** The small hybrid every case here varies (testing.Recipes.smallHybrid: 8 layers "M-M*M-M-", no --mamba-* sizes). */
    private static final String MODEL_ARGS = Recipes.smallHybrid().yaml();

    private static List<String> hybridLines(Specs.Job j) {
        return j.origin().unpriced().stream().filter(s -> s.startsWith("--is-hybrid-model")).toList();
    }

    @Test
    void modelArgsPatternIsTheJobsHybridLayers() {
        Specs.Job j = Foreign.bind("model_config.yaml", MODEL_ARGS);
        assertEquals(List.of(), hybridLines(j), "priced by kind: nothing unpriced");
        assertEquals("M-M*M-M-", j.model().hybrid().pattern().value());
        assertNull(j.model().hybrid().heads(), "no --mamba-num-heads: the estimate takes Megatron's default and says so");
        assertEquals(8, j.model().layers().value());
        // the mixer's sizes as written
        Specs.Job sized = Foreign.bind("model_config.yaml", MODEL_ARGS.replace("  --seq-length: 4096\n",
                "  --seq-length: 4096\n  --mamba-num-heads: 40\n  --mamba-head-dim: 48\n  --mamba-state-dim: 64\n  --mamba-num-groups: 4\n"));
        Specs.Hybrid h = sized.model().hybrid();
        assertEquals(List.of(40L, 48L, 64L, 4L), List.of(h.heads().value(), h.headDim().value(), h.state().value(), h.groups().value()));
    }

    @Test
    void aPatternWithMoeLayersIsTheJobsHybridLayersAndALatentMoeIsSaid() {
        // Nemotron 3's shape: E layers among the Mamba-2 ones, the experts as --num-experts and the --moe-* flags state them
        String moe = MODEL_ARGS.replace("\"M-M*M-M-\"", "\"MEM*MEME\"").replace("  --seq-length: 4096\n",
                "  --seq-length: 4096\n  --num-experts: 16\n  --moe-router-topk: 4\n  --moe-shared-expert-intermediate-size: 2048\n");
        Specs.Job j = Foreign.bind("model_config.yaml", moe);
        assertEquals("MEM*MEME", j.model().hybrid().pattern().value());
        assertEquals(16L, j.model().experts().value());
        assertEquals(List.of(), hybridLines(j), "priced by kind: nothing unpriced");
        assertEquals(List.of(), j.origin().unpriced().stream().filter(s -> s.startsWith("--moe-latent-size")).toList());
        // Nemotron 3 Super's latent MoE: its experts on a 1,024-wide projection of h, not priced, and said
        Specs.Job latent = Foreign.bind("model_config.yaml", moe.replace("  --num-experts: 16\n", "  --num-experts: 16\n  --moe-latent-size: 256\n"));
        assertEquals(List.of("--moe-latent-size 256 (4 Mamba-2, 1 attention and 3 MoE layers): the MoE layers' experts run on a latent"
                + " projection of the hidden size (latent MoE), which the estimate does not price: the experts are priced at the hidden"
                + " size, so their time and memory are overstated"),
                latent.origin().unpriced().stream().filter(s -> s.startsWith("--moe-latent-size")).toList());
    }

    @Test
    void pipeAndMtpSeparatorsAreNotLayersAndAnOddPatternIsNotCounted() {
        // the MTP blocks after the first '/' (Nemotron 3 Super's "...EME/*E/*E" with --mtp-num-layers 2) are not decoder layers
        Specs.Job piped = Foreign.bind("model_config.yaml", MODEL_ARGS.replace("\"M-M*M-M-\"", "\"M-M*|M-M-/*-\""));
        assertEquals("M-M*M-M-", piped.model().hybrid().pattern().value());
        // a letter Megatron-Core does not know: SYN002 at it (line 10, column 29: the 'x' of "MxM", whose quote is at 27), and the job priced without the
        // pattern, said once under the flag
        Model oddModel = Foreign.model("model_config.yaml", MODEL_ARGS.replace("\"M-M*M-M-\"", "\"MxM\""));
        Specs.Job odd = oddModel.jobs().get(0);
        assertNull(odd.model().hybrid());
        assertEquals(List.of("10:29 '--hybrid-layer-pattern' is 'MxM'; expected layer symbols Megatron-Core knows, one per layer (character 2"
                + " is 'x', not a layer symbol Megatron-Core knows (M Mamba-2, G gated delta net, * attention, D DeepSeek sparse attention, +"
                + " MLA, C, H and W DeepSeek-V4 attention, - MLP, E MoE, '[' ']' a group, '|' a stage boundary, '/' the MTP blocks); its"
                + " parse_segment_layers raises \"'x' is not a valid layer symbol\"); the value is left out, so every layer of --num-layers is"
                + " priced as attention + MLP (MoE where the job states experts), its Mamba-2 layers included, and Megatron stops at"
                + " start-up."), Foreign.syn002(oddModel));
        assertEquals(List.of(), hybridLines(odd), "said once, under the pattern's flag");
        assertEquals(1, odd.origin().unpriced().stream().filter(s -> s.startsWith("--hybrid-layer-pattern = 'MxM' (SYN002")).count(),
                odd.origin().unpriced().toString());
        // without the switch (or with it false: not passed) the pattern is read all the same: Megatron-LM's is_hybrid_model
        // is the pattern written (aPatternWithoutTheSwitchIsAHybrid)
        Specs.Job plain = Foreign.bind("model_config.yaml", MODEL_ARGS.replace("  --is-hybrid-model: true\n", "  --is-hybrid-model: false\n"));
        assertEquals(List.of(), hybridLines(plain));
        assertEquals("M-M*M-M-", plain.model().hybrid().pattern().value());
    }

    @Test
    void aPatternWithNoDecoderLayerIsRefusedAtThePattern() {
        // every character reads, but nothing stands before the first '/' (or between the '|'): Megatron-Core's decoder has no
        // layer, and its allocation raises "wrong length: got 0"; gpulint said nothing and priced the job without the pattern
        for (String written : List.of("/*-", "|", "||/M")) {
            Model model = Foreign.model("model_config.yaml", MODEL_ARGS.replace("\"M-M*M-M-\"", "\"" + written + "\""));
            List<String> syn = Foreign.syn002(model).stream().filter(f -> f.contains("decoder layer before the first '/'")).toList();
            assertEquals(List.of("10:27 '--hybrid-layer-pattern' is '" + written + "'; expected one layer symbol per decoder layer before"
                    + " the first '/' (it holds none: '|' and what follows '/' are not decoder layers; Megatron-Core raises \"The hybrid"
                    + " override pattern is the wrong length: got 0, expected\" the --num-layers); the value is left out, so every layer"
                    + " of --num-layers is priced as attention + MLP (MoE where the job states experts), its Mamba-2 layers included, and"
                    + " Megatron stops at start-up."), syn, written);
            assertNull(model.jobs().get(0).model().hybrid(), written);
        }
        // quiet: one layer before the '/' reads, as does the pattern with '|' and its MTP blocks
        for (String written : List.of("M/*-", "M-M*|M-M-/*-")) {
            Model model = Foreign.model("model_config.yaml", MODEL_ARGS.replace("\"M-M*M-M-\"", "\"" + written + "\""));
            assertEquals(List.of(), Foreign.syn002(model).stream().filter(f -> f.contains("decoder layer before the first '/'")).toList(), written);
            assertNotNull(model.jobs().get(0).model().hybrid(), written);
        }
    }

    @Test
    void launchScriptsSwitchIsReadWithTheOlderPatternName() {
        Specs.Job j = Foreign.bind("train.sh", """
                #!/bin/bash
                torchrun --nnodes 1 --nproc_per_node 8 pretrain_mamba.py \\
                  --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --seq-length 4096 \\
                  --is-hybrid-model --hybrid-override-pattern "MM*-" --mamba-num-heads 32 \\
                  --micro-batch-size 1 --global-batch-size 64 --bf16
                """);
        assertNotNull(j.origin());
        assertEquals(List.of(), hybridLines(j));
        assertEquals("MM*-", j.model().hybrid().pattern().value());
        assertEquals(32L, j.model().hybrid().heads().value());
    }

    @Test
    void thePatternComesUnquotedFromTheShellsWordsAndYamlsScalars() {
        // the readers take the quotes off, as sh and YAML do: a pattern is read alike however it is quoted
        String script = """
                #!/bin/bash
                torchrun --nnodes 1 --nproc_per_node 8 pretrain_mamba.py \\
                  --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --seq-length 4096 \\
                  --is-hybrid-model --hybrid-layer-pattern %s \\
                  --micro-batch-size 1 --global-batch-size 64 --bf16
                """;
        // (merged with the mamba branch, the pattern of M, * and - is priced by kind: the job's hybrid, no unpriced line)
        for (String written : List.of("\"MM*-\"", "'MM*-'", "MM\"*-\"", "MM'*'-")) {
            Specs.Job j = Foreign.bind("train.sh", script.formatted(written));
            assertEquals("MM*-", j.model().hybrid().pattern().value(), written);
            assertEquals(List.of(), hybridLines(j), written);
        }
        for (String written : List.of("\"M-M*M-M-\"", "'M-M*M-M-'", "M-M*M-M-")) {
            Specs.Job j = Foreign.bind("model_config.yaml", MODEL_ARGS.replace("\"M-M*M-M-\"", written));
            assertEquals("M-M*M-M-", j.model().hybrid().pattern().value(), written);
            assertEquals(List.of(), hybridLines(j), written);
        }
    }

    @Test
    void aMixerSizeThatIsNoPositiveWholeNumberIsSyn002AtItsValue() {
        // review8: 0 and -4 were priced as "not given" with Megatron's default, a word was dropped silently, and a size past a
        // long was read as Long.MAX_VALUE, which overflowed the mixer's parameters into a negative step time with exit 0
        String line4 = "  --is-hybrid-model --hybrid-layer-pattern MM*- --mamba-num-heads 0 --mamba-head-dim -4 --mamba-state-dim abc"
                + " --mamba-num-groups 99999999999999999999 \\";
        Model m = Foreign.model("train.sh", "#!/bin/bash\n"
                + "torchrun --nnodes 1 --nproc_per_node 8 pretrain_mamba.py \\\n"
                + "  --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --seq-length 4096 \\\n"
                + line4 + "\n"
                + "  --micro-batch-size 1 --global-batch-size 64 --bf16\n");
        String expected = "; expected a whole number from 1 to 65536 (Megatron's argparse takes an int; its MambaMixer divides by heads"
                + " and groups); the value is left out, so the estimate takes Megatron-LM's default for it.";
        assertEquals(List.of(
                "4:" + (line4.indexOf(" 0 ") + 2) + " '--mamba-num-heads' is '0'" + expected,
                "4:" + (line4.indexOf("-4") + 1) + " '--mamba-head-dim' is '-4'" + expected,
                "4:" + (line4.indexOf("abc") + 1) + " '--mamba-state-dim' is 'abc'" + expected,
                "4:" + (line4.indexOf("999") + 1) + " '--mamba-num-groups' is '99999999999999999999'" + expected), Foreign.syn002(m));
        Specs.Hybrid h = m.jobs().get(0).model().hybrid();
        assertEquals("MM*-", h.pattern().value(), "the pattern still priced by kind");
        assertNull(h.heads());
        assertNull(h.headDim());
        assertNull(h.state());
        assertNull(h.groups());
        // in bounds: kept
        Specs.Hybrid ok = Foreign.bind("train.sh", "#!/bin/bash\ntorchrun pretrain_mamba.py --num-layers 4 --hidden-size 1024"
                + " --num-attention-heads 16 --seq-length 4096 --is-hybrid-model --hybrid-layer-pattern MM*- --mamba-num-heads 65536"
                + " --mamba-num-groups 1 --micro-batch-size 1 --global-batch-size 64 --bf16\n").model().hybrid();
        assertEquals(65536L, ok.heads().value());
        assertEquals(1L, ok.groups().value());
    }

    /**
     * A pattern without --is-hybrid-model is a hybrid (Megatron-LM's is_hybrid_model is hybrid_layer_pattern not None;
     * pretrain_mamba.py needs no switch): Megatron-LM's hybrid functional tests write the pattern beside --export-model-type
     * MambaModel alone. Before, such a job's pattern was dropped without a word and its layers priced as transformer layers.
     */
    @Test
    void aPatternWithoutTheSwitchIsAHybrid() {
        String noSwitch = MODEL_ARGS.replace("  --is-hybrid-model: true\n", "  --export-model-type: MambaModel\n");
        Specs.Job j = Foreign.bind("model_config.yaml", noSwitch);
        assertNotNull(j.model().hybrid(), "the pattern is the job's hybrid layers");
        assertEquals("M-M*M-M-", j.model().hybrid().pattern().value());
        assertEquals(List.of(), hybridLines(j));
        // a pattern of a symbol Megatron does not know, without the switch: SYN002 at it, said under the pattern's flag, not priced by kind
        Specs.Job odd = Foreign.bind("model_config.yaml", noSwitch.replace("\"M-M*M-M-\"", "\"M-M*Q-M-\""));
        assertNull(odd.model().hybrid());
        assertTrue(odd.origin().unpriced().stream().anyMatch(s -> s.startsWith("--hybrid-layer-pattern = 'M-M*Q-M-' (SYN002")),
                odd.origin().unpriced().toString());
    }

    /**
     * Megatron-Core's newer layer symbols (megatron/core/models/hybrid/layers/utils.py at 089b33b8, Symbols.LAYER_CONFIG_MAP):
     * G a gated delta net, priced as GatedDeltaNet beside M layers or not (no stand-in); D (DeepSeek sparse attention), + (MLA), C, H and W (DeepSeek-V4 attention) as
     * attention of the job's variant; a bracketed group [M*E] as its letters. The pattern keeps its layer count, and the plan's
     * assumptions say which letter is priced as which kind.
     */
    @Test
    void newerSymbolsArePricedAsTheNearestKindAndSaid() {
        // our own 10-layer pattern of Qwen3-Next's shape (three gated-delta-net layers to one attention layer, MoE after each):
        // its G layers are GatedDeltaNets (no stand-in line); with one M among them too, each G a GatedDeltaNet and the M Mamba-2
        Specs.Job qwen = Foreign.bind("model_config.yaml", MODEL_ARGS.replace("--num-layers: 8", "--num-layers: 10")
                .replace("\"M-M*M-M-\"", "\"GEGEGE*EGE\""));
        assertNotNull(qwen.model().hybrid().gdn(), "G only: priced as Megatron-Core's GatedDeltaNet");
        assertEquals(List.of(), qwen.origin().unpriced().stream().filter(s -> s.startsWith("--hybrid-layer-pattern (")).toList());
        Specs.Job gdn = Foreign.bind("model_config.yaml", MODEL_ARGS.replace("--num-layers: 8", "--num-layers: 10")
                .replace("\"M-M*M-M-\"", "\"GEMEGE*EGE\""));
        assertNotNull(gdn.model().hybrid().gdn(), "M beside G: the G layers still GatedDeltaNets");
        assertEquals("MEMEME*EME", gdn.model().hybrid().pattern().value(), "10 layers: G as M, the count kept");
        assertEquals("GEMEGE*EGE", gdn.model().hybrid().gdnPattern(), "where the gated delta nets stand");
        assertEquals(3, gdn.model().hybrid().gdnLayers());
        assertEquals(List.of(), gdn.origin().unpriced().stream().filter(s -> s.startsWith("--hybrid-layer-pattern (")).toList());
        // DeepSeek sparse attention and MLA beside Mamba, and a bracketed group of a mixer and its MoE: 8 layers
        Specs.Job dsa = Foreign.bind("model_config.yaml", MODEL_ARGS.replace("\"M-M*M-M-\"", "\"M-MD[M+E]-\""));
        assertEquals("M-M*M*E-", dsa.model().hybrid().pattern().value());
        assertEquals(List.of("--hybrid-layer-pattern (3 Mamba-2, 2 attention, 2 MLP and 1 MoE layers as priced): Megatron-Core's newer"
                + " layer symbols are priced as the kind the estimate has nearest them: + (multi-latent attention, MLA) as * (attention of"
                + " the job's variant), D (DeepSeek sparse attention, DSA) as * (attention of the job's variant), each bracketed group"
                + " [...] as its letters, one layer each; the layer count is the pattern's, each such layer's time and memory are its"
                + " stand-in's"), dsa.origin().unpriced().stream().filter(s -> s.startsWith("--hybrid-layer-pattern (")).toList());
        // the four kinds the estimate prices as written: no line
        assertEquals(List.of(), Foreign.bind("model_config.yaml", MODEL_ARGS).origin().unpriced().stream()
                .filter(s -> s.startsWith("--hybrid-layer-pattern")).toList());
    }

    /** What Megatron-Core's parse_segment_layers refuses is SYN002 at the character it is about, never a crash or a silent drop. */
    @Test
    void groupsAndMixturesMegatronRefusesAreSyn002AtTheirColumn() {
        // "M-[ME-]M-": the group's E is not its last letter (validate_layer_group); the pattern's first letter is at column 28, the E at 32
        Model moeFirst = Foreign.model("model_config.yaml", MODEL_ARGS.replace("\"M-M*M-M-\"", "\"M-[ME-]M-\""));
        assertEquals(1, Foreign.syn002(moeFirst).size(), Foreign.syn002(moeFirst).toString());
        assertTrue(Foreign.syn002(moeFirst).get(0).startsWith("10:32 '--hybrid-layer-pattern' is 'M-[ME-]M-'; expected layer symbols"
                + " Megatron-Core knows, one per layer (character 5 is an E before its group's last letter; Megatron-Core's"
                + " validate_layer_group raises \"MoE layer 'E' must be the last symbol inside a layer group.\")"),
                Foreign.syn002(moeFirst).toString());
        assertNull(moeFirst.jobs().get(0).model().hybrid());
        // attention beside DeepSeek sparse attention: the later of the two is named
        Model mixed = Foreign.model("model_config.yaml", MODEL_ARGS.replace("\"M-M*M-M-\"", "\"M-M*M-D-\""));
        assertTrue(Foreign.syn002(mixed).get(0).startsWith("10:34 '--hybrid-layer-pattern' is 'M-M*M-D-'; expected layer symbols"
                + " Megatron-Core knows, one per layer (character 7 is both attention '*' and an MLA-kind layer ('D'); Megatron-Core's"
                + " parse_segment_layers raises \"Not supported to have both Attention and MLA/DSA/CSA/HCA/Window in one model\")"),
                Foreign.syn002(mixed).toString());
        // an unclosed group, and a group a '|' crosses
        assertTrue(Foreign.syn002(Foreign.model("model_config.yaml", MODEL_ARGS.replace("\"M-M*M-M-\"", "\"M-[M*M-M-\"")))
                .get(0).startsWith("10:30 '--hybrid-layer-pattern' is 'M-[M*M-M-'; expected layer symbols Megatron-Core knows, one per"
                        + " layer (character 3 is a '[' without its ']'"));
        assertTrue(Foreign.syn002(Foreign.model("model_config.yaml", MODEL_ARGS.replace("\"M-M*M-M-\"", "\"M-[M*|M]-M-\"")))
                .get(0).startsWith("10:30 '--hybrid-layer-pattern' is 'M-[M*|M]-M-'; expected layer symbols Megatron-Core knows, one"
                        + " per layer (character 3 is a '[' whose group a '|' crosses"));
        // a well-formed group is quiet
        assertEquals(List.of(), Foreign.syn002(Foreign.model("model_config.yaml", MODEL_ARGS.replace("\"M-M*M-M-\"", "\"[M-][M*]M-M-\""))));
    }
    /**
     * A script's pattern has the native field's bound (HybridPattern.MAX_CHARS, 65,536 characters, '|' and '/' counted): past
     * it, SYN002 at the flag's value, said before any pass over it, and the job priced without the pattern; at it, read.
     */
    @Test
    @dev.gpulint.testing.CpuLimit(seconds = 30)
    void aPatternPastTheBoundIsSyn002AtTheFlag() {
        Model past = Foreign.model("model_config.yaml", MODEL_ARGS.replace("\"M-M*M-M-\"", "\"" + "M".repeat(65_535) + "/*-\""));
        List<String> syn = Foreign.syn002(past);
        assertEquals(1, syn.size(), syn.toString());
        assertTrue(syn.get(0).startsWith("10:27 '--hybrid-layer-pattern' is 'MMMM"), syn.get(0));
        assertTrue(syn.get(0).endsWith("…'; expected at most 65536 characters (layer symbols, '|' and the MTP blocks after '/'; it has"
                + " 65538), the bound model.hybrid.pattern has, far above any published model's 118 layers; the value is left out, so"
                + " every layer of --num-layers is priced as attention + MLP (MoE where the job states experts), its Mamba-2 layers"
                + " included."), syn.get(0));
        assertNull(past.jobs().get(0).model().hybrid());
        assertNull(past.jobs().get(0).model().mtp(), "nothing of it read, its MTP groups neither");
        // the bound itself reads (its length is not --num-layers: PAR014's, not this finding)
        Model at = Foreign.model("model_config.yaml", MODEL_ARGS.replace("\"M-M*M-M-\"", "\"" + "M".repeat(65_533) + "/*-\""));
        assertEquals(List.of(), Foreign.syn002(at));
        assertEquals(65_533, at.jobs().get(0).model().hybrid().pattern().value().length());
    }

    /**
     * A space inside or around a script's pattern: Megatron-Core strips nothing (hybrid_layer_allocation.py's _validate_pattern
     * checks every character against its Symbols), so a quoted no-break space (U+00A0) or other non-ASCII space is SYN002 at
     * that character, as the native field refuses it; ASCII blanks around it are trimmed, as the native field trims them.
     */
    @Test
    void aNonAsciiSpaceInThePatternIsSyn002AtIt() {
        for (String space : List.of("\u00a0", "\u3000", "\u2007")) {
            for (String written : List.of("M-M*M-M-" + space, space + "M-M*M-M-", "M-M*" + space + "M-M-")) {
                Model m = Foreign.model("model_config.yaml", MODEL_ARGS.replace("\"M-M*M-M-\"", "\"" + written + "\""));
                String hex = String.format("U+%04X", (int) space.charAt(0));
                assertEquals(List.of("10:" + (28 + written.indexOf(space)) + " '--hybrid-layer-pattern' is '" + written + "'; expected layer"
                        + " symbols Megatron-Core knows, one per layer (character " + (written.indexOf(space) + 1) + " is " + hex + " (a space),"
                        + " not a layer symbol Megatron-Core knows (M Mamba-2, G gated delta net, * attention, D DeepSeek sparse attention, +"
                        + " MLA, C, H and W DeepSeek-V4 attention, - MLP, E MoE, '[' ']' a group, '|' a stage boundary, '/' the MTP blocks);"
                        + " its parse_segment_layers raises \"" + hex + " (a space) is not a valid layer symbol\"); the value is left out, so"
                        + " every layer of --num-layers is priced as attention + MLP (MoE where the job states experts), its Mamba-2 layers"
                        + " included, and Megatron stops at start-up."), Foreign.syn002(m), written);
                assertNull(m.jobs().get(0).model().hybrid(), written);
            }
        }
        // quiet: ASCII blanks inside the quotes, around the pattern
        Model quiet = Foreign.model("model_config.yaml", MODEL_ARGS.replace("\"M-M*M-M-\"", "\" M-M*M-M-\\t\""));
        assertEquals(List.of(), Foreign.syn002(quiet));
        assertEquals("M-M*M-M-", quiet.jobs().get(0).model().hybrid().pattern().value());
    }
    /**
     * A pattern of gated delta nets (G) with their --linear-* sizes (Megatron-Core's TransformerConfig linear_* fields): the G
     * layers are the job's mixers, priced as GatedDeltaNet (MambaLayers.Gdn), and the G-as-Mamba-2 line is gone; beside M
     * layers too (each M a Mamba-2 mixer of the --mamba-* sizes); a size that is no whole number from 1 to 65,536 is SYN002 at it.
     */
    @Test
    void aGdnPatternsLinearSizesAreItsMixers() {
        String qwen = MODEL_ARGS.replace("--num-layers: 8", "--num-layers: 10").replace("\"M-M*M-M-\"", "\"GEGEGE*EGE\"")
                .replace("  --seq-length: 4096\n", "  --seq-length: 4096\n  --num-experts: 16\n  --linear-num-key-heads: 8\n"
                        + "  --linear-num-value-heads: 16\n  --linear-value-head-dim: 64\n");
        Specs.Job j = Foreign.bind("model_config.yaml", qwen);
        Specs.Gdn g = j.model().hybrid().gdn();
        assertEquals(List.of(8L, 16L, 64L), List.of(g.keyHeads().value(), g.valueHeads().value(), g.valueHeadDim().value()));
        assertNull(g.keyHeadDim(), "not written: Megatron-Core's default, said by the estimate");
        assertNull(g.conv());
        assertEquals("MEMEME*EME", j.model().hybrid().pattern().value(), "the mixers' places, G held as M");
        assertEquals(List.of(), j.origin().unpriced().stream().filter(s -> s.startsWith("--hybrid-layer-pattern (")).toList(),
                "G priced as Megatron builds it: no stand-in line");
        // a newer attention letter beside them keeps its own stand-in line, without G's
        Specs.Job dsa = Foreign.bind("model_config.yaml", qwen.replace("\"GEGEGE*EGE\"", "\"GEGEGEDEGE\""));
        assertEquals(List.of("--hybrid-layer-pattern (4 gated delta net, 1 attention and 5 MoE layers as priced): Megatron-Core's newer"
                + " layer symbols are priced as the kind the estimate has nearest them: D (DeepSeek sparse attention, DSA) as * (attention"
                + " of the job's variant); the layer count is the pattern's, each such layer's time and memory are its stand-in's"),
                dsa.origin().unpriced().stream().filter(s -> s.startsWith("--hybrid-layer-pattern (")).toList());
        // beside Mamba-2 layers: the G layers keep their sizes (each M is Mamba-2), and nothing says them unused
        Specs.Job both = Foreign.bind("model_config.yaml", qwen.replace("\"GEGEGE*EGE\"", "\"GEMEGE*EGE\""));
        Specs.Gdn bg = both.model().hybrid().gdn();
        assertEquals(List.of(8L, 16L, 64L), List.of(bg.keyHeads().value(), bg.valueHeads().value(), bg.valueHeadDim().value()));
        assertEquals("GEMEGE*EGE", both.model().hybrid().gdnPattern());
        assertEquals(List.of(), both.origin().unpriced().stream().filter(s -> s.startsWith("--linear")).toList());
        // no --linear-* size written: Megatron-Core still builds each G as a GatedDeltaNet, of its config's defaults
        Specs.Job unsized = Foreign.bind("model_config.yaml", MODEL_ARGS.replace("--num-layers: 8", "--num-layers: 10")
                .replace("\"M-M*M-M-\"", "\"GEGEGE*EGE\"").replace("  --seq-length: 4096\n", "  --seq-length: 4096\n  --num-experts: 16\n"));
        Specs.Gdn d = unsized.model().hybrid().gdn();
        assertEquals(Arrays.asList(null, null, null, null, null), Arrays.asList(d.keyHeads(), d.valueHeads(), d.keyHeadDim(), d.valueHeadDim(), d.conv()),
                "each size Megatron-Core's default, said by the estimate");
        assertEquals(List.of(), unsized.origin().unpriced().stream().filter(s -> s.startsWith("--hybrid-layer-pattern (")).toList(),
                "G priced as Megatron builds it, sizes written or not: no stand-in line");
        // without G the flags are not this reader's (a GPT model's --experimental-attention-variant): not read, nothing said
        Specs.Job noG = Foreign.bind("model_config.yaml", qwen.replace("\"GEGEGE*EGE\"", "\"MEMEME*EME\""));
        assertNull(noG.model().hybrid().gdn());
        assertEquals(List.of(), noG.origin().unpriced().stream().filter(s -> s.startsWith("--linear")).toList());
        // a size Megatron's argparse or GatedDeltaNet refuses: SYN002 at it, taken as not written
        Model zero = Foreign.model("model_config.yaml", qwen.replace("--linear-num-key-heads: 8", "--linear-num-key-heads: 0"));
        assertEquals(List.of("13:27 '--linear-num-key-heads' is '0'; expected a whole number from 1 to 65536 (Megatron's argparse takes an"
                + " int; its GatedDeltaNet divides its heads and widths by tp); the value is left out, so the estimate takes Megatron-LM's"
                + " default for it."), Foreign.syn002(zero));
        assertNull(zero.jobs().get(0).model().hybrid().gdn().keyHeads());
    }

    /**
     * No --num-layers beside the pattern (Megatron-LM's hybrid functional tests write none): the model's layers are the
     * pattern's decoder layers as Megatron-Core's get_hybrid_total_layer_count counts them (before the first '/', '|' not
     * counted), at the pattern, and the assumptions say where the count came from; a placeholder --num-layers is the same;
     * a written count is kept (PAR014 checks it against the pattern) and nothing is said.
     */
    @Test
    void withoutNumLayersThePatternCountsTheLayers() {
        String noCount = Recipes.smallHybrid().without("--num-layers").pattern("M-M*|M-M-/*-").yaml();
        Specs.Job j = Foreign.bind("model_config.yaml", noCount);
        assertEquals(8L, j.model().layers().value(), "8 decoder layers: neither '|' nor the MTP block after '/' is one");
        assertEquals(9, j.model().layers().span().startLine(), "at the pattern (line 9 once --num-layers is gone)");
        assertEquals(1L, j.model().mtp().layers().value(), "the '/' group is the MTP layer, not a decoder layer");
        String said = "--num-layers 8 from --hybrid-layer-pattern (4 Mamba-2, 1 attention and 3 MLP layers): the job writes no"
                + " --num-layers, and Megatron-LM derives it from the pattern (validate_args, since the --hybrid-layer-pattern rename of"
                + " NVIDIA/Megatron-LM pull request 3377; an older Megatron-LM needs --num-layers equal to it) as Megatron-Core's"
                + " get_hybrid_total_layer_count counts it: the layer symbols before the first '/', '|' not counted";
        assertEquals(List.of(said), derived(j));
        // a placeholder: the count Megatron takes is the pattern's all the same, and the shape is no longer unknown
        Specs.Job placeholder = Foreign.bind("model_config.yaml", Recipes.smallHybrid().set("--num-layers", "${NUM_LAYERS}").yaml());
        assertEquals(8L, placeholder.model().layers().value());
        assertTrue(placeholder.model().unknown().isEmpty(), placeholder.model().unknown().toString());
        assertEquals(List.of(said.replace("the job writes no --num-layers", "the job writes --num-layers as a value gpulint cannot read")),
                derived(placeholder));
        // written: kept as written, nothing said
        Specs.Job written = Foreign.bind("model_config.yaml", Recipes.smallHybrid().set("--num-layers", 10).yaml());
        assertEquals(10L, written.model().layers().value(), "as written: PAR014 says it is not the pattern's 8");
        assertEquals(List.of(), derived(written));
    }

    private static List<String> derived(Specs.Job j) {
        return j.origin().unpriced().stream().filter(s -> s.startsWith("--num-layers ")).toList();
    }
}
