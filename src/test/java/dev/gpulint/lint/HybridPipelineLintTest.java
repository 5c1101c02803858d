package dev.gpulint.lint;

import static dev.gpulint.testing.LintBeside.lint;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.derive.estimate.PipelineSplit;
import dev.gpulint.read.SourceFile;
import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A hybrid pattern's '|' (Megatron-Core's Symbols.PIPE) lays out the pipeline: each segment is one stage's layers, as
 * select_pipeline_segment builds them (megatron/core/models/hybrid/hybrid_layer_allocation.py). Our own Nemotron-H-8B-shaped
 * job (52 layers of Mamba-2, attention and MLP) split 18 | 17 | 17 over pp 3, which Megatron's even split refuses (52 is no
 * multiple of 3) and the pattern's split builds: the job's split is the segments, PAR004 is quiet, and segments Megatron
 * refuses (not a multiple of pp, or beside a hand-sized first stage) are SYN002 at the pattern, in a Megatron script and in
 * the native manifest.
 */
class HybridPipelineLintTest {
    /** 52 layers, '|' after the 18th and the 35th. */
    private static final String PIPED = "M-M-M-M*-M-M-M-M-M|*-M-M-M-M-M*-M-M-|M-M-M*-M-M-M-M-M-";

    private static final String JOB = """
            MODEL_ARGS:
              --num-layers: 52
              --hidden-size: 4096
              --ffn-hidden-size: 21504
              --num-attention-heads: 32
              --hybrid-layer-pattern: PATTERN
              --mamba-num-heads: 128
              --pipeline-model-parallel-size: 3
              --micro-batch-size: 1
              --global-batch-size: 256
            """;

    private static String megatron(String pattern, int pp) {
        return JOB.replace("PATTERN", pattern).replace("size: 3", "size: " + pp);
    }

    private static List<String> of(List<String> findings, String file, String rule) {
        return findings.stream().filter(s -> s.startsWith(file + ":") && s.contains(" " + rule + " ")).toList();
    }

    private static Specs.Job job(String text) {
        return Foreign.bind("nemotronh/model_config.yaml", text);
    }

    @Test
    void theSegmentsAreTheStagesLayersAndPar004AcceptsWhatMegatronBuilds() {
        Specs.Job j = job(megatron(PIPED, 3));
        assertEquals(List.of(18L, 17L, 17L), j.parallelism().stageLayers().value());
        assertEquals(6, j.parallelism().stageLayers().span().startLine(), "the split is where the pattern is written");
        assertEquals(PIPED.replace("|", ""), j.model().hybrid().pattern().value(), "the decoder's layers, '|' being no layer");
        PipelineSplit s = PipelineSplit.of(j.parallelism());
        assertEquals(18.0, s.layers(52, 3, 0));
        assertEquals(17.0, s.layers(52, 3, 2));
        List<String> out = lint(SourceFile.of("nemotronh/model_config.yaml", megatron(PIPED, 3)));
        assertEquals(List.of(), of(out, "nemotronh/model_config.yaml", "PAR004"), "the pattern's split, not an even one: " + out);
        assertEquals(List.of(), of(out, "nemotronh/model_config.yaml", "SYN002"), out.toString());
        assertEquals(List.of(), of(out, "nemotronh/model_config.yaml", "PAR014"), "52 decoder layers, '|' not counted: " + out);
    }

    @Test
    void withoutPipesTheEvenSplitIsJudgedAsBefore() {
        Specs.Job j = job(megatron(PIPED.replace("|", ""), 4));
        assertNull(j.parallelism().stageLayers(), "no '|': Megatron's even split");
        List<String> even = lint(SourceFile.of("nemotronh/model_config.yaml", megatron(PIPED.replace("|", ""), 4)));
        assertEquals(List.of(), of(even, "nemotronh/model_config.yaml", "PAR004"), even.toString());
        assertEquals(List.of(), of(even, "nemotronh/model_config.yaml", "SYN002"), even.toString());
        // 52 layers on pp 3 without '|': Megatron's select_pipeline_segment refuses the even split, and so does PAR004
        List<String> three = lint(SourceFile.of("nemotronh/model_config.yaml", megatron(PIPED.replace("|", ""), 3)));
        assertEquals(1, of(three, "nemotronh/model_config.yaml", "PAR004").size(), three.toString());
    }

    @Test
    void segmentsThatAreNoMultipleOfPpAreSyn002AtThePattern() {
        List<String> out = lint(SourceFile.of("nemotronh/model_config.yaml", megatron(PIPED, 2)));
        assertEquals(List.of("nemotronh/model_config.yaml:6:27 SYN002 '--hybrid-layer-pattern' splits the decoder at '|': it has 3"
                + " segments between '|' (18, 17, 17 layers), not a multiple of the pipeline size 2; Megatron-Core's"
                + " select_pipeline_segment raises \"The number of pipe-delimited segments (3) in hybrid_layer_pattern must be evenly"
                + " divisible by pipeline_model_parallel_size (2)\"; the job stops at start-up. Write one segment per pipeline stage"
                + " (pp × virtual stages), or drop the '|' for Megatron's even split; the pattern's split is left out of the estimate."),
                of(out, "nemotronh/model_config.yaml", "SYN002"));
        assertEquals(List.of(), of(out, "nemotronh/model_config.yaml", "PAR004"), "no even split to judge: " + out);
        assertNull(job(megatron(PIPED, 2)).parallelism().stageLayers());
    }

    @Test
    void segmentsBesideAHandSizedFirstStageAreSyn002() {
        String text = megatron(PIPED, 3) + "  --decoder-first-pipeline-num-layers: 18\n";
        List<String> out = lint(SourceFile.of("nemotronh/model_config.yaml", text));
        List<String> syn = of(out, "nemotronh/model_config.yaml", "SYN002");
        assertEquals(1, syn.size(), out.toString());
        assertTrue(syn.get(0).startsWith("nemotronh/model_config.yaml:6:27 SYN002 '--hybrid-layer-pattern' splits the decoder at '|':"
                + " its 3 segments between '|' lay out the pipeline stage by stage, and the job also sizes its first or last stage by"
                + " hand; Megatron-Core's select_pipeline_segment raises \"Cannot specify num_layers_in_first_pipeline_stage"), syn.get(0));
    }

    @Test
    void sixSegmentsOnPp3AreTwoVirtualStagesARank() {
        // 9, 9, 9 | 9, 8, 8: rank r holds segments r and r + 3, as Megatron's interleaved schedule builds them
        String six = megatron("M-M-M-M*-|M-M-M-M-M|*-M-M-M-M|-M*-M-M-M|-M-M*-M-|M-M-M-M-", 3);
        Specs.Job j = job(six);
        assertEquals(List.of(9L, 9L, 9L, 9L, 8L, 8L), j.parallelism().stageLayers().value());
        assertEquals(2L, j.parallelism().virtualPp().value(), "6 segments on pp 3: vpp 2, as the segments give it");
        PipelineSplit s = PipelineSplit.of(j.parallelism());
        assertEquals(18.0, s.layers(52, 3, 0));
        assertEquals(17.0, s.layers(52, 3, 2));
        assertEquals(List.of(), of(lint(SourceFile.of("nemotronh/model_config.yaml", six)), "nemotronh/model_config.yaml", "SYN002"));
    }

    @Test
    void fewerSegmentsThanPpTimesTheVirtualStagesWrittenAreSyn002() {
        String text = megatron(PIPED, 3) + "  --num-virtual-stages-per-pipeline-rank: 2\n";
        List<String> syn = of(lint(SourceFile.of("nemotronh/model_config.yaml", text)), "nemotronh/model_config.yaml", "SYN002");
        assertEquals(List.of("nemotronh/model_config.yaml:6:27 SYN002 '--hybrid-layer-pattern' splits the decoder at '|': it has 3"
                + " segments between '|', fewer than the 6 stages of pp 3 × 2 virtual stages; Megatron-Core's select_pipeline_segment"
                + " builds segment vp_stage × pp + pp_rank and raises \"Pipeline segment index 3 ... is out of range for 3 segments\" on"
                + " the first virtual stage past them; the job stops at start-up. Write one segment per pipeline stage (pp × virtual"
                + " stages), or drop the '|' for Megatron's even split; the pattern's split is left out of the estimate."), syn);
    }

    @Test
    void segmentsOnOnePipelineRankAreSyn002AndGiveNoVirtualStages() {
        // the 3 segments of PIPED on pp 1: gpulint priced them as "pp 1, vpp 3", a layout Megatron-Core does not build
        String text = megatron(PIPED, 1);
        List<String> syn = of(lint(SourceFile.of("nemotronh/model_config.yaml", text)), "nemotronh/model_config.yaml", "SYN002");
        assertEquals(List.of("nemotronh/model_config.yaml:6:27 SYN002 '--hybrid-layer-pattern' splits the decoder at '|': it has 3"
                + " segments between '|' (18, 17, 17 layers) on one pipeline rank (pp 1), each segment past the first a virtual stage,"
                + " and Megatron-Core has no virtual stages without pipeline parallelism: its direct form raises \"Virtual pipeline"
                + " parallelism requires pipeline_model_parallel_size > 1\" (_validate_direct_pipeline), its schedule without pipelining"
                + " asserts \"non-pipeline-parallel schedule does not support model chunking\" (schedules.py"
                + " forward_backward_no_pipelining), and with no virtual stage select_pipeline_segment builds segment 0 only, leaving"
                + " the other segments' layers built by no rank; the job stops at start-up. Write one segment per pipeline stage (pp ×"
                + " virtual stages), or drop the '|' for Megatron's even split; the pattern's split is left out of the estimate."), syn);
        Specs.Job j = job(text);
        assertNull(j.parallelism().stageLayers());
        assertNull(j.parallelism().virtualPp(), "no virtual stages inferred on pp 1");
    }

    @Test
    void virtualStagesWithoutPipesAreSyn002AtThePattern() {
        // 52 layers on pp 4 without '|' is Megatron's even split (13 a rank); virtual stages need the '|' segments
        String text = megatron(PIPED.replace("|", ""), 4) + "  --num-virtual-stages-per-pipeline-rank: 13\n";
        List<String> syn = of(lint(SourceFile.of("nemotronh/model_config.yaml", text)), "nemotronh/model_config.yaml", "SYN002");
        assertEquals(List.of("nemotronh/model_config.yaml:6:27 SYN002 '--hybrid-layer-pattern' lays out no pipeline stage: it has no"
                + " '|', so Megatron-Core slices its layers evenly over the pp 4 ranks, and the job writes 13 virtual stages per rank;"
                + " Megatron-Core's select_pipeline_segment raises \"Virtual pipeline parallelism (vp_stage != None) is not supported when"
                + " hybrid_layer_pattern has no pipe ('|') separators\"; the job stops at start-up. Write the pp × virtual stages as"
                + " segments between '|', or drop the virtual stages; the estimate prices them as written."), syn);
        List<String> quiet = lint(SourceFile.of("nemotronh/model_config.yaml", megatron(PIPED.replace("|", ""), 4)));
        assertEquals(List.of(), of(quiet, "nemotronh/model_config.yaml", "SYN002"), "no virtual stages: " + quiet);
    }

    @Test
    void theNativeManifestsSegmentsOnOnePipelineRankAreSyn002() {
        String text = NATIVE.replace("PATTERN", PIPED).replace("pp: 3", "pp: 1");
        List<String> syn = of(lint(SourceFile.of("nemotronh.yaml", text)), "nemotronh.yaml", "SYN002");
        assertEquals(1, syn.size(), syn.toString());
        assertTrue(syn.get(0).startsWith("nemotronh.yaml:11:22 SYN002 'pattern' splits the decoder at '|': it has 3 segments between"
                + " '|' (18, 17, 17 layers) on one pipeline rank (pp 1)"), syn.get(0));
        Specs.Job j = new dev.gpulint.bind.Binder().bind(new dev.gpulint.read.yaml.YamlReader().read(SourceFile.of("nemotronh.yaml", text))
                .documents()).jobs().get(0);
        assertNull(j.parallelism().virtualPp(), "no virtual stages inferred on pp 1");
    }

    private static final String NATIVE = """
            kind: training_job
            name: nemotronh
            cluster: missing
            nodes: 3
            gpus_per_node: 8
            model:
              dtype: bf16
              layers: 52
              hidden_size: 4096
              attention_heads: 32
              hybrid: { pattern: "PATTERN", mamba_num_heads: 128 }
            parallelism: { tp: 8, pp: 3 }
            """;

    @Test
    void theNativeManifestReadsPipesAndKeepsTheMtpBlocksOutOfTheDecoder() {
        // Nemotron 3 Super writes its MTP blocks after '/': they are not decoder layers (another reader prices them)
        String text = NATIVE.replace("PATTERN", PIPED + "/*E/*E");
        List<String> out = lint(SourceFile.of("nemotronh.yaml", text));
        assertEquals(List.of(), of(out, "nemotronh.yaml", "SYN002"), out.toString());
        assertEquals(List.of(), of(out, "nemotronh.yaml", "PAR004"), out.toString());
        assertEquals(List.of(), of(out, "nemotronh.yaml", "PAR014"), "52 decoder layers: " + out);
        Specs.Job j = new dev.gpulint.bind.Binder().bind(new dev.gpulint.read.yaml.YamlReader().read(SourceFile.of("nemotronh.yaml", text))
                .documents()).jobs().get(0);
        assertEquals(List.of(18L, 17L, 17L), j.parallelism().stageLayers().value());
        assertEquals(PIPED.replace("|", ""), j.model().hybrid().pattern().value());
    }

    /**
     * parallelism.pipeline_layout beside the pattern's '|' segments is what Megatron-Core runs: its HybridModel builds each
     * stage's layers from the segments (select_pipeline_segment) and the layout, validated against pp and num_layers, gives
     * the virtual stages; the Megatron adapter prices the segments (DraftBounds.pipelineLayout). perfrows' native reader
     * refused every such layout as SYN002 and left it out, a refusal Megatron-Core does not make.
     */
    @Test
    void theNativeManifestsLayoutBesideItsSegmentsIsNotRefusedAndTheSegmentsArePriced() {
        for (String layout : List.of("Et*18|t*17|t*17L", "Et*17|t*18|t*17L")) {
            String text = NATIVE.replace("PATTERN", PIPED).replace("pp: 3", "pp: 3, pipeline_layout: \"" + layout + "\"");
            List<String> out = lint(SourceFile.of("nemotronh.yaml", text));
            assertEquals(List.of(), of(out, "nemotronh.yaml", "SYN002"), layout + ": " + out);
            Specs.Job j = new dev.gpulint.bind.Binder().bind(new dev.gpulint.read.yaml.YamlReader().read(SourceFile.of("nemotronh.yaml", text))
                    .documents()).jobs().get(0);
            assertEquals(List.of(18L, 17L, 17L), j.parallelism().stageLayers().value(), layout + ": the segments' split, as HybridModel builds it");
            assertFalse(j.parallelism().unknown().contains(Specs.PIPELINE_LAYOUT), layout);
        }
    }

    @Test
    void theNativeManifestsLayoutWithOtherStagesThanItsSegmentsIsSyn002() {
        // 6 stages over pp 3 (vp 2) beside 3 segments (vp 1): the two give Megatron-Core different virtual stages
        String text = NATIVE.replace("PATTERN", PIPED).replace("pp: 3", "pp: 3, pipeline_layout: \"Et*9|(t*9|)*4t*7L\"");
        List<String> syn = of(lint(SourceFile.of("nemotronh.yaml", text)), "nemotronh.yaml", "SYN002");
        assertEquals(1, syn.size(), syn.toString());
        assertEquals("nemotronh.yaml:12:47 SYN002 'pipeline_layout' is 'Et*9|(t*9|)*4t*7L': it has 6 stages and model.hybrid.pattern's"
                + " '|' segments 3 (Megatron-Core takes the virtual stages from the layout and its HybridModel builds each stage's"
                + " layers from the segments, select_pipeline_segment: one segment per pipeline stage); write as many stages in the"
                + " two, or drop the layout (the segments alone split the decoder); the layout is left out of the estimate.", syn.get(0));
    }

    @Test
    void theNativeManifestsSixSegmentsOnPp3AreTwoVirtualStages() {
        String text = NATIVE.replace("PATTERN", "M-M-M-M*-|M-M-M-M-M|*-M-M-M-M|-M*-M-M-M|-M-M*-M-|M-M-M-M-");
        Specs.Job j = new dev.gpulint.bind.Binder().bind(new dev.gpulint.read.yaml.YamlReader().read(SourceFile.of("nemotronh.yaml", text))
                .documents()).jobs().get(0);
        assertEquals(2L, j.parallelism().virtualPp().value(), "the virtual stages the segments give, virtual_pp not written");
        assertEquals(11, j.parallelism().virtualPp().span().startLine());
        Specs.Job written = new dev.gpulint.bind.Binder().bind(new dev.gpulint.read.yaml.YamlReader().read(SourceFile.of("nemotronh.yaml",
                text.replace("pp: 3", "pp: 3, virtual_pp: 2"))).documents()).jobs().get(0);
        assertEquals(12, written.parallelism().virtualPp().span().startLine(), "written: the value as written");
    }

    @Test
    void theNativeManifestsSegmentsThatAreNoMultipleOfPpAreSyn002AtThePattern() {
        String text = NATIVE.replace("PATTERN", PIPED).replace("pp: 3", "pp: 2");
        List<String> out = lint(SourceFile.of("nemotronh.yaml", text));
        assertEquals(List.of("nemotronh.yaml:11:22 SYN002 'pattern' splits the decoder at '|': it has 3 segments between '|' (18, 17,"
                + " 17 layers), not a multiple of the pipeline size 2; Megatron-Core's select_pipeline_segment raises \"The number of"
                + " pipe-delimited segments (3) in hybrid_layer_pattern must be evenly divisible by pipeline_model_parallel_size (2)\";"
                + " the job stops at start-up. Write one segment per pipeline stage (pp × virtual stages), or drop the '|' for Megatron's"
                + " even split; the pattern's split is left out of the estimate."), of(out, "nemotronh.yaml", "SYN002"));
        assertEquals(List.of(), of(out, "nemotronh.yaml", "PAR004"), out.toString());
    }

    @Test
    void theNativeManifestRefusesAPipeAmongTheMtpBlocks() {
        String text = NATIVE.replace("PATTERN", PIPED + "/*E|*E");
        List<String> syn = of(lint(SourceFile.of("nemotronh.yaml", text)), "nemotronh.yaml", "SYN002");
        assertEquals(1, syn.size(), syn.toString());
        assertTrue(syn.get(0).startsWith("nemotronh.yaml:11:22 SYN002 'pattern' is '"), syn.get(0));
    }

    private static Specs.Job nativeJob(String text) {
        return new dev.gpulint.bind.Binder().bind(new dev.gpulint.read.yaml.YamlReader().read(SourceFile.of("nemotronh.yaml", text))
                .documents()).jobs().get(0);
    }

    @Test
    void theNativeManifestsSlashGroupsAreItsMtpLayersAsAMegatronScriptsAre() {
        // the same pattern in both formats gives the same MTP layers: two of an attention and an MoE block each, with no
        // model.mtp_layers / --mtp-num-layers written (Megatron-LM's validate_args infers the count from the groups)
        Specs.Job nat = nativeJob(NATIVE.replace("PATTERN", PIPED + "/*E/*E"));
        Specs.Job meg = job(megatron(PIPED + "/*E/*E", 3));
        for (Specs.Job j : List.of(nat, meg)) {
            assertEquals(2L, j.model().mtp().layers().value(), j.file());
            assertEquals(2L, j.model().mtp().blocks().value(), j.file());
        }
        assertEquals(11, nat.model().mtp().layers().span().startLine(), "where the pattern is written");
        // a count written beside the groups gives way to them, as Megatron's "Using the inferred value"
        Specs.Job natOne = nativeJob(NATIVE.replace("PATTERN", PIPED + "/*E/*E").replace("  dtype: bf16\n", "  dtype: bf16\n  mtp_layers: 1\n"));
        Specs.Job megOne = job(megatron(PIPED + "/*E/*E", 3) + "  --mtp-num-layers: 1\n");
        for (Specs.Job j : List.of(natOne, megOne)) {
            assertEquals(2L, j.model().mtp().layers().value(), j.file());
            assertEquals(2L, j.model().mtp().blocks().value(), j.file());
        }
        // nothing after '/' is no MTP in both; mtp_layers alone stays one transformer layer each
        assertNull(nativeJob(NATIVE.replace("PATTERN", PIPED + "/")).model().mtp());
        assertNull(job(megatron(PIPED + "/", 3)).model().mtp());
        Specs.Job alone = nativeJob(NATIVE.replace("PATTERN", PIPED).replace("  dtype: bf16\n", "  dtype: bf16\n  mtp_layers: 1\n"));
        assertEquals(1L, alone.model().mtp().layers().value());
        assertNull(alone.model().mtp().blocks());
    }

    @Test
    void mtpGroupsThatDifferAreSyn002InBothFormats() {
        // Megatron-Core's parse_hybrid_pattern raises "All MTP patterns must be identical"
        List<String> nat = of(lint(SourceFile.of("nemotronh.yaml", NATIVE.replace("PATTERN", PIPED + "/*E/*"))), "nemotronh.yaml", "SYN002");
        assertEquals(1, nat.size(), nat.toString());
        assertTrue(nat.get(0).startsWith("nemotronh.yaml:11:22 SYN002 'pattern' is '"), nat.get(0));
        List<String> meg = of(lint(SourceFile.of("nemotronh/model_config.yaml", megatron(PIPED + "/*E/*", 3))), "nemotronh/model_config.yaml",
                "SYN002");
        assertEquals(List.of("nemotronh/model_config.yaml:6:27 SYN002 '--hybrid-layer-pattern' is '" + PIPED + "/*E/*'; expected after its"
                + " first '/' one group of M, *, - and E per MTP layer, every group the same, at most 64 (its MTP groups after '/' differ"
                + " (group 1 is '*E', group 2 '*'); Megatron-Core's parse_hybrid_pattern raises \"All MTP patterns must be identical\");"
                + " the value is left out, so the job's MTP layers are left out of the estimate (the decoder's layers before '/' are"
                + " read); Megatron stops at start-up."), meg);
        assertNull(job(megatron(PIPED + "/*E/*", 3)).model().mtp(), "no MTP layers read from groups Megatron refuses");
        assertEquals(PIPED.replace("|", ""), job(megatron(PIPED + "/*E/*", 3)).model().hybrid().pattern().value(), "the decoder still read");
    }

    @Test
    void moreMtpGroupsThanTheBoundAreRefusedNotCapped() {
        String many = PIPED + "/*E".repeat(65);
        assertNull(nativeJob(NATIVE.replace("PATTERN", many)).model().mtp());
        assertEquals(1, of(lint(SourceFile.of("nemotronh.yaml", NATIVE.replace("PATTERN", many))), "nemotronh.yaml", "SYN002").size());
        assertNull(job(megatron(many, 3)).model().mtp());
        // 64 is read
        assertEquals(64L, job(megatron(PIPED + "/*E".repeat(64), 3)).model().mtp().layers().value());
    }

    /**
     * A --pipeline-model-parallel-layout beside a pattern with '|': Megatron-Core's HybridModel (hybrid_model.py at 542a36d0)
     * builds each stage's decoder layers from select_pipeline_segment on the pattern's segments and never reads the layout for
     * them, so the segments are the split, and the plan's assumptions say the layout's differs; a layout whose stages are the
     * segments is read as before, without a word.
     */
    @Test
    void theSegmentsWinOverALayoutThatSplitsTheDecoderOtherwise() {
        String other = megatron(PIPED, 3) + "  --pipeline-model-parallel-layout: \"Et*17|t*17|t*18L\"\n";
        Specs.Job j = job(other);
        assertEquals(List.of(18L, 17L, 17L), j.parallelism().stageLayers().value(), "the pattern's segments, as Megatron builds them");
        assertEquals(6, j.parallelism().stageLayers().span().startLine(), "read from the pattern");
        assertEquals(List.of("--pipeline-model-parallel-layout 'Et*17|t*17|t*18L' splits the decoder's layers 17, 17, 18 by stage, and"
                + " --hybrid-layer-pattern's '|' segments split them 18, 17, 17: Megatron-Core's HybridModel builds each stage's layers"
                + " from the pattern's segments (select_pipeline_segment in megatron/core/models/hybrid/hybrid_layer_allocation.py;"
                + " hybrid_model.py at 542a36d0 never reads the layout for them), so the estimate prices the segments' split; the layout"
                + " still gives the virtual stages (its stages ÷ pp). Write the layout's stages as the segments, or drop one of the two"),
                j.origin().unpriced().stream().filter(s -> s.startsWith("--pipeline-model-parallel-layout")).toList());
        List<String> out = lint(SourceFile.of("nemotronh/model_config.yaml", other));
        assertEquals(List.of(), of(out, "nemotronh/model_config.yaml", "SYN002"), out.toString());
        assertEquals(List.of(), of(out, "nemotronh/model_config.yaml", "PAR004"), out.toString());
        // the layout that writes the segments' split: read as before (the layout's stages), nothing said
        Specs.Job same = job(megatron(PIPED, 3) + "  --pipeline-model-parallel-layout: \"Et*18|t*17|t*17L\"\n");
        assertEquals(List.of(18L, 17L, 17L), same.parallelism().stageLayers().value());
        assertEquals(11, same.parallelism().stageLayers().span().startLine(), "read from the layout, its line");
        assertEquals(List.of(), same.origin().unpriced().stream().filter(s -> s.startsWith("--pipeline-model-parallel-layout")).toList());
    }
}
