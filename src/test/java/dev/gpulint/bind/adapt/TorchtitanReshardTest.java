package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import dev.gpulint.testing.PlanCli;
import dev.gpulint.testing.Recipes;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * torchtitan's {@code [parallelism] fsdp_reshard_after_forward} (our own fixtures in the shape of torchtitan's llama3 and
 * qwen3 train configs, which write {@code fsdp_reshard_after_forward = "default" # default / never / always}): the FSDP2
 * stage as torchtitan's apply_fsdp runs it (torchtitan/models/llama3/infra/parallelize.py,
 * pytorch/torchtitan@018740b7aae7846d24954539244c78215dbd181f): "never" reshard_after_forward False (ZeRO-2), "always" True
 * (ZeRO-3), "default" {@code not pp_enabled}.
 */
class TorchtitanReshardTest {

    /** Line 9 {@code [parallelism]}, 10 the shard degree, 11 the tp degree, 12 the pp degree, 13 the policy when given. */
    private static String toml(String pp, String policy) {
        return Recipes.torchtitan("8B").training("local_batch_size = 1", "seq_len = 8192").parallelism(
                "data_parallel_shard_degree = -1", "tensor_parallel_degree = 1", "pipeline_parallel_degree = " + pp, policy).toml();
    }

    private static Specs.Job bind(String pp, String policy) {
        return Foreign.bind("llama3_8b.toml", toml(pp, policy));
    }

    private static List<String> heads(Specs.Job j) {
        return j.origin().unpriced().stream().map(s -> s.substring(0, s.indexOf(':'))).toList();
    }

    /**
     * A row of torchtitan's policy table: on pipeline degree {@code pp} with {@code policy} written (null: not written), the FSDP2
     * stage apply_fsdp runs, the line its value is placed at, and what the plan says of it (each said line's head).
     */
    private record Policy(String pp, String policy, long zeroStage, int line, List<String> said, String why) {
        @Override
        public String toString() {
            return "pp " + pp + ", " + (policy == null ? "not written" : policy);
        }
    }

    static Stream<Policy> policies() {
        return Stream.of(
                new Policy("1", "never", 2, 13, List.of(), "never: ZeRO-2 at the policy's value; a written policy other than default is"
                        + " priced, nothing said"),
                new Policy("2", "always", 3, 13, List.of(), "always reshards even with pipeline parallelism, nothing said"),
                new Policy("1", null, 3, 10, List.of(), "the default without pp reshards as always does, at the sharding degree's line,"
                        + " nothing to say"),
                new Policy("2", "default", 2, 13, List.of("fsdp_reshard_after_forward = \"default\""), "torchtitan: reshard_after_forward"
                        + " = not pp_enabled, and it is said"),
                new Policy("2", null, 2, 12, List.of("fsdp_reshard_after_forward not written (torchtitan's \"default\")"), "not written:"
                        + " the default, at the pipeline degree that makes it, and it is said"));
    }

    @ParameterizedTest
    @MethodSource("policies")
    void eachPolicyIsTheStageTorchtitanRunsAtTheWordThatMakesIt(Policy p) {
        Specs.Job j = bind(p.pp(), p.policy() == null ? "" : "fsdp_reshard_after_forward = \"" + p.policy() + "\"");
        assertEquals(p.zeroStage(), j.optimizer().zeroStage().value(), p.why());
        assertEquals(p.line(), j.optimizer().zeroStage().span().startLine(), p.why());
        assertEquals(p.said(), heads(j), p.why());
    }

    @Test
    void theDefaultUnderAPipelineSaysWhatTorchtitanKeeps() {
        Specs.Job piped = bind("2", "fsdp_reshard_after_forward = \"default\"");
        assertTrue(piped.origin().unpriced().get(0).contains("with pipeline parallelism torchtitan keeps the gathered parameters"),
                piped.origin().unpriced().get(0));
    }

    @Test
    void aPolicyTorchtitanRefusesIsSyn002AndTheDefaultIsTaken() {
        dev.gpulint.spec.Model m = Foreign.model("llama3_8b.toml", toml("1", "fsdp_reshard_after_forward = \"sometimes\""));
        List<String> syn = Foreign.syn002(m);
        assertEquals(1, syn.size(), String.valueOf(syn));
        assertTrue(syn.get(0).startsWith("13:30 "), syn.get(0));
        assertTrue(syn.get(0).contains("one of default, always, never"), syn.get(0));
        assertEquals(3L, m.jobs().get(0).optimizer().zeroStage().value());
    }

    /**
     * Llama 3 8B (32 layers, 8.03B parameters) on 16 H100s, FSDP over all 16, no pp, one micro-batch: 32 block units and
     * apply_fsdp's embedding unit and final norm + output unit, 34 (TitanUnits). "always" gathers every unit forward and
     * backward: 68 all-gathers of 8.03B × 2 B × 2 ÷ 68 = 0.472 GB each, of which each rank moves 15/16 = 442.9 MB, at 360 GB/s
     * (8 × 400 Gb/s × 0.90) + NCCL's α 70 µs = 1.300 ms: 88.4 ms; "never" the forward's alone, 34 × 1.300 = 44.2 ms, and holds
     * the whole weights, 8.03B × 2 B = 16.06 GB, where "always" holds a 16th, 1.00 GB, and at the backward's start the final
     * norm + output unit whole, (128,256 × 4,096 + 4,096) × 2 B = 1.05 GB, and the last block FSDP2 prefetches beside it,
     * a mean layer's 218M × 2 B = 0.44 GB: 2.49 GB. The gradients' 34 reduce-scatters are the
     * same either way.
     */
    @Test
    void neverHalvesThePlansParameterAllGathersAndHoldsTheWholeWeights(@TempDir Path dir) throws IOException {
        String always = plan(dir.resolve("a"), "fsdp_reshard_after_forward = \"always\"");
        assertTrue(always.contains("dp: 68 × dp parameter all-gathers forward and backward, one per layer, and the same of torchtitan's"
                + " embedding unit and its final norm + output unit over 16 ranks: 442.9 MB moved"), always);
        assertTrue(always.contains("each: 88.4 ms"), always);
        // 1.00 GB sharded + 1.05 GB of the final norm + output unit + 0.44 GB of the last block FSDP2 prefetches beside it
        assertTrue(always.contains("weights 2.49 GB"), always);
        String never = plan(dir.resolve("n"), "fsdp_reshard_after_forward = \"never\"");
        assertTrue(never.contains("dp: 34 × dp parameter all-gather for the forward, kept for the backward, one per layer, and the same of"
                + " torchtitan's embedding unit and its final norm + output unit over 16 ranks: 442.9 MB moved"), never);
        assertTrue(never.contains("each: 44.2 ms"), never);
        assertTrue(never.contains("weights 16.06 GB"), never);
        assertTrue(!never.contains("per bucket"), "FSDP2's units, not Megatron's ZeRO-2 buckets: " + never);
        for (String out : List.of(always, never)) {
            assertTrue(out.contains("dp: 34 × dp gradient reduce-scatter, one per layer and per torchtitan unit over 16 ranks: 885.7 MB moved"), out);
        }
    }

    /**
     * "always" without pp and without HSDP syncs every micro-batch: torchtitan's train_step runs forward_backward_step once per
     * micro-batch of its gradient accumulation and never turns FSDP's gradient sync off (no set_requires_gradient_sync, no
     * no_sync: pytorch/torchtitan torchtitan/train.py, Trainer.train_step and forward_backward_step at
     * 000204a4a8bf3d0f31adc44fc29855fbb6ea13d8), and fully_shard reduce-scatters each backward's gradients and reshards after
     * it unless told not to; only torch.distributed.pipelining turns both off (HybridSync.perStep). So global batch 64 over
     * dp 16 at micro batch 1, 4 micro-batches, pays 4 × (68 all-gathers, 88.4 ms, and 34 reduce-scatters, 86.0 ms) =
     * 4 × 174.4 = 697.8 ms of dp sync, not one step's 174.4 ms.
     */
    @Test
    void alwaysWithoutPipelineSyncsEveryMicroBatchAsTorchtitansTrainStepRunsIt(@TempDir Path dir) throws IOException {
        String toml = Recipes.torchtitan("8B").training("local_batch_size = 1", "global_batch_size = 64", "seq_len = 8192").parallelism(
                "data_parallel_shard_degree = 16", "tensor_parallel_degree = 1", "pipeline_parallel_degree = 1",
                "fsdp_reshard_after_forward = \"always\"").toml();
        PlanCli.Run r = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("llama3_8b.toml", toml)
                .jobClusters("lab", "*.toml").plan();
        assertEquals(0, r.code(), r.err());
        String out = r.out();
        assertTrue(out.contains("global batch 64, 4 micro-batches per step, zero stage 3"), out);
        assertTrue(out.contains("dp: 68 × dp parameter all-gathers forward and backward, one per layer, and the same of torchtitan's"
                + " embedding unit and its final norm + output unit over 16 ranks: 442.9 MB moved"), out);
        assertTrue(out.contains("dp: 34 × dp gradient reduce-scatter, one per layer and per torchtitan unit over 16 ranks: 885.7 MB moved"), out);
        assertTrue(out.contains(" of 697.8 ms"), "four micro-batches' syncs: " + out);
        assertTrue(!out.contains("once per step"), out);
    }

    private static String plan(Path dir, String policy) throws IOException {
        java.nio.file.Files.createDirectories(dir);
        PlanCli.Run r = PlanCli.in(dir).file("cluster.yaml", PlanCli.LAB_H100).file("llama3_8b.toml", toml("1", policy))
                .jobClusters("lab", "*.toml").plan("--gpus", "16");
        assertEquals(0, r.code(), r.err());
        return r.out();
    }
}
