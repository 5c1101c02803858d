package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli;
import dev.gpulint.testing.Recipes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlanCliTest {
    private static final String CLUSTER = """
            kind: cluster
            name: lab
            fabric: { type: infiniband }
            node_groups:
              - name: dgx
                count: 4
                gpu: { model: A100-SXM4-80GB, count: 8 }
                nvlink: { switch: true }
                nics:
                  - { model: ConnectX-6, count: 8, speed: 200 Gb/s, protocol: infiniband }
            """;

    private static String job(String name, int tp, int pp) {
        return """
                ---
                kind: training_job
                name: %s
                cluster: lab
                node_group: dgx
                nodes: 4
                gpus_per_node: 8
                model: { dtype: bf16, layers: 32, hidden_size: 4096, attention_heads: 32, seq_length: 2048, vocab_size: 51200 }
                parallelism: { tp: %d, pp: %d }
                batch: { micro_batch_size: 1, global_batch_size: 256 }
                """.formatted(name, tp, pp);
    }

    @Test
    @SuppressWarnings("unchecked")
    void jsonHasPlanMdsKeysInBytesAndSeconds(@TempDir Path dir) throws IOException {
        PlanCli.Run r = PlanCli.in(dir).file("job.yaml", CLUSTER + job("gpt-7b", 2, 2)).planJson();
        Map<String, Object> doc = r.json();
        assertEquals("gpt-7b", doc.get("job"));
        assertEquals("A100-SXM4-80GB", doc.get("gpu"));
        assertEquals(32, doc.get("gpus"));
        Map<String, Object> cur = (Map<String, Object>) doc.get("current");
        Map<String, Object> layout = (Map<String, Object>) cur.get("layout");
        assertEquals(2, layout.get("tp"));
        assertEquals(8, layout.get("dp"));
        Map<String, Object> mem = (Map<String, Object>) cur.get("memory");
        assertEquals(85899345920L, ((Number) mem.get("capacity_bytes")).longValue());
        assertEquals(2, ((java.util.List<?>) mem.get("stages")).size());
        Map<String, Object> time = (Map<String, Object>) cur.get("time");
        double step = ((Number) time.get("step_s")).doubleValue();
        assertTrue(step > 0 && step >= ((Number) time.get("compute_s")).doubleValue(), "step " + step);
        assertTrue(((Map<String, Object>) time.get("comm_s")).keySet().containsAll(java.util.List.of("tp", "cp", "ep", "pp", "dp")));
        assertTrue(((Map<String, Object>) time.get("exposed_comm_s")).keySet().containsAll(java.util.List.of("nvlink", "pcie", "network")));
        Map<String, Object> th = (Map<String, Object>) cur.get("throughput");
        double mfu = ((Number) th.get("mfu")).doubleValue();
        assertTrue(mfu > 0.2 && mfu < 0.7, "A100 bf16 MFU " + mfu);
        assertTrue(((java.util.List<?>) doc.get("assumptions")).stream().anyMatch(a -> a.toString().contains("312")), "A100's peak is listed");
    }

    /** A fine-tune that names its model (the shape of a Slurm + torchrun FSDP script) is planned from the model catalog. */
    @Test
    @SuppressWarnings("unchecked")
    void aJobThatNamesItsModelIsPlannedAndThePlanSaysWhichCatalogEntryGaveTheShape(@TempDir Path dir) throws IOException {
        PlanCli.Run r = PlanCli.in(dir).file("cluster.yaml", CLUSTER).file("sft.sbatch", """
                #!/bin/bash
                #SBATCH --nodes=4
                #SBATCH --gpus-per-node=8
                srun torchrun --nnodes 4 --nproc_per_node 8 train.py --model_name_or_path meta-llama/Llama-3.1-8B-Instruct \\
                    --bf16 True --fsdp "full_shard auto_wrap"
                """).jobClusters("lab", "*.sbatch").planJson();
        Map<String, Object> doc = r.json();
        java.util.List<String> as = (java.util.List<String>) doc.get("assumptions");
        assertEquals("model shape (what the files do not write) from --model_name_or_path meta-llama/Llama-3.1-8B-Instruct: the model "
                + "catalog's meta-llama/Llama-3.1-8B (https://huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json)", as.get(0));
        assertTrue(as.stream().noneMatch(a -> a.startsWith("model.vocab_size not given")), "the catalog gives the vocabulary: " + as);
        Map<String, Object> stage = (Map<String, Object>) ((java.util.List<Object>) ((Map<String, Object>) ((Map<String, Object>)
                doc.get("current")).get("memory")).get("stages")).get(0);
        assertEquals(8.03e9, ((Number) stage.get("parameters")).doubleValue(), 0.1e9, "Llama 3.1 8B's 8.03 B parameters on one stage");
    }

    /**
     * A torchtitan TOML states no GPU count (data_parallel_shard_degree -1 takes the world it is launched in): the plan
     * gives it its node group, rounded down to a multiple of tp × pp, and says so first (check's layout fixes never take
     * this size: LayoutFixes plans with what the files state); --gpus plans the size asked.
     */
    @Test
    @SuppressWarnings("unchecked")
    void aJobThatStatesNoGpuCountIsPlannedOnItsNodeGroupAndSaysSo(@TempDir Path dir) throws IOException {
        String toml = Recipes.torchtitan("8B").training("local_batch_size = 1", "seq_len = 8192").parallelism(
                "data_parallel_replicate_degree = 1", "data_parallel_shard_degree = -1", "tensor_parallel_degree = 2",
                "pipeline_parallel_degree = 8").toml();
        PlanCli plan = PlanCli.in(dir).file("cluster.yaml", CLUSTER.replace("count: 4", "count: 3")).file("llama3_8b.toml", toml)
                .jobClusters("lab", "*.toml");
        PlanCli.Run r = plan.planJson();
        Map<String, Object> doc = r.json();
        assertEquals(16, doc.get("gpus"), "3 nodes × 8 = 24 GPUs, rounded down to a multiple of tp × pp = 16");
        java.util.List<String> as = (java.util.List<String>) doc.get("assumptions");
        assertEquals("the job's files state no GPU count (nor dp): planned on all 3 nodes of node group dgx × 8 GPUs per node = 24 GPUs, "
                + "of which 16 (a multiple of tp × pp × cp = 16); plan another size with --gpus or --nodes", as.get(0));
        // torchtitan's own split of Llama 3 8B's 32 layers over pp 8 (34 effective layers), in torchtitan's name, not Megatron's
        assertTrue(as.contains("layers over the pipeline: 4, 5, 4 × 5, 3 on the ranks in turn (8 stages laid out"
                + " layer by layer), as torchtitan's pipeline split builds them (its split points, else the embedding and the output a"
                + " layer each)"), String.valueOf(as));
        PlanCli.Run asked = plan.planJson("--gpus", "16");
        Map<String, Object> askedDoc = asked.json();
        assertEquals(16, askedDoc.get("gpus"));
        assertTrue(((java.util.List<String>) askedDoc.get("assumptions")).stream().noneMatch(a -> a.contains("state no GPU count")),
                "--gpus is the size asked for: nothing assumed");
    }

    /**
     * The size given to a job that states no GPU count keeps the job's stated global batch valid: 4 nodes × 8 = 32 GPUs
     * over tp × pp = 4 would make dp 8, which does not divide global batch 12 ÷ micro batch 1 (Megatron's assert, PAR007):
     * gpulint would invent a size and then reject the user's job for it. dp 6 (24 GPUs) is the largest that divides.
     */
    @Test
    @SuppressWarnings("unchecked")
    void anUnstatedSizeKeepsTheStatedGlobalBatchValid(@TempDir Path dir) throws IOException {
        String toml = Recipes.torchtitan("8B").training("local_batch_size = 1", "global_batch_size = 12", "seq_len = 4096").parallelism(
                "data_parallel_replicate_degree = 1", "data_parallel_shard_degree = -1", "tensor_parallel_degree = 2",
                "pipeline_parallel_degree = 2").toml();
        PlanCli.Run r = PlanCli.in(dir).file("cluster.yaml", CLUSTER).file("llama3_8b.toml", toml).jobClusters("lab", "*.toml").planJson();
        Map<String, Object> doc = r.json();
        assertEquals(24, doc.get("gpus"), "dp 6 of tp 2 × pp 2: the largest dp ≤ 8 dividing 12 global ÷ 1 micro");
        java.util.List<String> as = (java.util.List<String>) doc.get("assumptions");
        assertEquals("the job's files state no GPU count (nor dp): planned on all 4 nodes of node group dgx × 8 GPUs per node = 32 GPUs, "
                + "of which 24 (a multiple of tp × pp × cp = 4, dp 6 a divisor of global batch ÷ micro batch = 12); plan another size with"
                + " --gpus or --nodes", as.get(0));
        Map<String, Object> current = (Map<String, Object>) doc.get("current");
        assertEquals(6, ((Map<String, Object>) current.get("layout")).get("dp"));
        assertEquals(java.util.List.of(), current.get("findings"), "the size gpulint chose does not make the job as written invalid (PAR007)");
    }

    @Test
    void textSaysEachTermWithItsTier(@TempDir Path dir) throws IOException {
        Path f = Files.writeString(dir.resolve("job.yaml"), CLUSTER + job("gpt-7b", 8, 1));
        PlanCli.Run r = PlanCli.run("plan", f.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("tp all-gather/reduce-scatter") && r.out().contains("over NVLink"), r.out());
        assertTrue(r.out().contains("dp gradient all-reduce per bucket over 4 ranks") && r.out().contains("8 × 200 Gb/s ConnectX-6 per node (RDMA)"), r.out());
        assertTrue(r.out().contains("over NVLink 3") && !r.out().contains("Infinity Fabric"), "an NVIDIA job's scale-up is NVLink: " + r.out());
    }

    @Test
    @SuppressWarnings("unchecked")
    void aCollectiveTheUserNamesIsPricedOnEveryTierToo(@TempDir Path dir) throws IOException {
        Path f = Files.writeString(dir.resolve("job.yaml"), CLUSTER + job("gpt-7b", 8, 1));
        PlanCli.Run r = PlanCli.run("plan", "-f", "json", "--collective", "all-gather:2GB", f.toString());
        assertEquals(0, r.code(), r.err());
        Map<String, Object> doc = r.json();
        java.util.List<Map<String, Object>> cs = (java.util.List<Map<String, Object>>) doc.get("collectives");
        assertEquals(2, cs.size(), "the dp all-reduce, then the named one");
        Map<String, Object> c = cs.get(1);
        assertEquals("all-gather", c.get("collective"));
        assertEquals(2_000_000_000L, ((Number) c.get("bytes")).longValue());
        Map<String, Object> nv = ((java.util.List<Map<String, Object>>) c.get("tiers")).get(0);
        assertEquals(3.0 / 4 * 2e9, ((Number) nv.get("bytes_per_gpu")).doubleValue(), 1, "(n−1)/n·S over the 4 dp ranks");
        assertEquals(3.0 / 4 * 2e9 / 300e9 + 18.6e-6, ((Number) nv.get("ideal_s")).doubleValue(), 1e-6,
                "A100 NVLink 3: 300 GB/s per direction, + NCCL's α 8.4 + 3 × 3.4 µs");
        assertEquals(18.6e-6, ((Number) nv.get("latency_s")).doubleValue(), 1e-7);
        PlanCli.Run bad = PlanCli.run("plan", "--collective", "broadcast:1GB", f.toString());
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("--collective broadcast:1GB: the kind is all-reduce, reduce-scatter, all-gather or all-to-all"), bad.err());
        PlanCli.Run noUnit = PlanCli.run("plan", "--collective", "all-to-all:12", f.toString());
        assertEquals(2, noUnit.code());
        assertTrue(noUnit.err().contains("has no unit"), noUnit.err());
    }

    @Test
    @SuppressWarnings("unchecked")
    void theDataParallelAllReduceIsPricedOnEveryTierInTextJsonAndMarkdown(@TempDir Path dir) throws IOException {
        Path f = Files.writeString(dir.resolve("job.yaml"), CLUSTER + job("gpt-7b", 8, 1));
        PlanCli.Run text = PlanCli.run("plan", f.toString());
        assertEquals(0, text.code(), text.err());
        assertTrue(text.out().contains("Data-parallel gradient all-reduce on each tier"), text.out());
        assertTrue(text.out().contains("network   ") && text.out().contains("8 × 200 Gb/s ConnectX-6 per node (RDMA) (as placed)"), text.out());
        assertTrue(text.out().contains("reference: 25GbE, one port per GPU (NCCL over TCP sockets)"), text.out());
        PlanCli.Run md = PlanCli.run("plan", "-f", "markdown", f.toString());
        assertTrue(md.out().contains("| tier | line rate per rank | ideal | efficiency | estimate |"), md.out());
        assertTrue(md.out().contains("| **8 × 200 Gb/s ConnectX-6 per node (RDMA) (as placed)** | 25.0 GB/s (one GPU's share of the node's NICs) |"), md.out());
        PlanCli.Run json = PlanCli.run("plan", "-f", "json", f.toString());
        Map<String, Object> doc = json.json();
        java.util.List<Map<String, Object>> cs = (java.util.List<Map<String, Object>>) doc.get("collectives");
        assertEquals(1, cs.size());
        Map<String, Object> c = cs.get(0);
        assertEquals("all-reduce", c.get("collective"));
        assertEquals(4, ((Number) c.get("ranks")).intValue(), "tp 8 fills a node: dp 4 across the 4 nodes");
        java.util.List<Map<String, Object>> tiers = (java.util.List<Map<String, Object>>) c.get("tiers");
        assertEquals(java.util.List.of("nvlink", "pcie", "network", "ib-400g", "25gbe"), tiers.stream().map(t -> t.get("tier")).toList());
        Map<String, Object> net = tiers.get(2);
        assertEquals(true, net.get("as_placed"));
        // one rank of each dp group per node: the node's 8 × 25 GB/s NICs shared by its 8 rings, 25 GB/s each
        assertEquals(25_000_000_000L, ((Number) net.get("line_rate_bytes_per_s")).longValue());
        double bytes = ((Number) net.get("bytes_per_gpu")).doubleValue();
        assertEquals(2 * 3.0 / 4 * ((Number) c.get("bytes")).doubleValue(), bytes, 1);
        assertEquals(bytes / 25e9, ((Number) net.get("ideal_s")).doubleValue(), bytes / 25e9 * 1e-3);
        assertEquals(((Number) net.get("ideal_s")).doubleValue() / 0.9, ((Number) net.get("estimate_s")).doubleValue(), 1e-2);
    }

    @Test
    void twoJobsNeedJobAndAnUnknownOneIsBadUsage(@TempDir Path dir) throws IOException {
        Path f = Files.writeString(dir.resolve("jobs.yaml"), CLUSTER + job("a", 2, 1) + job("b", 4, 1));
        PlanCli.Run two = PlanCli.run("plan", f.toString());
        assertEquals(2, two.code());
        assertTrue(two.err().contains("--job (a, b)"), two.err());
        assertEquals(0, PlanCli.run("plan", "--job", "b", f.toString()).code());
        PlanCli.Run none = PlanCli.run("plan", "--job", "c", f.toString());
        assertEquals(2, none.code());
        assertTrue(none.err().contains("no job named 'c'"), none.err());
    }

    @Test
    void gpusPlansAnotherSizeOfTheSameNodeGroup(@TempDir Path dir) throws IOException {
        PlanCli.Run r = PlanCli.in(dir).file("job.yaml", CLUSTER + job("gpt-7b", 2, 2)).planJson("--gpus", "16");
        assertTrue(r.out().contains("\"gpus\" : 16"), r.out());
    }

    @Test
    void gpusBeyondTheClusterArePlannedAndTheShortfallIsTheClustersFinding(@TempDir Path dir) throws IOException {
        // the node group has 4 nodes of 8 GPUs: 64 GPUs need 8 nodes. The plan sizes the larger cluster as asked,
        // ranks layouts as before, and lists CONSIST012 (nodes beyond the group) as the cluster's, rejecting no layout
        Path f = Files.writeString(dir.resolve("job.yaml"), CLUSTER + job("gpt-7b", 2, 2));
        PlanCli.Run r = PlanCli.run("plan", "-f", "json", "--gpus", "64", f.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("\"gpus\" : 64"), r.out());
        assertTrue(r.out().contains("\"cluster_findings\" : [ \"CONSIST012\" ]"), r.out());
        assertTrue(r.out().contains("\"rank\" : 1"), "a layout is ranked first: " + r.out());
        PlanCli.Run within = PlanCli.run("plan", "-f", "json", "--gpus", "32", f.toString());
        assertTrue(within.out().contains("\"cluster_findings\" : [ ]"), within.out());
    }

    @Test
    void picturesDrawTheJobAsWrittenInEveryFormat(@TempDir Path dir) throws IOException {
        Path f = Files.writeString(dir.resolve("job.yaml"), CLUSTER + job("gpt-7b", 16, 1));
        PlanCli.Run mermaid = PlanCli.run("plan", "-f", "mermaid", f.toString());
        assertEquals(0, mermaid.code(), mermaid.err());
        assertTrue(mermaid.out().startsWith("---") || mermaid.out().contains("flowchart"), mermaid.out());
        // 32 GPUs: Mermaid's summary, a box per node; tp group A spans dgx-0 and dgx-1 over the network (*)
        assertTrue(mermaid.out().contains("N0[\"dgx-0: r0–7 · tp A* · pp 0 · dp 0\"]"), "the first node's box: " + mermaid.out());
        PlanCli.Run dot = PlanCli.run("plan", "-f", "dot", f.toString());
        assertEquals(0, dot.code(), dot.err());
        assertTrue(dot.out().startsWith("digraph") || dot.out().startsWith("graph"), dot.out());
        PlanCli.Run svg = PlanCli.run("plan", "-f", "svg", f.toString());
        assertEquals(0, svg.code(), svg.err());
        assertTrue(svg.out().contains("<svg") && svg.out().strip().endsWith("</svg>"), svg.out());
        PlanCli.Run md = PlanCli.run("plan", "-f", "markdown", f.toString());
        assertEquals(0, md.code(), md.err());
        assertTrue(md.out().contains("```mermaid"), "markdown: the table, then the Mermaid picture: " + md.out());
        PlanCli.Run text = PlanCli.run("plan", f.toString());
        assertTrue(text.out().contains("r15 tp15 pp0 dp0"), "the text plan ends with the grid: " + text.out());
        // tp 16 on 8-GPU nodes: the picture marks the group that leaves the node for the network
        assertTrue(mermaid.out().toLowerCase(java.util.Locale.ROOT).contains("network"), mermaid.out());
    }

    @Test
    @SuppressWarnings("unchecked")
    void candidatesAreRankedAndTheJobAsWrittenIsPlacedAmongThem(@TempDir Path dir) throws IOException {
        Path f = Files.writeString(dir.resolve("job.yaml"), CLUSTER + job("gpt-7b", 8, 4));
        PlanCli.Run r = PlanCli.run("plan", "-f", "json", "--top", "3", f.toString());
        assertEquals(0, r.code(), r.err());
        Map<String, Object> doc = r.json();
        java.util.List<Map<String, Object>> cands = (java.util.List<Map<String, Object>>) doc.get("candidates");
        assertEquals(3, cands.size(), "--top 3");
        double last = Double.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            assertEquals(i + 1, cands.get(i).get("rank"));
            double tps = ((Number) ((Map<String, Object>) cands.get(i).get("throughput")).get("tokens_per_s_per_gpu")).doubleValue();
            assertTrue(tps <= last, "best first: " + tps + " after " + last);
            last = tps;
            Map<String, Object> layout = (Map<String, Object>) cands.get(i).get("layout");
            assertEquals(32, (int) layout.get("tp") * (int) layout.get("pp") * (int) layout.get("dp") * (int) layout.get("cp"));
        }
        Map<String, Object> cur = (Map<String, Object>) doc.get("current");
        int rank = ((Number) cur.get("rank")).intValue();
        assertTrue(rank > 1, "tp 8 × pp 4 of a 7B model is not the best layout of 32 A100: " + rank);
        Map<String, Object> rejected = (Map<String, Object>) doc.get("rejected");
        assertTrue(((Number) rejected.get("PAR002")).intValue() > 0, "tp 16 and 32 cross the 8-GPU servers: " + rejected);
        assertTrue(((Number) doc.get("valid")).intValue() >= rank);

        PlanCli.Run text = PlanCli.run("plan", f.toString());
        assertEquals(0, text.code(), text.err());
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("yours ranks (\\d+)(st|nd|rd|th) of (\\d+): (\\d+) % slower than tp \\d+")
                .matcher(text.out());
        assertTrue(m.find(), text.out());
        assertEquals(rank, Integer.parseInt(m.group(1)));
        assertTrue(text.out().contains("of its"), "and the term it loses most on: " + text.out());

        // issue #37: "- * the job as written" was a list inside a list item, a nested bullet on GitHub
        PlanCli.Run md = PlanCli.run("plan", "-f", "markdown", f.toString());
        assertEquals(0, md.code(), md.err());
        assertTrue(md.out().contains("\n- `*` marks the job as written; `--candidate K` draws candidate K\n"), md.out());
        assertFalse(md.out().contains("- * "), md.out());
        assertTrue(md.out().contains("| \\*" + rank + " | "), "the mark in the table is a literal asterisk: " + md.out());
    }

    @Test
    void candidateKDrawsTheKthLayoutAndOneBeyondTheRankingIsRefused(@TempDir Path dir) throws IOException {
        Path f = Files.writeString(dir.resolve("job.yaml"), CLUSTER + job("gpt-7b", 8, 4));
        PlanCli.Run json = PlanCli.run("plan", "-f", "json", "--top", "1", f.toString());
        @SuppressWarnings("unchecked")
        Map<String, Object> best = (Map<String, Object>) ((java.util.List<Map<String, Object>>) json.json().get("candidates")).get(0)
                .get("layout");
        String header = "tp " + best.get("tp") + ", pp " + best.get("pp");
        for (String format : new String[] {"mermaid", "dot", "svg", "markdown", "text"}) {
            PlanCli.Run r = PlanCli.run("plan", "-f", format, "--candidate", "1", f.toString());
            assertEquals(0, r.code(), format + ": " + r.err());
            PlanCli.Run asWritten = PlanCli.run("plan", "-f", format, f.toString());
            assertTrue(!r.out().equals(asWritten.out()), format + ": candidate 1 is drawn, not the job as written");
        }
        PlanCli.Run text = PlanCli.run("plan", "--candidate", "1", f.toString());
        assertTrue(text.out().contains("Candidate 1: " + header), text.out());
        PlanCli.Run r = PlanCli.run("plan", "-f", "svg", "--candidate", "100000", f.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--candidate 100000: the plan has "), r.err());
    }

    /** A size no data-parallel size fills, or more GPUs than the plan searches, is refused saying which and what to give. */
    @Test
    void aSizeThePlanCannotSearchIsRefusedSayingWhy(@TempDir Path dir) throws IOException {
        Path f = Files.writeString(dir.resolve("job.yaml"), CLUSTER + job("gpt-7b", 4, 1));
        PlanCli.Run odd = PlanCli.run("plan", "--gpus", "6", f.toString());
        assertEquals(2, odd.code());
        assertEquals("gpulint: plan: --gpus 6 is not a multiple of the job's tp × pp × cp = 4 × 1 × 1 = 4, so no data-parallel "
                + "size fills it; give a multiple of 4\n", odd.err());
        for (String[] bad : new String[][] {{"--gpus", "0"}, {"--nodes", "0"}, {"--gpus", "-8"}, {"--top", "-1"}}) {
            PlanCli.Run r = PlanCli.run("plan", bad[0], bad[1], f.toString());
            assertEquals(2, r.code(), String.join(" ", bad));
            assertEquals("gpulint: plan: --gpus and --nodes are at least 1 and exclude each other; --top and --candidate are at least 0\n",
                    r.err());
        }
        PlanCli.Run huge = PlanCli.run("plan", "--nodes", "1000000", f.toString());
        assertEquals(2, huge.code());
        assertEquals("gpulint: plan: --nodes 1000000 × 8 GPUs per node = 8000000 is more than the 65,536 GPUs plan searches (the "
                + "ranking checks every layout with the rules, in time growing with the GPUs); plan a part of the job that repeats, "
                + "with --gpus or --nodes\n", huge.err());
        // the job as written: the bound check's layout fixes (LayoutFixes plans through Planner) rely on too
        Path big = Files.writeString(dir.resolve("big.yaml"), (CLUSTER + job("big", 4, 1)).replace("count: 4\n", "count: 16384\n")
                .replace("nodes: 4\n", "nodes: 16384\n"));
        PlanCli.Run written = PlanCli.run("plan", big.toString());
        assertEquals(2, written.code());
        assertTrue(written.err().startsWith("gpulint: plan: job 'big' asks for 131072 GPUs, which is more than the 65,536 GPUs plan "
                + "searches"), written.err());
    }

    /**
     * A global batch below micro × dp (1 over dp 8) is no whole number of micro-batches per step: the plan states
     * PAR007's finding instead of printing "0 micro-batches per step" beside a bubble "of 1 micro-batches".
     */
    @Test
    void aGlobalBatchOfNoWholeMicroBatchesIsNotPriced(@TempDir Path dir) throws IOException {
        Path f = Files.writeString(dir.resolve("job.yaml"), CLUSTER + job("gpt-7b", 2, 2).replace("global_batch_size: 256", "global_batch_size: 1"));
        PlanCli.Run check = PlanCli.run("check", f.toString());
        assertTrue(check.out().contains("PAR007"), check.out());
        PlanCli.Run r = PlanCli.run("plan", f.toString());
        assertEquals(2, r.code(), r.out());
        assertEquals("", r.out());
        // a native manifest names no framework: the plan says only that such a step has no time
        assertTrue(r.err().startsWith("gpulint: plan: job 'gpt-7b' is not priced: a step of no whole number of micro-batches per "
                + "data-parallel rank has no time to price; check raises PAR007 at "), r.err());
        // the size of the same layout where the batch divides: dp 1 (1 = micro 1 × dp 1), tp 2 × pp 2 × dp 1 GPUs
        assertTrue(r.err().endsWith("use a multiple of 8. To plan the job at a size where its batch divides, give --gpus 4 (dp 1: 1 "
                + "micro-batch per step).\n"), r.err());
        assertTrue(r.err().contains("job.yaml:20:50: global_batch_size 1"), r.err());
        assertTrue(r.err().contains("global_batch_size 1 is not a multiple of micro_batch_size × dp = 1 × 8 = 8 (1 % 8 = 1)"), r.err());
        assertFalse(r.err().contains("micro-batches per step,"), r.err());
        // the same job written right, planned on GPUs whose dp does not divide it (64 over dp 12): check is quiet, the
        // ranking at that size is what was asked for, and the layout line says the count is no whole number (not "0")
        Path g = Files.writeString(dir.resolve("ok.yaml"), CLUSTER + job("gpt-7b", 2, 2).replace("global_batch_size: 256", "global_batch_size: 64"));
        PlanCli.Run other = PlanCli.run("plan", "--gpus", "48", g.toString());
        assertEquals(0, other.code(), other.err());
        assertTrue(other.out().contains("global batch 64, no whole number of micro-batches per step (global batch 64 ÷ micro batch × dp 12, "
                + "PAR007: the terms below round the count up), zero stage"), other.out());
        assertFalse(other.out().contains(" 0 micro-batches per step"), other.out());
        PlanCli.Run asWritten = PlanCli.run("plan", g.toString());
        assertEquals(0, asWritten.code(), asWritten.err());
        assertTrue(asWritten.out().contains("global batch 64, 8 micro-batches per step, zero stage"), asWritten.out());
    }

    /**
     * NeMo's launcher config of falcon_7b's shape (NeMo-Framework-Launcher conf/training/falcon: TP 1, PP 1, global batch 32
     * on 16 nodes × 8, dp 128): NeMo sets up Megatron-Core's micro-batch calculator with decrease_batch_size_if_needed off,
     * whose ConstantNumMicroBatchesCalculator asserts global % (micro × dp) == 0, so the job stops at start-up. Here the same
     * mistake on the lab's 2 nodes: global batch 4 over dp 16. Plan exits 2 saying NeMo stops it, PAR007's words and place,
     * and the size where the batch divides (dp 4: 4 GPUs); at that size the plan prices it.
     */
    @Test
    void aNemoBatchMegatronCoreRefusesSaysNemoStopsItAndWhereItDivides(@TempDir Path dir) {
        String nemo = """
                trainer:
                  num_nodes: 2
                  devices: 8
                  precision: bf16
                model:
                  micro_batch_size: 1
                  global_batch_size: 4
                  tensor_model_parallel_size: 1
                  pipeline_model_parallel_size: 1
                  encoder_seq_length: 2048
                  max_position_embeddings: 2048
                  num_layers: 8
                  hidden_size: 2048
                  ffn_hidden_size: 8192
                  num_attention_heads: 16
                """;
        PlanCli p = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("conf/falcon_small.yaml", nemo).jobClusters("lab", "conf/*.yaml");
        PlanCli.Run r = p.plan();
        assertEquals(2, r.code(), r.out());
        assertEquals("", r.out());
        assertTrue(r.err().startsWith("gpulint: plan: job '"), r.err());
        assertTrue(r.err().contains("falcon_small.yaml' is not priced: NeMo stops it at start-up, before its first step, so it has no "
                + "step to price (Megatron-Core's micro-batch calculator asserts global % (micro × dp) == 0: num_microbatches_calculator.py, "
                + "decrease_batch_size_if_needed off); check raises PAR007 at "), r.err());
        assertTrue(r.err().contains("falcon_small.yaml:7:22: global_batch_size 4 is not a multiple of micro_batch_size × dp = 1 × 16 = 16 "
                + "(4 % 16 = 4)"), r.err());
        assertTrue(r.err().endsWith("To plan the job at a size where its batch divides, give --gpus 4 (dp 4: 1 micro-batch per step).\n"),
                r.err());
        PlanCli.Run there = p.plan("--gpus", "4");
        assertEquals(0, there.code(), there.err());
        assertTrue(there.out().contains("tp 1, pp 1, dp 4, micro batch 1, global batch 4, 1 micro-batches per step"), there.out());
    }

    /** Without a cluster the plan says what the job lacks and how to give it; without a job, what plan reads. */
    @Test
    void nothingToPlanSaysWhatIsMissing(@TempDir Path dir) throws IOException {
        Path f = Files.writeString(dir.resolve("job.yaml"), job("gpt-7b", 4, 1).replace("cluster: lab\n", "").replace("node_group: dgx\n", ""));
        PlanCli.Run r = PlanCli.run("plan", f.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("gpulint: plan: nothing to plan: job 'gpt-7b' runs on no cluster node group gpulint knows: "
                + "lint it with its cluster"), r.err());
        Path c = Files.writeString(dir.resolve("cluster.yaml"), CLUSTER);
        PlanCli.Run none = PlanCli.run("plan", c.toString());
        assertEquals(2, none.code());
        assertTrue(none.err().startsWith("gpulint: plan: no training job in the files given"), none.err());
        // the formats come from the registry: every adapter's format is named, the later ones too
        for (dev.gpulint.spec.Format fmt : dev.gpulint.spec.Format.values()) {
            if (fmt == dev.gpulint.spec.Format.OTHER || fmt == dev.gpulint.spec.Format.NATIVE
                    || fmt == dev.gpulint.spec.Format.KUBERNETES || fmt == dev.gpulint.spec.Format.LAUNCH_SCRIPT) continue;
            assertTrue(none.err().contains(", " + fmt.display() + ","), fmt + " missing: " + none.err());
        }
        for (String named : List.of("nanotron", "Fast-LLM", "Levanter", "Megatron-Bridge", "NeMo-RL", "gpulint manifests",
                "Slurm and bash launch scripts", "Kubernetes jobs: docs/other-formats.md)")) {
            assertTrue(none.err().contains(named), named + " missing: " + none.err());
        }
    }
}
