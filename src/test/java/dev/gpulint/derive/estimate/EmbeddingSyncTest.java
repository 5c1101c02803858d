package dev.gpulint.derive.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.ParallelDim;
import dev.gpulint.testing.EstimateManifest;
import dev.gpulint.testing.PlanCli;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The word embedding's gradient all-reduce per step (EmbeddingSync) for tied embeddings on pp > 1, GPT-3's way: the first
 * stage's embedding and the last stage's output layer share one matrix, and Megatron-Core's finalize_model_grads all-reduces
 * its gradient over the two each step. A small dense model, worked by hand; MTP's copy is MtpKindTest's.
 */
class EmbeddingSyncTest {

    /** 4 layers of h 1,024 (16 heads of 64, MLP 4,096), vocabulary 32,000; tied or not as the case says. */
    private static final String GPT = "dtype: bf16, layers: 4, hidden_size: 1024, attention_heads: 16, kv_heads: 16, ffn_hidden_size: 4096,"
            + " vocab_size: 32000, gated_mlp: false, tied_embeddings: %s, seq_length: 2048";

    private static final double H = 1024, V = 32000;

    private static Estimate job(EstimateManifest on, boolean tied, String parallelism) {
        return on.model(GPT.formatted(tied)).parallelism(parallelism).batch(1, 64).optimizer("distributed: true")
                .recompute("none").estimate().estimate();
    }

    static Term.Collectives sync(Estimate e) {
        return e.terms().stream().filter(t -> t instanceof Term.Collectives c && EmbeddingSync.is(c.what()))
                .map(Term.Collectives.class::cast).findFirst().orElse(null);
    }

    /**
     * The plan's text and JSON of a 2-node job of V 32,000, h 1,024 on tp 2 whose word-embedding sync is one pair across
     * the nodes: its pp line (65.5 MB per rank over the NICs) and time.embedding_sync_bytes and _s.
     */
    static void assertPlanShowsThePairSync(PlanCli cli) {
        PlanCli.Run text = cli.plan();
        assertEquals(0, text.code(), text.err());
        assertTrue(text.out().contains("1 × pp " + EmbeddingSync.WHAT + " over 2 ranks: 65.5 MB moved per rank (2(n−1)/n·S) each, over 8 × 400 Gb/s ConnectX-7 per node (RDMA) at 45 GB/s"), text.out());
        Map<String, Object> time = PlanCli.map(PlanCli.map(cli.planJson().json().get("current")).get("time"));
        assertEquals(32000L * 1024 / 2 * 4, ((Number) time.get("embedding_sync_bytes")).longValue(), time.toString());
        assertTrue(((Number) time.get("embedding_sync_s")).doubleValue() > 0, time.toString());
    }

    /**
     * The sync of a job on 2 nodes at tp 2, pp 2, dp 4 (the first and last stage 8 ranks apart, on two nodes: the network), of
     * {@code bytes} per rank and {@code microBatches} per step: one all-reduce of 2 ranks at a NIC's rate plus NCCL's α, in the
     * pp communication once beside the pipeline's sends, the pp tier staying the sends'. MtpKindTest's untied MTP copy too.
     */
    static Term.Collectives assertPairSyncOnTheNetwork(Estimate e, double bytes, long microBatches) {
        Term.Collectives s = sync(e);
        assertNotNull(s);
        assertEquals(1, s.count());
        assertEquals(2, s.n());
        assertEquals(bytes, s.cost().bytes(), 1e-6);
        assertEquals(Tier.NETWORK, s.cost().tier());
        // a ring of 2 moves 2(n − 1)/n = 1 × the bytes per rank, at a NIC's 400 Gb/s × the network efficiency, plus NCCL's α
        assertEquals(bytes, s.cost().bytesPerRank(), 1e-6);
        assertEquals(50e9 * 0.9, s.cost().lineRate() * s.cost().efficiency(), 1e-3);
        assertEquals(s.cost().latency() + bytes / (50e9 * 0.9), s.seconds(), 1e-12);
        // in the pp communication once per step, beside the pipeline's sends per micro-batch; the pp tier stays the sends'
        Term.Sends pp = e.terms().stream().filter(t -> t instanceof Term.Sends x && x.dim() == ParallelDim.PP).map(Term.Sends.class::cast)
                .findFirst().orElseThrow();
        assertEquals(microBatches * pp.seconds() + s.seconds(), e.time().comm().get(ParallelDim.PP), 1e-12);
        assertEquals(pp.cost().tier(), e.time().tiers().get(ParallelDim.PP));
        return s;
    }

    @Test
    void tiedEmbeddingsOnTwoStagesAllReduceTheSharedMatrixsGradientEachStep() {
        // 2 nodes, tp 2, pp 2, dp 4: the first and last stage 8 ranks apart, on two nodes: the network
        Estimate e = job(EstimateManifest.pod(2), true, "tp: 2, pp: 2");
        // V·h ÷ tp main gradients, fp32 (Megatron's bf16 default: 4 bytes); 64 ÷ dp 4 micro-batches
        Term.Collectives s = assertPairSyncOnTheNetwork(e, V * H / 2 * 4, 64 / 4);
        // and in the step, behind no compute: the untied job's step has no such term (the output layer's own weight
        // changes the last stage's compute too, so the two steps are not compared; the exposed network time holds it)
        assertTrue(e.time().exposed().get(Tier.NETWORK) >= s.seconds(), e.time().exposed().toString());
    }

    @Test
    void onOneNodeThePairIsOnNvlink() {
        Term.Collectives s = sync(job(EstimateManifest.h100(), true, "tp: 1, pp: 2"));
        assertNotNull(s);
        assertEquals(V * H * 4, s.cost().bytes(), 1e-6);
        assertEquals(Tier.NVLINK, s.cost().tier());
    }

    @Test
    void quietOnOneStageAndUntiedWithoutMtp() {
        assertNull(sync(job(EstimateManifest.h100(), true, "tp: 1, pp: 1")), "pp 1: the embedding group is one stage");
        assertNull(sync(job(EstimateManifest.h100(), false, "tp: 1, pp: 2")), "untied, no MTP: the output layer's own weight, no copy");
        Estimate one = job(EstimateManifest.h100(), true, "tp: 1, pp: 1"), two = job(EstimateManifest.h100(), true, "tp: 1, pp: 2");
        assertFalse(EmbeddingSync.runs(one.model(), one.layout(), MtpLayers.NONE));
        assertTrue(EmbeddingSync.runs(two.model(), two.layout(), MtpLayers.NONE));
    }

    @Test
    void thePlansTextAndJsonShowTheTiedSync(@TempDir Path dir) {
        String script = """
                #!/bin/bash
                torchrun --nnodes 2 --nproc_per_node 8 pretrain_gpt.py \\
                  --num-layers 4 --hidden-size 1024 --num-attention-heads 16 --ffn-hidden-size 4096 \\
                  --vocab-size 32000 --make-vocab-size-divisible-by 128 --seq-length 2048 \\
                  --tensor-model-parallel-size 2 --pipeline-model-parallel-size 2 \\
                  --use-distributed-optimizer --micro-batch-size 1 --global-batch-size 64 --bf16
                """;
        PlanCli cli = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("train.sh", script).jobClusters("lab", "*.sh");
        assertPlanShowsThePairSync(cli);
    }

    /** gpt-neox (DeepSpeed's PipelineModule): 32 layers of h 4,096 on pp 4 × tp 2 over 2 nodes of 8. */
    private static final String NEOX = """
            {
              "pipe-parallel-size": 4,
              "model-parallel-size": 2,
              "num-layers": 32,
              "hidden-size": 4096,
              "num-attention-heads": 32,
              "seq-length": 2048,
              "max-position-embeddings": 2048,
              "precision": "bfloat16",%s
              "train_batch_size": 16,
              "train_micro_batch_size_per_gpu": 1,
              "gradient_accumulation_steps": 8,
              "num_gpus": 8,
              "num_nodes": 2
            }
            """;

    @Test
    void deepSpeedsTiedEmbeddingPipeAllReducesOverTheSamePair(@TempDir Path dir) {
        // gpt-neox ties the embedding unless no-weight-tying (its EmbeddingPipe a TiedLayerSpec on the first and last stage);
        // DeepSpeed's _exec_reduce_tied_grads all-reduces the tied weight's gradient over the stages that own it each step:
        // the pair of the first and last stage, ranks 0 and 12 (pp stride tp 2 × dp 2), on two nodes
        PlanCli tied = PlanCli.in(dir.resolve("tied")).file("cluster.yaml", PlanCli.LAB_H100).file("neox.yml", NEOX.formatted(""))
                .jobClusters("lab", "*.yml");
        PlanCli.Run text = tied.plan();
        assertEquals(0, text.code(), text.err());
        assertTrue(text.out().contains("1 × pp " + EmbeddingSync.WHAT + " over 2 ranks: "), text.out());
        Map<String, Object> time = PlanCli.map(PlanCli.map(tied.planJson().json().get("current")).get("time"));
        assertTrue(((Number) time.get("embedding_sync_s")).doubleValue() > 0, time.toString());
        // no-weight-tying: the output layer its own weight, nothing to all-reduce
        PlanCli untied = PlanCli.in(dir.resolve("untied")).file("cluster.yaml", PlanCli.LAB_H100)
                .file("neox.yml", NEOX.formatted("\n  \"no-weight-tying\": true,")).jobClusters("lab", "*.yml");
        PlanCli.Run quiet = untied.plan();
        assertEquals(0, quiet.code(), quiet.err());
        assertFalse(quiet.out().contains("word embedding's gradient all-reduce"), quiet.out());
        assertNull(PlanCli.map(PlanCli.map(untied.planJson().json().get("current")).get("time")).get("embedding_sync_s"));
    }
}
