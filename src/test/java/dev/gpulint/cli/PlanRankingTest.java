package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `gpulint plan`'s ranking on the cases issue 27 names, and on layouts of published runs (which ran, so stay valid). */
class PlanRankingTest {

    static String cluster(int nodes, String gpu) {
        boolean h100 = gpu.startsWith("H100");
        return """
                kind: cluster
                name: lab
                fabric: { type: infiniband, topology: rail-optimized }
                node_groups:
                  - name: dgx
                    count: %d
                    gpu: { model: %s, count: 8 }
                    nvlink: { switch: true, bandwidth: %s, direction: bidirectional }
                    nics:
                      - { model: %s, count: 8, speed: %s, protocol: infiniband, gpudirect_rdma: true }
                """.formatted(nodes, gpu, h100 ? "900 GB/s" : "600 GB/s", h100 ? "ConnectX-7" : "ConnectX-6", h100 ? "400 Gb/s" : "200 Gb/s");
    }

    static String job(int nodes, String model, String parallelism, String batch, String optimizer, String recompute) {
        return """
                ---
                kind: training_job
                name: j
                cluster: lab
                node_group: dgx
                nodes: %d
                gpus_per_node: 8
                model: %s
                parallelism: %s
                batch: %s
                optimizer: %s
                recompute: %s
                """.formatted(nodes, model, parallelism, batch, optimizer, recompute);
    }

    /** Llama 2 70B's public shape (GQA, SwiGLU, untied embeddings). */
    static final String LLAMA2_70B = "{ parameters: 70B, dtype: bf16, layers: 80, attention_heads: 64, kv_heads: 8, hidden_size: 8192, "
            + "ffn_hidden_size: 28672, vocab_size: 32000, gated_mlp: true, tied_embeddings: false, seq_length: 4096 }";

    /** {@code text} written to job.yaml and planned: {@code plan -f json ARGS job.yaml}, which must exit 0. */
    static Map<String, Object> plan(Path dir, String text, String... args) {
        return PlanCli.in(dir).file("job.yaml", text).planJson(args).json();
    }

    static Map<String, Object> map(Object o) { return PlanCli.map(o); }

    static double tokens(Map<String, Object> plan) {
        return ((Number) map(plan.get("throughput")).get("tokens_per_s_per_gpu")).doubleValue();
    }

    @Test
    @SuppressWarnings("unchecked")
    void seventyBWithAdamInBf16DoesNotFitOnSixteenH100AndThePlanSaysWhyAndHowManyGpusWould(@TempDir Path dir) throws IOException {
        Map<String, Object> doc = plan(dir, cluster(2, "H100-SXM5-80GB")
                + job(2, LLAMA2_70B, "{ tp: 8, pp: 2, sequence_parallel: true }", "{ micro_batch_size: 1, global_batch_size: 512 }",
                "{ type: adam }", "selective"));
        assertEquals(List.of(), doc.get("candidates"), "no invalid layout is proposed");
        assertEquals(0, doc.get("valid"));
        assertNull(map(doc.get("current")).get("rank"));
        Map<String, Object> inf = map(doc.get("infeasible"));
        assertNotNull(inf, doc.toString());
        // Megatron's 18 bytes per parameter over tp·pp = 16: about 78 GB of model states per GPU, 90 % of 80 GiB
        double states = ((Number) inf.get("least_memory_states_bytes")).doubleValue();
        assertTrue(states > 75e9 && states < 80e9, "model states alone ~78 GB: " + states);
        String reason = (String) inf.get("reason");
        assertTrue(reason.startsWith("no layout of 16 × H100-SXM5-80GB is valid"), reason);
        assertTrue(reason.contains("of model states per GPU") && reason.contains("85.90 GB"), reason);
        assertEquals(32, ((Number) inf.get("min_gpus")).intValue(), "four servers are the fewest that fit: " + inf);
        String fix = (String) inf.get("fix");
        assertTrue(fix.startsWith("to make one valid: at least 32 GPUs"), fix);
        assertTrue(fix.contains("optimizer.zero_stage"), "or a sharded optimizer on these 16: " + fix);
        Map<String, Object> best32 = map(inf.get("min_gpus_best_layout"));
        assertEquals(32, (int) best32.get("tp") * (int) best32.get("pp") * (int) best32.get("dp") * (int) best32.get("cp"));
        assertTrue((int) best32.get("tp") <= 8, "tp stays inside a server: " + best32);

        PlanCli.Run text = PlanCli.run("plan", dir.resolve("job.yaml").toString());
        assertEquals(0, text.code(), text.err());
        assertTrue(text.out().contains("no layout of 16 × H100-SXM5-80GB is valid") && text.out().contains("at least 32 GPUs"), text.out());
        assertTrue(!text.out().contains("yours ranks"), text.out());
    }

    @Test
    @SuppressWarnings("unchecked")
    void onSixtyFourH100TheBestFiveKeepTensorParallelInsideAServerAndBeatTp8Pp2Dp4(@TempDir Path dir) throws IOException {
        Map<String, Object> doc = plan(dir, cluster(8, "H100-SXM5-80GB")
                + job(8, LLAMA2_70B, "{ tp: 8, pp: 2, sequence_parallel: true }", "{ micro_batch_size: 1, global_batch_size: 512 }",
                "{ distributed: true }", "selective"), "--top", "5");
        Map<String, Object> cur = map(doc.get("current"));
        Map<String, Object> layout = map(cur.get("layout"));
        assertEquals(List.of(8, 2, 4), List.of(layout.get("tp"), layout.get("pp"), layout.get("dp")));
        assertNotNull(cur.get("rank"), "tp 8 × pp 2 × dp 4 is valid: " + cur);
        List<Map<String, Object>> top = (List<Map<String, Object>>) doc.get("candidates");
        assertEquals(5, top.size());
        for (Map<String, Object> c : top) {
            int tp = (int) map(c.get("layout")).get("tp");
            assertEquals(0, 8 % tp, "a tensor-parallel group of " + tp + " fills part of one 8-GPU server: " + c.get("layout"));
            assertEquals("nvlink", map(map(c.get("time")).get("tiers")).getOrDefault("tp", "nvlink"), c.get("layout").toString());
        }
        assertTrue(tokens(top.get(0)) >= tokens(cur), tokens(top.get(0)) + " against tp 8 × pp 2 × dp 4's " + tokens(cur));
        assertEquals(1, top.get(0).get("rank"));
    }

    @Test
    void layoutsOfPublishedRunsAreNeverRejected(@TempDir Path dir) throws IOException {
        // NeMo 24.09 performance summary (DGX-H100): Llama 2 70B on 64 GPUs, tp 4, pp 4, vp 20, distributed optimizer
        assertValid(dir, cluster(8, "H100-SXM5-80GB") + job(8, LLAMA2_70B, "{ tp: 4, pp: 4, virtual_pp: 20, sequence_parallel: true }",
                "{ micro_batch_size: 1, global_batch_size: 128 }", "{ distributed: true }", "selective"));
        // the same table: GPT-3 20B on 64 GPUs, tp 2, micro batch 2, fp8 (its estimate is within 6 GB of the GPU's memory)
        assertValid(dir, cluster(8, "H100-SXM5-80GB") + job(8, "{ dtype: fp8, layers: 44, hidden_size: 6144, attention_heads: 48, "
                        + "vocab_size: 50257, seq_length: 2048 }", "{ tp: 2, pp: 1, sequence_parallel: true }",
                "{ micro_batch_size: 2, global_batch_size: 256 }", "{ distributed: true }", "none"));
        // Narayanan et al. 2021 (SC21) Table 1: GPT-3 175B on 96 A100 80GB, tp 8, pp 12 (the 1,024-GPU row is the bench's)
        assertValid(dir, cluster(12, "A100-SXM4-80GB") + job(12, "{ parameters: 175B, dtype: fp16, layers: 96, hidden_size: 12288, "
                        + "attention_heads: 96, vocab_size: 51200, seq_length: 2048 }", "{ tp: 8, pp: 12 }",
                "{ micro_batch_size: 1, global_batch_size: 1536 }", "{ type: adam }", "full"));
        // Llama 2 70B fine-tuned with FSDP FULL_SHARD and activation checkpointing on 2 × 8 A100 80GB (Hugging Face, 2023)
        assertValid(dir, cluster(2, "A100-SXM4-80GB") + job(2, LLAMA2_70B, "{ tp: 1, pp: 1 }",
                "{ micro_batch_size: 1, global_batch_size: 16 }", "{ zero_stage: 3 }", "full"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void theCandidatesDoNotDependOnTheTpBeingReplaced(@TempDir Path dir) throws IOException {
        // samples/plan/llama2-70b.yaml as shipped, and with tp: 16 written (a tp that spans two servers: PAR002)
        String shipped = Files.readString(Path.of("..", "samples", "plan", "llama2-70b.yaml"));
        String wrong = shipped.replace("parallelism: { tp: 4,", "parallelism: { tp: 16,");
        assertTrue(!wrong.equals(shipped));
        List<Object> a = layouts((List<Map<String, Object>>) plan(dir, shipped, "--top", "5").get("candidates"));
        Map<String, Object> doc = plan(dir, wrong, "--top", "5");
        assertEquals(a, layouts((List<Map<String, Object>>) doc.get("candidates")), "the same candidates, ranked alike");
        Map<String, Object> first = map(a.get(0));
        assertEquals(List.of(4, 4, 20, 4), List.of(first.get("tp"), first.get("pp"), first.get("virtual_pp"), first.get("dp")), a.toString());
        assertEquals("selective", first.get("recompute"), "a tie keeps the job's own choices: " + a);
    }

    private static List<Object> layouts(List<Map<String, Object>> candidates) {
        return candidates.stream().map(c -> c.get("layout")).toList();
    }

    @Test
    void theCurrentFindingsAreWhatCheckRaisesOnThatJobAlone(@TempDir Path dir) throws IOException {
        String j = cluster(8, "H100-SXM5-80GB") + job(8, LLAMA2_70B, "{ tp: 4, pp: 4, virtual_pp: 20, sequence_parallel: true }",
                "{ micro_batch_size: 1, global_batch_size: 128 }", "{ distributed: true }", "selective");
        // a second job in the same file, whose model states do not fit (MEM001), is not the planned job's
        String neighbour = j.substring(j.indexOf("---")).replace("name: j", "name: k").replace("tp: 4, pp: 4, virtual_pp: 20", "tp: 1, pp: 1");
        Object alone = map(plan(dir, j, "--top", "1").get("current")).get("findings");
        Object beside = map(plan(dir, j + neighbour, "--job", "j", "--top", "1").get("current")).get("findings");
        assertEquals(alone, beside);
        assertTrue(!((List<?>) beside).contains("MEM001"), beside.toString());
        assertTrue(((List<?>) map(plan(dir, j + neighbour, "--job", "k", "--top", "1").get("current")).get("findings")).contains("MEM001"));
    }

    @Test
    void infeasibleOnOneServerSearchesUpToTheClustersGpusAndNamesTheFewestThatWork(@TempDir Path dir) throws IOException {
        // Llama 3 405B on one DGX of a 16-node cluster: 126 layers split over pp 14 at the fewest, so 8 × 14 = 112 GPUs
        String llama405 = "{ parameters: 405B, dtype: bf16, layers: 126, attention_heads: 128, kv_heads: 8, hidden_size: 16384, "
                + "ffn_hidden_size: 53248, vocab_size: 128256, gated_mlp: true, tied_embeddings: false, seq_length: 8192 }";
        String text = cluster(16, "H100-SXM5-80GB") + job(1, llama405, "{ tp: 8, pp: 1, sequence_parallel: true }",
                "{ micro_batch_size: 1, global_batch_size: 64 }", "{ distributed: true }", "full");
        Map<String, Object> inf = map(plan(dir, text).get("infeasible"));
        assertEquals(112, ((Number) inf.get("min_gpus")).intValue(), inf.toString());
        String fix = (String) inf.get("fix");
        assertTrue(fix.startsWith("to make one valid: at least 112 GPUs of the same nodes (the cluster has 128; `gpulint plan --gpus 112` ranks them)"), fix);
        Map<String, Object> at112 = plan(dir, text, "--gpus", "112");
        assertEquals(inf.get("min_gpus_valid"), at112.get("valid"), "the fix's count is the search --gpus 112 makes");
    }

    private static void assertValid(Path dir, String text) throws IOException {
        Map<String, Object> doc = plan(dir, text, "--top", "1");
        Map<String, Object> cur = map(doc.get("current"));
        assertNotNull(cur.get("rank"), "a layout that ran is valid: " + cur.get("layout") + " rejected by " + cur.get("rejected_by"));
        assertNull(doc.get("infeasible"));
    }
}
