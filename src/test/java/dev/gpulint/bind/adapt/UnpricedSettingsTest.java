package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import dev.gpulint.spec.Specs;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Settings the estimate reads but does not price apart become lines of the plan's assumptions (Specs.Origin.unpriced):
 * torchtitan's reshard-after-forward and Float8 recipe settings (our own fixtures in the shapes of torchtitan's
 * train_configs). Async TP is priced (TpOverlapTest); torch.compile is read into the job's kernels and priced
 * (EagerKernelsTest); offloaded model states are read into the job and priced (OffloadSettingsTest), not said here.
 */
class UnpricedSettingsTest {

    private static Specs.Job job(String name, String text) {
        SourceFile f = SourceFile.of(name, text);
        return Adapters.bind(List.of(new Adapters.Input(f, Readers.read(f).foreign()))).jobs().get(0);
    }

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
        Specs.Job j = job("llama3_70b.toml", TITAN);
        // async TP is priced (derive/estimate/TpOverlap), read into parallelism.tpCommOverlap, and torch.compile into the job's
        // kernels (derive/estimate/EagerKernels): not said here
        assertEquals(List.of("fsdp_reshard_after_forward = \"never\""), heads(j));
        assertEquals(true, j.parallelism().tpCommOverlap().value());
        assertEquals("fused", j.kernels().value());
        // off or the default: nothing to say
        Specs.Job quiet = job("llama3_70b.toml", TITAN.replace("enable_cpu_offload = true", "enable_cpu_offload = false")
                .replace("tensor_parallel_degree = 8", "tensor_parallel_degree = 1").replace("\"never\"", "\"default\"")
                .replace("enable = true", "enable = false"));
        assertEquals(List.of(), quiet.origin().unpriced());
        assertEquals("eager", quiet.kernels().value());
    }

    private static final String FLOAT8 = """
            [model]
            name = "llama3"
            flavor = "8B"
            converters = ["quantize.linear.float8"]

            [parallelism]
            data_parallel_shard_degree = -1

            [quantize.linear.float8]
            enable_fsdp_float8_all_gather = true
            precompute_float8_dynamic_scale_for_fsdp = true
            recipe_name = "rowwise"
            """;

    @Test
    void float8RowwiseAndFp8AllGathersAreSaid() {
        Specs.Job j = job("llama3_8b.toml", FLOAT8);
        assertEquals("fp8", j.model().dtype().value());
        assertEquals(List.of("Float8 rowwise recipe ([quantize.linear.float8] recipe_name = \"rowwise\")",
                "FSDP Float8 all-gather ([quantize.linear.float8] enable_fsdp_float8_all_gather)"), heads(j));
        // the earlier [float8] table, tensorwise (the default) and the bf16 all-gather: nothing to say
        Specs.Job tensorwise = job("llama3_8b.toml", FLOAT8.replace("[quantize.linear.float8]\n", "[float8]\n")
                .replace("\"quantize.linear.float8\"", "\"float8\"").replace("rowwise", "tensorwise")
                .replace("enable_fsdp_float8_all_gather = true", "enable_fsdp_float8_all_gather = false"));
        assertEquals("fp8", tensorwise.model().dtype().value());
        assertEquals(List.of(), tensorwise.origin().unpriced());
        // the settings table alone turns nothing on: bf16, nothing said
        Specs.Job off = job("llama3_8b.toml", FLOAT8.replace("converters = [\"quantize.linear.float8\"]", "converters = []"));
        assertEquals(List.of(), off.origin().unpriced());
        Specs.Job older = job("llama3_8b.toml", FLOAT8.replace("[quantize.linear.float8]\n", "[float8]\n")
                .replace("\"quantize.linear.float8\"", "\"float8\""));
        assertEquals(List.of("Float8 rowwise recipe ([float8] recipe_name = \"rowwise\")",
                "FSDP Float8 all-gather ([float8] enable_fsdp_float8_all_gather)"), heads(older));
    }
}
