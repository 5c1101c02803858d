package dev.gpulint.plan.search;

import dev.gpulint.spec.Model;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.bind.Binder;
import dev.gpulint.catalog.Catalog;
import dev.gpulint.read.SourceFile;
import dev.gpulint.derive.Resolved;
import dev.gpulint.derive.estimate.Layout;
import dev.gpulint.meta.RuleCatalog;
import dev.gpulint.meta.RuleMeta;
import dev.gpulint.read.yaml.YamlReader;
import dev.gpulint.testing.EstimateManifest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The search, checked with gpulint's own rules on small clusters worked out by hand. */
class CandidateSearchTest {

    /** {@code nodes} DGX H100 on a rail-optimized InfiniBand fabric: cluster pod, node group dgx ({@link EstimateManifest#pod}). */
    static String cluster(int nodes) {
        return EstimateManifest.pod(nodes).clusterYaml();
    }

    static Model bind(String text) {
        var read = new YamlReader().read(SourceFile.of("plan.yaml", text));
        Model b = new Binder().bind(read.documents());
        assertEquals(List.of(), b.findings());
        return b;
    }

    /** A simple score: fewer GPUs per model replica first (tp·pp·cp small), then the search's order. */
    static CandidateSearch.Score simple(Layout l) {
        return new CandidateSearch.Score(1.0 / (l.tp() * l.pp() * l.cp()) + (l.sequenceParallel() ? 1e-6 : 0), l.microBatchSize());
    }

    static SearchResult search(String text) {
        Model b = bind(text);
        Resolved.Job r = JobLayouts.resolve(b.jobs().get(0), b.clusters(), Catalog.builtIn());
        Layout current = JobLayouts.current(r).orElseThrow();
        SearchSpace space = JobLayouts.space(r, r.totalGpus()).orElseThrow();
        return new CandidateSearch(Catalog.builtIn(), RuleCatalog.builtIn()).search(b.jobs().get(0), b.clusters(), current, space,
                CandidateSearchTest::simple);
    }

    static String job(int nodes, String model, String parallelism, String batch) {
        return """
                ---
                kind: training_job
                name: j
                cluster: pod
                nodes: %d
                model: %s
                parallelism: %s
                batch: %s
                """.formatted(nodes, model, parallelism, batch);
    }

    static final String LLAMA70B = "{ parameters: 70B, dtype: bf16, layers: 80, attention_heads: 64, kv_heads: 8, seq_length: 4096 }";
    /**
     * The same without a dtype: MEM001's accounting is then the least a 16-bit job with Adam holds, 16 bytes per parameter
     * (70 GB per GPU at tp·pp = 16, 81 % of 80 GiB); in bf16 Megatron's 18 are 78.75 GB, 92 %, which MEM002 rejects.
     */
    static final String LLAMA70B_16 = LLAMA70B.replace("dtype: bf16, ", "");

    /** The written layout of the first job bound from {@code m}, as the search takes it. */
    private static Layout written(Model m) {
        return JobLayouts.current(JobLayouts.resolve(m.jobs().get(0), m.clusters(), Catalog.builtIn())).orElseThrow();
    }

    /**
     * The search's written layout reads sequence parallelism as the plan's own layout does (JobInputs.sequenceParallel: the
     * value the files write, else the format's default, spec.Format#sequenceParallelDefault; off at tp 1). Before, it took
     * every unwritten value as off: a native manifest at tp 8 was searched with SP off while the plan priced it on.
     */
    @Test
    void theWrittenLayoutTakesTheFormatsSequenceParallelDefaultAsThePlanDoes() {
        String batch = "{ micro_batch_size: 1, global_batch_size: 512 }";
        // a native manifest that does not write it: gpulint's default, on with tp > 1 (docs/format.md)
        assertTrue(written(bind(cluster(2) + job(2, LLAMA70B_16, "{ tp: 8, pp: 2 }", batch))).sequenceParallel());
        assertFalse(written(bind(cluster(2) + job(2, LLAMA70B_16, "{ tp: 8, pp: 2, sequence_parallel: false }", batch)))
                .sequenceParallel());
        // tp 1 has nothing to shard, whatever the file writes (JobInputs prices it off too)
        assertFalse(written(bind(cluster(2) + job(2, LLAMA70B_16, "{ tp: 1, pp: 16, sequence_parallel: true }", batch)))
                .sequenceParallel());
        // a launch script passing Megatron-LM's flags without --sequence-parallel: Megatron-LM's store_true switch, off (the
        // launcher's own default is not known: JobInputs.sequenceParallelDefaultFormat); passed, on
        String launch = """
                #!/bin/bash
                torchrun --nproc_per_node 8 --nnodes 1 pretrain_gpt.py \\
                    --tensor-model-parallel-size 2 --expert-model-parallel-size 4 --num-experts 8 \\
                    --num-layers 16 --hidden-size 2048 --num-attention-heads 16 --seq-length 4096 \\
                    --micro-batch-size 1 --global-batch-size 32 --bf16%s
                """;
        Model off = dev.gpulint.testing.Foreign.model("train.sh", launch.formatted(""));
        assertEquals("launch script", off.jobs().get(0).origin().format());
        assertFalse(written(off).sequenceParallel());
        assertTrue(written(dev.gpulint.testing.Foreign.model("train.sh", launch.formatted(" --sequence-parallel"))).sequenceParallel());
    }

    @Test
    void sixteenH100KeepTpInsideEachServerAndRejectWhatDoesNotFit() {
        SearchResult s = search(cluster(2) + job(2, LLAMA70B_16, "{ tp: 8, pp: 2 }", "{ micro_batch_size: 1, global_batch_size: 512 }"));
        assertTrue(s.current().valid(), s.current().toString());
        assertTrue(s.current().rank() > 0);
        // in bf16 (Megatron's 18 bytes per parameter) the same layout leaves less than a tenth free: MEM002, as the plan's estimate says
        assertEquals(List.of("MEM002"), search(cluster(2) + job(2, LLAMA70B, "{ tp: 8, pp: 2 }",
                "{ micro_batch_size: 1, global_batch_size: 512 }")).current().rejectedBy());
        // tp 16 spans both servers (PAR002); one or two GPUs per replica hold too much of 70B (MEM001)
        assertTrue(s.rejected().get("PAR002") > 0, s.rejected().toString());
        assertTrue(s.rejected().get("MEM001") > 0, s.rejected().toString());
        for (Candidate c : s.candidates()) {
            assertTrue(c.layout().tp() <= 8, c.toString());
            assertTrue((long) c.layout().tp() * c.layout().pp() >= 16 || c.layout().zeroStage() > 0 || c.layout().distributedOptimizer(),
                    c.toString());
            assertEquals(16, c.layout().gpus());
        }
        assertEquals(s.evaluated(), s.candidates().size() + s.rejectedCandidates());
        assertTrue(s.checks() < s.evaluated(), "recompute is no fact of the rules: layouts differing only in it are checked once");
        // ranks run 1, 2, ... by score, best first
        for (int i = 0; i < s.candidates().size(); i++) assertEquals(i + 1, s.candidates().get(i).rank());
        for (int i = 1; i < s.candidates().size(); i++) assertTrue(s.candidates().get(i - 1).score() >= s.candidates().get(i).score());
        assertEquals(s.current().rank(), s.candidates().indexOf(s.current()) + 1);
    }

    @Test
    void theProjectsRuleParametersJudgeTheCandidatesAsCheckDoes() {
        // bf16 70B at tp 8 × pp 2: Megatron's 18 bytes per parameter are 78.75 GB, 92 % of the 80 GiB (hand-worked above):
        // MEM002 at its default warn_at 0.9 rejects it; a project that sets warn_at 0.95 accepts it in check, so must the plan
        String text = cluster(2) + job(2, LLAMA70B, "{ tp: 8, pp: 2 }", "{ micro_batch_size: 1, global_batch_size: 512 }");
        Model b = bind(text);
        Resolved.Job r = JobLayouts.resolve(b.jobs().get(0), b.clusters(), Catalog.builtIn());
        Layout current = JobLayouts.current(r).orElseThrow();
        SearchSpace space = JobLayouts.space(r, r.totalGpus()).orElseThrow();
        SearchResult lenient = new CandidateSearch(Catalog.builtIn(), RuleCatalog.builtIn()).params(Map.of("MEM002.warn_at", 0.95))
                .search(b.jobs().get(0), b.clusters(), current, space, CandidateSearchTest::simple);
        assertEquals(List.of(), lenient.current().rejectedBy());
        assertTrue(lenient.current().valid(), lenient.current().toString());
        // and one that sets it lower than 81 % (LLAMA70B_16's share at tp 8 × pp 2) rejects what the default passes
        Model b16 = bind(cluster(2) + job(2, LLAMA70B_16, "{ tp: 8, pp: 2 }", "{ micro_batch_size: 1, global_batch_size: 512 }"));
        Resolved.Job r16 = JobLayouts.resolve(b16.jobs().get(0), b16.clusters(), Catalog.builtIn());
        SearchResult strict = new CandidateSearch(Catalog.builtIn(), RuleCatalog.builtIn()).params(Map.of("MEM002.warn_at", 0.8))
                .search(b16.jobs().get(0), b16.clusters(), JobLayouts.current(r16).orElseThrow(),
                        JobLayouts.space(r16, r16.totalGpus()).orElseThrow(), CandidateSearchTest::simple);
        assertEquals(List.of("MEM002"), strict.current().rejectedBy());
    }

    @Test
    void theRejectionCountsAreTheRejectedLayoutsOfEachRuleId() {
        // the counts are tallied per distinct verdict (its layouts share one list), not per layout: they must still be,
        // rule by rule, the rejected layouts that name it, and sorted by ID; memory (MEM001/MEM002) and sizes (PAR002) both
        SearchResult s = search(cluster(2) + job(2, LLAMA70B, "{ tp: 8, pp: 2 }", "{ micro_batch_size: 1, global_batch_size: 512 }"));
        java.util.Map<String, Integer> counted = new java.util.TreeMap<>();
        for (Candidate c : s.rejectedLayouts()) for (String id : c.rejectedBy()) counted.merge(id, 1, Integer::sum);
        assertTrue(counted.containsKey("PAR002") && counted.containsKey("MEM002"), counted.toString());
        assertEquals(counted, s.rejected());
        assertEquals(List.copyOf(counted.keySet()), List.copyOf(s.rejected().keySet()));
        assertEquals(s.rejectedLayouts().size(), s.rejectedCandidates());
        // each layout's lists are sorted and hold no ID twice, shared or not
        for (Candidate c : s.rejectedLayouts()) {
            assertEquals(new java.util.TreeSet<>(c.rejectedBy()).stream().toList(), c.rejectedBy(), c.toString());
            assertEquals(new java.util.TreeSet<>(c.findings()).stream().toList(), c.findings(), c.toString());
            assertTrue(c.findings().containsAll(c.rejectedBy()), c.toString());
        }
    }

    /**
     * The verdicts are numbered and found on all cores (ConcurrentHashMaps, first come first numbered) and the valid layouts
     * priced there: the search's result — current, ranking, rejected layouts in order with their lists, counts by ID, the
     * cluster's findings — is the same on one worker as on four. A parallel stream run from inside a fork-join pool's task
     * runs on that pool, so the two searches below run at those two core counts.
     */
    @Test
    void theResultIsTheSameOnOneCoreAsOnFour() throws Exception {
        String text = cluster(2) + job(2, LLAMA70B_16, "{ tp: 8, pp: 2 }", "{ micro_batch_size: 1, global_batch_size: 512 }");
        SearchResult one = onCores(1, text), four = onCores(4, text);
        assertTrue(one.rejectedCandidates() > 0 && !one.candidates().isEmpty(), "both verdicts, valid and rejected, are compared");
        assertEquals(one, four);
        assertEquals(one.rejectedLayouts(), four.rejectedLayouts());
        assertEquals(List.copyOf(one.rejected().entrySet()), List.copyOf(four.rejected().entrySet()));
    }

    private static SearchResult onCores(int cores, String text) throws Exception {
        java.util.concurrent.ForkJoinPool pool = new java.util.concurrent.ForkJoinPool(cores);
        try {
            return pool.submit(() -> search(text)).get();
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void aLayoutThatBreaksARuleIsRejectedUnderItsId() {
        // 60 heads do not split over tp 8 (PAR005): the job as written is rejected, and so is every tp 8
        SearchResult s = search(cluster(2) + job(2, "{ parameters: 13B, dtype: bf16, layers: 40, attention_heads: 60, seq_length: 4096 }",
                "{ tp: 8, pp: 2 }", "{ micro_batch_size: 1, global_batch_size: 256 }"));
        assertEquals(List.of("PAR005"), s.current().rejectedBy());
        assertEquals(0, s.current().rank());
        assertFalse(s.candidates().isEmpty());
        assertTrue(s.candidates().stream().allMatch(c -> 60 % c.layout().tp() == 0), s.candidates().toString());
    }

    @Test
    void gpt3OnA1024GpuSeleneLayoutIsNeverRejected() {
        // Narayanan et al. 2021 (Megatron-LM, SC21), Table 1: GPT-3 175B on 1,024 A100 with tp 8, pp 16, batch 1,536
        String a100 = cluster(128).replace("H100-SXM5-80GB", "A100-SXM4-80GB").replace("900 GB/s", "600 GB/s")
                .replace("ConnectX-7", "ConnectX-6").replace("400 Gb/s", "200 Gb/s");
        SearchResult s = search(a100 + job(128, "{ parameters: 175B, dtype: bf16, layers: 96, attention_heads: 96, seq_length: 2048 }",
                "{ tp: 8, pp: 16 }", "{ micro_batch_size: 1, global_batch_size: 1536 }"));
        assertTrue(s.current().valid(), s.current().toString());
        assertTrue(s.evaluated() > 5000, "every tp, pp, vpp, micro batch, sharding, recompute and sp: " + s.evaluated());
        assertTrue(s.candidates().stream().noneMatch(c -> c.layout().tp() > 8));
    }

    @Test
    void findingsThatHoldForEveryLayoutAreListedOnceAndRejectNothing() {
        // RoCE without ECN (NET002) is the fabric's, whatever the layout
        String roce = cluster(2).replace("{ type: infiniband, topology: rail-optimized }",
                "{ type: roce, topology: rail-optimized, roce: { pfc: { enabled: true, priority: 3 }, ecn: { enabled: false } } }").replace("protocol: infiniband", "protocol: roce");
        SearchResult s = search(roce + job(2, LLAMA70B_16, "{ tp: 8, pp: 2 }", "{ micro_batch_size: 1, global_batch_size: 512 }"));
        assertTrue(s.clusterFindings().contains("NET002"), s.clusterFindings().toString());
        assertTrue(s.current().valid());
        assertTrue(s.candidates().stream().noneMatch(c -> c.findings().contains("NET002")));
        assertFalse(s.rejected().containsKey("NET002"));
    }

    @Test
    void aCandidateKeepsTheJobsExpertTensorParallelSize() {
        // tp 4, pp 2, ep 4 on 16 GPUs: with etp = tp the expert grid 4 × 4 × 2 = 32 does not divide 16 (PAR008); the job
        // states etp 1 (grid 8), so check raises no PAR008, and neither may the candidates' re-check of the same sizes
        String text = cluster(2) + job(2,
                "{ parameters: 47B, expert_parameters: 45B, experts: 8, dtype: bf16, layers: 32, attention_heads: 32, kv_heads: 8, seq_length: 4096 }",
                "{ tp: 4, pp: 2, ep: 4, etp: 1, sequence_parallel: true }", "{ micro_batch_size: 1, global_batch_size: 64 }");
        Model b = bind(text);
        dev.gpulint.spec.Specs.Job job = CandidateJobs.of(b.jobs().get(0), JobLayouts.current(
                JobLayouts.resolve(b.jobs().get(0), b.clusters(), Catalog.builtIn())).orElseThrow(), "c");
        assertEquals(1L, job.parallelism().expertTp().value());
        SearchResult s = search(text);
        assertFalse(s.current().findings().contains("PAR008"), s.current().toString());
        assertFalse(s.current().rejectedBy().contains("PAR008"), s.current().toString());
        // the same sizes without etp: the expert grid is 32, and the re-check says so
        SearchResult without = search(text.replace(", etp: 1", ""));
        assertTrue(without.current().rejectedBy().contains("PAR008"), without.current().toString());
    }

    @Test
    void aCandidateWithTheDistributedOptimizerIsCheckedWithItNotAsZeroStageOne() {
        Model b = bind(cluster(2) + job(2, LLAMA70B, "{ tp: 8, pp: 2 }", "{ micro_batch_size: 1, global_batch_size: 512 }"));
        Layout l = new Layout(8, 2, 1, 1, 1, 1, 1, 512, 0, true, Layout.Recompute.FULL, true);
        dev.gpulint.spec.Specs.Job job = CandidateJobs.of(b.jobs().get(0), l, "c");
        assertEquals(0L, job.optimizer().zeroStage().value());
        assertTrue(job.optimizer().distributed().value());
    }

    @Test
    void aMixtureOfExpertsAndALongSequenceAddEpAndCp() {
        SearchResult s = search(cluster(2) + job(2,
                "{ parameters: 47B, expert_parameters: 45B, experts: 8, dtype: bf16, layers: 32, attention_heads: 32, kv_heads: 8, seq_length: 32768 }",
                "{ tp: 2, pp: 1, ep: 8, sequence_parallel: true }", "{ micro_batch_size: 1, global_batch_size: 64 }"));
        assertTrue(s.candidates().stream().anyMatch(c -> c.layout().ep() > 1));
        assertTrue(s.candidates().stream().anyMatch(c -> c.layout().cp() > 1));
        for (Candidate c : s.candidates()) {
            assertEquals(0, 8 % c.layout().ep());
            assertEquals(0, ((long) c.layout().cp() * c.layout().dp()) % c.layout().ep());
        }
    }

    @Test
    void aFindingBelongsToTheCandidateItsIdentityNames() {
        assertEquals(17, CandidateSearch.candidateOf("training_job:gpulint-plan-candidate-17/model/layers"));
        assertEquals(3, CandidateSearch.candidateOf("job:gpulint-plan-candidate-3/tp/launcher"));
        assertEquals(-1, CandidateSearch.candidateOf("cluster:pod/fabric/roce/ecn"));
        assertEquals(-1, CandidateSearch.candidateOf("training_job:mine/gpulint-plan-candidate-3"));
        assertEquals(-1, CandidateSearch.candidateOf("job:gpulint-plan-candidate-/tp"));
        assertEquals(-1, CandidateSearch.candidateOf("job:gpulint-plan-candidate-99999999999/tp"));
        assertEquals(42, CandidateSearch.candidateOf("training_job:gpulint-plan-candidate-42"));
    }

    @Test
    void aMemoryFindingBelongsToTheRecomputeChoiceItsIdentityNames() {
        for (Layout.Recompute r : Layout.Recompute.values()) {
            assertEquals(r.ordinal(), CandidateSearch.recomputeOf("training_job:gpulint-plan-candidate-5/" + CandidateSearch.memoryAspect(r)));
        }
        // another memory aspect (derive's own estimate, a longer or shorter name) is no recompute choice; no aspect is none
        assertEquals(-1, CandidateSearch.recomputeOf("training_job:gpulint-plan-candidate-5/stage-memory/recompute-fullx"));
        assertEquals(-1, CandidateSearch.recomputeOf("training_job:gpulint-plan-candidate-5/stage-memory/recompute-ful"));
        assertEquals(-1, CandidateSearch.recomputeOf("training_job:gpulint-plan-candidate-5/stage-memory/recompute-"));
        assertEquals(CandidateSearch.NOT_MEMORY, CandidateSearch.recomputeOf("training_job:gpulint-plan-candidate-5/model/layers"));
        assertEquals(CandidateSearch.NOT_MEMORY, CandidateSearch.recomputeOf("training_job:gpulint-plan-candidate-5/stage-memory"));
    }

    @Test
    void theRulesThatJudgeALayoutSaySoInTheirIdYaml() {
        RuleCatalog rules = RuleCatalog.builtIn();
        for (dev.gpulint.meta.RuleMeta r : rules.all()) {
            // CONSIST012 judges the nodes asked of the cluster, not a layout: plan --gpus beyond the cluster lists it as the
            // cluster's finding and still ranks every layout; PAR018 judges the launch's NVTE variables against its attention
            // backend, which every candidate keeps: the same, listed once, whatever the layout
            String expected = r.id().equals("CONSIST012") || r.id().equals("PAR018") ? null : switch (r.family()) {
                case "mem" -> RuleMeta.LAYOUT_ANY;
                case "par", "net", "consist" -> RuleMeta.LAYOUT_ERRORS;
                default -> null;
            };
            assertEquals(expected, r.layout(), r.id() + "'s layout:");
        }
        assertThrows(IllegalArgumentException.class, () -> new RuleMeta("PAR999", "x", dev.gpulint.core.Level.ERROR, "t", "d", "r",
                "0.1.0", java.util.List.of(), "par", "drools", "", java.util.Map.of(), java.util.Map.of(), "some"));
    }

    /**
     * A job whose environment has a misspelt NCCL variable (NCCL004) and peer-to-peer turned off on NVLink (NCCL002), on
     * 1,024 GPUs: more distinct checks than one session takes. Checked in sessions of {@link CandidateSearch#CHUNK} jobs
     * with the environment's facts once per session, the search finds exactly what one session of every candidate job,
     * each with its own environment facts, finds; the NCCL findings are the cluster's, rejecting nothing.
     */
    /**
     * The ranking: higher score first, then more headroom, then a layout that keeps the job's own choices, then the
     * search's order (the sort is stable).
     */
    @Test
    void validLayoutsRankByScoreThenHeadroomThenTheJobsChoicesThenTheSearchsOrder() {
        Layout job = new Layout(8, 2, 4, 1, 1, 1, 1, 64, 0, true, Layout.Recompute.SELECTIVE, true);
        Layout a = new Layout(8, 2, 4, 1, 1, 1, 2, 64, 0, true, Layout.Recompute.SELECTIVE, true);     // other micro batch
        Layout b = new Layout(4, 4, 4, 1, 1, 1, 1, 64, 0, true, Layout.Recompute.SELECTIVE, true);
        Layout c = new Layout(2, 8, 4, 1, 1, 1, 1, 64, 0, true, Layout.Recompute.SELECTIVE, true);     // the job's choices
        Layout d = new Layout(8, 2, 4, 1, 1, 1, 1, 64, 0, true, Layout.Recompute.FULL, true);          // other recompute
        Layout e = new Layout(8, 1, 8, 1, 1, 1, 1, 64, 0, true, Layout.Recompute.SELECTIVE, false);    // other sp
        Layout f = new Layout(1, 8, 8, 1, 1, 1, 1, 64, 0, true, Layout.Recompute.SELECTIVE, true);     // the job's choices
        List<Layout> layouts = List.of(a, b, c, d, e, f);
        CandidateSearch.Score[] scores = {
            new CandidateSearch.Score(2, 1), new CandidateSearch.Score(3, 0), new CandidateSearch.Score(2, 1),
            new CandidateSearch.Score(2, 1), new CandidateSearch.Score(2, 5), new CandidateSearch.Score(2, 1)};
        int[] order = CandidateSearch.Ranking.order(layouts, scores, job);
        // b: best score; e: most headroom of the rest; c and f keep the job's choices (in the search's order); then a, d
        assertEquals(List.of(1, 4, 2, 5, 0, 3), java.util.Arrays.stream(order).boxed().toList());
    }

    /** The merge sort gives the order of the Comparator chain the search sorted by before, on many ties and every size. */
    @Test
    void theRankingsSortIsTheComparatorChainsStableOrder() {
        Layout job = new Layout(8, 2, 4, 1, 1, 1, 1, 64, 0, true, Layout.Recompute.SELECTIVE, true);
        java.util.Random random = new java.util.Random(35);
        for (int n : new int[] {0, 1, 2, 3, 7, 64, 100, 1000, 1025}) {
            List<Layout> layouts = new java.util.ArrayList<>();
            CandidateSearch.Score[] scores = new CandidateSearch.Score[n];
            for (int i = 0; i < n; i++) {
                layouts.add(new Layout(8, 2, 4, 1, 1, 1, 1 + random.nextInt(2), 64, 0, true,
                        random.nextBoolean() ? Layout.Recompute.SELECTIVE : Layout.Recompute.NONE, true));
                // few distinct values, so that most comparisons tie on the score and many on the headroom too
                scores[i] = new CandidateSearch.Score(random.nextInt(4) * 0.5, random.nextInt(3) - 1.0);
            }
            List<Integer> chain = new java.util.ArrayList<>();
            for (int i = 0; i < n; i++) chain.add(i);
            chain.sort(java.util.Comparator.comparingDouble((Integer i) -> scores[i].value()).reversed()
                    .thenComparing(java.util.Comparator.comparingDouble((Integer i) -> scores[i].headroom()).reversed())
                    .thenComparing(i -> CandidateSearch.sameChoices(layouts.get(i), job) ? 0 : 1));
            assertEquals(chain, java.util.Arrays.stream(CandidateSearch.Ranking.order(layouts, scores, job)).boxed().toList(), "n = " + n);
        }
    }

    @Test
    void chunkedSessionsAndTheEnvironmentReadOnceFindWhatOneSessionFinds() {
        String a100 = cluster(128).replace("H100-SXM5-80GB", "A100-SXM4-80GB").replace("900 GB/s", "600 GB/s")
                .replace("ConnectX-7", "ConnectX-6").replace("400 Gb/s", "200 Gb/s");
        Model b = bind(a100 + job(128, "{ parameters: 175B, dtype: bf16, layers: 96, attention_heads: 96, seq_length: 2048 }",
                "{ tp: 8, pp: 16 }", "{ micro_batch_size: 1, global_batch_size: 1536 }")
                + "env:\n  NCCL_IB_DISABLED: \"0\"\n  NCCL_P2P_DISABLE: \"1\"\n  NCCL_DEBUG: INFO\n");
        Resolved.Job r = JobLayouts.resolve(b.jobs().get(0), b.clusters(), Catalog.builtIn());
        Layout current = JobLayouts.current(r).orElseThrow();
        SearchSpace space = JobLayouts.space(r, r.totalGpus()).orElseThrow();
        SearchResult chunked = new CandidateSearch(Catalog.builtIn(), RuleCatalog.builtIn())
                .search(b.jobs().get(0), b.clusters(), current, space, CandidateSearchTest::simple);
        assertTrue(chunked.checks() > CandidateSearch.CHUNK, "more than one session: " + chunked.checks());
        assertTrue(chunked.clusterFindings().containsAll(List.of("NCCL002", "NCCL004")), chunked.clusterFindings().toString());
        assertTrue(chunked.current().valid(), chunked.current().toString());
        // PAR006 (a bubble fact, inserted once per distinct bubble: AloneFacts) fires on some layouts and not on others
        List<Candidate> all = new java.util.ArrayList<>(chunked.candidates());
        all.addAll(chunked.rejectedLayouts());
        assertTrue(all.stream().anyMatch(c -> c.findings().contains("PAR006")), "PAR006 raised on some layout");
        assertTrue(all.stream().anyMatch(c -> c.layout().pp() > 1 && !c.findings().contains("PAR006")), "and quiet on another");
        SearchResult whole = new CandidateSearch(Catalog.builtIn(), RuleCatalog.builtIn()).checkedAs(Integer.MAX_VALUE, false)
                .search(b.jobs().get(0), b.clusters(), current, space, CandidateSearchTest::simple);
        assertEquals(whole, chunked);
    }

    /**
     * The search inserts each distinct bubble, hybrid-layer, origin and job fact once per session (AloneFacts) on the
     * grounds this test holds: the rules AloneFacts names are the only ones that name each fact, each of their conditions
     * matches that fact and the rules' parameters alone and reads no job name, so whether they fire depends on what the
     * fact says but its job's; and what AloneFacts compares is every field of the fact but the job's name. A JobFact's
     * rules may join the cluster's facts too (NET004, NET005, SYN003; SYN004 matches a ClusterFact alone), which derive
     * makes once per session from the clusters, the same for every candidate job, and no JobFact pattern reads the job's
     * name or its position ({@link #aJobFactSaysEverythingButItsNameAndPosition} holds what is compared).
     */
    @Test
    void theFactsInsertedOnceAreReadAloneByTheirRulesAndComparedWhole() throws java.io.IOException {
        List<java.nio.file.Path> drl;
        try (var files = java.nio.file.Files.walk(java.nio.file.Path.of("../rules"))) {
            drl = files.filter(f -> f.toString().endsWith(".drl")).sorted().toList();
        }
        assertTrue(drl.size() > 50, "the built-in rules: " + drl.size());
        java.util.regex.Pattern factType = java.util.regex.Pattern.compile("\\b([A-Z][A-Za-z0-9]*)\\s*\\(");
        java.util.regex.Pattern when = java.util.regex.Pattern.compile("(?s)\\bwhen\\b(.*?)\\bthen\\b");
        Map<String, Integer> conditions = new java.util.TreeMap<>();
        java.util.regex.Pattern jobPattern = java.util.regex.Pattern.compile("\\bJobFact\\s*\\(([^)]*)\\)");
        for (var e : AloneFacts.RULES.entrySet()) {
            String type = e.getKey().getSimpleName();
            boolean job = e.getKey() == dev.gpulint.facts.JobFact.class;
            for (java.nio.file.Path f : drl) {
                String id = f.getFileName().toString().replace(".drl", "");
                String text = java.nio.file.Files.readString(f).replaceAll("//[^\\n]*", "");
                if (!e.getValue().contains(id)) {
                    assertFalse(java.util.regex.Pattern.compile("\\b" + type + "\\b").matcher(text).find(), f + " reads " + type);
                    continue;
                }
                var m = when.matcher(text);
                while (m.find()) {
                    conditions.merge(id, 1, Integer::sum);
                    var t = factType.matcher(m.group(1));
                    java.util.Set<String> types = new java.util.TreeSet<>();
                    while (t.find()) types.add(t.group(1));
                    types.remove("RuleParam");
                    if (job) {
                        // the job's fact, and the cluster's the same for every candidate of a session
                        types.remove("ClusterFact");
                        assertTrue(types.equals(java.util.Set.of(type)) || types.isEmpty() && id.equals("SYN004"), f + ": matches " + types);
                        var p = jobPattern.matcher(m.group(1));
                        while (p.find()) {
                            assertFalse(java.util.regex.Pattern.compile("\\b(name|ordinal|identity)\\b").matcher(p.group(1)).find(),
                                    f + ": a JobFact condition reads whose it is: " + p.group(1));
                        }
                        continue;
                    }
                    assertEquals(java.util.Set.of(type), types, f + ": a rule of " + type + " matches " + types);
                    assertFalse(m.group(1).toLowerCase(java.util.Locale.ROOT).contains("job"), f + ": a condition reads the job: " + m.group(1));
                    for (String words : words(e.getKey())) {
                        assertFalse(read(words).matcher(m.group(1)).find(),
                                f + ": a condition reads " + words + ", words left out of what the fact says: " + m.group(1));
                    }
                }
            }
            if (job) continue;
            // every field of the fact but the job's name (and words made only when a finding is worded) is compared
            long fields = java.util.Arrays.stream(e.getKey().getDeclaredFields())
                    .filter(x -> !java.lang.reflect.Modifier.isStatic(x.getModifiers())).count() - words(e.getKey()).size();
            Class<?> saying = AloneFacts.sayingOf(sample(e.getKey())).getClass();
            assertEquals(fields - 1, saying.getRecordComponents().length, type + "'s fields against " + saying.getSimpleName());
        }
        assertEquals(new java.util.TreeMap<>(Map.ofEntries(Map.entry("CONSIST003", 1), Map.entry("PAR006", 2), Map.entry("PAR014", 1),
                Map.entry("PAR015", 8), Map.entry("PAR002", 1), Map.entry("PAR003", 2), Map.entry("NET004", 1), Map.entry("NET005", 1), Map.entry("PAR001", 2), Map.entry("PAR004", 8),
                Map.entry("PAR005", 2), Map.entry("PAR007", 1), Map.entry("PAR008", 2), Map.entry("PAR009", 1), Map.entry("PAR010", 1),
                Map.entry("PAR011", 2), Map.entry("PAR012", 1), Map.entry("PAR019", 1), Map.entry("SYN003", 3), Map.entry("SYN004", 2))),
                conditions);
    }

    /**
     * AloneFacts' records of what a bubble, hybrid-layer or origin fact says write their equals out by hand (for the launcher's
     * C1 JIT): each component changed in turn makes the record unequal, so a component added to a record (as cp and the GDN
     * keys were to Hybrid when two branches met) and left out of its equals cannot make two candidates share findings they
     * would not share; {@link #theFactsInsertedOnceAreReadAloneByTheirRulesAndComparedWhole} counts the components only.
     */
    @Test
    void eachComponentOfWhatAFactSaysIsCompared() throws ReflectiveOperationException {
        for (Class<?> r : List.of(AloneFacts.Bubble.class, AloneFacts.Hybrid.class, AloneFacts.Origin.class, AloneFacts.TpPlacement.class)) {
            var components = r.getRecordComponents();
            Class<?>[] types = java.util.Arrays.stream(components).map(java.lang.reflect.RecordComponent::getType).toArray(Class<?>[]::new);
            var make = r.getDeclaredConstructor(types);
            make.setAccessible(true);
            Object[] base = new Object[types.length];
            for (int i = 0; i < types.length; i++) base[i] = value(types[i], false);
            Object a = make.newInstance(base);
            assertEquals(a, make.newInstance(base.clone()), r.getSimpleName() + ": a copy");
            for (int i = 0; i < types.length; i++) {
                Object[] other = base.clone();
                other[i] = value(types[i], true);
                assertNotEquals(a, make.newInstance(other), r.getSimpleName() + "." + components[i].getName() + " is not compared");
            }
        }
    }

    /** A value of a record component's type, and another one ({@code other}). */
    private static Object value(Class<?> t, boolean other) {
        if (t == long.class) return other ? 7L : 1L;
        if (t == int.class) return other ? 7 : 1;
        if (t == double.class) return other ? 0.7 : 0.1;
        if (t == boolean.class) return other;
        if (t == String.class) return other ? "b" : "a";
        if (t == dev.gpulint.core.Span.class) return new dev.gpulint.core.Span(other ? "b.yaml" : "a.yaml", 1, 1, 1, 2);
        if (t.isEnum()) return t.getEnumConstants()[other ? 1 : 0];
        throw new AssertionError("a component of type " + t);
    }

    /**
     * What a JobFact says ({@link dev.gpulint.facts.JobFact#saying}) is every field but the job's name and its position:
     * each other field changed in turn makes it say something else, so two candidates share a fact only when the rules
     * would see the same; the name and the position changed, it says the same.
     */
    @Test
    void aJobFactSaysEverythingButItsNameAndPosition() throws ReflectiveOperationException {
        dev.gpulint.core.Span at = new dev.gpulint.core.Span("plan.yaml", 3, 1, 3, 9);
        dev.gpulint.facts.JobFact a = dev.gpulint.facts.JobFact.builder().name("gpulint-plan-candidate-1", at, "plan.yaml", 4)
                .parallelism(8, 2, 4, 1, 1, 4, at, true).batch(1, at, 512, at).fact();
        List<java.lang.reflect.Field> fields = java.util.Arrays.stream(dev.gpulint.facts.JobFact.class.getDeclaredFields())
                .filter(x -> !java.lang.reflect.Modifier.isStatic(x.getModifiers())).toList();
        assertTrue(fields.size() > 70, "JobFact's fields: " + fields.size());
        for (java.lang.reflect.Field changed : fields) {
            changed.setAccessible(true);
            dev.gpulint.facts.JobFact b = dev.gpulint.facts.JobFact.builder().fact();
            for (java.lang.reflect.Field x : fields) {
                x.setAccessible(true);
                x.set(b, x.get(a));
            }
            assertEquals(a.saying(), b.saying(), "a copy");
            Object was = changed.get(a);
            Class<?> t = changed.getType();
            changed.set(b, t == long.class ? (Object) ((long) was + 7) : t == int.class ? (Object) ((int) was + 7)
                    : t == boolean.class ? (Object) !(boolean) was : t == String.class ? was + "x"
                    : t == dev.gpulint.core.Span.class ? new dev.gpulint.core.Span("other.yaml", 9, 1, 9, 2) : null);
            assertTrue(t == long.class || t == int.class || t == boolean.class || t == String.class || t == dev.gpulint.core.Span.class,
                    changed.getName() + ": a field of type " + t);
            boolean whose = changed.getName().equals("name") || changed.getName().equals("ordinal");
            assertEquals(whose, a.saying().equals(b.saying()), changed.getName());
            if (whose) assertEquals(a.saying().hashCode(), b.saying().hashCode(), changed.getName());
        }
    }

    /**
     * Two candidates that differ only in the optimizer's sharding (which no JobFact field holds: the memory rules judge
     * it) have job facts that say the same: one is inserted, and a finding about it is both candidates'.
     */
    @Test
    void candidatesThatDifferInTheOptimizerShareOneJobFact() {
        Model b = bind(cluster(2) + job(2,
                "{ parameters: 47B, expert_parameters: 45B, experts: 8, dtype: bf16, layers: 32, attention_heads: 32, kv_heads: 8, seq_length: 4096 }",
                "{ tp: 2, pp: 1, ep: 8, sequence_parallel: false }", "{ micro_batch_size: 1, global_batch_size: 64 }"));
        String prefix = "gpulint-plan-candidate-";
        Layout plain = new Layout(2, 1, 8, 1, 8, 1, 1, 64, 0, false, Layout.Recompute.FULL, false);
        Layout sharded = new Layout(2, 1, 8, 1, 8, 1, 1, 64, 0, true, Layout.Recompute.FULL, false);
        Layout sp = new Layout(2, 1, 8, 1, 8, 1, 1, 64, 0, false, Layout.Recompute.FULL, true);
        List<dev.gpulint.spec.Specs.Job> jobs = List.of(CandidateJobs.of(b.jobs().get(0), plain, prefix + 0),
                CandidateJobs.of(b.jobs().get(0), sharded, prefix + 1), CandidateJobs.of(b.jobs().get(0), sp, prefix + 2));
        List<Object> facts = new dev.gpulint.derive.Deriver(Catalog.builtIn(), false).derive(Model.of(b.clusters(), jobs)).facts();
        List<Object> jobFacts = facts.stream().filter(f -> f instanceof dev.gpulint.facts.JobFact).toList();
        assertEquals(3, jobFacts.size());
        AloneFacts.Kept kept = AloneFacts.keep(facts, 0, 3, n -> CandidateSearch.candidateNamed(n, 0, 3));
        assertEquals(List.of(jobFacts.get(0), jobFacts.get(2)), kept.facts().stream().filter(f -> f instanceof dev.gpulint.facts.JobFact).toList());
        assertArrayEquals(new int[] {0, 1}, kept.whose("PAR011", 0));
        assertArrayEquals(new int[] {2}, kept.whose("PAR011", 2));
        assertArrayEquals(new int[] {1}, kept.whose("MEM002", 1), "a rule of no such fact: its candidate alone");
    }

    /**
     * An MoE job whose layouts PAR011 (ep and tp without sequence parallelism, a JobFact rule) rejects in part: the search
     * with each distinct job fact once per session finds what it finds with every candidate's own.
     */
    @Test
    void jobFactsOncePerSessionFindWhatEveryCandidatesOwnFinds() {
        Model b = bind(cluster(2) + job(2,
                "{ parameters: 47B, expert_parameters: 45B, experts: 8, dtype: bf16, layers: 32, attention_heads: 32, kv_heads: 8, seq_length: 4096 }",
                "{ tp: 2, pp: 1, ep: 8, sequence_parallel: true }", "{ micro_batch_size: 1, global_batch_size: 64 }"));
        Resolved.Job r = JobLayouts.resolve(b.jobs().get(0), b.clusters(), Catalog.builtIn());
        Layout current = JobLayouts.current(r).orElseThrow();
        SearchSpace space = JobLayouts.space(r, r.totalGpus()).orElseThrow();
        SearchResult once = new CandidateSearch(Catalog.builtIn(), RuleCatalog.builtIn()).checkedAs(64, true)
                .search(b.jobs().get(0), b.clusters(), current, space, CandidateSearchTest::simple);
        List<Candidate> all = new java.util.ArrayList<>(once.candidates());
        all.addAll(once.rejectedLayouts());
        assertTrue(all.stream().anyMatch(c -> c.findings().contains("PAR011")), "PAR011 raised on some layout");
        assertTrue(all.stream().anyMatch(c -> c.layout().ep() > 1 && c.layout().tp() > 1 && !c.findings().contains("PAR011")),
                "and quiet on another");
        SearchResult each = new CandidateSearch(Catalog.builtIn(), RuleCatalog.builtIn()).checkedAs(64, false)
                .search(b.jobs().get(0), b.clusters(), current, space, CandidateSearchTest::simple);
        assertEquals(each, once);
    }

    /**
     * What a memory fact says ({@link dev.gpulint.facts.StageMemoryFact#saying}) is every field but whose it is and its
     * words ({@link dev.gpulint.facts.StageMemoryFact#NOT_SAID}): each other field changed in turn makes it say something
     * else, so two layouts share a memory verdict only when MEM002 and MEM003 would see the same; those four changed, it
     * says the same.
     */
    @Test
    void aMemoryFactSaysEverythingButWhoseItIsAndItsWords() throws ReflectiveOperationException {
        dev.gpulint.core.Span at = new dev.gpulint.core.Span("plan.yaml", 3, 1, 3, 9);
        var a = new dev.gpulint.facts.StageMemoryFact("gpulint-plan-candidate-1", "plan.yaml", "H100-SXM5-80GB", () -> "tp 8", "none",
                1, 4, 1e9, 2e9, 3e9, 4e9, 80e9, at, "stage-memory/recompute-none").virtualPp(2)
                .accounting("megatron-bf16", 18, "optimizer.bytes_per_parameter", true, false);
        List<java.lang.reflect.Field> fields = java.util.Arrays.stream(dev.gpulint.facts.StageMemoryFact.class.getDeclaredFields())
                .filter(x -> !java.lang.reflect.Modifier.isStatic(x.getModifiers())).toList();
        assertTrue(fields.size() >= 21, "StageMemoryFact's fields: " + fields.size());
        for (java.lang.reflect.Field changed : fields) {
            changed.setAccessible(true);
            var b = new dev.gpulint.facts.StageMemoryFact("x", "y", "z", () -> "", "full", 0, 1, 0, 0, 0, 0, 0, null);
            for (java.lang.reflect.Field x : fields) {
                x.setAccessible(true);
                x.set(b, x.get(a));
            }
            assertEquals(a.saying(), b.saying(), "a copy");
            assertEquals(a.saying().hashCode(), b.saying().hashCode(), "a copy");
            Object was = changed.get(a);
            Class<?> t = changed.getType();
            Object other = t == int.class ? (Object) ((int) was + 7) : t == double.class ? (Object) ((double) was + 0.5)
                    : t == boolean.class ? (Object) !(boolean) was : t == String.class ? was + "x"
                    : t == dev.gpulint.core.Span.class ? new dev.gpulint.core.Span("other.yaml", 9, 1, 9, 2)
                    : t == java.util.function.Supplier.class ? (java.util.function.Supplier<String>) () -> "tp 4"
                    : t == dev.gpulint.facts.AssumedSize.class ? new dev.gpulint.facts.AssumedSize(64, 8, 8, false, "dgx", 0, false, 0, false, 0, false)
                    : null;
            assertTrue(other != null, changed.getName() + ": a field of type " + t);
            changed.set(b, other);
            boolean whose = dev.gpulint.facts.StageMemoryFact.NOT_SAID.contains(changed.getName());
            assertEquals(whose, a.saying().equals(b.saying()), changed.getName());
            if (whose) assertEquals(a.saying().hashCode(), b.saying().hashCode(), changed.getName());
        }
        assertTrue(fields.stream().map(java.lang.reflect.Field::getName).toList().containsAll(dev.gpulint.facts.StageMemoryFact.NOT_SAID));
    }

    /**
     * The search checks memory facts that say the same once per session (for candidates with no MemoryFact of their own) on
     * the grounds this test holds: only MEM002 and MEM003 name the fact, their patterns of it read none of the fields its
     * saying leaves out but the job's name, and that name only joins the job's own MemoryFact.
     */
    @Test
    void theMemoryRulesReadAMemoryFactAloneButForItsJobsMemoryFact() throws java.io.IOException {
        List<java.nio.file.Path> drl;
        try (var files = java.nio.file.Files.walk(java.nio.file.Path.of("../rules"))) {
            drl = files.filter(f -> f.toString().endsWith(".drl")).sorted().toList();
        }
        java.util.regex.Pattern when = java.util.regex.Pattern.compile("(?s)\\bwhen\\b(.*?)\\bthen\\b");
        java.util.regex.Pattern stage = java.util.regex.Pattern.compile("\\bStageMemoryFact\\s*\\(([^)]*)\\)");
        java.util.Set<String> naming = new java.util.TreeSet<>();
        int patterns = 0;
        for (java.nio.file.Path f : drl) {
            String text = java.nio.file.Files.readString(f).replaceAll("//[^\\n]*", "");
            if (!text.contains("StageMemoryFact")) continue;
            naming.add(f.getFileName().toString().replace(".drl", ""));
            var m = when.matcher(text);
            while (m.find()) {
                String condition = m.group(1);
                var p = stage.matcher(condition);
                while (p.find()) patterns++;
                // the job's name, bound once, is read only to join the job's MemoryFact; nothing else of the condition (the
                // fact's pattern, an eval, another pattern through a binding: $m.getRecompute()) reads a field left out,
                // by its name or its getter, nor the identity
                String rest = condition.replaceAll("\\$job\\s*:\\s*jobName\\b", "").replaceAll("\\bMemoryFact\\s*\\(\\s*jobName\\s*==\\s*\\$job\\b", "");
                for (String left : dev.gpulint.facts.StageMemoryFact.NOT_SAID) {
                    assertFalse(read(left).matcher(rest).find(), f + " reads " + left + ": " + condition);
                }
                assertFalse(rest.contains("$job") || read("identity").matcher(rest).find(), f + ": the job's name read otherwise: " + condition);
            }
        }
        assertEquals(java.util.Set.of("MEM002", "MEM003"), naming);
        assertEquals(2, patterns);
    }

    /** Memory facts of each layout by a rule of thumb that makes many layouts' the same bytes, some over 80 GB, some over 90 % in states. */
    private static final class RoughMemory implements CandidateSearch.Pricing {
        final dev.gpulint.core.Span at = new dev.gpulint.core.Span("plan.yaml", 3, 1, 3, 9);

        @Override public CandidateSearch.Score score(Layout l) { return simple(l); }

        @Override public Object memoryFact(Layout l, String job, String aspect) {
            double states = 150e9 / (l.tp() * l.pp()) / (l.distributedOptimizer() ? 2 : 1);
            double activations = (l.recompute() == Layout.Recompute.FULL ? 2e9 : l.recompute() == Layout.Recompute.SELECTIVE ? 8e9 : 30e9)
                    * l.microBatchSize() / l.tp();
            return new dev.gpulint.facts.StageMemoryFact(job, "plan.yaml", "H100-SXM5-80GB", l::sizes, l.recompute().id(), 0, l.pp(),
                    states / 3, states / 3, states / 3, activations, 80e9, at, aspect);
        }
    }

    /**
     * Memory facts that say the same checked once per session find what every layout's own finds: a job with no MemoryFact
     * (no parameter count: every memory fact is a candidate for sharing) and one with (LLAMA70B_16's 70B: its candidates keep
     * their own), MEM003 rejecting some layouts of each (MEM002 some of the first's) and quiet on others.
     */
    @Test
    void memoryFactsThatSayTheSameCheckedOnceFindWhatEachLayoutsOwnFinds() {
        for (String model : List.of("{ dtype: bf16, layers: 80, hidden_size: 8192, attention_heads: 64, kv_heads: 8, seq_length: 4096 }", LLAMA70B_16)) {
            Model b = bind(cluster(2) + job(2, model, "{ tp: 8, pp: 2 }", "{ micro_batch_size: 1, global_batch_size: 64 }"));
            Resolved.Job r = JobLayouts.resolve(b.jobs().get(0), b.clusters(), Catalog.builtIn());
            Layout current = JobLayouts.current(r).orElseThrow();
            SearchSpace space = JobLayouts.space(r, r.totalGpus()).orElseThrow();
            SearchResult once = new CandidateSearch(Catalog.builtIn(), RuleCatalog.builtIn()).checkedAs(64, true)
                    .search(b.jobs().get(0), b.clusters(), current, space, new RoughMemory());
            assertTrue(once.rejected().getOrDefault("MEM003", 0) > 0, once.rejected().toString());
            if (!model.equals(LLAMA70B_16)) {
                // (the 70B job's own MemoryFact: MEM001 rejects most of its layouts, and MEM002 on a memory fact yields to it)
                assertTrue(once.rejected().getOrDefault("MEM002", 0) > 0, once.rejected().toString());
                assertTrue(!once.candidates().isEmpty(), model + ": some layout fits: " + once.rejected());
            }
            SearchResult each = new CandidateSearch(Catalog.builtIn(), RuleCatalog.builtIn()).checkedAs(64, false)
                    .search(b.jobs().get(0), b.clusters(), current, space, new RoughMemory());
            assertEquals(each, once, model);
        }
    }

    private static Object sample(Class<?> type) {
        dev.gpulint.core.Span at = new dev.gpulint.core.Span("plan.yaml", 3, 1, 3, 9);
        if (type == dev.gpulint.facts.BubbleFact.class) return bubble("cand-1", 16, at);
        if (type == dev.gpulint.facts.HybridLayersFact.class) {
            return new dev.gpulint.facts.HybridLayersFact("cand-1", "m.yaml", "--hybrid-layer-pattern", at, 8, 8, at, 4, 96, true,
                    "--mamba-num-heads", 8, false, "--mamba-num-groups", 2, at, 0, 0, null, 0, null);
        }
        if (type == dev.gpulint.facts.TpPlacementFact.class) return tpPlacement("cand-1", 8, at);
        return new dev.gpulint.facts.OriginFact("cand-1", "Megatron", false, 0, false, null, null);
    }

    /** A DRL condition's read of a field: its name, or its getter (getRecompute(), isX()), in any case. */
    private static java.util.regex.Pattern read(String field) {
        return java.util.regex.Pattern.compile("(?i)\\b(get|is)?" + java.util.regex.Pattern.quote(field) + "\\b");
    }

    /** The fields of a fact that hold a message's words, made when a finding is worded (suppliers): no condition reads them. */
    private static List<String> words(Class<?> fact) {
        return java.util.Arrays.stream(fact.getDeclaredFields()).filter(x -> !java.lang.reflect.Modifier.isStatic(x.getModifiers()))
                .filter(x -> x.getType() == java.util.function.Supplier.class).map(java.lang.reflect.Field::getName).toList();
    }

    private static dev.gpulint.facts.TpPlacementFact tpPlacement(String job, long tp, dev.gpulint.core.Span at) {
        return new dev.gpulint.facts.TpPlacementFact(job, "plan.yaml", tp, at, 1, "tp-cp-ep-dp-pp", tp > 8 ? 2 : 1,
                () -> "ranks of " + job, () -> "places of " + job, dev.gpulint.spec.DomainKind.NODE, 8, 0, at, "dgx", "pod", 8,
                "H100-SXM5-80GB", 5, 63e9);
    }

    private static dev.gpulint.facts.BubbleFact bubble(String job, long m, dev.gpulint.core.Span at) {
        return new dev.gpulint.facts.BubbleFact(job, "plan.yaml", 8, 1, m, 512, 1, 32, 7.0 / (m + 7), at);
    }

    @Test
    void aBubbleFactIsInsertedOnceForWhatItSaysButItsJobAndItsFindingsAreEveryoneWhoseItStandsFor() {
        dev.gpulint.core.Span at = new dev.gpulint.core.Span("plan.yaml", 3, 1, 3, 9);
        String prefix = "gpulint-plan-candidate-";
        var a = bubble(prefix + 10, 16, at);
        var b = bubble(prefix + 11, 16, at);
        var c = bubble(prefix + 12, 32, at);
        var d = bubble(prefix + 13, 16, new dev.gpulint.core.Span("plan.yaml", 4, 1, 4, 9));
        Object other = "another fact";
        AloneFacts.Kept kept = AloneFacts.keep(List.of(a, other, b, c, d), 10, 14, n -> CandidateSearch.candidateNamed(n, 10, 14));
        assertEquals(List.of(a, other, c, d), kept.facts());
        assertArrayEquals(new int[] {10, 11}, kept.whose("PAR006", 10));
        assertArrayEquals(new int[] {12}, kept.whose("PAR006", 12));
        assertArrayEquals(new int[] {13}, kept.whose("PAR006", 13));
        assertArrayEquals(new int[] {10}, kept.whose("PAR004", 10), "a rule of the job's own fact: its candidate alone");
        // a candidate with two bubble facts, or a fact of another job: every bubble fact is inserted, each for itself
        AloneFacts.Kept twice = AloneFacts.keep(List.of(a, b, bubble(prefix + 10, 32, at)), 10, 14, n -> CandidateSearch.candidateNamed(n, 10, 14));
        assertEquals(3, twice.facts().size());
        assertArrayEquals(new int[] {10}, twice.whose("PAR006", 10));
        assertEquals(2, AloneFacts.keep(List.of(a, bubble("another-job", 16, at)), 10, 14,
                n -> CandidateSearch.candidateNamed(n, 10, 14)).facts().size());
        // the per-candidate mode: no candidate named, every fact kept
        assertEquals(3, AloneFacts.keep(List.of(a, b, c), 10, 14, n -> -1).facts().size());
        assertEquals(-1, CandidateSearch.candidateNamed(prefix + 14, 10, 14));
        assertEquals(-1, CandidateSearch.candidateNamed(prefix + "1x", 10, 14));
    }

    /**
     * The search reads the environment's facts once per session on two grounds this test holds: only the NCCL rules
     * match EnvFact, each rule of theirs matches one EnvFact and nothing else (no job, no layout), and none of them judges
     * a layout (no layout: in its ID.yaml), so each of their findings is one of the cluster's.
     */
    @Test
    void onlyTheNcclRulesReadTheEnvironmentAndEachReadsOneVariableAlone() throws java.io.IOException {
        assertTrue(CandidateSearch.environmentSpeaksOfCluster(RuleCatalog.builtIn()));
        java.nio.file.Path rules = java.nio.file.Path.of("../rules");
        List<java.nio.file.Path> drl;
        try (var files = java.nio.file.Files.walk(rules)) {
            drl = files.filter(f -> f.toString().endsWith(".drl")).sorted().toList();
        }
        assertTrue(drl.size() > 50, "the built-in rules: " + drl.size());
        int ncclRules = 0;
        java.util.regex.Pattern factType = java.util.regex.Pattern.compile("\\b([A-Z][A-Za-z0-9]*)\\s*\\(");
        java.util.regex.Pattern when = java.util.regex.Pattern.compile("(?s)\\bwhen\\b(.*?)\\bthen\\b");
        for (java.nio.file.Path f : drl) {
            String text = java.nio.file.Files.readString(f);
            boolean nccl = f.getParent().getFileName().toString().equals("nccl");
            if (!nccl) {
                assertFalse(text.contains("EnvFact"), f + " reads the environment's facts");
                continue;
            }
            assertTrue(f.getFileName().toString().startsWith(CandidateSearch.ENVIRONMENT_RULES), f.toString());
            var m = when.matcher(text.replaceAll("//[^\\n]*", ""));
            while (m.find()) {
                ncclRules++;
                var t = factType.matcher(m.group(1));
                java.util.Set<String> types = new java.util.TreeSet<>();
                while (t.find()) types.add(t.group(1));
                types.remove("RuleParam");
                assertEquals(java.util.Set.of("EnvFact"), types, f + ": a rule of the environment matches " + types);
            }
        }
        assertTrue(ncclRules >= 10, "NCCL rules found: " + ncclRules);
        for (RuleMeta meta : RuleCatalog.builtIn().all()) {
            if (meta.id().startsWith(CandidateSearch.ENVIRONMENT_RULES)) assertEquals(null, meta.layout(), meta.id());
        }
    }

    /**
     * The search inserts each distinct {@link dev.gpulint.facts.GroupFitFact} once per session on the grounds this test
     * holds: CONSIST012 is the only rule that names the fact, its conditions read no job name, and it judges no layout
     * (no layout: in its ID.yaml), so its findings are the cluster's whichever candidate's fact it fired on.
     */
    @Test
    void onlyConsist012ReadsTheGroupFitAndNotWhoseItIs() throws java.io.IOException {
        assertTrue(CandidateSearch.groupFitSpeaksOfCluster(RuleCatalog.builtIn()));
        assertEquals(null, RuleCatalog.builtIn().get(CandidateSearch.GROUP_FIT_RULE).orElseThrow().layout());
        List<java.nio.file.Path> drl;
        try (var files = java.nio.file.Files.walk(java.nio.file.Path.of("../rules"))) {
            drl = files.filter(f -> f.toString().endsWith(".drl")).sorted().toList();
        }
        assertTrue(drl.size() > 50, "the built-in rules: " + drl.size());
        java.util.regex.Pattern when = java.util.regex.Pattern.compile("(?s)\\bwhen\\b(.*?)\\bthen\\b");
        int conditions = 0;
        for (java.nio.file.Path f : drl) {
            String text = java.nio.file.Files.readString(f).replaceAll("//[^\\n]*", "");
            if (!f.getFileName().toString().equals(CandidateSearch.GROUP_FIT_RULE + ".drl")) {
                assertFalse(text.contains("GroupFitFact"), f + " reads the node group's fit");
                continue;
            }
            var m = when.matcher(text);
            while (m.find()) {
                conditions++;
                assertTrue(m.group(1).contains("GroupFitFact("), m.group(1));
                assertFalse(m.group(1).toLowerCase(java.util.Locale.ROOT).contains("job"), f + ": a condition reads the job: " + m.group(1));
            }
        }
        assertEquals(2, conditions, "CONSIST012's two rules");
    }

    @Test
    void aGroupFitFactIsKeptOnceForWhatItSaysButItsJob() {
        dev.gpulint.core.Span at = new dev.gpulint.core.Span("plan.yaml", 3, 1, 3, 9);
        var a = new dev.gpulint.facts.GroupFitFact("cand-1", "dgx", "pod", 4, at, 2, at, 8, at, 8, at);
        var b = new dev.gpulint.facts.GroupFitFact("cand-2", "dgx", "pod", 4, at, 2, at, 8, at, 8, at);
        var c = new dev.gpulint.facts.GroupFitFact("cand-3", "dgx", "pod", 8, at, 2, at, 8, at, 8, at);
        Object other = "another fact";
        assertEquals(List.of(a, other, c), CandidateSearch.oneGroupFitEach(List.of(a, other, b, c)));
    }

    /**
     * A job asking for more nodes than its node group has: CONSIST012 among the cluster's findings, and the same search
     * with one group-fit fact per candidate; with {@code plan --gpus} the job's own layout asks for 2 nodes and the others
     * for 8, two distinct facts, and the rule fires on the second.
     */
    @Test
    void aJobBeyondItsNodeGroupIsTheClustersFindingWithTheFactOnceOrPerCandidate() {
        Model b = bind(cluster(2) + job(4, LLAMA70B_16, "{ tp: 8, pp: 4 }", "{ micro_batch_size: 1, global_batch_size: 512 }"));
        Resolved.Job r = JobLayouts.resolve(b.jobs().get(0), b.clusters(), Catalog.builtIn());
        Layout current = JobLayouts.current(r).orElseThrow();
        SearchSpace space = JobLayouts.space(r, r.totalGpus()).orElseThrow();
        SearchResult once = new CandidateSearch(Catalog.builtIn(), RuleCatalog.builtIn())
                .search(b.jobs().get(0), b.clusters(), current, space, CandidateSearchTest::simple);
        assertTrue(once.clusterFindings().contains("CONSIST012"), once.clusterFindings().toString());
        SearchResult each = new CandidateSearch(Catalog.builtIn(), RuleCatalog.builtIn()).checkedAs(CandidateSearch.CHUNK, false)
                .search(b.jobs().get(0), b.clusters(), current, space, CandidateSearchTest::simple);
        assertEquals(each, once);

        Model fits = bind(cluster(2) + job(2, LLAMA70B_16, "{ tp: 8, pp: 2 }", "{ micro_batch_size: 1, global_batch_size: 512 }"));
        Resolved.Job f = JobLayouts.resolve(fits.jobs().get(0), fits.clusters(), Catalog.builtIn());
        Layout own = JobLayouts.current(f).orElseThrow();
        SearchSpace larger = JobLayouts.space(f, 64).orElseThrow();
        SearchResult resizedOnce = new CandidateSearch(Catalog.builtIn(), RuleCatalog.builtIn()).resized(8)
                .search(fits.jobs().get(0), fits.clusters(), own, larger, CandidateSearchTest::simple);
        assertTrue(resizedOnce.clusterFindings().contains("CONSIST012"), resizedOnce.clusterFindings().toString());
        SearchResult resizedEach = new CandidateSearch(Catalog.builtIn(), RuleCatalog.builtIn()).resized(8)
                .checkedAs(CandidateSearch.CHUNK, false)
                .search(fits.jobs().get(0), fits.clusters(), own, larger, CandidateSearchTest::simple);
        assertEquals(resizedEach, resizedOnce);
        assertFalse(search(cluster(2) + job(2, LLAMA70B_16, "{ tp: 8, pp: 2 }", "{ micro_batch_size: 1, global_batch_size: 512 }"))
                .clusterFindings().contains("CONSIST012"), "16 GPUs on the group's 2 nodes fit");
    }
}
