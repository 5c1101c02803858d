package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.Specs;
import dev.gpulint.testing.Foreign;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Settings the estimate reads but does not price apart become lines of the plan's assumptions (Specs.Origin.unpriced):
 * torchtitan's reshard-after-forward and Float8 recipe settings (our own fixtures in the shapes of torchtitan's
 * train_configs). Async TP is priced (TpOverlapTest); torch.compile is read into the job's kernels and priced
 * (EagerKernelsTest); offloaded model states are read into the job and priced (OffloadSettingsTest), not said here.
 */
class UnpricedSettingsTest {

    private static List<String> heads(Specs.Job j) {
        return j.origin().unpriced().stream().map(s -> s.substring(0, s.indexOf(':'))).toList();
    }

    private static final String TITAN = """
            [model]
            name = "llama3"
            flavor = "70B"

            [training]
            local_batch_size = 1
            seq_len = 8192
            enable_cpu_offload = true

            [parallelism]
            data_parallel_shard_degree = -1
            tensor_parallel_degree = 8
            enable_async_tensor_parallel = true
            fsdp_reshard_after_forward = "never"

            [compile]
            enable = true
            components = ["model", "loss"]
            """;

    @Test
    void torchtitansSpeedAndMemorySettingsAreSaid() {
        Specs.Job j = Foreign.bind("llama3_70b.toml", TITAN);
        // async TP is priced (derive/estimate/TpOverlap), read into parallelism.tpCommOverlap, and torch.compile into the job's
        // kernels (derive/estimate/EagerKernels): not said here
        // fsdp_reshard_after_forward "never" is priced (ZeRO-2 at its value: TorchtitanAdapter, TorchtitanReshardTest): not said
        assertEquals(List.of(), heads(j));
        assertEquals(2L, j.optimizer().zeroStage().value());
        assertEquals(true, j.parallelism().tpCommOverlap().value());
        assertEquals("fused", j.kernels().value());
        // off: nothing to say
        Specs.Job quiet = Foreign.bind("llama3_70b.toml", TITAN.replace("enable_cpu_offload = true", "enable_cpu_offload = false")
                .replace("tensor_parallel_degree = 8", "tensor_parallel_degree = 1").replace("\"never\"", "\"default\"")
                .replace("enable = true", "enable = false"));
        // torchtitan's "default" without pp reshards after forward as "always" does (ZeRO-3): nothing to say
        assertEquals(List.of(), quiet.origin().unpriced());
        assertEquals(3L, quiet.optimizer().zeroStage().value());
        assertEquals("eager", quiet.kernels().value());
    }

    private static final String FLOAT8 = """
            [model]
            name = "llama3"
            flavor = "8B"
            converters = ["quantize.linear.float8"]

            [training]
            local_batch_size = 2
            seq_len = 8192

            [parallelism]
            data_parallel_shard_degree = -1

            [quantize.linear.float8]
            enable_fsdp_float8_all_gather = true
            precompute_float8_dynamic_scale_for_fsdp = true
            recipe_name = "rowwise"
            """;

    @Test
    void float8RecipeAndFp8AllGathersAreReadIntoTheJobNotSaid() {
        Specs.Job j = Foreign.bind("llama3_8b.toml", FLOAT8);
        assertEquals("fp8", j.model().dtype().value());
        // the recipe is priced (derive/estimate/Float8Scaling): read into the job, not said here
        assertEquals("rowwise", j.fp8Scaling().value());
        assertEquals("[quantize.linear.float8] recipe_name", j.origin().key(Specs.Origin.FP8_SCALING));
        // the fp8 all-gather is priced too (derive/estimate/ParamGather): read into the job under its own key, not said here
        assertEquals(List.of(), j.origin().unpriced());
        assertEquals(true, j.fp8ParamGather().value());
        assertEquals("[quantize.linear.float8] enable_fsdp_float8_all_gather", j.origin().key(Specs.Origin.FP8_PARAM_GATHER));
        // the earlier [float8] table, tensorwise and the bf16 all-gather: nothing to say
        Specs.Job tensorwise = Foreign.bind("llama3_8b.toml", FLOAT8.replace("[quantize.linear.float8]\n", "[float8]\n")
                .replace("\"quantize.linear.float8\"", "\"float8\"").replace("rowwise", "tensorwise")
                .replace("enable_fsdp_float8_all_gather = true", "enable_fsdp_float8_all_gather = false"));
        assertEquals("fp8", tensorwise.model().dtype().value());
        assertEquals("tensorwise", tensorwise.fp8Scaling().value());
        assertEquals("[float8] recipe_name", tensorwise.origin().key(Specs.Origin.FP8_SCALING));
        assertEquals(List.of(), tensorwise.origin().unpriced());
        assertEquals(false, tensorwise.fp8ParamGather().value());
        assertEquals("[float8] enable_fsdp_float8_all_gather", tensorwise.origin().key(Specs.Origin.FP8_PARAM_GATHER));
        // the settings table alone turns nothing on: bf16, no recipe, nothing said
        Specs.Job off = Foreign.bind("llama3_8b.toml", FLOAT8.replace("converters = [\"quantize.linear.float8\"]", "converters = []"));
        assertEquals(List.of(), off.origin().unpriced());
        assertEquals(null, off.fp8Scaling());
        assertEquals(null, off.fp8ParamGather());
        Specs.Job older = Foreign.bind("llama3_8b.toml", FLOAT8.replace("[quantize.linear.float8]\n", "[float8]\n")
                .replace("\"quantize.linear.float8\"", "\"float8\"").replace("\"rowwise\"", "\"rowwise_with_gw_hp\""));
        assertEquals("rowwise_with_gw_hp", older.fp8Scaling().value());
        assertEquals(true, older.fp8ParamGather().value());
        assertEquals("[float8] enable_fsdp_float8_all_gather", older.origin().key(Specs.Origin.FP8_PARAM_GATHER));
        // not written: null (the estimate takes torchao's default, tensorwise, and says so)
        assertEquals(null, Foreign.bind("llama3_8b.toml", FLOAT8.replace("recipe_name = \"rowwise\"\n", "")).fp8Scaling());
    }

    @Test
    void accelerateFsdpPrefetchOtherThanTheDefaultIsSaid() {
        String fsdp = """
                compute_environment: LOCAL_MACHINE
                distributed_type: FSDP
                fsdp_config:
                  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP
                  fsdp_backward_prefetch: BACKWARD_POST
                  fsdp_forward_prefetch: true
                  fsdp_offload_params: false
                  fsdp_sharding_strategy: FULL_SHARD
                mixed_precision: bf16
                num_machines: 1
                num_processes: 8
                """;
        Specs.Job j = Foreign.bind("fsdp.yaml", fsdp);
        assertEquals(List.of("fsdp_config.fsdp_backward_prefetch", "fsdp_config.fsdp_forward_prefetch"), heads(j));
        assertEquals("fsdp_config.fsdp_backward_prefetch: BACKWARD_POST: the next unit's backward all-gather is issued only after"
                + " the current unit's gradients, so less of it overlaps compute; not priced apart: the FSDP collectives are hidden"
                + " behind compute up to dp_overlap whatever the prefetch (docs/plan.md, FSDP on H100)", j.origin().unpriced().get(0));
        // NO_PREFETCH under the older key, written in lower case
        Specs.Job none = Foreign.bind("fsdp.yaml", fsdp.replace("fsdp_backward_prefetch: BACKWARD_POST", "fsdp_backward_prefetch_policy: no_prefetch")
                .replace("fsdp_forward_prefetch: true", "fsdp_forward_prefetch: false"));
        assertEquals(List.of("fsdp_config.fsdp_backward_prefetch_policy"), heads(none));
        assertTrue(none.origin().unpriced().get(0).contains("NO_PREFETCH: the next unit's backward all-gather is issued only when"));
        // PyTorch FSDP's default and no forward prefetch: nothing to say (the alignment-handbook shape writes exactly that)
        assertEquals(List.of(), Foreign.bind("fsdp.yaml", fsdp.replace("BACKWARD_POST", "BACKWARD_PRE")
                .replace("fsdp_forward_prefetch: true", "fsdp_forward_prefetch: false")).origin().unpriced());
    }

    /** FSDP2 (fsdp_version: 2): accelerate ignores the backward prefetch, and refuses a forward one (SYN002 at the value). */
    @Test
    void accelerateFsdp2PrefetchIsIgnoredOrRefused() {
        String fsdp2 = """
                distributed_type: FSDP
                fsdp_config:
                  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP
                  fsdp_backward_prefetch: BACKWARD_POST
                  fsdp_forward_prefetch: false
                  fsdp_reshard_after_forward: true
                  fsdp_version: 2
                mixed_precision: bf16
                num_machines: 1
                num_processes: 8
                """;
        Specs.Job j = Foreign.bind("fsdp2.yaml", fsdp2);
        assertEquals(List.of("fsdp_config.fsdp_backward_prefetch: BACKWARD_POST: accelerate ignores it with fsdp_version 2 (it warns"
                + " \"backward_prefetch is not supported in FSDP2\" and sets it to None): FSDP2's fully_shard issues the next unit's"
                + " all-gathers itself; the FSDP collectives are hidden behind compute up to dp_overlap; remove the key"),
                j.origin().unpriced());
        // the same file as FSDP1: the prefetch is FSDP1's, said as such
        assertTrue(Foreign.bind("fsdp1.yaml", fsdp2.replace("fsdp_version: 2", "fsdp_version: 1")).origin().unpriced().get(0)
                .contains("BACKWARD_POST: the next unit's backward all-gather is issued only after"));
        // a forward prefetch under FSDP2: accelerate raises ValueError; refused, and said in the assumptions
        Specs.Job fwd = Foreign.bind("fsdp2.yaml", fsdp2.replace("fsdp_forward_prefetch: false", "fsdp_forward_prefetch: true")
                .replace("  fsdp_backward_prefetch: BACKWARD_POST\n", ""));
        assertEquals(List.of("fsdp_config.fsdp_forward_prefetch = 'true' (SYN002, not false with fsdp_version 2 (accelerate raises"
                + " ValueError: forward_prefetch is not yet implemented in FSDP2; set it false, or fsdp_version 1)): left out, so the"
                + " estimate takes FSDP2's own prefetching"), fwd.origin().unpriced());
    }

    private static final String NEOX = """
            # gpt-neox: 2.7B over two pipeline stages
            {
              "pipe-parallel-size": 2,
              "model-parallel-size": 1,
              "pipe-partition-method": "parameters",
              "num-layers": 32,
              "hidden-size": 2560,
              "num-attention-heads": 32,
              "seq-length": 2048
            }
            """;

    @Test
    void deepSpeedsPartitionMethodIsSaidWhereItIsNotTheEvenSplit() {
        Specs.Job params = Foreign.bind("neox.yml", NEOX);
        assertEquals(List.of("pipe-partition-method = \"parameters\": DeepSpeed balances the stages by trainable parameters, so the"
                + " embedding (and an untied head) counts and the first and last stages hold fewer transformer blocks; priced as an"
                + " even split of the blocks with the embedding on the first stage, the heavier layout for its memory"),
                params.origin().unpriced());
        assertTrue(Foreign.bind("neox.yml", NEOX.replace("\"parameters\"", "\"uniform\"")).origin().unpriced().get(0)
                .contains("by layer specs, one each, so the embedding, the final norm and the head count as layers"));
        // type:transformer (and gpt-neox's default, not written) balance the blocks: 32 over 2 is the estimate's even split
        assertEquals(List.of(), Foreign.bind("neox.yml", NEOX.replace("\"parameters\"", "\"type:transformer\"")).origin().unpriced());
        assertEquals(List.of(), Foreign.bind("neox.yml", NEOX.replace("\"pipe-partition-method\": \"parameters\",", "")).origin().unpriced());
        // 30 blocks over 4 stages: DeepSpeed balances them, 8 on the busiest; priced 8 8 7 7, the busier stages first
        String uneven = NEOX.replace("\"num-layers\": 32", "\"num-layers\": 30").replace("\"pipe-parallel-size\": 2", "\"pipe-parallel-size\": 4");
        Specs.Job byDefault = Foreign.bind("neox.yml", uneven.replace("\"pipe-partition-method\": \"parameters\",", ""));
        assertEquals(List.of("pipe-partition-method not written, gpt-neox's \"type:transformer|mlp\": DeepSpeed's partition_balanced"
                + " splits the 30 transformer blocks over pp 4 so that no stage holds more than ⌈30 ÷ 4⌉ = 8; priced as 2 stages of 8"
                + " first and 2 of 7: the busiest stage's time as DeepSpeed splits it, and the first stage, with the most"
                + " micro-batches in flight, at its heaviest (which stages hold the extra block depends on DeepSpeed's version)"),
                byDefault.origin().unpriced());
        assertEquals(List.of(8L, 8L, 7L, 7L), byDefault.parallelism().stageLayers().value());
        // 31 over 4 written as a type: method: 3 stages of 8 first, the last 7
        Specs.Job typed = Foreign.bind("neox.yml", uneven.replace("\"parameters\"", "\"type:transformer\"").replace("\"num-layers\": 30", "\"num-layers\": 31"));
        assertEquals(List.of(8L, 8L, 8L, 7L), typed.parallelism().stageLayers().value());
        assertTrue(typed.origin().unpriced().get(0).startsWith("pipe-partition-method = \"type:transformer\": DeepSpeed's"
                + " partition_balanced splits the 31 transformer blocks over pp 4 so that no stage holds more than ⌈31 ÷ 4⌉ = 8;"
                + " priced as 3 stages of 8 first and 1 of 7:"), typed.origin().unpriced().get(0));
        // parameters over an uneven count: the same split, said to be the least the busiest stage holds
        Specs.Job byParams = Foreign.bind("neox.yml", uneven);
        assertEquals(List.of(8L, 8L, 7L, 7L), byParams.parallelism().stageLayers().value());
        assertEquals(2, byParams.origin().unpriced().size());
        assertEquals("pipe-partition-method = \"parameters\": the 30 transformer blocks do not divide over pp 4; priced as 2 stages"
                + " of 8 first and 2 of 7, the least the busiest stage holds (DeepSpeed's split counts the embedding and the head"
                + " too, by gpt-neox's layer specs, so the busiest stage may hold more)", byParams.origin().unpriced().get(1));
        // an even count leaves the split to the estimate's even one
        assertEquals(null, Foreign.bind("neox.yml", NEOX).parallelism().stageLayers());
        // one stage: no split to speak of
        assertEquals(List.of(), Foreign.bind("neox.yml", NEOX.replace("\"pipe-parallel-size\": 2", "\"pipe-parallel-size\": 1")).origin().unpriced());
    }
}
