package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import dev.gpulint.spec.Specs;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Megatron-Bridge's ConfigContainer {@code comm_overlap} (CommOverlapConfig), where its performance scripts state the
 * tensor-parallel overlap ({@code CommOverlapConfig(tp_comm_overlap=True)}) and the MoE all-to-all overlap
 * ({@code overlap_moe_expert_parallel_comm}), both of which change the estimate's time. Our own override file in the shape
 * of Megatron-Bridge's config dumps.
 */
class BridgeCommOverlapTest {

    private static final String BRIDGE = """
            model:
              tensor_model_parallel_size: 4
              sequence_parallel: true
              num_moe_experts: 128
              seq_length: 4096
            train:
              global_batch_size: 512
              micro_batch_size: 1
            mixed_precision: bf16_mixed
            comm_overlap:
              _target_: megatron.bridge.training.comm_overlap.CommOverlapConfig
              tp_comm_overlap: %s
              overlap_moe_expert_parallel_comm: true
            """;

    private static Specs.Job job(String text) {
        SourceFile f = SourceFile.of("run_config.yaml", text);
        dev.gpulint.spec.Model m = Adapters.bind(List.of(new Adapters.Input(f, Readers.read(f).foreign())));
        assertEquals(List.of(), m.findings());
        return m.jobs().get(0);
    }

    @Test
    void commOverlapStatesTheTensorParallelAndAllToAllOverlaps() {
        Specs.Job on = job(BRIDGE.formatted("true"));
        assertEquals(true, on.parallelism().tpCommOverlap().value());
        assertEquals(12, on.parallelism().tpCommOverlap().span().startLine());
        assertEquals(true, on.model().moe().overlapA2a().value());
        assertEquals(13, on.model().moe().overlapA2a().span().startLine());
        Specs.Job off = job(BRIDGE.formatted("false"));
        assertEquals(false, off.parallelism().tpCommOverlap().value(), "plain TP, as the H100 Qwen3-235B preset states it");
    }

    @Test
    void theModelsOwnSettingsAreReadWhereCommOverlapSaysNothing() {
        String model = BRIDGE.formatted("true").replace("  tp_comm_overlap: true\n  overlap_moe_expert_parallel_comm: true\n", "")
                .replace("  sequence_parallel: true\n", "  sequence_parallel: true\n  tp_comm_overlap: false\n  overlap_moe_expert_parallel_comm: false\n");
        Specs.Job j = job(model);
        assertEquals(false, j.parallelism().tpCommOverlap().value());
        assertEquals(false, j.model().moe().overlapA2a().value());
        Specs.Job none = job(model.replace("  tp_comm_overlap: false\n  overlap_moe_expert_parallel_comm: false\n", ""));
        assertNull(none.parallelism().tpCommOverlap());
        assertNull(none.model().moe() == null ? null : none.model().moe().overlapA2a());
    }

    @Test
    void aValueThatIsNoBooleanIsSyn002AtTheValue() {
        SourceFile f = SourceFile.of("run_config.yaml", BRIDGE.formatted("maybe"));
        dev.gpulint.spec.Model m = Adapters.bind(List.of(new Adapters.Input(f, Readers.read(f).foreign())));
        assertEquals(List.of("run_config.yaml:12 SYN002"), m.findings().stream().map(x -> "run_config.yaml:" + x.span().startLine() + " " + x.ruleId()).toList());
        assertNull(m.jobs().get(0).parallelism().tpCommOverlap());
    }
}
