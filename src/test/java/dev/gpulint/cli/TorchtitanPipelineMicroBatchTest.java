package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.testing.PlanCli;
import dev.gpulint.testing.Recipes;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * torchtitan's pipeline micro-batch (our own fixtures in the shape of torchtitan's llama3 train configs): at pp &gt; 1
 * build_pipeline_schedule runs {@code local_batch_size // pipeline_parallel_microbatch_size} micro-batches of
 * {@code pipeline_parallel_microbatch_size} sequences (default 1, Parallelism in torchtitan/config/job_config.py at
 * 6404b932), so the plan's micro batch is that size, not the local batch; at pp 1 the local batch stays one micro-batch.
 */
class TorchtitanPipelineMicroBatchTest {

    private static final String DEFAULT_LINE = "[parallelism] pipeline_parallel_microbatch_size not written: 1 sequence per pipeline"
            + " micro-batch, torchtitan's default (Parallelism.pipeline_parallel_microbatch_size in torchtitan/config/job_config.py);"
            + " the local batch 8 runs as 8 micro-batches per step (n_microbatches = local_batch_size // pipeline_parallel_microbatch_size,"
            + " torchtitan/distributed/pipeline_parallel.py)";

    private static String plan(Path dir, String toml) {
        PlanCli.Run r = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("llama3_8b.toml", toml)
                .jobClusters("lab", "*.toml").plan("--gpus", "16");
        assertEquals(0, r.code(), r.err() + r.out());
        return r.out();
    }

    @Test
    void nothingWrittenRunsTheDefaultLocalBatchAsOneSequenceMicroBatches(@TempDir Path dir) {
        String out = plan(dir, Recipes.torchtitan("8B").parallelism("data_parallel_shard_degree = -1", "pipeline_parallel_degree = 2").toml());
        assertTrue(out.contains("tp 1, pp 2, dp 8, micro batch 1, global batch 64, 8 micro-batches per step,"), out);
        // the bubble's share of the schedule, as PAR006 says it: a fraction of the schedule, never over 100 %
        assertTrue(out.contains("(the bubble's share of the schedule, bubble ÷ (bubble + m × micro-batch) = 11.1 %, with m = 8"
                + " micro-batches per schedule)"), out);
        assertTrue(out.contains(DEFAULT_LINE), out);
        assertTrue(out.contains("[training] local_batch_size not written: 8 sequences per micro-batch"), out);
    }

    @Test
    void aWrittenSizeAndLocalBatchSetTheCount(@TempDir Path dir) {
        String out = plan(dir, Recipes.torchtitan("8B").training("local_batch_size = 4", "seq_len = 8192")
                .parallelism("data_parallel_shard_degree = -1", "pipeline_parallel_degree = 2", "pipeline_parallel_microbatch_size = 2").toml());
        assertTrue(out.contains("tp 1, pp 2, dp 8, micro batch 2, global batch 32, 2 micro-batches per step,"), out);
        assertFalse(out.contains("pipeline_parallel_microbatch_size not written"), out);
    }

    @Test
    void aWrittenGlobalBatchAccumulatesOverTheSameMicroBatches(@TempDir Path dir) {
        String out = plan(dir, Recipes.torchtitan("8B").training("local_batch_size = 4", "global_batch_size = 64", "seq_len = 8192")
                .parallelism("data_parallel_shard_degree = -1", "pipeline_parallel_degree = 2").toml());
        // 64 ÷ (4 × dp 8): two accumulation steps, each one pipeline schedule of 4 one-sequence micro-batches (torchtitan/train.py
        // at 000204a4: train_step calls forward_backward_step, one pp_schedule.step, per gradient-accumulation step), each with
        // its bubble: 1/(4 + 1) of a schedule, not 1/(8 + 1) of one schedule of 8
        assertTrue(out.contains("tp 1, pp 2, dp 8, micro batch 1, global batch 64, 8 micro-batches per step in 2 pipeline schedules"
                + " of 4 (one per gradient-accumulation step),"), out);
        assertTrue(out.contains("the local batch 4 runs as 4 micro-batches per pipeline schedule, one schedule per gradient-accumulation step"), out);
        assertTrue(out.contains(" per pipeline schedule × 2 schedules per step (torchtitan runs one per gradient-accumulation step,"
                + " global ÷ (local × dp)) = "), out);
        assertTrue(out.contains("(the bubble's share of each schedule, bubble ÷ (bubble + m × micro-batch) = 20.0 %, with m = 4"
                + " micro-batches per schedule)"), out);
    }

    @Test
    void theExperimentalEraCountSplitsTheBatch(@TempDir Path dir) {
        // torchtitan's first releases: [experimental] pipeline_parallel_microbatches 4 splits [training] batch_size 8 into
        // micro-batches of 2 (build_pipeline_schedule, torchtitan/parallelisms/pipelining_utils.py at 680647378f15)
        String out = plan(dir, Recipes.torchtitan("8B").training("batch_size = 8", "seq_len = 2048", "data_parallel_degree = -1")
                .table("[experimental]\npipeline_parallel_degree = 4\npipeline_parallel_microbatches = 4").toml());
        assertTrue(out.contains("tp 1, pp 4, dp 4, micro batch 2, global batch 32, 4 micro-batches per step,"), out);
        assertFalse(out.contains("pipeline_parallel_microbatch_size"), out);
    }

    @Test
    void theExperimentalEraDefaultCountIsThePipelineDegree(@TempDir Path dir) {
        // not written: n_microbatches = pipeline_parallel_degree × the rank's stages, 1 for the default 1F1B schedule
        String out = plan(dir, Recipes.torchtitan("8B").training("batch_size = 8", "seq_len = 2048", "data_parallel_degree = -1")
                .table("[experimental]\npipeline_parallel_degree = 2").toml());
        assertTrue(out.contains("tp 1, pp 2, dp 8, micro batch 4, global batch 64, 2 micro-batches per step,"), out);
        assertTrue(out.contains("[experimental] pipeline_parallel_microbatches not written: torchtitan's default, pipeline_parallel_degree 2"
                + " micro-batches per step"), out);
    }

    @Test
    void everyCandidateRunsTheJobsSchedules(@TempDir Path dir) throws Exception {
        // a candidate keeps the job's local batch (local_batch_size is what the user writes), so it runs the written layout's
        // 2 schedules of 4 per step: the even-split twin of the written layout (16 + 16 layers) prices the same bubble, not
        // one schedule of 8 (the candidates' pricing before JobLayouts.scheduled)
        String toml = Recipes.torchtitan("8B").training("local_batch_size = 4", "global_batch_size = 64", "seq_len = 8192")
                .parallelism("data_parallel_shard_degree = -1", "pipeline_parallel_degree = 2").table("[activation_checkpoint]\nmode = \"none\"\n").toml();
        PlanCli.Run r = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("llama3_8b.toml", toml)
                .jobClusters("lab", "*.toml").planJson("--gpus", "16", "--top", "10000");
        assertEquals(0, r.code(), r.err() + r.out());
        tools.jackson.databind.JsonNode plan = new tools.jackson.databind.ObjectMapper().readTree(r.out());
        double written = plan.get("current").get("time").get("bubble_s").asDouble();
        assertTrue(written > 0, r.out());
        int twins = 0;
        for (tools.jackson.databind.JsonNode c : plan.get("candidates")) {
            tools.jackson.databind.JsonNode l = c.get("layout");
            if (l.get("tp").asInt() == 1 && l.get("pp").asInt() == 2 && l.get("dp").asInt() == 8 && l.get("cp").asInt() == 1
                    && l.get("virtual_pp").asInt() == 1 && l.get("micro_batch_size").asInt() == 1 && l.get("zero_stage").asInt() == 2
                    && l.get("recompute").toString().equals("\"none\"") && !l.has("stage_layers")) {
                assertEquals(written, c.get("time").get("bubble_s").asDouble(), 1e-9, c.toString());
                twins++;
            }
        }
        assertEquals(1, twins, r.out());
    }

    @Test
    void theTokenEraCountIsMicroBatchesPerSchedule(@TempDir Path dir) {
        // torchtitan after its PR #4121: num_pp_microbatches micro-batches of num_tokens_per_microbatch_per_dp_rank tokens run
        // as one schedule (ParallelismConfig.num_pp_microbatches, torchtitan/config/parallelism.py at 15e24313); 16384 ÷ 8192 =
        // 2 sequences each, and with num_tokens_per_train_step unwritten one schedule per step: 2 × 4 × dp 8 = 64 sequences
        String out = plan(dir, Recipes.torchtitan("8B").training("num_tokens_per_microbatch_per_dp_rank = 16384", "max_context_length = 8192")
                .parallelism("data_parallel_shard_degree = -1", "pipeline_parallel_degree = 2", "num_pp_microbatches = 4").toml());
        assertTrue(out.contains("tp 1, pp 2, dp 8, micro batch 2, global batch 64, 4 micro-batches per step,"), out);
        assertFalse(out.contains("num_pp_microbatches not written"), out);
    }

    @Test
    void theTokenEraCountWithAccumulationRunsOneScheduleOfTheCountPerAccumulationStep(@TempDir Path dir) {
        // num_tokens_per_train_step 262144 ÷ 8192 = 32 sequences; one schedule is 2 micro-batches of 1 sequence × dp 8 = 16:
        // 2 accumulation steps (Trainer.__init__'s gradient_accumulation_steps), one pipeline schedule of 2 each
        String out = plan(dir, Recipes.torchtitan("8B").training("num_tokens_per_microbatch_per_dp_rank = 8192",
                        "num_tokens_per_train_step = 262144", "max_context_length = 8192")
                .parallelism("data_parallel_shard_degree = -1", "pipeline_parallel_degree = 2", "num_pp_microbatches = 2").toml());
        assertTrue(out.contains("tp 1, pp 2, dp 8, micro batch 1, global batch 32, 4 micro-batches per step in 2 pipeline schedules"
                + " of 2 (one per gradient-accumulation step),"), out);
    }

    @Test
    void theTokenEraCountNotWrittenIsOne(@TempDir Path dir) {
        String out = plan(dir, Recipes.torchtitan("8B").training("num_tokens_per_microbatch_per_dp_rank = 16384", "max_context_length = 8192")
                .parallelism("data_parallel_shard_degree = -1", "pipeline_parallel_degree = 2").toml());
        assertTrue(out.contains("tp 1, pp 2, dp 8, micro batch 2, global batch 16, 1 micro-batches per step,"), out);
        assertTrue(out.contains("[parallelism] num_pp_microbatches not written: 1 micro-batch per pipeline schedule, torchtitan's default"
                + " (ParallelismConfig.num_pp_microbatches in torchtitan/config/parallelism.py)"), out);
    }

    @Test
    void aSizeTorchtitanRefusesSplitsNothing(@TempDir Path dir) {
        // build_pipeline_schedule raises ValueError for a size that does not divide the local batch: SYN002 (RuleCasesTest), and
        // the plan does not split the local batch by it, nor by the default size
        String out = plan(dir, Recipes.torchtitan("8B").training("local_batch_size = 8", "seq_len = 8192")
                .parallelism("data_parallel_shard_degree = -1", "pipeline_parallel_degree = 2", "pipeline_parallel_microbatch_size = 3").toml());
        assertTrue(out.contains("tp 1, pp 2, dp 8, micro batch 8, global batch 64, 1 micro-batches per step,"), out);
        assertTrue(out.contains("[parallelism] pipeline_parallel_microbatch_size = '3' (SYN002, not a whole number of at least 1 that divides"
                + " local_batch_size 8"), out);
    }

    @Test
    void withoutPipelineTheLocalBatchIsTheMicroBatch(@TempDir Path dir) {
        String out = plan(dir, Recipes.torchtitan("8B").parallelism("data_parallel_shard_degree = -1", "tensor_parallel_degree = 2").toml());
        assertTrue(out.contains("tp 2, pp 1, dp 8, micro batch 8, global batch 64,"), out);
        assertFalse(out.contains("pipeline_parallel_microbatch_size"), out);
    }
}
