package dev.gpulint.bind.adapt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.core.Finding;
import dev.gpulint.derive.estimate.GradientReduce;
import dev.gpulint.derive.estimate.StateBytes;
import dev.gpulint.read.Readers;
import dev.gpulint.read.SourceFile;
import dev.gpulint.spec.Specs;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What torchtitan's TOML says of precision (our own fixtures in the shapes of its train_configs, old and new): the
 * gradient reduction's dtype ({@code mixed_precision_reduce}) and Float8 training ({@code [model] converters}, the
 * earlier {@code [float8] enable_float8_linear}); the width both memory and the reduction then read.
 */
class TorchtitanPrecisionTest {

    private static dev.gpulint.spec.Model bind(String name, String text) {
        SourceFile f = SourceFile.of(name, text);
        return Adapters.bind(List.of(new Adapters.Input(f, Readers.read(f).foreign())));
    }

    private static final String HEAD = """
            [model]
            name = "llama3"
            flavor = "70B"
            %s

            [training]
            local_batch_size = 6
            seq_len = 8192
            dtype = "bfloat16"
            %s

            [parallelism]
            data_parallel_replicate_degree = 1
            data_parallel_shard_degree = 8
            tensor_parallel_degree = 1
            """;

    @Test
    void aBf16ReductionIsReadAndTheReductionAndMemoryAgreeOnIt() {
        Specs.Job j = bind("llama3_70b-8xb200.toml", HEAD.formatted("converters = []", "mixed_precision_reduce = \"bfloat16\"")).jobs().get(0);
        assertEquals("bfloat16", j.optimizer().gradReduceDtype().value());
        assertEquals(10, j.optimizer().gradReduceDtype().span().startLine());
        GradientReduce g = GradientReduce.of(j, 3);
        assertEquals(2, g.bytes());
        assertEquals("gradients reduced in bf16 (2 bytes each): [training] mixed_precision_reduce = \"bfloat16\" as written", g.why());
        StateBytes b = StateBytes.of(j, 3);
        assertEquals(StateBytes.Accounting.ZERO, b.accounting(), "FSDP's memory: the ZeRO paper's 2 + 2 + 12");
        assertEquals(2, b.width().reduced(), "the width memory's accounting carries is the one the reduction moves");
        assertEquals(16, b.total());
    }

    @Test
    void withoutAReductionDtypeFsdpReducesInFp32AsTorchtitansDefault() {
        Specs.Job j = bind("llama3_70b.toml", HEAD.formatted("", "")).jobs().get(0);
        assertNull(j.optimizer().gradReduceDtype());
        assertEquals(4, GradientReduce.of(j, 3).bytes());
        assertEquals(2, StateBytes.of(j, 3).gradients(), "ZeRO's 2-byte gradients held, fp32 on the wire");
        assertEquals(4, StateBytes.of(j, 3).width().reduced());
    }

    @Test
    void anUnknownReductionDtypeIsSyn002AtTheValueAndLeftOut() {
        dev.gpulint.spec.Model m = bind("llama3_70b.toml", HEAD.formatted("", "mixed_precision_reduce = \"float64\""));
        Specs.Job j = m.jobs().get(0);
        assertTrue(j.optimizer() == null || j.optimizer().gradReduceDtype() == null);
        List<Finding> syn = m.findings().stream().filter(f -> f.ruleId().equals("SYN002")).toList();
        assertEquals(1, syn.size(), m.findings().toString());
        assertEquals(10, syn.get(0).span().startLine());
        assertEquals(26, syn.get(0).span().startColumn());
        assertEquals("'mixed_precision_reduce' is 'float64'; expected one of float32, bfloat16, float16 (the dtype the gradient "
                + "reduction runs in; left out, so the estimate takes the framework's default).", syn.get(0).message());
        assertEquals(4, GradientReduce.of(j, 3).bytes());
    }

    @Test
    void float8ConvertersMakeTheJobFp8AndTheirSettingsTableAloneDoesNot() {
        Specs.Job on = bind("llama3_405b.toml", HEAD.formatted("converters = [\"float8\"]", "")).jobs().get(0);
        assertEquals("fp8", on.model().dtype().value());
        assertEquals(4, on.model().dtype().span().startLine());
        Specs.Job newer = bind("llama3_405b.toml", HEAD.formatted("converters = [\"quantize.linear.float8\"]", "")).jobs().get(0);
        assertEquals("fp8", newer.model().dtype().value());
        Specs.Job off = bind("llama3_70b.toml", HEAD.formatted("# converters = [\"float8\"]", "mixed_precision_param = \"bfloat16\"")
                + """

                [quantize.linear.float8]
                enable_fsdp_float8_all_gather = false
                filter_fqns = ["output"]
                """).jobs().get(0);
        assertEquals("bfloat16", off.model().dtype().value(), "a settings table turns nothing on");
    }

    @Test
    void theEarlierFloat8TableTurnsItOnWithEnableFloat8Linear() {
        String old = """
                [model]
                name = "llama3"
                flavor = "8B"

                [training]
                batch_size = 1
                seq_len = 8192
                data_parallel_shard_degree = 8
                tensor_parallel_degree = 1
                mixed_precision_param = "bfloat16"

                [float8]
                enable_float8_linear = %s
                """;
        dev.gpulint.spec.Model m = bind("llama3_8b.toml", old.formatted("true"));
        assertEquals(1, m.jobs().size(), m.findings().toString());
        assertEquals("fp8", m.jobs().get(0).model().dtype().value());
        assertEquals(13, bind("llama3_8b.toml", old.formatted("true")).jobs().get(0).model().dtype().span().startLine());
        assertEquals("bfloat16", bind("llama3_8b.toml", old.formatted("false")).jobs().get(0).model().dtype().value());
    }
}
