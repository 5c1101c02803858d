package dev.gpulint.spec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A hybrid pattern read as Megatron-Core's parse_hybrid_pattern and select_pipeline_segment read it. */
class HybridPatternTest {

    @Test
    void theSegmentsAreTheStagesAndTheMtpBlocksAreNoDecoderLayers() {
        HybridPattern p = HybridPattern.read("M*M-|M-M*E-/*E/*E");
        assertEquals("M*M-M-M*E-", p.decoder());
        assertEquals(List.of(4L, 6L), p.stages());
        assertEquals(List.of(), HybridPattern.read("M*M-M-").stages(), "no '|': Megatron's even split");
        // an empty segment is a stage of no layers, as Megatron-Core's validate_segment_layers("") is []
        assertEquals(List.of(0L, 0L, 1L), HybridPattern.read("||M").stages());
    }

    /** The decoder holds a G as M; gdnLayers counts the decoder's G apart (PAR015 checks MambaMixer on the written M only). */
    @Test
    void theDecodersGatedDeltaNetsAreCountedApart() {
        HybridPattern p = HybridPattern.read("G*M-|G-/G*");
        assertEquals("M*M-M-", p.decoder());
        assertEquals(2, HybridPattern.gdnLayers("G*M-|G-/G*"), "the G after '/' is an MTP block's, no decoder layer");
        assertEquals(0, HybridPattern.gdnLayers("M*M-"));
        assertEquals(0, HybridPattern.gdnLayers(null));
    }

    @Test
    void whatDoesNotReadIsNull() {
        assertNull(HybridPattern.read("M*x"));
        assertNull(HybridPattern.read("|/M*"), "no decoder layer");
        assertNull(HybridPattern.read(""));
        assertTrue(HybridPattern.valid("M*|M*/ME/ME"));
        assertFalse(HybridPattern.valid("M*|M*/M|E"), "no '|' among the MTP blocks (parse_hybrid_pattern: allow_pipe=False)");
        assertFalse(HybridPattern.valid("M*|M*/Mx"));
        // parse_hybrid_pattern: "All MTP patterns must be identical"; only empty blocks after '/' are no MTP
        assertFalse(HybridPattern.valid("M*|M*/ME/*E"), "MTP blocks that differ");
        assertFalse(HybridPattern.valid("M*|M*/ME/"), "an empty MTP block beside a written one");
        assertTrue(HybridPattern.valid("M*|M*/"), "no MTP block");
        assertTrue(HybridPattern.valid("M*|M*//"), "no MTP block");
    }

    @Test
    void megatronsRefusalsAreNamed() {
        HybridPattern p = HybridPattern.read("M*|M*|M*|M*");
        assertNull(p.problem(2, 0, false), "4 segments on pp 2: vpp 2");
        assertNull(p.problem(4, 1, false));
        assertNull(p.problem(0, 0, false), "pp not known: not checked");
        assertTrue(p.problem(3, 0, false).startsWith("it has 4 segments between '|' (2, 2, 2, 2 layers), not a multiple of the pipeline"
                + " size 3"), p.problem(3, 0, false));
        assertTrue(p.problem(2, 4, false).startsWith("it has 4 segments between '|', fewer than the 8 stages of pp 2 × 4"), p.problem(2, 4, false));
        assertTrue(p.problem(2, 1, false).startsWith("it has 4 segments between '|', more than the 2 stages of pp 2 × 1 virtual stage;"),
                p.problem(2, 1, false));
        assertTrue(p.problem(4, 0, true).contains("Cannot specify num_layers_in_first_pipeline_stage"), p.problem(4, 0, true));
        assertNull(HybridPattern.read("M*M*").problem(3, 0, true), "no '|': the hand-sized stages are Megatron's other split");
    }

    @Test
    void moreThanOneSegmentOnOnePipelineRankIsRefused() {
        // pp 1 has no virtual stages: 4 segments would be vpp 4 on one rank, which Megatron-Core refuses (or builds segment 0 only)
        HybridPattern p = HybridPattern.read("M*|M*|M*|M*");
        assertTrue(p.problem(1, 0, false).startsWith("it has 4 segments between '|' (2, 2, 2, 2 layers) on one pipeline rank (pp 1)"),
                p.problem(1, 0, false));
        assertTrue(p.problem(1, 4, false).contains("\"Virtual pipeline parallelism requires pipeline_model_parallel_size > 1\""),
                p.problem(1, 4, false));
        assertNull(HybridPattern.read("|M*M*").problem(2, 0, false), "2 segments on pp 2, the first empty: built");
        assertNull(HybridPattern.read("M*M*").problem(1, 0, false), "no '|' on pp 1: one stage");
    }

    @Test
    void virtualStagesWithoutPipesAreRefused() {
        // select_pipeline_segment: no '|' and pp > 1 slices evenly, and raises when vp_stage is not None
        assertTrue(HybridPattern.read("M*M*M*M*").problem(2, 2, false).endsWith("raises \"Virtual pipeline parallelism (vp_stage !="
                + " None) is not supported when hybrid_layer_pattern has no pipe ('|') separators\""));
        assertNull(HybridPattern.read("M*M*M*M*").problem(2, 0, false), "no virtual stages: the even split");
        assertNull(HybridPattern.read("M*M*M*M*").problem(2, 1, false), "one virtual stage: no interleaving");
        assertNull(HybridPattern.read("M*M*M*M*").problem(0, 2, false), "pp not known: not checked");
    }

    @Test
    void newerSymbolsReadAsTheKindTheyArePricedAs() {
        // megatron/core/models/hybrid/layers/utils.py at 089b33b8: G GDN, D DSA, + MLA, C/H/W DeepSeek-V4 attention, [..] a group
        HybridPattern p = HybridPattern.read("GEGE|GE*E/GE");
        assertEquals("MEMEME*E", p.decoder(), "G priced as M, the 8 layers kept");
        assertEquals(List.of(4L, 4L), p.stages());
        assertEquals(new HybridPattern.MtpGroups(1, 2, "ME"), p.mtp(), "the group GE priced as M and E");
        assertEquals("G (gated delta net, GDN) as M (Mamba-2)", p.priced());
        HybridPattern g = HybridPattern.read("[M+][MW]|[MC]-H-");
        assertEquals("M*M*M*-*-", g.decoder());
        assertEquals(List.of(4L, 5L), g.stages(), "a group's letters are its layers (get_layer_type_physical_count)");
        assertEquals("+ (multi-latent attention, MLA) as * (attention of the job's variant), C (DeepSeek-V4 compressed sparse attention) as"
                + " * (attention of the job's variant), H (DeepSeek-V4 heavily compressed attention) as * (attention of the job's variant),"
                + " W (DeepSeek-V4 window-only attention) as * (attention of the job's variant), each bracketed group [...] as its"
                + " letters, one layer each", g.priced());
        assertNull(HybridPattern.read("M*M-").priced(), "the four kinds as written");
        assertTrue(HybridPattern.valid("GEGE"), "the native manifest states G too: gated delta nets of its linear_* sizes");
        assertTrue(HybridPattern.valid("MGM*/G*"), "G beside M, and in the MTP blocks");
        assertFalse(HybridPattern.valid("GE+E"), "a letter priced as another kind (+ as attention) is read from Megatron scripts only");
        assertFalse(HybridPattern.valid("G[M*]"), "a bracketed group too");
        assertTrue(HybridPattern.valid("MEME"));
    }

    @Test
    void whatParseSegmentLayersRefusesHasAPlace() {
        assertEquals(2, HybridPattern.firstBad("M*x").index());
        assertEquals(4, HybridPattern.firstBad("M-[ME-]").index(), "E not last in its group: at the E");
        assertNull(HybridPattern.firstBad("M-[M*E]"), "E last: built");
        assertEquals(5, HybridPattern.firstBad("M-[M-E]").index(), "an MLP and an MoE: one 'mlp' checkpoint namespace");
        assertEquals(4, HybridPattern.firstBad("M-[*G]").index(), "attention and GDN: one 'self_attention' namespace");
        assertEquals(4, HybridPattern.firstBad("M-[MM]").index(), "two mixers");
        assertEquals(2, HybridPattern.firstBad("M-[").index());
        assertEquals(1, HybridPattern.firstBad("M]").index());
        assertEquals(3, HybridPattern.firstBad("M-[]").index(), "an empty group: at its ']'");
        assertEquals(3, HybridPattern.firstBad("M[M[*]]").index());
        assertEquals(3, HybridPattern.firstBad("M*M+").index(), "attention beside MLA");
        assertNull(HybridPattern.firstBad("MD+C"), "MLA kinds together: built");
        assertNull(HybridPattern.firstBad("M*/x"), "the MTP part is mtpProblem's");
        assertTrue(HybridPattern.mtpProblem("M*/[M*]").contains("'['"), HybridPattern.mtpProblem("M*/[M*]"));
        assertNull(HybridPattern.read("M-[ME-]"));
    }
    /**
     * Spaces: only ASCII's are trimmed around a pattern (Python's string.whitespace; Megatron-Core itself strips nothing and
     * its _validate_pattern refuses every other character), and a no-break or other Unicode space, in the decoder or the MTP
     * blocks, is a refused character named by its code point.
     */
    @Test
    void onlyAsciiBlanksAreTrimmedAndAnyOtherSpaceIsNamed() {
        assertEquals("M*|M", HybridPattern.strip(" \t\n\r\u000b\fM*|M\f \n"));
        assertEquals(2, HybridPattern.leading(" \tM"));
        assertEquals("\u00a0M*\u3000", HybridPattern.strip("\u00a0M*\u3000 "), "Java's strip() took U+3000, and kept U+00A0");
        assertEquals(-1, HybridPattern.firstSpace("M*|M/*E"));
        assertEquals(2, HybridPattern.firstSpace("M*\u202fM"));
        HybridPattern.Bad bad = HybridPattern.firstBad("M*\u00a0M");
        assertEquals(2, bad.index());
        assertTrue(bad.why().startsWith("U+00A0 (a space), not a layer symbol Megatron-Core knows"), bad.why());
        assertEquals("its MTP blocks after '/' hold U+3000 (a space), not a layer (M, G, *, D, +, C, H, W, - or E); Megatron-Core's"
                + " parse_hybrid_pattern refuses it", HybridPattern.mtpProblem("M*/*\u3000"));
        assertEquals("'x'", HybridPattern.shown('x'));
        assertEquals("U+FEFF (a space)", HybridPattern.shown('\ufeff'));
        assertEquals("U+0001", HybridPattern.shown('\u0001'));
    }
}
