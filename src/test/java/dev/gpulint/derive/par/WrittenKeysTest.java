package dev.gpulint.derive.par;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gpulint.spec.Located;
import dev.gpulint.spec.Specs;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The keys and the checker PAR messages name: the file's own words, Megatron's where the job runs Megatron-Core. */
class WrittenKeysTest {

    private static Specs.Job job(String format, Map<String, String> keys) {
        Specs.Origin o = format == null ? null
                : new Specs.Origin(format, List.of(), List.of(), false, false, null, null, null, null, null, keys);
        return new Specs.Job(new Located<>("j", null), "j.yaml", null, null, null, null, null, null, null, null, null, null,
                Map.of(), null, o, null, null, null, null, null, null);
    }

    @Test
    void aLevanterFileIsWordedInItsOwnKeysWithoutMegatron() {
        Specs.Job j = job("Levanter", Map.of(Specs.Origin.GLOBAL_BATCH, "trainer.train_batch_size",
                Specs.Origin.MICRO_BATCH, "trainer.per_device_parallelism", Specs.Origin.TP, "trainer.model_axis_size"));
        assertEquals("trainer.train_batch_size", WrittenKeys.of(j, Specs.Origin.GLOBAL_BATCH));
        assertEquals("trainer.per_device_parallelism", WrittenKeys.of(j, Specs.Origin.MICRO_BATCH));
        assertEquals("seq_length", WrittenKeys.of(j, Specs.Origin.SEQ_LENGTH), "a key the format did not record keeps gpulint's name");
        assertFalse(WrittenKeys.citesMegatron(j));
    }

    @Test
    void aProductTheFormatDerivesIsParenthesised() {
        Specs.Job j = job("nanotron", Map.of(Specs.Origin.GLOBAL_BATCH,
                "tokens.micro_batch_size × batch_accumulation_per_replica × parallelism.dp"));
        assertEquals("(tokens.micro_batch_size × batch_accumulation_per_replica × parallelism.dp)",
                WrittenKeys.of(j, Specs.Origin.GLOBAL_BATCH));
    }

    @Test
    void nativeMegatronAndNemoKeepTheNamesTheMessagesAlwaysUsed() {
        assertEquals("global_batch_size", WrittenKeys.of(job(null, Map.of()), Specs.Origin.GLOBAL_BATCH));
        assertTrue(WrittenKeys.citesMegatron(job(null, Map.of())));
        Specs.Job nemo = job("NeMo", Map.of(Specs.Origin.SEQ_LENGTH, "encoder_seq_length"));
        assertEquals("seq_length", WrittenKeys.of(nemo, Specs.Origin.SEQ_LENGTH));
        // a Megatron-LM flag read by a launch script reads as the argument's name, which Megatron's assertions print
        Specs.Job script = job("launch script", Map.of(Specs.Origin.GLOBAL_BATCH, "--global-batch-size"));
        assertEquals("global_batch_size", WrittenKeys.of(script, Specs.Origin.GLOBAL_BATCH));
        assertTrue(WrittenKeys.citesMegatron(script));
        // Megatron-Bridge runs Megatron-Core but writes its own keys
        Specs.Job bridge = job("Megatron-Bridge", Map.of(Specs.Origin.GLOBAL_BATCH, "train.global_batch_size"));
        assertEquals("train.global_batch_size", WrittenKeys.of(bridge, Specs.Origin.GLOBAL_BATCH));
        assertTrue(WrittenKeys.citesMegatron(bridge));
    }

    @Test
    void nemoRlAndAccelerateCiteMegatronOnlyOnTheirMegatronBackEnd() {
        assertTrue(WrittenKeys.citesMegatron(job("NeMo-RL", Map.of(Specs.Origin.TP, "policy.megatron_cfg.tensor_model_parallel_size"))));
        assertFalse(WrittenKeys.citesMegatron(job("NeMo-RL", Map.of(Specs.Origin.TP, "policy.dtensor_cfg.tensor_parallel_size"))));
        assertTrue(WrittenKeys.citesMegatron(job("accelerate", Map.of(Specs.Origin.TP, "megatron_lm_tp_degree"))));
        assertFalse(WrittenKeys.citesMegatron(job("accelerate", Map.of(Specs.Origin.TP, "parallelism_config_tp_size"))));
        assertFalse(WrittenKeys.citesMegatron(job("accelerate", Map.of())));
    }
}
