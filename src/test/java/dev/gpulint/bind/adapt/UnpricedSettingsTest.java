package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import dev.gpulint.spec.Specs;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Settings the estimate reads but does not price apart become lines of the plan's assumptions (Specs.Origin.unpriced):
 * torchtitan's async TP, torch.compile and reshard-after-forward (our own fixtures in the shapes of torchtitan's
 * train_configs). Offloaded model states are read into the job and priced (OffloadSettingsTest), not said here.
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
        assertEquals(List.of("async TP ([parallelism] enable_async_tensor_parallel)", "torch.compile ([compile] enable)",
                "fsdp_reshard_after_forward = \"never\""), heads(j));
        assertTrue(j.origin().unpriced().get(0).endsWith("hides the same share of every job's tp communication"), j.origin().unpriced().get(0));
        // off, the default, or async TP without tp: nothing to say
        Specs.Job quiet = job("llama3_70b.toml", TITAN.replace("enable_cpu_offload = true", "enable_cpu_offload = false")
                .replace("tensor_parallel_degree = 8", "tensor_parallel_degree = 1").replace("\"never\"", "\"default\"")
                .replace("enable = true", "enable = false"));
        assertEquals(List.of(), quiet.origin().unpriced());
        // the earlier layout's [training] compile
        Specs.Job old = job("llama3_70b.toml", TITAN.replace("[compile]\nenable = true\n", "").replace("seq_len = 8192", "seq_len = 8192\ncompile = true"));
        assertTrue(heads(old).contains("torch.compile ([training] compile)"), heads(old).toString());
    }
}
