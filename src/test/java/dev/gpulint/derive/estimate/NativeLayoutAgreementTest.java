package dev.gpulint.derive.estimate;

import static dev.gpulint.derive.estimate.MtpJobs.script;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One policy for a split {@code m}/{@code L} pipeline layout, wherever it is written: the native manifest's
 * {@code parallelism.pipeline_layout} and a Megatron-LM script's {@code --pipeline-model-parallel-layout} give the same SYN010
 * warning (the layout runs only on a build with NVIDIA/Megatron-LM pull request #5329 or #5318; Megatron-Core's releases refuse
 * it) and the same price, stage by stage. The job is MtpJobs' (the same model in the two formats) on pp 4.
 */
class NativeLayoutAgreementTest {

    /** MtpJobs' model as the native manifest writes it, on {@code lab}'s 2 nodes, with {@code layout} and {@code mtp} MTP layers. */
    static String manifest(String layout, int mtp) {
        return PlanCli.LAB_H100 + """
                ---
                kind: training_job
                name: j
                cluster: lab
                node_group: dgx
                nodes: 2
                gpus_per_node: 8
                model: { %s }
                parallelism: { tp: 2, pp: 4, ep: 2, pipeline_layout: "%s" }
                batch: { micro_batch_size: 1, global_batch_size: 64 }
                optimizer: { distributed: true }
                recompute: selective
                """.formatted(MtpJobs.model(false, MtpJobs.FIRST_DENSE, mtp), layout);
    }

    @Test
    void lossOnTwoStagesIsTheSameWarningAndTheSamePrice(@TempDir Path nat, @TempDir Path meg) {
        agree(nat, meg, "Et|t|ttmL|L", 1, List.of("it names the loss (L) 2 times, on stages 3, 4 of 4"));
    }

    @Test
    void mtpLayersOnTwoStagesIsTheSameWarningAndTheSamePrice(@TempDir Path nat, @TempDir Path meg) {
        agree(nat, meg, "Et|tt|tm|mL", 2, List.of("it places the MTP layers (m) on 2 stages (3, 4 of 4)"));
    }

    @Test
    void bothSplitsTwoWarnings(@TempDir Path nat, @TempDir Path meg) {
        // in the report's order (one place, sorted by message)
        agree(nat, meg, "Et|tt|tmL|mLL", 2, List.of("it names the loss (L) 3 times, on stages 3, 4 of 4",
                "it places the MTP layers (m) on 2 stages (3, 4 of 4)"));
    }

    @SuppressWarnings("unchecked")
    private static void agree(Path nat, Path meg, String layout, int mtp, List<String> what) {
        String text = manifest(layout, mtp);
        PlanCli n = PlanCli.in(nat).file("all.yaml", text);
        PlanCli m = PlanCli.in(meg).file("cluster.yaml", PlanCli.LAB_H100).file("train.sh", script(mtp,
                " --pipeline-model-parallel-layout \"" + layout + "\"", 4)).jobClusters("lab", "*.sh");
        // the findings: SYN010 at the layout's value, the same words but for the key's name; no SYN002
        List<Map<String, Object>> nf = findings(PlanCli.run("check", "-f", "json", nat.resolve("all.yaml").toString()));
        List<Map<String, Object>> mf = findings(PlanCli.run("check", "-f", "json", "-c", meg.resolve(".gpulint.yaml").toString(),
                meg.resolve("train.sh").toString()));
        assertEquals(what.size(), nf.size(), String.valueOf(nf));
        assertEquals(what.size(), mf.size(), String.valueOf(mf));
        int line = text.lines().toList().indexOf(text.lines().filter(l -> l.startsWith("parallelism:")).findFirst().orElseThrow()) + 1;
        for (int i = 0; i < what.size(); i++) {
            String message = String.valueOf(nf.get(i).get("message"));
            assertTrue(message.startsWith("'pipeline_layout' is '" + layout + "': " + what.get(i)), message);
            assertEquals(String.valueOf(mf.get(i).get("message")).replace("'--pipeline-model-parallel-layout' is", "'pipeline_layout' is"),
                    message);
            assertEquals("warning", nf.get(i).get("level"));
            Map<String, Object> loc = PlanCli.map(nf.get(i).get("location"));
            assertEquals(line, loc.get("startLine"));
            assertEquals("parallelism: { tp: 2, pp: 4, ep: 2, pipeline_layout: ".length() + 1, loc.get("startColumn"));
        }
        // the price: every stage's parameters and activations alike (the layout's blocks, the early loss stages' output layers)
        Map<String, Object> nd = n.planJson().json(), md = m.planJson().json();
        Map<String, Object> nc = PlanCli.map(nd.get("current")), mc = PlanCli.map(md.get("current"));
        // the assumptions say which build runs the layout and how it is priced, in the same words but for the key
        List<String> said = layoutLines(nd, "parallelism.pipeline_layout '");
        assertEquals(what.size(), said.size(), String.valueOf(nd.get("assumptions")));
        assertEquals(layoutLines(md, "--pipeline-model-parallel-layout '").stream()
                .map(x -> x.replace("--pipeline-model-parallel-layout '", "parallelism.pipeline_layout '")).toList(), said);
        List<Map<String, Object>> ns = (List<Map<String, Object>>) PlanCli.map(nc.get("memory")).get("stages");
        List<Map<String, Object>> ms = (List<Map<String, Object>>) PlanCli.map(mc.get("memory")).get("stages");
        assertEquals(4, ns.size());
        assertEquals(ms.size(), ns.size());
        for (int s = 0; s < ns.size(); s++) {
            for (String k : List.of("parameters", "activations_bytes", "total_bytes")) {
                assertNotNull(ns.get(s).get(k), k + " of stage " + s + ": " + ns.get(s));
                assertEquals(((Number) ms.get(s).get(k)).doubleValue(), ((Number) ns.get(s).get(k)).doubleValue(), 0.5, k + " of stage " + s);
            }
        }
        assertEquals(String.valueOf(PlanCli.map(mc.get("layout")).get("virtual_pp")), String.valueOf(PlanCli.map(nc.get("layout")).get("virtual_pp")));
    }

    /** The assumptions that begin with {@code head} (the layout's key and its text). */
    @SuppressWarnings("unchecked")
    private static List<String> layoutLines(Map<String, Object> doc, String head) {
        return ((List<Object>) doc.get("assumptions")).stream().map(String::valueOf).filter(a -> a.startsWith(head)).toList();
    }

    /** A hybrid model of 4 layers in two '|' segments of 2, on pp 2, with {@code layout} beside it. */
    private static String hybrid(String layout) {
        return PlanCli.LAB_H100 + """
                ---
                kind: training_job
                name: h
                cluster: lab
                node_group: dgx
                nodes: 2
                gpus_per_node: 8
                model: { dtype: bf16, layers: 4, hidden_size: 1024, attention_heads: 16, kv_heads: 16, ffn_hidden_size: 4096, vocab_size: 32000, gated_mlp: true, tied_embeddings: false, seq_length: 2048, hybrid: { pattern: "M-|M*" } }
                parallelism: { tp: 2, pp: 2, pipeline_layout: "%s" }
                batch: { micro_batch_size: 1, global_batch_size: 64 }
                optimizer: { distributed: true }
                """.formatted(layout);
    }

    /**
     * A layout beside a hybrid pattern's '|' segments that split the decoder otherwise: the segments are priced, as
     * Megatron-Core's HybridModel builds them, and the assumptions say so (what was used, from where), in the Megatron
     * adapter's words; a layout that agrees with the segments says nothing of them.
     */
    @Test
    void segmentsPricedInPlaceOfTheLayoutAreSaid(@TempDir Path a, @TempDir Path b) {
        Map<String, Object> differs = PlanCli.in(a).file("all.yaml", hybrid("Et|tttL")).planJson().json();
        assertEquals(List.of("parallelism.pipeline_layout 'Et|tttL' splits the decoder's layers 1, 3 by stage, and model.hybrid.pattern's"
                + " '|' segments split them 2, 2: Megatron-Core's HybridModel builds each stage's layers from the pattern's segments"
                + " (select_pipeline_segment in megatron/core/models/hybrid/hybrid_layer_allocation.py; hybrid_model.py at 542a36d0"
                + " never reads the layout for them), so the estimate prices the segments' split; the layout still gives the virtual"
                + " stages (its stages ÷ pp). Write the layout's stages as the segments, or drop one of the two"),
                layoutLines(differs, "parallelism.pipeline_layout '"));
        Map<String, Object> agrees = PlanCli.in(b).file("all.yaml", hybrid("Ett|ttL")).planJson().json();
        assertEquals(List.of(), layoutLines(agrees, "parallelism.pipeline_layout '"));
        // both price the segments' 2 + 2 layers: the same stages
        assertEquals(String.valueOf(PlanCli.map(PlanCli.map(agrees.get("current")).get("memory")).get("stages")),
                String.valueOf(PlanCli.map(PlanCli.map(differs.get("current")).get("memory")).get("stages")));
    }

    /**
     * A layout of another number of stages than the pattern's '|' segments (4 beside 2, on pp 2): one policy in both formats,
     * SYN002 at the layout's value (the pattern alone builds the layers; the layout only adds the virtual stages that break
     * it), the layout left out and the segments priced, with no finding at the pattern. Until 2026-12-07 the Megatron
     * adapter took the layout's 2 virtual stages and gave SYN002 at the pattern, pricing an even split at vp 2.
     */
    @Test
    void aLayoutOfOtherStagesThanTheSegmentsIsOneFindingAtTheLayout(@TempDir Path a, @TempDir Path b, @TempDir Path c, @TempDir Path d) {
        String layout = "Et|t|t|tL", text = hybrid(layout);
        PlanCli nat = PlanCli.in(a).file("all.yaml", text);
        PlanCli script = PlanCli.in(b).file("cluster.yaml", PlanCli.LAB_H100)
                .file("train.sh", hybridScript("M-|M*", " --pipeline-model-parallel-layout \"" + layout + "\"")).jobClusters("lab", "*.sh");
        List<Map<String, Object>> nf = findings(PlanCli.run("check", "-f", "json", a.resolve("all.yaml").toString()));
        List<Map<String, Object>> mf = findings(PlanCli.run("check", "-f", "json", "-c", b.resolve(".gpulint.yaml").toString(),
                b.resolve("train.sh").toString()));
        String why = "it has 4 stages and %s's '|' segments 2 (Megatron-Core takes the virtual stages from the layout and its"
                + " HybridModel builds each stage's layers from the segments, select_pipeline_segment: one segment per pipeline"
                + " stage); write as many stages in the two, or drop the layout (the segments alone split the decoder); the layout is"
                + " left out of the estimate.";
        assertEquals(1, nf.size(), String.valueOf(nf));
        assertEquals(1, mf.size(), String.valueOf(mf));
        assertEquals("SYN002", nf.get(0).get("ruleId"));
        assertEquals("SYN002", mf.get(0).get("ruleId"));
        assertEquals("'pipeline_layout' is 'Et|t|t|tL': " + why.formatted("model.hybrid.pattern"), nf.get(0).get("message"));
        assertEquals("'--pipeline-model-parallel-layout' is 'Et|t|t|tL': " + why.formatted("--hybrid-layer-pattern"), mf.get(0).get("message"));
        // at the layout's value in each file (native: its line, after "pipeline_layout: "; script: line 4, after the flag)
        Map<String, Object> nl = PlanCli.map(nf.get(0).get("location")), ml = PlanCli.map(mf.get(0).get("location"));
        int line = text.lines().toList().indexOf(text.lines().filter(l -> l.startsWith("parallelism:")).findFirst().orElseThrow()) + 1;
        assertEquals(List.of(line, "parallelism: { tp: 2, pp: 2, pipeline_layout: ".length() + 1), List.of(nl.get("startLine"), nl.get("startColumn")));
        String flagLine = hybridScript("M-|M*", " --pipeline-model-parallel-layout \"" + layout + "\"").lines().toList().get(4);
        assertEquals(List.of(5, flagLine.indexOf("\"" + layout) + 1), List.of(ml.get("startLine"), ml.get("startColumn")));
        // the layout left out, in each format: the job as without it, the segments' 2 + 2 layers on pp 2, no virtual stages
        // (the two formats' own defaults differ beside the layout, e.g. the tp overlap: each is compared with itself)
        Map<String, Object> nc = PlanCli.map(nat.planJson().json().get("current")), mc = PlanCli.map(script.planJson().json().get("current"));
        Map<String, Object> nw = PlanCli.map(PlanCli.in(c).file("all.yaml", text.replace(", pipeline_layout: \"" + layout + "\"", ""))
                .planJson().json().get("current"));
        Map<String, Object> mw = PlanCli.map(PlanCli.in(d).file("cluster.yaml", PlanCli.LAB_H100).file("train.sh", hybridScript("M-|M*", ""))
                .jobClusters("lab", "*.sh").planJson().json().get("current"));
        for (Map<String, Object> x : List.of(nc, mc)) {
            assertEquals("1", String.valueOf(PlanCli.map(x.get("layout")).get("virtual_pp")));
            assertEquals("[2, 2]", String.valueOf(PlanCli.map(x.get("layout")).get("stage_layers")));
        }
        assertEquals(String.valueOf(nw.get("time")), String.valueOf(nc.get("time")));
        assertEquals(String.valueOf(mw.get("time")), String.valueOf(mc.get("time")));
    }

    /** {@link #hybrid}'s model as a Megatron-LM script writes it, its pattern {@code pattern}, with {@code more} flags. */
    private static String hybridScript(String pattern, String more) {
        return """
                #!/bin/bash
                torchrun --nnodes 2 --nproc_per_node 8 pretrain_mamba.py \\
                  --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --ffn-hidden-size 4096 --swiglu \\
                  --untie-embeddings-and-output-weights --vocab-size 32000 --make-vocab-size-divisible-by 128 --seq-length 2048 \\
                  --is-hybrid-model --hybrid-layer-pattern "%s"%s \\
                  --tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 --sequence-parallel \\
                  --use-distributed-optimizer --micro-batch-size 1 --global-batch-size 64 --bf16
                """.formatted(pattern, more);
    }

    /** The memory of each stage of the current layout: its parameters and activations. */
    @SuppressWarnings("unchecked")
    private static List<List<Object>> stages(Map<String, Object> doc) {
        return ((List<Map<String, Object>>) PlanCli.map(PlanCli.map(doc.get("current")).get("memory")).get("stages")).stream()
                .map(st -> List.<Object>of(st.get("parameters"), st.get("activations_bytes"))).toList();
    }

    /**
     * A hybrid pattern with an MTP '/' group of two layers ("M-") and '|' segments, and beside it a layout that agrees with the
     * segments and puts the m on the last stage, where Megatron-Core builds it anyway: the same job with or without the layout,
     * in either format. HybridModel builds each stage from the segments and the MTP layer from the group's letters, so the
     * last stage holds its two layers; the Megatron adapter took the layout's blocks (the m as one block) and priced the
     * last stage as a share of the mean layer, ~8 % fewer parameters than without the layout (review21a), where the native
     * manifest prices the segments.
     */
    @Test
    void aHybridLayoutThatAgreesWithTheSegmentsPricesTheMtpGroupAsWithout(@TempDir Path a, @TempDir Path b, @TempDir Path c) {
        String pattern = "M-|M*/M-";
        layoutPricesAsWithout(pattern, a, b, c);
    }

    /**
     * m on two stages beside a hybrid pattern whose '|' segments split the stages: the segments are the split priced, so the
     * MTP layers stand on the last stage, and the assumptions say that in both formats, not that each m's stage holds its
     * layers (review21a: both said "Priced as mtp_split builds it" while pricing them on the last stage).
     */
    @Test
    void mtpOnTwoStagesBesideSegmentsSaysTheyArePricedOnTheLastStage(@TempDir Path a, @TempDir Path b) {
        String pattern = "M-|M*||/M-/M-", layout = "Ett|tt|m|mLLL";
        Map<String, Object> script = PlanCli.in(a).file("cluster.yaml", PlanCli.LAB_H100)
                .file("train.sh", hybridScript(pattern, " --pipeline-model-parallel-layout \"" + layout + "\"")).jobClusters("lab", "*.sh")
                .planJson().json();
        Map<String, Object> nat = PlanCli.in(b).file("all.yaml", hybrid(layout).replace("\"M-|M*\"", "\"" + pattern + "\"")).planJson().json();
        List<String> said = layoutLines(nat, "parallelism.pipeline_layout '").stream().filter(x -> x.contains("(m) on 2 stages")).toList();
        assertEquals(1, said.size(), String.valueOf(nat.get("assumptions")));
        assertTrue(said.get(0).endsWith("Priced on the last stage: the pattern's '|' segments split the stages, not the layout, so every"
                + " MTP layer's blocks (its '/' group's letters), eh_proj and norms are priced there"), said.get(0));
        assertEquals(said, layoutLines(script, "--pipeline-model-parallel-layout '").stream().filter(x -> x.contains("(m) on 2 stages"))
                .map(x -> x.replace("--pipeline-model-parallel-layout '", "parallelism.pipeline_layout '")).toList());
        assertEquals(stages(script), stages(nat));
    }

    /**
     * The same MTP group without '|' segments: the pattern "M-M*" with the '/' group "M-" on pp 2 (Megatron-Core's select_pipeline_segment slices it
     * evenly, 2 + 2) and the layout 'Ett|ttmL' that agrees and puts the m on the last stage, where HybridModel builds the MTP
     * layer from the '/' group's letters (two layers, M and -). The layout's stages count the m as one block, so the last stage
     * overran the pattern's 4 layers and was priced as 3/4 of every kind: 44,873,160 parameters against 48,557,408 without the
     * layout (review21a), in both formats.
     */
    @Test
    void aHybridLayoutWithoutSegmentsPricesTheMtpGroupAsWithout(@TempDir Path a, @TempDir Path b, @TempDir Path c) {
        String pattern = "M-M*/M-";
        layoutPricesAsWithout(pattern, a, b, c);
    }

    /**
     * {@code pattern} on pp 2 with the layout 'Ett|ttmL' (the m on the last stage): each stage's price is the job's without
     * the layout, from the Megatron script and from the native manifest alike.
     */
    private static void layoutPricesAsWithout(String pattern, Path a, Path b, Path c) {
        List<List<Object>> without = stages(PlanCli.in(a).file("cluster.yaml", PlanCli.LAB_H100).file("train.sh", hybridScript(pattern, ""))
                .jobClusters("lab", "*.sh").planJson().json());
        List<List<Object>> script = stages(PlanCli.in(b).file("cluster.yaml", PlanCli.LAB_H100)
                .file("train.sh", hybridScript(pattern, " --pipeline-model-parallel-layout \"Ett|ttmL\"")).jobClusters("lab", "*.sh")
                .planJson().json());
        List<List<Object>> nat = stages(PlanCli.in(c).file("all.yaml", hybrid("Ett|ttmL").replace("\"M-|M*\"", "\"" + pattern + "\""))
                .planJson().json());
        assertEquals(2, without.size());
        assertEquals(without, script, "the script's layout");
        assertEquals(without, nat, "the native layout");
    }

    /**
     * Two MTP layers of the '/' group "M-" beside "M-M*" on pp 2 and the layout 'Ett|ttmmL' (both m on the last stage): HybridModel
     * builds 4 MTP blocks there (2 layers × the group's 2 letters). The plan's mtp line named the 2 blocks the layout's split left
     * uncounted ("2 layers"); it names the 4, as the job without the layout does, from the script and the native manifest alike,
     * and the bubble and the step are the job's without the layout (the same stages' time).
     */
    @Test
    void aHybridLayoutsMtpLineNamesEveryBlockAsWithout(@TempDir Path a, @TempDir Path b, @TempDir Path c, @TempDir Path d) {
        String pattern = "M-M*/M-/M-", layout = " --pipeline-model-parallel-layout \"Ett|ttmmL\"";
        PlanCli without = PlanCli.in(a).file("cluster.yaml", PlanCli.LAB_H100).file("train.sh", hybridScript(pattern, "")).jobClusters("lab", "*.sh");
        PlanCli script = PlanCli.in(b).file("cluster.yaml", PlanCli.LAB_H100).file("train.sh", hybridScript(pattern, layout)).jobClusters("lab", "*.sh");
        PlanCli nat = PlanCli.in(c).file("all.yaml", hybrid("Ett|ttmmL").replace("\"M-|M*\"", "\"" + pattern + "\""));
        String line = line(without.plan().out(), "  mtp: ");
        assertTrue(line.startsWith("  mtp: 2 multi-token prediction layers (MtpLayers, Megatron-Core's multi_token_prediction.py): 4 layers of the"
                + " kind Megatron-Core builds, the mean layer = "), line);
        assertEquals(line, line(script.plan().out(), "  mtp: "), "the script's layout");
        assertEquals(line, line(nat.plan().out(), "  mtp: "), "the native layout");
        // the bubble and the step: the script's with and without the layout, the native manifest's with and without it (the two
        // formats' defaults differ elsewhere)
        PlanCli natWithout = PlanCli.in(d).file("all.yaml", hybrid("Ett|ttmmL").replace("\"M-|M*\"", "\"" + pattern + "\"")
                .replace(", pipeline_layout: \"Ett|ttmmL\"", ""));
        for (String k : List.of("bubble_s", "step_s")) {
            assertEquals(time(without, k), time(script, k), k + " of the script's layout");
            assertEquals(time(natWithout, k), time(nat, k), k + " of the native layout");
        }
        assertTrue(line(nat.plan().out(), "  bubble: ").contains("the MTP layers' 4 blocks on rank 1, "), line(nat.plan().out(), "  bubble: "));
        // the split line names what the pattern has: no '|' segments, so the layout lays it out (it said select_pipeline_segment
        // built the pattern's '|' segments), in both formats
        String split = "layers over the pipeline: 2, 4 on the ranks in turn (2 stages laid out layer by layer), as the job's pipeline"
                + " layout lays out the hybrid pattern (each m one entry there, its MTP layer's '/' group's blocks priced on its stage)";
        assertEquals(List.of(split), layoutLines(nat.planJson().json(), "layers over the pipeline: "));
        assertEquals(List.of(split), layoutLines(script.planJson().json(), "layers over the pipeline: "));
    }

    /** The current layout's {@code time.key} in the plan's JSON. */
    private static Object time(PlanCli cli, String key) {
        return PlanCli.map(PlanCli.map(cli.planJson().json().get("current")).get("time")).get(key);
    }

    /** The one line of {@code text} that begins with {@code head}. */
    private static String line(String text, String head) {
        List<String> found = text.lines().filter(x -> x.startsWith(head)).toList();
        assertEquals(1, found.size(), text);
        return found.get(0);
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> findings(PlanCli.Run run) {
        return ((List<Object>) run.json().get("findings")).stream().map(PlanCli::map)
                .filter(f -> List.of("SYN010", "SYN002").contains(f.get("ruleId"))).toList();
    }
}
