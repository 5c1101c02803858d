package dev.gpulint.lint;

import static dev.gpulint.testing.LintBeside.lint;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.derive.estimate.PipelineSplit;
import dev.gpulint.read.SourceFile;
import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Megatron's --pipeline-model-parallel-layout in a test case's MODEL_ARGS (our own, in the shape of Megatron-LM's
 * DeepSeek-V3 recipe: 61 layers and one MTP layer on pp 16 × vpp 2): the job keeps its layer count, each stage its own
 * layers, and a layout that does not read or fit is SYN002 where it is wrong; PAR004 never judges an even split the
 * job does not ask for.
 */
class PipelineLayoutLintTest {
    private static final String V3 = """
            MODEL_ARGS:
              --num-layers: 61
              --hidden-size: 7168
              --num-attention-heads: 128
              --pipeline-model-parallel-size: 16
              --pipeline-model-parallel-layout: Et*3|(tt|)*29,m|L
              --micro-batch-size: 1
              --global-batch-size: 8192
            """;

    private static List<String> of(List<String> findings, String rule) {
        return findings.stream().filter(s -> s.startsWith("v3/model_config.yaml:") && s.contains(" " + rule + " ")).toList();
    }

    private static Specs.Job job(String text) {
        return Foreign.bind("v3/model_config.yaml", text);
    }

    @Test
    void deepSeekV3sLayoutKeepsTheLayerCountAndGivesEachStageItsLayers() {
        Specs.Job j = job(V3);
        assertEquals(61L, j.model().layers().value(), "the layer count is read beside the layout");
        assertEquals(2L, j.parallelism().virtualPp().value(), "32 stages on pp 16: vpp 2, as Megatron derives it");
        assertEquals(32, j.parallelism().stageLayers().value().size());
        assertEquals(6, j.parallelism().stageLayers().span().startLine());
        PipelineSplit s = PipelineSplit.of(j.parallelism());
        assertEquals(5.0, s.layers(61, 16, 0));
        assertEquals(3.0, s.layers(61, 16, 14));
        List<String> out = lint(SourceFile.of("v3/model_config.yaml", V3));
        assertEquals(List.of(), of(out, "PAR004"), "61 layers on pp 16 is the layout's split, not an even one: " + out);
        assertEquals(List.of(), of(out, "SYN002"), out.toString());
        assertEquals(List.of(), of(out, "SYN010"), "one m stage and one L: what released Megatron-Core builds: " + out);
    }

    @Test
    void layoutsOnlyOpenMegatronPullRequestsRunAreSyn010AtTheValue() {
        // m on stages 30 and 31 (mtp_split, pull request #5329): priced, but Megatron-Core's main branch asserts at start-up
        String split = V3.replace("Et*3|(tt|)*29,m|L", "Et*3|(tt|)*28,t|tm|mL").replace("  --micro-batch-size", "  --mtp-num-layers: 2\n  --micro-batch-size");
        List<String> out = lint(SourceFile.of("v3/model_config.yaml", split));
        assertEquals(List.of("v3/model_config.yaml:6:37 SYN010 '--pipeline-model-parallel-layout' is 'Et*3|(tt|)*28,t|tm|mL': it places the"
                + " MTP layers (m) on 2 virtual stages (31, 32 of 32: pp 16 × 2 virtual stages per rank, on pipeline ranks 15, 16 of 16);"
                + " Megatron-Core's releases and its main branch stop at start-up on it"
                + " (validate_layer_layout, megatron/core/transformer/pipeline_parallel_layer_layout.py at NVIDIA/Megatron-LM 00caa53a:"
                + " \"All of the MTP layers must be in the same one virtual pipeline stage\"), and only a Megatron-LM build with the open,"
                + " unmerged pull request NVIDIA/Megatron-LM#5329 (mtp_split) runs it; put every m on one stage, the last virtual chunk of"
                + " its pipeline rank (as \"…|mm|L\" or \"…|mmL\"), or suppress SYN010 here if you run a build with that pull request."),
                of(out, "SYN010"));
        assertEquals(List.of(), of(out, "SYN002"), out.toString());
        // the loss twice on one stage (mtp_loss_split, pull request #5318, 1 + 1 slots): "Loss must be specified exactly once"
        List<String> loss = lint(SourceFile.of("v3/model_config.yaml", V3.replace(",m|L", ",m|LL")));
        assertEquals(List.of("v3/model_config.yaml:6:37 SYN010 '--pipeline-model-parallel-layout' is 'Et*3|(tt|)*29,m|LL': it names the"
                + " loss (L) 2 times, on virtual stage 32 of 32: pp 16 × 2 virtual stages per rank, on pipeline rank 16 of 16, which only Megatron-LM's mtp_loss_split reads (one loss slot per hidden-state chunk);"
                + " Megatron-Core's releases and its main branch stop at start-up on it (validate_layer_layout,"
                + " megatron/core/transformer/pipeline_parallel_layer_layout.py at NVIDIA/Megatron-LM 00caa53a: \"Loss must be specified"
                + " exactly once\"), and only a Megatron-LM build with the open, unmerged pull request NVIDIA/Megatron-LM#5318"
                + " (mtp_loss_split) runs it; write one L, at the end of the last stage, or suppress SYN010 here if you run a build with"
                + " that pull request."), of(loss, "SYN010"));
        // both at once: one finding of each kind at the value
        List<String> both = of(lint(SourceFile.of("v3/model_config.yaml", split.replace("t|tm|mL", "t|tmL|mLL"))), "SYN010");
        assertEquals(2, both.size(), both.toString());
        assertTrue(both.get(0).contains("on 2 virtual stages (31, 32 of 32") != both.get(1).contains("on 2 virtual stages (31, 32 of 32"), both.toString());
        // every m on one stage: quiet
        String together = split.replace("t|tm|mL", "t|t|mmL");
        assertEquals(List.of(), of(lint(SourceFile.of("v3/model_config.yaml", together)), "SYN010"));
        // the plan's assumptions still say how the estimate prices the split
        Specs.Job j = job(split);
        assertTrue(j.origin().unpriced().stream().anyMatch(u -> u.contains("pull request #5329")), j.origin().unpriced().toString());
    }

    @Test
    void withoutNumLayersTheLayoutCountsThem() {
        Specs.Job j = job(V3.replace("  --num-layers: 61\n", ""));
        assertEquals(61L, j.model().layers().value());
    }

    @Test
    void aLetterMegatronDoesNotKnowIsSyn002AtItsColumn() {
        List<String> out = lint(SourceFile.of("v3/model_config.yaml", V3.replace(",m|L", ",M|L")));
        assertEquals(List.of("v3/model_config.yaml:6:51 SYN002 '--pipeline-model-parallel-layout' is 'Et*3|(tt|)*29,M|L': 'M' is not a"
                + " layer letter; expected stages of E (embedding), t (transformer layer), m (MTP layer) and L (loss) separated by '|',"
                + " with x*n and (…)*n repeats, as \"Et*3|(tt|)*29,m|L\"; the layout is left out of the estimate."), of(out, "SYN002"));
        assertEquals(List.of(), of(out, "PAR004"), "a layout is written: no even split to judge");
        // quoted in YAML: the column still points at the letter
        List<String> quoted = lint(SourceFile.of("v3/model_config.yaml", V3.replace("Et*3|(tt|)*29,m|L", "\"Et*3|(tt|)*29,M|L\"")));
        assertTrue(of(quoted, "SYN002").get(0).startsWith("v3/model_config.yaml:6:52 SYN002"), quoted.toString());
        assertNull(job(V3.replace(",m|L", ",M|L")).parallelism().stageLayers());
    }

    @Test
    void aLayoutThatDoesNotFitPpOrTheLayersIsSyn002AtTheValue() {
        List<String> pp = lint(SourceFile.of("v3/model_config.yaml", V3.replace("size: 16", "size: 12")));
        assertEquals(List.of("v3/model_config.yaml:6:37 SYN002 '--pipeline-model-parallel-layout' is 'Et*3|(tt|)*29,m|L': it has 32"
                + " stages, not a multiple of the pipeline size 12 (Megatron-Core: \"pipeline_model_parallel_layout must be divisible by"
                + " pipeline_model_parallel_size\"); the layout is left out of the estimate."), of(pp, "SYN002"));
        List<String> layers = lint(SourceFile.of("v3/model_config.yaml", V3.replace("--num-layers: 61", "--num-layers: 60")));
        assertEquals(1, of(layers, "SYN002").size(), layers.toString());
        assertTrue(of(layers, "SYN002").get(0).contains("it places 61 transformer layers (t) but the model has 60"), layers.toString());
        assertEquals(List.of(), of(layers, "PAR004"), layers.toString());
    }

    @Test
    void mOutsideItsRanksLastVirtualChunkIsSyn002AtTheValue() {
        // the 61 layers and m on stage 15 (rank 15's first of 2 chunks), then 15 empty stages and the loss: Megatron-Core's
        // validate_layer_layout builds MTP layers only in a rank's last virtual chunk
        String layout = "Et*3|(tt|)*14,t*30m|(|)*15,L";
        List<String> out = lint(SourceFile.of("v3/model_config.yaml", V3.replace("Et*3|(tt|)*29,m|L", layout)));
        assertEquals(List.of("v3/model_config.yaml:6:37 SYN002 '--pipeline-model-parallel-layout' is '" + layout + "': it places the MTP"
                + " layers (m) on stage 16 of 32, virtual chunk 0 of pipeline rank 15's 2; Megatron-Core builds MTP layers only in a rank's last"
                + " virtual chunk (validate_layer_layout: \"Currently we restrict that the MTP should be always in the last virtual pipeline"
                + " stage of that rank\"); the layout is left out of the estimate."), of(out, "SYN002"));
        // quiet: the recipe's layout, m in rank 14's last chunk (deepSeekV3sLayout... above checks it too)
        assertEquals(List.of(), of(lint(SourceFile.of("v3/model_config.yaml", V3)), "SYN002"));
    }

    @Test
    void mOnTwoRanksAndTheSplitLossRunAndAMismatchedCountIsSyn002() {
        // two MTP layers, one in rank 14's last chunk and one in rank 15's: stages 0 "Ettt", 1-28 "tt", 29 "t", 30 "tm", 31
        // "mL" = 3 + 56 + 1 + 1 = 61 decoder layers; Megatron-LM's mtp_split (pull request #5329) runs it
        String split = V3.replace("Et*3|(tt|)*29,m|L", "Et*3|(tt|)*28,t|tm|mL").replace("  --micro-batch-size", "  --mtp-num-layers: 2\n  --micro-batch-size");
        List<String> out = lint(SourceFile.of("v3/model_config.yaml", split));
        assertEquals(List.of(), of(out, "SYN002"), out.toString());
        assertEquals(List.of(), of(out, "PAR004"), out.toString());
        Specs.Job j = job(split);
        assertEquals(32, j.parallelism().stageLayers().value().size());
        assertEquals(2L, j.parallelism().stageLayers().value().get(30));      // t and m
        assertEquals(1L, j.parallelism().stageLayers().value().get(31));      // m (L is no block)
        // the same layout where the job writes one MTP layer: Megatron-Core asserts the layout's m letters match it
        List<String> one = lint(SourceFile.of("v3/model_config.yaml", split.replace("--mtp-num-layers: 2", "--mtp-num-layers: 1")));
        assertEquals(List.of("v3/model_config.yaml:6:37 SYN002 '--pipeline-model-parallel-layout' is 'Et*3|(tt|)*28,t|tm|mL': it places 2"
                + " MTP layers (m) but the job has 1 (Megatron-Core's validate_layer_layout: \"Number of mtp layers in layout must match"
                + " mtp_num_layers\"); the layout is left out of the estimate."), of(one, "SYN002"));
        // the split loss: two slots for 1 + 1 chunks run (pull request #5318); three are refused with its assert
        assertEquals(List.of(), of(lint(SourceFile.of("v3/model_config.yaml", V3.replace(",m|L", ",m|LL"))), "SYN002"));
        List<String> three = lint(SourceFile.of("v3/model_config.yaml", V3.replace(",m|L", ",m|LLL")));
        assertEquals(List.of("v3/model_config.yaml:6:37 SYN002 '--pipeline-model-parallel-layout' is 'Et*3|(tt|)*29,m|LLL': it names the"
                + " loss (L) 3 times; Megatron-Core reads several loss slots only as the split MTP loss, one slot per hidden-state chunk,"
                + " 1 + 1 MTP layer = 2 (validate_layer_layout, NVIDIA/Megatron-LM pull request #5318: \"When using mtp_loss_split, the"
                + " number of loss slots (3) must equal 1 + mtp_num_layers (2)\"); without it: \"Loss must be specified exactly once\";"
                + " the layout is left out of the estimate."), of(three, "SYN002"));
    }

    @Test
    void aLayoutWrittenAsAPlaceholderLeavesTheSplitUnknown() {
        List<String> out = lint(SourceFile.of("v3/model_config.yaml", V3.replace("Et*3|(tt|)*29,m|L", "${PP_LAYOUT}")));
        assertEquals(List.of(), of(out, "SYN002"), out.toString());
        assertEquals(List.of(), of(out, "PAR004"), "61 % 16 is not judged when the layout is not known: " + out);
        // without any layout, the even split Megatron would make is judged: 61 layers on 16 stages
        List<String> even = lint(SourceFile.of("v3/model_config.yaml", V3.replace("  --pipeline-model-parallel-layout: Et*3|(tt|)*29,m|L\n", "")));
        assertEquals(1, of(even, "PAR004").size(), even.toString());
    }
}
