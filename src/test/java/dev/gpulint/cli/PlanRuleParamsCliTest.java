package dev.gpulint.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.gpulint.testing.PlanCli;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The plan judges its candidates with the project's .gpulint.yaml rule {@code params:}, as `check` judges the job. */
class PlanRuleParamsCliTest {

    /**
     * 70B in bf16 on 16 H100 at tp 8 × pp 2: Megatron's 18 bytes per parameter put 62.85 GB of model states on stage 0,
     * 73.2 % of the 85.90 GB, with the embedding and activations the fullest stage; MEM002 at its default warn_at 0.9
     * rejects every layout of 16 GPUs that MEM001/MEM003 leave, warn_at 0.95 leaves some valid.
     */
    static final String JOB = """
            ---
            kind: training_job
            name: j
            cluster: lab
            nodes: 2
            model: { parameters: 70B, hidden_size: 8192, dtype: bf16, layers: 80, attention_heads: 64, kv_heads: 8, seq_length: 4096 }
            parallelism: { tp: 8, pp: 2 }
            batch: { micro_batch_size: 1, global_batch_size: 512 }
            """;

    @Test
    void aWarnAtTheProjectSetsDecidesWhichCandidatesPass(@TempDir Path dir) {
        PlanCli.Run byDefault = PlanCli.in(dir.resolve("default")).file("plan.yaml", PlanCli.LAB_H100 + JOB).plan();
        assertEquals(0, byDefault.code(), byDefault.err());
        assertTrue(byDefault.out().contains("0 valid, 1800 rejected (MEM001 1128, MEM002 672, MEM003 466, PAR002 48)"), byDefault.out());
        assertTrue(byDefault.out().contains("(warn_at 0.9: a tenth for activations"), byDefault.out());

        PlanCli.Run lenient = PlanCli.in(dir.resolve("lenient")).config("params:\n  MEM002: { warn_at: 0.95 }\n")
                .file("plan.yaml", PlanCli.LAB_H100 + JOB).plan();
        assertEquals(0, lenient.code(), lenient.err());
        assertTrue(lenient.out().contains("182 valid, 1618 rejected (MEM001 1128, MEM003 466, PAR002 48)"), lenient.out());
        assertFalse(lenient.out().contains("check raises: MEM002"), lenient.out());
        assertTrue(lenient.out().contains("(5% (warn_at 0.95, .gpulint.yaml params:) for activations"), lenient.out());
        // a stricter one: still nothing valid on 16 GPUs, and the reason names the share the project keeps, not "the tenth"
        assertTrue(byDefault.out().contains("73.2 % of it, leaving less than the tenth MEM002 keeps"), byDefault.out());
        PlanCli.Run strict = PlanCli.in(dir.resolve("strict")).config("params:\n  MEM002: { warn_at: 0.8 }\n")
                .file("plan.yaml", PlanCli.LAB_H100 + JOB).plan();
        assertEquals(0, strict.code(), strict.err());
        assertTrue(strict.out().contains("73.2 % of it, leaving less than the 20% (warn_at 0.8, .gpulint.yaml params:) MEM002 keeps"),
                strict.out());
    }
}
